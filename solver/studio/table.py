"""The studio's table: the games of ``--dir`` played by people on their seat links and by bots
in the background. It joins the game (``play/tablegame.py``), the database (``store``) and the
thinking workers (``thinking``); the routers only call it.

- A game with no seed given is dealt from the operating system's randomness; nothing answered
  before its end names the seed (the deal is known only to the database).
- Every move is one transaction, stored before anyone is told of it. The bots and the advice that
  orders a person's choices think in worker processes: an answer returns at once, and the game
  goes on behind it (a seat's document says ``"thinking"`` meanwhile).
- A game whose row or moves no longer read is listed with the reason, never dropped, never a 500.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from solver.app.documents import Doc
from solver.app.sheets import NamedGame, Resolve, in_folder
from solver.core.codes import PolicyId
from solver.core.errors import KakapoError
from solver.core.rules import Mission
from solver.io.catalog import Catalog, load_catalog
from solver.io.loginputs import catalog_text, mission_text
from solver.play.tablegame import BrokenGame, TableGame, TableSetup
from solver.studio.folder import Folder
from solver.studio.inbox import Inbox
from solver.studio.live import RECORDED, LiveGame, log_text, new_game_id
from solver.studio.seats import Seats
from solver.studio.store import Store, token_hash
from solver.studio.thinking import Thinkers
from solver.studio.turns import BOT_PACE, Turns

MAX_BOT_GAMES = 4  # unfinished games played by bots only (each keeps a worker busy)

CLOSE_WAIT = 5.0  # seconds an import under way may take to stop when the studio stops


class TableFull(Exception):
    """Too many games of bots only are unfinished already."""


class Table:
    """The games of a folder in memory (each loaded once, ``live``), and its parts: how a game moves
    on (``turns``), its seats (``seats``) and the games that come in from ``games/`` (``inbox``).
    ``sheet_resolver``: how a sheet's mission: and pieces: are found (the context's: the catalog
    in use); ``on_first_game``: the thinking workers started ahead, once; ``notes``: what went
    wrong beside the games (said in /api/status)."""

    def __init__(self, folder: Folder, store: Store, thinkers: Thinkers, bot_pace: float = BOT_PACE):
        self.folder = folder
        self.store = store
        self.thinkers = thinkers
        self._live: dict[str, LiveGame] = {}
        self._lock = threading.Lock()
        self._start_lock = threading.Lock()
        self.on_first_game: Callable[[], None] | None = None
        self.notes: list[str] = []
        self.sheet_resolver: Callable[[], Resolve] = lambda: in_folder(folder.directory, load_catalog())
        self.turns = Turns(store, thinkers, folder, self.notes, bot_pace)
        self.seats = Seats(self.live, store, self.turns)
        self.inbox = Inbox(folder, store, thinkers, self.turns, self.add_record, self.live,
                           lambda: self.sheet_resolver())

    # ------------------------------------------------------------ starting and loading
    def open(self) -> None:
        """Load every unfinished game (its bots think on where they stopped, unless it was shown
        unable to go on) and take in what ``games/`` holds, in the background."""
        for row in self.store.games.summaries():
            if row["result"] is None:
                self.live(row["id"])
        self.inbox.start()


    def bot_games(self) -> int:
        """Unfinished games that no person plays (that can still go on)."""
        with self._lock:
            games = list(self._live.values())
        return sum(1 for live in games if live.game is not None and live.problem is None and not live.over()
                   and not live.game.humans)

    def start(self, mission: Mission, catalog: Catalog, players: int, humans: list[int], *, policy: str,
              samples: int | None, seed: int | None, game: int | None,
              names: dict[int, str]) -> tuple[TableGame, dict[int, str]]:
        """A new game; its seat tokens (given once, stored hashed). TableFull when it is a game of
        bots only and MAX_BOT_GAMES of them are unfinished."""
        with self._start_lock:  # the bound holds for requests that come at once
            if not humans and self.bot_games() >= MAX_BOT_GAMES:
                raise TableFull(f"{MAX_BOT_GAMES} games of bots only are still being played here")
            first, self.on_first_game = self.on_first_game, None
            if first is not None:  # every thinking worker starts now, while the people look at their hands
                first()
            return self._start(mission, catalog, players, humans, policy=policy, samples=samples, seed=seed, game=game,
                               names=names)

    def _start(self, mission: Mission, catalog: Catalog, players: int, humans: list[int], *, policy: str,
               samples: int | None, seed: int | None, game: int | None,
               names: dict[int, str]) -> tuple[TableGame, dict[int, str]]:
        known = seed is not None
        setup = TableSetup(new_game_id(), mission.id, mission.name,
                           mission_text(mission), catalog_text(catalog), players, tuple(sorted(set(humans))),
                           policy, samples if policy == PolicyId.SEARCH.label else None,
                           seed if seed is not None else secrets.randbits(63),
                           (game or 0) if known else 0, known, tuple(sorted(names.items())),
                           time.strftime("%Y-%m-%dT%H:%M:%S"))
        g = TableGame(setup)
        tokens = {s: secrets.token_urlsafe(18) for s in setup.humans}
        self.store.games.add(setup, {s: token_hash(t) for s, t in tokens.items()}, log_text(g.log()))
        live = LiveGame(setup.id, g, last_move_at=time.monotonic())
        with self._lock:
            self._live[setup.id] = live
        with live.lock:
            self.turns.pump(live)
        return g, tokens

    def live(self, game_id: str) -> LiveGame | None:
        with self._lock:
            found = self._live.get(game_id)
        if found is not None:
            return found
        row = self.store.games.get(game_id)
        if row is None:
            return None
        live = LiveGame(game_id, None, row.problem, last_move_at=time.monotonic())
        if row.setup is not None and row.setup.policy == RECORDED:
            live.recorded = row.log or ""
        elif row.setup is not None:
            try:
                live.game = TableGame(row.setup, row.moves, row.streams, row.play_forced, row.handovers)
                live.log_written = row.result is not None
            except BrokenGame as e:
                live.problem = live.problem or str(e)
            except (KakapoError, ValueError, TypeError, RecursionError) as e:
                live.problem = live.problem or f"it cannot be rebuilt ({type(e).__name__}: {str(e)[:120]})"
        with self._lock:
            live = self._live.setdefault(game_id, live)
        if live.game is not None and live.problem is None:
            with live.lock:
                self.turns.pump(live)
        return live

    def settle(self, game_id: str, timeout: float = 60.0) -> bool:
        """Wait until no worker thinks for the game (a person must answer, or it is over)."""
        live = self.live(game_id)
        if live is None:
            return False
        end = time.monotonic() + timeout
        with live.lock:
            while live.thinking and live.problem is None:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                live.changed.wait(left)
        return True

    def add_record(self, recorded: NamedGame, mission: Mission, catalog: Catalog,
                   imported_from: str | None = None, recording: str | None = None) -> str:
        """A game played with the printed cards, recorded from its sheet: one of the table's games,
        finished (or as far as the sheet goes), with its names; its log kept whole."""
        state = recorded.state
        people = set(recorded.events[0].get("human", range(state.players)))  # the others' names label bots
        setup = TableSetup(new_game_id(), mission.id, mission.name,
                           recorded.events[0].get("mission_text", ""), recorded.events[0].get("pieces_text", ""),
                           state.players, tuple(recorded.events[0].get("human", range(state.players))), RECORDED,
                           None, 0, 0, True, tuple((k, n) for k, n in enumerate(recorded.names) if n and k in people),
                           time.strftime("%Y-%m-%dT%H:%M:%S"))
        self.store.games.add_recorded(setup, recorded.text, state.round, state.result(), imported_from, recording)
        if imported_from is None and state.result() is not None:  # a file of games/ is that game's already
            self.turns.write_log(setup.id, recorded.text)
        return setup.id

    def log_of(self, game_id: str, host: bool = False) -> tuple[str | None, str | None]:
        """(the game's log, None) once it has ended; for the host, also of a game that cannot go on
        (the page says that it shows every hand); else (None, why not): "no such game", "in play",
        "broken" (a seat may not read it) or "its log was not kept"."""
        live = self.live(game_id)
        if live is None:
            return None, "no such game"
        if live.recorded is not None:
            return live.recorded, None
        if live.game is not None and live.over():
            with live.view_lock:
                return log_text(live.game.log()), None
        if live.problem is None:
            return None, "in play"
        if not host:
            return None, "broken"
        if live.game is not None:
            with live.view_lock:
                return log_text(live.game.log()), None
        row = self.store.games.get(game_id)
        if row is not None and row.log:
            return row.log, None
        return None, "its log was not kept"

    def ended(self, game_id: str) -> bool:
        live = self.live(game_id)
        return live is not None and live.over()


    def listing(self) -> list[Doc]:
        """Every game, newest last: finished ones from their rows (with their seed: the deal is no
        secret any more), the others as they stand now; broken ones with the reason."""
        self.inbox.rescan()
        out = []
        for row in self.store.games.summaries():
            with self._lock:
                live = self._live.get(row["id"])
            if live is None and row["result"] is None:
                live = self.live(row["id"])
            if live is None:
                doc = {**row, "waiting_for": None, "thinking": False}
            else:
                with live.view_lock:
                    doc = live.game.public_summary() if live.game is not None else dict(row)
                    doc.update({"thinking": live.thinking, "broken": live.problem})
                    doc.setdefault("waiting_for", None)
            if doc.get("result") is None:
                doc.pop("seed", None)
                doc.pop("game", None)
            out.append(doc)
        for p in self.store.imports.problems():
            out.append({"id": p["id"] or Path(p["file"]).stem, "file": p["file"], "broken": p["problem"],
                        "result": None, "human": [], "players": None, "mission": None})
        return out

    # ------------------------------------------------------------ stopping and going on
    def close(self) -> None:
        self.turns.closed = True
        self.inbox.wait(CLOSE_WAIT)

    def resume(self) -> None:
        """Think on for every game in memory after ``close`` (what was being thought was dropped)."""
        if not self.turns.closed:
            return
        self.turns.closed = False
        with self._lock:
            games = list(self._live.values())
        for live in games:
            with live.lock:
                live.thinking = False
                if live.game is not None and live.problem is None:
                    self.turns.pump(live)
