"""The studio's table: the games of ``--dir`` played by people on their seat links and by bots
in the background. It joins the game (``play/table.py``), the database (``store``) and the
thinking workers (``thinking``); the routers only call it.

- A game with no seed given is dealt from the operating system's randomness; nothing answered
  before its end names the seed (the deal is known only to the database).
- Every move is one transaction, stored before anyone is told of it. The bots and the advice that
  orders a person's choices think in worker processes: an answer returns at once, and the game
  goes on behind it (a seat's document says ``"thinking"`` meanwhile).
- A game whose row or moves no longer read is listed with the reason, never dropped, never a 500.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import json
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.app.documents import Doc
from solver.app.sheets import NamedGame, Resolve, game_file, in_folder
from solver.core.codes import PolicyId
from solver.core.errors import InputError, KakapoError
from solver.core.rules import Mission
from solver.game.actions import Action
from solver.io.catalog import Catalog, load_catalog
from solver.io.loginputs import catalog_text, mission_text
from solver.io.safefiles import UnsafeTarget, read_plain_file, write_file
from solver.play.table import (
    BOT,
    FORCED,
    PERSON,
    AnswerError,
    BrokenGame,
    Move,
    TableGame,
    TableSetup,
    forget,
    replay_record,
    think,
)
from solver.studio.store import Store, StoreBusy, token_hash, token_matches
from solver.studio.thinking import GaveUp, Stopping, Thinkers

RECORD_FORMAT = 1  # the games/ID.json records of the studio's earlier versions, imported once
MAX_RECORD = 8_000_000


class SeatRefused(Exception):
    """A seat's token is wrong or missing (``fix``: what to do instead)."""

    def __init__(self, message: str, fix: str = "open the seat's link as the studio gave it"):
        super().__init__(message)
        self.fix = fix


BOT_TOOK_FIX = "the host gives the seat back to a person in the Play tab, with a new link"


class TableFull(Exception):
    """Too many games of bots only are unfinished already."""


class GameSecret(Exception):
    """What was asked would show hands nobody may see yet (the game has not ended)."""


RESCAN_EVERY = 3.0  # seconds: how often the games listing looks for games dropped into games/
RECORDED = "recorded"  # the policy column of a game played with the printed cards, recorded from its sheet
MAX_BOT_GAMES = 4  # unfinished games played by bots only (each keeps a worker busy)
BOT_PACE = 0.15  # seconds: a bot's move at a table of people is shown no sooner after the move before
BUSY_RETRY = 1.0  # seconds: a bot's move the database could not take (locked) is stored again after this


@dataclass
class LiveGame:
    """A game in memory: its state (None when it cannot be rebuilt: ``problem`` says why), and
    whether a worker is thinking for it. ``lock`` is held by whatever changes the game (a move is
    stored while it is held); ``view_lock`` only while the game in memory changes or is read, so
    that a seat's view never waits for a write."""

    id: str
    game: TableGame | None
    problem: str | None = None
    thinking: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    view_lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    changed: threading.Condition = field(init=False, repr=False)
    log_written: bool = False
    last_move_at: float = 0.0
    recorded: str | None = None  # a game played with the printed cards: its log (nothing to play)

    def __post_init__(self) -> None:
        self.changed = threading.Condition(self.lock)

    def over(self) -> bool:
        return self.recorded is not None or (self.game is not None and self.game.state.is_over())


def log_text(events: list[Doc]) -> str:
    return "".join(json.dumps(e) + "\n" for e in events)


