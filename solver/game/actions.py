"""Actions: the small values a player's decision is, and their integer codes.

Every decision of the game is one of three actions: reveal a card, take a selection option
(by its number in ``state.selection_options``), or place a piece at a position (its number in
``core.board.all_positions`` of the piece's shape, the placement id both engines use). All
actions are public once taken; only the deal is hidden.

An action's ``code`` is one int: the card's index (0..39), ``SELECT_BASE + option``, or
``PLACE_BASE * (piece + 1) + position``. The Numba engine passes actions as these codes, and
the trace hash of a game (both engines) mixes them in the order they are taken, with
``IN_CHARGE_EVENT + seat`` after the last card of each round.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from solver.core.cards import NUM_CARDS, Card


class Phase(IntEnum):
    """What the game waits for."""

    REVEAL = 0  # a card from the seat whose turn it is
    SELECT = 1  # a selection option from the player in charge
    PLACE = 2  # a position for the next selected piece, from the player in charge
    OVER = 3


class ActionKind(IntEnum):
    REVEAL = 0
    SELECT = 1
    PLACE = 2


IN_CHARGE_EVENT = 64  # trace only: + the seat in charge (not an action: the cards decide it)
SELECT_BASE = 128  # + option number
PLACE_BASE = 4096  # * (piece index + 1) + position number


@dataclass(frozen=True, order=True)
class Action:
    """One decision. ``card``: the card revealed, or the piece placed; ``index``: the option
    number (select) or the position number (place)."""

    kind: ActionKind
    card: Card | None = None
    index: int = -1

    @classmethod
    def reveal(cls, card: Card) -> Action:
        return cls(ActionKind.REVEAL, card)

    @classmethod
    def select(cls, option: int) -> Action:
        return cls(ActionKind.SELECT, None, option)

    @classmethod
    def place(cls, piece: Card, position: int) -> Action:
        return cls(ActionKind.PLACE, piece, position)

    @property
    def code(self) -> int:
        if self.kind == ActionKind.REVEAL:
            assert self.card is not None
            return self.card.index
        if self.kind == ActionKind.SELECT:
            return SELECT_BASE + self.index
        assert self.card is not None
        return PLACE_BASE * (self.card.index + 1) + self.index

    @classmethod
    def from_code(cls, code: int) -> Action:
        code = int(code)
        if 0 <= code < NUM_CARDS:
            return cls.reveal(Card.from_index(code))
        if SELECT_BASE <= code < PLACE_BASE:
            return cls.select(code - SELECT_BASE)
        piece, position = divmod(code, PLACE_BASE)
        if not 1 <= piece <= NUM_CARDS:
            raise ValueError(f"no action has the code {code}")
        return cls.place(Card.from_index(piece - 1), position)

    def __str__(self) -> str:
        if self.kind == ActionKind.REVEAL:
            return f"reveal {self.card}"
        if self.kind == ActionKind.SELECT:
            return f"select option {self.index}"
        return f"place {self.card} at position {self.index}"
