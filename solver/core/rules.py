"""The one rules module: placement, adjacency, scanning and the clear check.

Everything that decides whether a placement is legal or a bird is scanned is
defined here and only here; the CP-SAT model, the exhaustive solver, both game
engines (the Numba one through the arrays built by ``game/arrays.py``) and the
validator all call these definitions. Cell sets are Python ints used as
144-bit bitboards (bit ``c`` set means cell ``c`` is in the set).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from solver.core.board import (
    NUM_CELLS,
    SIZE,
    Cell,
    Shape,
    all_positions,
    cell_name,
    neighbours,
    parse_cell,
    shape_of_cells,
)
from solver.core.cards import Card, Colour
from solver.core.errors import IllegalPlacement
from solver.core.spec import MODE_RULES, max_rounds

FULL = (1 << NUM_CELLS) - 1


# ---------------------------------------------------------------- bitboards
def mask_of(cells) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def cells_of(mask: int) -> list[Cell]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_NOT_COL_A = FULL & ~mask_of(r * SIZE for r in range(SIZE))
_NOT_COL_L = FULL & ~mask_of(r * SIZE + SIZE - 1 for r in range(SIZE))


def grow(mask: int) -> int:
    """The cells of ``mask`` plus every cell sharing an edge with one of them."""
    return (mask | (mask << SIZE) | (mask >> SIZE) | ((mask & _NOT_COL_L) << 1) | ((mask & _NOT_COL_A) >> 1)) & FULL


def halo(mask: int) -> int:
    """Cells outside ``mask`` that share an edge with it."""
    return grow(mask) & ~mask


# ---------------------------------------------------------------- value types
@dataclass(frozen=True)
class Placement:
    """A scanner piece on a set of cells."""

    card: Card
    cells: frozenset[Cell]

    @cached_property
    def mask(self) -> int:
        return mask_of(self.cells)

    @property
    def colour(self) -> Colour:
        return self.card.colour

    def cell_names(self) -> list[str]:
        return [cell_name(c) for c in sorted(self.cells)]

    def to_json(self) -> dict:
        return {"piece": str(self.card), "cells": self.cell_names()}

    @classmethod
    def parse(cls, piece: str, cells) -> Placement:
        return cls(Card.parse(piece), frozenset(parse_cell(c) for c in cells))

    def __str__(self) -> str:
        return f"{self.card} at {' '.join(self.cell_names())}"


@dataclass(frozen=True)
class Bird:
    letter: str
    cells: frozenset[Cell]

    @cached_property
    def mask(self) -> int:
        return mask_of(self.cells)

    @cached_property
    def ring(self) -> int:
        """Cells outside the bird sharing an edge with it (on the board)."""
        return halo(self.mask)

    def sides_on_edge(self) -> int:
        return sum(4 - len(neighbours(c)) for c in self.cells)


@dataclass(frozen=True)
class Mission:
    """A mission's content: birds, coloured sides, pre-placed pieces and settings."""

    id: str
    name: str
    mode: str  # "buddy" | "party"
    clear: int  # resolved: "all" becomes the number of birds
    clear_all: bool
    rounds: int
    skills: int
    birds: tuple[Bird, ...]
    marks: tuple[tuple[Cell, Colour], ...]  # outside cell -> colour of the side(s) it faces
    placed: tuple[Placement, ...] = ()
    story: str = ""  # one line for players (optional)
    # the file's text as read (what a game log records, io/loginputs.py); "" for a mission made in code
    source: str = field(default="", compare=False, repr=False)

    @property
    def mark_map(self) -> dict[Cell, Colour]:
        return dict(self.marks)

    @cached_property
    def bird_mask(self) -> int:
        m = 0
        for b in self.birds:
            m |= b.mask
        return m

    def bird(self, letter: str) -> Bird:
        for b in self.birds:
            if b.letter == letter:
                return b
        raise KeyError(letter)

    def player_counts(self) -> tuple[int, ...]:
        """The table sizes of its mode (spec.MODE_RULES)."""
        return MODE_RULES[self.mode].players

    def default_players(self) -> int:
        """The largest table whose hands last the mission's rounds (the largest of the mode if none does)."""
        fits = [n for n in self.player_counts() if self.rounds <= max_rounds(self.mode, n)]
        return (fits or list(self.player_counts()))[-1]