class Table:
    def __init__(self, directory: Path, store: Store, thinkers: Thinkers, bot_pace: float = BOT_PACE):
        self.directory = directory
        self.games_folder = directory / "games"
        self._importing = threading.Lock()
        self._scanned_at = time.monotonic()
        self.store = store
        self.thinkers = thinkers
        self.bot_pace = bot_pace
        self._live: dict[str, LiveGame] = {}
        self._lock = threading.Lock()
        self._start_lock = threading.Lock()
        self.on_first_game: Callable[[], None] | None = None  # the thinking workers started ahead, once
        self._closed = False
        self.notes: list[str] = []  # what went wrong beside the games (said in /api/status)
        # how a dropped sheet's mission: and pieces: are found (the context's: the catalog in use)
        self.sheet_resolver: Callable[[], Resolve] = lambda: in_folder(directory, load_catalog())

    # ------------------------------------------------------------ starting and loading
    def open(self) -> None:
        """Load every unfinished game (its bots think on where they stopped, unless it was shown
        unable to go on) and import the old records, in the background."""
        for row in self.store.summaries():
            if row["result"] is None:
                self.live(row["id"])
        threading.Thread(target=self.import_records, name="kakapo-import", daemon=True).start()

    def bot_games(self) -> int:
        """Unfinished games that no person plays (that can still go on)."""
        with self._lock:
            games = list(self._live.values())
        return sum(1 for live in games if live.game is not None and live.problem is None and not live.over()
                   and not live.game.humans)

    def start(self, mission: Mission, catalog: Catalog, players: int, humans: list[int], policy: str,
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
            return self._start(mission, catalog, players, humans, policy, samples, seed, game, names)

    def _start(self, mission: Mission, catalog: Catalog, players: int, humans: list[int], policy: str,
               samples: int | None, seed: int | None, game: int | None,
               names: dict[int, str]) -> tuple[TableGame, dict[int, str]]:
        known = seed is not None
        setup = TableSetup(f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(4)}", mission.id, mission.name,
                           mission_text(mission), catalog_text(catalog), players, tuple(sorted(set(humans))),
                           policy, samples if policy == PolicyId.SEARCH.label else None,
                           seed if seed is not None else secrets.randbits(63),
                           (game or 0) if known else 0, known, tuple(sorted(names.items())),
                           time.strftime("%Y-%m-%dT%H:%M:%S"))
        g = TableGame(setup)
        tokens = {s: secrets.token_urlsafe(18) for s in setup.humans}
        self.store.add_game(setup, {s: token_hash(t) for s, t in tokens.items()}, log_text(g.log()))
        live = LiveGame(setup.id, g, last_move_at=time.monotonic())
        with self._lock:
            self._live[setup.id] = live
        with live.lock:
            self._pump(live)
        return g, tokens

    def live(self, game_id: str) -> LiveGame | None:
        with self._lock:
            found = self._live.get(game_id)
        if found is not None:
            return found
        row = self.store.game(game_id)
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
                self._pump(live)
        return live

    # ------------------------------------------------------------ the game moves on
    def _pump(self, live: LiveGame) -> None:
        """Play on (lock held) until a person must answer, a worker is thinking, or the game is over."""
        g = live.game
        assert g is not None
        while not self._closed and live.problem is None:
            need = g.need()
            if need is None:
                self._ended(live)
                break
            kind, seat = need
            if kind == FORCED:
                try:
                    self._commit(live, seat, g.state.legal_actions()[0], FORCED)
                except StoreBusy:
                    self._later(BUSY_RETRY, live)
                    break
                continue
            if kind == PERSON or live.thinking:
                break
            live.thinking = True
            at = len(g.moves)
            try:
                future = self.thinkers.submit(g.id, think, g.think_request(kind, seat), people=bool(g.humans))
            except Stopping:
                live.thinking = False
                break
            future.add_done_callback(functools.partial(self._thought, live, kind, seat, at))
            break
        live.changed.notify_all()

    def _later(self, delay: float, live: LiveGame, then: Any = None) -> None:
        """``then()`` (default: play on) with the game's lock, ``delay`` seconds from now."""
        def run() -> None:
            if self._closed:
                return
            with live.lock:
                if then is not None:
                    then()
                elif live.game is not None and live.problem is None:
                    self._pump(live)

        timer = threading.Timer(max(0.0, delay), run)
        timer.daemon = True
        timer.start()

    def _thought(self, live: LiveGame, kind: str, seat: int, at: int, future: Future[Any]) -> None:
        with live.lock:
            g = live.game
            if g is None or self._closed:
                live.thinking = False
                return
            try:
                codes, stream = future.result()
            except (concurrent.futures.CancelledError, Stopping):  # the studio is stopping: resume() asks again
                live.thinking = False
                return
            except GaveUp as e:  # a fresh worker failed too, every time: this game truly cannot go on
                live.thinking = False
                self._break(live, f"its bots could not decide: {len(e.errors)} tries, each with a fresh worker, "
                                  f"failed (the last: {e.errors[-1] if e.errors else '?'})")
                return
            except Exception as e:
                live.thinking = False
                self._break(live, f"its bots could not decide ({type(e).__name__}: {str(e)[:160]})")
                return
            wait = live.last_move_at + self.bot_pace - time.monotonic() if kind == BOT and g.humans else 0.0
            if wait > 0:  # at a table of people a bot's move never comes sooner: its timing tells nothing
                self._later(wait, live, lambda: self._decided(live, kind, seat, at, codes, stream))
                return
            self._decided(live, kind, seat, at, codes, stream)

    def _decided(self, live: LiveGame, kind: str, seat: int, at: int, codes: list[int], stream: int) -> None:
        """A worker's answer, taken (lock held) if the game still waits for it."""
        live.thinking = False
        g = live.game
        if g is None or self._closed or live.problem is not None:
            return
        if len(g.moves) == at and g.need() == (kind, seat):  # still the moment it was asked about
            try:
                if kind == BOT:
                    self._commit(live, seat, Action.from_code(codes[0]), BOT, stream)
                else:
                    with live.view_lock:
                        g.ask(seat, codes)
            except AnswerError as e:
                self._break(live, f"its bots gave a move the rules refuse ({e})")
                return
            except StoreBusy:  # another program holds the database: the move is stored a moment later
                self._later(BUSY_RETRY, live)
                return
        self._pump(live)

    def _break(self, live: LiveGame, reason: str) -> None:
        """The game cannot go on (lock held): said now, and kept, so that a restart does not quietly
        play it on."""
        live.problem = reason
        try:
            self.store.set_broken(live.id, reason)
        except Exception as e:  # the database is unreachable: said in /api/status
            self.notes.append(f"game {live.id} cannot go on, and this could not be stored ({type(e).__name__})")
        self.thinkers.release(live.id, forget)
        live.changed.notify_all()

    def _commit(self, live: LiveGame, seat: int, action: Action, by: str, stream: int | None = None) -> None:
        """Store a move (one transaction), then show it: the game in memory changes only once the
        database holds the move (StoreBusy, nothing changed, when it cannot be stored now)."""
        g = live.game
        assert g is not None
        after = g.next_state(seat, action, stream)
        move = Move(seat, action.code, by)
        moves = [*g.moves, move]
        self.store.add_moves(g.id, len(moves), [move], g.streams_now(after), after.round, after.result(),
                             log_text(g.log(after, moves)))
        with live.view_lock:
            g.adopt(after, move)
        live.last_move_at = time.monotonic()

    def _ended(self, live: LiveGame) -> None:
        """The finished game's log, written once into ``--dir/games/``."""
        g = live.game
        if live.log_written or g is None:
            return
        live.log_written = True
        self.thinkers.release(g.id, forget)
        self._write_log(g.id, log_text(g.log()))

    def _write_log(self, game_id: str, text: str) -> None:
        """A finished game's log as ``--dir/games/ID.jsonl`` (readable by its owner only), so that
        `kakapo calibrate DIR/games` and friends read every game of the folder once."""
        try:
            self.games_folder.mkdir(exist_ok=True)
            write_file(self.games_folder, f"{game_id}.jsonl", text.encode(), overwrite=True, mode=0o600,
                       scratch=self.store.folder / "tmp")
        except OSError as e:  # the database keeps the log (GET /api/games/ID/log): said, not fatal
            self.notes.append(f"games/{game_id}.jsonl was not written: {e.strerror or e}")

    # ------------------------------------------------------------ what the routers ask
    def seat_game(self, game_id: str, seat: int, token: str | None) -> LiveGame | None:
        """The game if ``token`` is that seat's (None: no such game); SeatRefused otherwise."""
        live = self.live(game_id)
        if live is None:
            return None
        if not token_matches(token, self.store.seat_hash(game_id, seat)):
            if token and any(token_matches(token, h) for h in self.store.retired_hashes(game_id, seat)):
                # the seat's old link, which a handover stopped: its holder is told why
                if self._bot_plays(live, seat):
                    raise SeatRefused("a bot plays this seat now; ask the host for a new link", BOT_TOOK_FIX)
                raise SeatRefused("this seat has a new link now; ask the host for it", "open the seat's new link")
            raise SeatRefused(f"seat {seat} of game {game_id} needs its own link's token")
        return live

    @staticmethod
    def _bot_plays(live: LiveGame, seat: int) -> bool:
        with live.view_lock:
            g = live.game
            return g is not None and 0 <= seat < g.setup.players and not g.controller(seat)[0]

    def any_seat(self, game_id: str, token: str | None) -> bool:
        return any(token_matches(token, h) for h in self.store.seat_hashes(game_id))

    def view(self, live: LiveGame, seat: int) -> Doc:
        with live.view_lock:
            if live.game is None:
                raise BrokenGame(live.problem or "it cannot be rebuilt")
            doc = live.game.view(seat, live.thinking)
            if live.problem:
                doc["problem"] = live.problem
            return doc

    def answer(self, live: LiveGame, seat: int, choice: int | None, cells: list[str] | None,
               question_id: int | None) -> Doc:
        with live.lock:
            g = live.game
            if g is None or live.problem is not None:
                raise BrokenGame(live.problem or "it cannot be rebuilt")
            action = g.answer(seat, choice, cells, question_id)
            self._commit(live, seat, action, PERSON)
            self._pump(live)
        return self.view(live, seat)

    def set_play_forced(self, live: LiveGame, seat: int, value: bool) -> Doc:
        with live.lock:
            g = live.game
            if g is None or live.problem is not None:
                raise BrokenGame(live.problem or "it cannot be rebuilt")
            self.store.set_play_forced(g.id, seat, value)
            with live.view_lock:
                g.play_forced[seat] = value
                if g.need() in ((FORCED, seat),):
                    g.pending, g.pending_seat = None, -1
            self._pump(live)
        return self.view(live, seat)

    def hand_over(self, live: LiveGame, seat: int, to_bot: bool, policy: str | None = None,
                  samples: int | None = None) -> str | None:
        """Someone left: ``seat`` is played by a bot from its next decision (its link stops working);
        or it is given back to a person: the new link's token. AnswerError when it cannot be."""
        with live.lock:
            g = live.game
            if g is None or live.problem is not None:
                raise BrokenGame(live.problem or "it cannot be rebuilt")
            h = g.hand_over(seat, to_bot, policy, samples if policy == PolicyId.SEARCH.label else None)
            token = None if to_bot else secrets.token_urlsafe(18)
            self.store.hand_over(g.id, h, None if token is None else token_hash(token))
            with live.view_lock:
                g.adopt_handover(h)
            if live.thinking and not to_bot:
                pass  # a bot thinking for it: its answer finds a person's seat and is dropped (_decided)
            self._pump(live)
            return token

    def player(self, live: LiveGame, seat: int) -> Doc:
        """Who plays ``seat`` now (as a seat's document lists the players)."""
        with live.view_lock:
            assert live.game is not None
            doc: Doc = live.game.players_json()[seat]
            return doc

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
        setup = TableSetup(f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(4)}", mission.id, mission.name,
                           recorded.events[0].get("mission_text", ""), recorded.events[0].get("pieces_text", ""),
                           state.players, tuple(recorded.events[0].get("human", range(state.players))), RECORDED,
                           None, 0, 0, True, tuple((k, n) for k, n in enumerate(recorded.names) if n and k in people),
                           time.strftime("%Y-%m-%dT%H:%M:%S"))
        self.store.add_recorded(setup, recorded.text, state.round, state.result(), imported_from, recording)
        if imported_from is None and state.result() is not None:  # a file of games/ is that game's already
            self._write_log(setup.id, recorded.text)
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
        row = self.store.game(game_id)
        if row is not None and row.log:
            return row.log, None
        return None, "its log was not kept"

    def ended(self, game_id: str) -> bool:
        live = self.live(game_id)
        return live is not None and live.over()

    def rescan(self) -> None:
        """Games dropped into ``games/`` since the last look are imported in the background (at most
        every few seconds; the listing that asked shows them at its next look)."""
        now = time.monotonic()
        if now - self._scanned_at < RESCAN_EVERY or self._importing.locked() or self._closed:
            return
        self._scanned_at = now
        threading.Thread(target=self.import_records, name="kakapo-import", daemon=True).start()

    def listing(self) -> list[Doc]:
        """Every game, newest last: finished ones from their rows (with their seed: the deal is no
        secret any more), the others as they stand now; broken ones with the reason."""
        self.rescan()
        out = []
        for row in self.store.summaries():
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
        for p in self.store.import_problems():
            out.append({"id": p["id"] or Path(p["file"]).stem, "file": p["file"], "broken": p["problem"],
                        "result": None, "human": [], "players": None, "mission": None})
        return out

    # ------------------------------------------------------------ the old records, once
    def import_records(self) -> None:
        with self._importing:  # one import at a time: each file joins once
            self._import_records()

    def _import_records(self) -> None:
        if not self.games_folder.is_dir():
            return
        # shortest names first: a record's own name (ID.json) before its copies (ID copy.json)
        for path in sorted(self.games_folder.glob("*.json"), key=lambda p: (len(p.name), p.name)):
            if self._closed:
                return
            name = path.name
            if self.store.imported(name) is not None:
                continue
            try:
                outcome, game_id = self._import(path)
            except StoreBusy:
                continue  # another program holds the database: tried again at the next look
            except Exception as e:  # one bad file never stops the others
                outcome, game_id = f"not imported: {type(e).__name__}", None
            if outcome != "imported":  # an imported one is noted with the game, in one transaction
                self.store.note_import(name, game_id, outcome)
        self.import_dropped()

    def import_dropped(self) -> None:
        """Logs and sheets of games played elsewhere (with the printed cards, another studio,
        `kakapo play --log`) dropped into ``--dir/games/``: each joins the folder's games once, as a
        recorded game with its names; the logs this studio wrote of its own games are skipped. A
        sheet's ``mission:`` and ``pieces:`` are found as ``POST /api/records`` finds them
        (``sheet_resolver``); a file that is not a regular one, or too large, is refused unread;
        whatever one file holds, the others are still imported."""
        found = sorted(self.games_folder.glob("*.jsonl")) + sorted(self.games_folder.glob("*.txt"))
        for path in found:
            if self._closed:
                return
            name = path.name
            if self.store.imported(name) is not None or self.store.has_game(path.stem) or \
                    path.with_suffix(".json").exists():
                continue
            try:
                outcome = self._import_dropped(name)
            except StoreBusy:
                continue  # another program holds the database: tried again at the next look
            except Exception as e:  # one bad file never stops the others
                outcome = f"not imported: {type(e).__name__}"
            if outcome is not None:
                self.store.note_import(name, None, outcome[:300])

    def _import_dropped(self, name: str) -> str | None:
        """One dropped file imported (None), or why not."""
        try:
            text = read_plain_file(self.games_folder, name, MAX_RECORD).decode("utf-8")
            recorded = game_file(text, name, self.sheet_resolver())
        except UnsafeTarget as e:
            return f"not imported: {e.strerror}"
        except (OSError, UnicodeDecodeError) as e:
            return f"not imported: {getattr(e, 'strerror', None) or type(e).__name__}"
        except InputError as e:
            where = f"line {e.line}: " if e.line else ""
            return f"not imported: {where}{e.problem}"
        self.add_record(recorded, recorded.state.mission, recorded.state.catalog, imported_from=name)
        return None

    def _import(self, path: Path) -> tuple[str, str | None]:
        try:
            record = json.loads(read_plain_file(self.games_folder, path.name, MAX_RECORD).decode("utf-8"))
        except UnsafeTarget as e:
            return f"not imported: {e.strerror}", None
        except (OSError, ValueError, RecursionError) as e:
            return f"not imported: not a game record ({type(e).__name__})", None
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT or not isinstance(
                record.get("id"), str):
            return "not imported: not a game record of this version", None
        gid = record["id"]
        for old in (path, path.with_suffix(".jsonl")):  # they hold tokens and hands: the owner's only
            with contextlib.suppress(OSError):
                if not old.is_symlink():
                    old.chmod(0o600)
        if self.store.has_game(gid):
            return f"not imported: a copy of game {gid}, which the database holds already", gid
        try:
            setup, moves, streams, tokens = self.thinkers.submit(f"import {gid}", replay_record, record).result()
        except BrokenGame as e:
            return f"not imported: {e}", gid
        except GaveUp as e:
            return f"not imported: {e.errors[-1] if e.errors else 'it could not be replayed'}", gid
        except Exception as e:
            return f"not imported: {type(e).__name__}", gid
        finally:
            self.thinkers.release(f"import {gid}")
        g = TableGame(setup, moves, streams)
        self.store.add_game(setup, {int(s): token_hash(t) for s, t in tokens.items()}, log_text(g.log()), moves,
                            streams, g.state.round, g.state.result(), imported_from=path.name)
        self.live(gid)
        return "imported", gid

    def close(self) -> None:
        self._closed = True

    def resume(self) -> None:
        """Think on for every game in memory after ``close`` (what was being thought was dropped)."""
        if not self._closed:
            return
        self._closed = False
        with self._lock:
            games = list(self._live.values())
        for live in games:
            with live.lock:
                live.thinking = False
                if live.game is not None and live.problem is None:
                    self._pump(live)

