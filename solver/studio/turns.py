"""How a game of the studio's table moves on: whose turn it is and what comes of it. A forced move
is played at once, a bot's move and the advice that orders a person's choices are thought in a
worker (``thinking``) and taken when it answers, a person's answer is awaited. Every move is one
transaction, stored before anyone is told of it; a game whose bots cannot decide is kept broken
with the reason (said after a restart too); a finished game's log is written once into
``--dir/games/``."""

from __future__ import annotations

import concurrent.futures
import functools
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from solver.game.actions import Action
from solver.play.tablegame import BOT, FORCED, PERSON, AnswerError, Move
from solver.play.thinker import forget, think
from solver.studio.database import StoreBusy
from solver.studio.folder import Folder
from solver.studio.live import LiveGame, log_text
from solver.studio.store import Store
from solver.studio.thinking import GaveUp, Stopping, Thinkers

BOT_PACE = 0.15  # seconds: a bot's move at a table of people is shown no sooner after the move before
BUSY_RETRY = 1.0  # seconds: a bot's move the database could not take (locked) is stored again after this


@dataclass
class Turns:
    """The turns of every game of a folder: ``pump`` plays a game on (its lock held) as far as it
    goes without a person; ``commit`` stores a move, then shows it. ``notes``: what went wrong
    beside the games (said in /api/status); ``closed``: the studio stops, nothing more is thought."""

    store: Store
    thinkers: Thinkers
    folder: Folder
    notes: list[str]
    bot_pace: float = BOT_PACE
    closed: bool = False

    def pump(self, live: LiveGame) -> None:
        """Play on (lock held) until a person must answer, a worker is thinking, or the game is over."""
        g = live.game
        assert g is not None
        while not self.closed and live.problem is None:
            need = g.need()
            if need is None:
                self._ended(live)
                break
            kind, seat = need
            if kind == FORCED:
                try:
                    self.commit(live, seat, g.state.legal_actions()[0], FORCED)
                except StoreBusy:
                    self.later(BUSY_RETRY, live)
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

    def later(self, delay: float, live: LiveGame, then: Any = None) -> None:
        """``then()`` (default: play on) with the game's lock, ``delay`` seconds from now."""
        def run() -> None:
            if self.closed:
                return
            with live.lock:
                if then is not None:
                    then()
                elif live.game is not None and live.problem is None:
                    self.pump(live)

        timer = threading.Timer(max(0.0, delay), run)
        timer.daemon = True
        timer.start()

    def _thought(self, live: LiveGame, kind: str, seat: int, at: int, future: Future[Any]) -> None:
        with live.lock:
            g = live.game
            if g is None or self.closed:
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
                self.later(wait, live, lambda: self._decided(live, kind, seat, at, codes, stream))
                return
            self._decided(live, kind, seat, at, codes, stream)

    def _decided(self, live: LiveGame, kind: str, seat: int, at: int, codes: list[int], stream: int) -> None:
        """A worker's answer, taken (lock held) if the game still waits for it."""
        live.thinking = False
        g = live.game
        if g is None or self.closed or live.problem is not None:
            return
        if len(g.moves) == at and g.need() == (kind, seat):  # still the moment it was asked about
            try:
                if kind == BOT:
                    self.commit(live, seat, Action.from_code(codes[0]), BOT, stream)
                else:
                    with live.view_lock:
                        g.ask(seat, codes)
            except AnswerError as e:
                self._break(live, f"its bots gave a move the rules refuse ({e})")
                return
            except StoreBusy:  # another program holds the database: the move is stored a moment later
                self.later(BUSY_RETRY, live)
                return
        self.pump(live)

    def _break(self, live: LiveGame, reason: str) -> None:
        """The game cannot go on (lock held): said now, and kept, so that a restart does not quietly
        play it on."""
        live.problem = reason
        try:
            self.store.games.set_broken(live.id, reason)
        except Exception as e:  # the database is unreachable: said in /api/status
            self.notes.append(f"game {live.id} cannot go on, and this could not be stored ({type(e).__name__})")
        self.thinkers.release(live.id, forget)
        live.changed.notify_all()

    def commit(self, live: LiveGame, seat: int, action: Action, by: str, stream: int | None = None) -> None:
        """Store a move (one transaction), then show it: the game in memory changes only once the
        database holds the move (StoreBusy, nothing changed, when it cannot be stored now)."""
        g = live.game
        assert g is not None
        after = g.next_state(seat, action, stream)
        move = Move(seat, action.code, by)
        moves = [*g.moves, move]
        self.store.games.add_moves(g.id, len(moves), [move], g.streams_now(after), after.round, after.result(),
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
        self.write_log(g.id, log_text(g.log()))

    def write_log(self, game_id: str, text: str) -> None:
        """A finished game's log as ``--dir/games/ID.jsonl`` (readable by its owner only), so that
        `kakapo calibrate DIR/games` and friends read every game of the folder once."""
        try:
            self.folder.write_game_log(game_id, text)
        except OSError as e:  # the database keeps the log (GET /api/games/ID/log): said, not fatal
            self.notes.append(f"games/{game_id}.jsonl was not written: {e.strerror or e}")
