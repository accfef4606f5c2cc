"""The coordinate system and polyomino shapes (no game rules here).

A cell is an int ``row * 12 + col`` with row 0 at the top. Its name is the
column letter ``a``..``l`` and the row number ``1``..``12``: ``a1`` is the
top-left cell, ``l12`` the bottom-right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from solver.core.errors import ParseError

SIZE = 12
NUM_CELLS = SIZE * SIZE
COLUMNS = "abcdefghijkl"

Cell = int


def cell(row: int, col: int) -> Cell:
    return row * SIZE + col


def row_of(c: Cell) -> int:
    return c // SIZE


def col_of(c: Cell) -> int:
    return c % SIZE


def on_board(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def cell_name(c: Cell) -> str:
    return f"{COLUMNS[col_of(c)]}{row_of(c) + 1}"


_CELL_RE = re.compile(r"^\s*([a-lA-L])\s*(\d{1,2})\s*$")


MAX_SHAPE_CELLS = SIZE * SIZE  # a piece over 144 cells is an input error


def parse_cell(text: str) -> Cell:
    short = repr(str(text)) if len(str(text)) <= 40 else repr(str(text)[:37]) + "..."
    m = _CELL_RE.match(str(text)) if len(str(text)) <= 8 else None
    if not m:
        raise ParseError(f"cannot read cell {short}; cells are a1 (top-left) .. l12 (bottom-right)")
    row = int(m.group(2)) - 1
    if not 0 <= row < SIZE:
        raise ParseError(f"cell {short} is off the board; rows run 1..12")
    return cell(row, COLUMNS.index(m.group(1).lower()))


# Named constants, python-chess style: A1 .. L12.
for _r in range(SIZE):
    for _c in range(SIZE):
        globals()[f"{COLUMNS[_c].upper()}{_r + 1}"] = cell(_r, _c)

_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


@cache
def neighbours(c: Cell) -> tuple[Cell, ...]:
    """Cells sharing an edge with ``c`` (on the board)."""
    r, k = row_of(c), col_of(c)
    return tuple(cell(r + dr, k + dc) for dr, dc in _STEPS if on_board(r + dr, k + dc))


def side_count_off_board(c: Cell) -> int:
    """How many of the cell's four sides lie on the board's edge."""
    return 4 - len(neighbours(c))


def is_connected(cells) -> bool:
    """True if the cells (as (row, col) pairs) form one edge-connected group."""
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        r, c = stack.pop()
        for dr, dc in _STEPS:
            n = (r + dr, c + dc)
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cells)


def _normalise(cells) -> tuple[tuple[int, int], ...]:
    min_r = min(r for r, _ in cells)
    min_c = min(c for _, c in cells)
    return tuple(sorted((r - min_r, c - min_c) for r, c in cells))


@dataclass(frozen=True)
class Shape:
    """A polyomino as sorted (row, col) offsets normalised to the top-left."""

    cells: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, cells) -> Shape:
        return cls(_normalise(cells))

    @classmethod
    def parse(cls, text: str) -> Shape:
        """Rows of ``#``/``.``, separated by newlines or ``/``; raises ParseError."""
        text = str(text)
        if text.count("#") > MAX_SHAPE_CELLS or len(text) > 4 * SIZE * SIZE:
            raise ParseError(f"shape has {text.count('#')} filled cells in {len(text)} characters; a piece fits on "
                             f"the 12 x 12 board (at most {MAX_SHAPE_CELLS} cells)")
        rows = [r.strip() for r in text.replace("/", "\n").split("\n")]
        while rows and not rows[0]:
            rows.pop(0)
        while rows and not rows[-1]:
            rows.pop()
        filled = []
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "#":
                    filled.append((r, c))
                elif ch != ".":
                    raise ParseError(f"shape row {row!r} has {ch!r}; use only '#' (filled) and '.' (empty)")
        if not filled:
            raise ParseError("shape has no filled cell '#'")
        if not is_connected(filled):
            raise ParseError("shape's filled cells are not one edge-connected polyomino")
        return cls.of(filled)

    @property
    def size(self) -> int:
        return len(self.cells)

    def orientations(self) -> tuple[Shape, ...]:
        """The distinct rotations and reflections (1, 2, 4 or 8 of them)."""
        return _orientations(self.cells)

    def format(self) -> str:
        h = max(r for r, _ in self.cells) + 1
        w = max(c for _, c in self.cells) + 1
        s = set(self.cells)
        return "/".join("".join("#" if (r, c) in s else "." for c in range(w)) for r in range(h))

    def __str__(self) -> str:
        return self.format()


@cache
def _orientations(cells: tuple[tuple[int, int], ...]) -> tuple[Shape, ...]:
    seen: dict[tuple, None] = {}
    current = list(cells)
    for flip in (False, True):
        pts = [(r, -c) for r, c in current] if flip else current
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]
            seen.setdefault(_normalise(pts), None)
    return tuple(Shape(o) for o in seen)


@cache
def shape_positions(cells: tuple[tuple[int, int], ...]) -> tuple[frozenset[Cell], ...]:
    """Every way to put one fixed orientation fully inside the board."""
    h = max(r for r, _ in cells) + 1
    w = max(c for _, c in cells) + 1
    out = []
    for r0 in range(SIZE - h + 1):
        for c0 in range(SIZE - w + 1):
            out.append(frozenset(cell(r0 + r, c0 + c) for r, c in cells))
    return tuple(out)


def all_positions(shape: Shape) -> tuple[frozenset[Cell], ...]:
    """Every cell set the shape can occupy on the board, any rotation or reflection, no duplicates."""
    return _all_positions(shape.cells)


@cache
def _all_positions(cells) -> tuple[frozenset[Cell], ...]:
    out: dict[frozenset, None] = {}
    for o in _orientations(cells):
        for p in shape_positions(o.cells):
            out.setdefault(p, None)
    return tuple(out)


def position_masks(shape: Shape) -> tuple[int, ...]:
    """The cell sets of ``all_positions(shape)`` as bitboards (bit ``c`` for cell ``c``), same order."""
    return _position_masks(shape.cells)


@cache
def _position_masks(cells) -> tuple[int, ...]:
    return tuple(sum(1 << c for c in p) for p in _all_positions(cells))


def position_index(shape: Shape) -> dict[frozenset[Cell], int]:
    """Cell set -> its index in ``all_positions(shape)``: the placement id both engines use."""
    return _position_index(shape.cells)


@cache
def _position_index(cells) -> dict[frozenset[Cell], int]:
    return {p: i for i, p in enumerate(_all_positions(cells))}


def shape_of_cells(cells) -> Shape:
    return Shape.of([(row_of(c), col_of(c)) for c in cells])
