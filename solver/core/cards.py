"""Colours and cards. A card and its scanner piece share one name, e.g. ``purple-8``.

Cards are small frozen value types; ``Card.index`` (0..39) is the compact id the
engines use in arrays: ``colour * 8 + (value - 1)``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from enum import IntEnum

from solver.core.errors import ParseError

VALUES = range(1, 9)
NUM_CARDS = 40


class Colour(IntEnum):
    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3
    PURPLE = 4

    @property
    def long(self) -> str:
        return self.name.lower()

    @property
    def letter(self) -> str:
        return self.long[0]

    @classmethod
    def parse(cls, text: str) -> Colour:
        t = text.strip().lower()
        for c in cls:
            if t in (c.long, c.letter):
                return c
        close = difflib.get_close_matches(t, [c.long for c in cls], n=1, cutoff=0.6)
        hint = f"did you mean {close[0]}? " if close else ""
        raise ParseError(f"unknown colour {_short(text)}; {hint}use one of red, yellow, green, blue, purple "
                         "(or r y g b p)")

    def __str__(self) -> str:
        return self.long


COLOURS = tuple(Colour)

_CARD_RE = re.compile(r"^\s*([a-z]{1,10})\s*-?\s*(\d{1,3})\s*$", re.IGNORECASE)


def _short(text) -> str:
    """A name as it may appear in a message: at most 40 characters of it."""
    t = repr(str(text))
    return t if len(t) <= 42 else t[:40] + "...'"


@dataclass(frozen=True, order=True)
class Card:
    """A scanner card, and the scanner piece of the same colour and value."""

    colour: Colour
    value: int

    def __post_init__(self) -> None:
        if self.value not in VALUES:
            raise ParseError(f"card value {self.value} is out of range 1..8")

    @property
    def index(self) -> int:
        return int(self.colour) * 8 + self.value - 1

    @classmethod
    def from_index(cls, index: int) -> Card:
        return ALL_CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Accepts ``purple-8``, ``purple8``, ``p8``, ``P-8`` (case-insensitive)."""
        m = _CARD_RE.match(str(text)[:64])  # bounded: no name is longer, and int() of huge digits is slow
        if not m or len(str(text)) > 64:
            raise ParseError(f"cannot read card/piece name {_short(text)}; write it like purple-8 or p8")
        colour = Colour.parse(m.group(1))
        value = int(m.group(2))
        if value not in VALUES:
            raise ParseError(f"card/piece {_short(text)} has value {value}; values run 1..8")
        return cls(colour, value)

    def __str__(self) -> str:
        return f"{self.colour.long}-{self.value}"


ALL_CARDS: tuple[Card, ...] = tuple(Card(c, v) for c in Colour for v in VALUES)