# ---------------------------------------------------------------- birds
def blocked_reason(mission: Mission, bird: Bird) -> str | None:
    """Why a bird can never be scanned by geometry alone (edge or another bird), or None."""
    if bird.sides_on_edge():
        return "a side lies on the board's edge"
    others = mission.bird_mask & ~bird.mask
    touching = bird.ring & others
    if touching:
        letters = sorted({b.letter for b in mission.birds if b.mask & touching})
        return f"it faces bird {', '.join(letters)}"
    return None


# ---------------------------------------------------------------- the board
@dataclass
class Board:
    """Birds, marks and the scanner pieces placed so far. Mutable; copy() is cheap."""

    mission: Mission
    occupied: int = 0
    colour_masks: list[int] = field(default_factory=lambda: [0] * 5)
    pieces: dict[Card, Placement] = field(default_factory=dict)

    @classmethod
    def start(cls, mission: Mission) -> Board:
        """The board as the mission sets it up, pre-placed pieces included (validated)."""
        b = cls(mission)
        for p in mission.placed:
            b.place(p)
        return b

    def copy(self) -> Board:
        return Board(self.mission, self.occupied, list(self.colour_masks), dict(self.pieces))

    # -- placement rules
    def is_used(self, card: Card) -> bool:
        return card in self.pieces

    def placement_problem(self, p: Placement, shape: Shape | None = None) -> str | None:
        """None if ``p`` may be placed now, else the rule it breaks."""
        if any(not 0 <= c < NUM_CELLS for c in p.cells):
            return "a cell is off the board"
        if shape is not None and shape_of_cells(p.cells) not in shape.orientations():
            return f"the cells do not form the shape of {p.card} ({shape.format()}) in any rotation or reflection"
        if p.card in self.pieces:
            return f"{p.card} is already on the board"
        m = p.mask
        if m & self.mission.bird_mask:
            return "it covers a bird cell"
        if m & self.occupied:
            return "it overlaps a placed scanner piece"
        if halo(m) & self.colour_masks[p.colour]:
            return f"it shares an edge with another {p.colour} scanner piece"
        return None

    def is_legal_mask(self, colour: int, m: int) -> bool:
        """Fast form of the same rules for engines that already know the shape fits."""
        return not (m & (self.mission.bird_mask | self.occupied)) and not (halo(m) & self.colour_masks[colour])

    def legal_placements(self, card: Card, shape: Shape) -> list[Placement]:
        """All legal placements of the piece now; empty if it is used or fits nowhere."""
        if card in self.pieces:
            return []
        col = int(card.colour)
        return [Placement(card, cells) for cells in all_positions(shape) if self.is_legal_mask(col, mask_of(cells))]

    def place(self, p: Placement, shape: Shape | None = None) -> None:
        problem = self.placement_problem(p, shape)
        if problem:
            raise IllegalPlacement(f"cannot place {p}: {problem}")
        m = p.mask
        self.occupied |= m
        self.colour_masks[p.colour] |= m
        self.pieces[p.card] = p

    def colour_at(self, c: Cell) -> Colour | None:
        bit = 1 << c
        for col in Colour:
            if self.colour_masks[col] & bit:
                return col
        return None

    # -- scanning
    def is_scanned(self, bird: Bird) -> bool:
        """Every outside neighbour covered and every coloured side facing its colour."""
        if bird.sides_on_edge():
            return False
        ring = bird.ring
        if ring & ~self.occupied:  # includes ring cells that are other birds' cells
            return False
        return all(not (ring >> c & 1 and not self.colour_masks[col] >> c & 1) for c, col in self.mission.marks)

    def scanned(self) -> list[str]:
        return [b.letter for b in self.mission.birds if self.is_scanned(b)]

    def is_cleared(self) -> bool:
        return len(self.scanned()) >= self.mission.clear

    def can_still_be_scanned(self, bird: Bird) -> bool:
        """False when the bird is blocked or a ring cell is already covered by the wrong thing."""
        if blocked_reason(self.mission, bird):
            return False
        ring = bird.ring
        for c, col in self.mission.marks:
            if (ring >> c) & 1 and (self.occupied >> c) & 1 and not (self.colour_masks[col] >> c) & 1:
                return False
        return True


def check_placements(mission: Mission, catalog, placements) -> tuple[Board, list[str]]:
    """Replay placements on the mission's start board with every rule; raise on the first breach.

    Returns the final board and the birds it scans. Used to re-verify every
    solver answer before it is shown.
    """
    board = Board.start(mission)
    for p in placements:
        board.place(p, catalog[p.card])
    return board, board.scanned()
