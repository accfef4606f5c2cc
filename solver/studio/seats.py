"""The seats of the studio's table: a person's seat opened only with its own link (its token,
kept hashed), what that seat sees (its observation only), its answers and choices, and a seat
handed to a bot when someone leaves or back to a person with a new link (the old link, when
opened, says why it stopped)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from solver.app.documents import Doc
from solver.core.codes import PolicyId
from solver.play.tablegame import FORCED, PERSON, BrokenGame
from solver.studio.live import LiveGame
from solver.studio.store import Store, token_hash, token_matches
from solver.studio.turns import Turns

BOT_TOOK_FIX = "the host gives the seat back to a person in the Play tab, with a new link"


class SeatRefused(Exception):
    """A seat's token is wrong or missing (``fix``: what to do instead)."""

    def __init__(self, message: str, fix: str = "open the seat's link as the studio gave it"):
        super().__init__(message)
        self.fix = fix


BOT_TOOK_FIX = "the host gives the seat back to a person in the Play tab, with a new link"

@dataclass
class Seats:
    """The seats of every game of a folder; ``live(game_id)``: the table's game in memory."""

    live: Callable[[str], LiveGame | None]
    store: Store
    turns: Turns

    def game(self, game_id: str, seat: int, token: str | None) -> LiveGame | None:
        """The game if ``token`` is that seat's (None: no such game); SeatRefused otherwise."""
        live = self.live(game_id)
        if live is None:
            return None
        if not token_matches(token, self.store.seats.hash(game_id, seat)):
            if token and any(token_matches(token, h) for h in self.store.seats.retired(game_id, seat)):
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
        return any(token_matches(token, h) for h in self.store.seats.hashes(game_id))

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
            self.turns.commit(live, seat, action, PERSON)
            self.turns.pump(live)
        return self.view(live, seat)

    def set_play_forced(self, live: LiveGame, seat: int, value: bool) -> Doc:
        with live.lock:
            g = live.game
            if g is None or live.problem is not None:
                raise BrokenGame(live.problem or "it cannot be rebuilt")
            self.store.seats.set_play_forced(g.id, seat, value)
            with live.view_lock:
                g.play_forced[seat] = value
                if g.need() in ((FORCED, seat),):
                    g.pending, g.pending_seat = None, -1
            self.turns.pump(live)
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
            self.store.seats.hand_over(g.id, h, None if token is None else token_hash(token))
            with live.view_lock:
                g.adopt_handover(h)
            if live.thinking and not to_bot:
                pass  # a bot thinking for it: its answer finds a person's seat and is dropped (Turns)
            self.turns.pump(live)
            return token

    def player(self, live: LiveGame, seat: int) -> Doc:
        """Who plays ``seat`` now (as a seat's document lists the players)."""
        with live.view_lock:
            assert live.game is not None
            doc: Doc = live.game.players_json()[seat]
            return doc
