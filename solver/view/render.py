"""Terminal drawing of a board: colours with ANSI codes, plain text when piped or NO_COLOR is set."""

from __future__ import annotations

import os
import sys

from solver.core.board import COLUMNS, SIZE, cell
from solver.core.cards import Colour
from solver.core.rules import Board, Mission

_BG = {Colour.RED: "41", Colour.YELLOW: "43", Colour.GREEN: "42", Colour.BLUE: "44", Colour.PURPLE: "45"}
_FG = {Colour.RED: "31", Colour.YELLOW: "33", Colour.GREEN: "32", Colour.BLUE: "34", Colour.PURPLE: "35"}


def use_colour(stream=None) -> bool:
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def draw(board: Board, colour: bool = False, new=()) -> str:
    """The board as text. Pre-placed pieces are upper case (R5), pieces in ``new`` lower case (r5)."""
    mission: Mission = board.mission
    new_cards = {p.card for p in new}
    owner = {}
    for p in board.pieces.values():
        for c in p.cells:
            owner[c] = p.card
    bird_at = {c: b.letter for b in mission.birds for c in b.cells}
    marks = mission.mark_map
    lines = ["    " + "".join(f" {k} " for k in COLUMNS[:SIZE])]
    for r in range(SIZE):
        parts = []
        for k in range(SIZE):
            c = cell(r, k)
            if c in owner:
                card = owner[c]
                letter = card.colour.letter if card in new_cards else card.colour.letter.upper()
                text = f"{letter}{card.value} "
                parts.append(_paint(text, f"1;97;{_BG[card.colour]}", colour))
            elif c in bird_at:
                parts.append(_paint(f" {bird_at[c]} ", "1;97;100", colour))
            elif c in marks:
                parts.append(_paint(f" {marks[c].letter} ", f"1;{_FG[marks[c]]}", colour))
            else:
                parts.append(_paint(" . ", "2", colour))
        lines.append(f"{r + 1:>3} " + "".join(parts))
    return "\n".join(lines)


def _paint(text: str, code: str, on: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if on else text


LEGEND = ("A-Z bird cells; r y g b p a coloured side still open; "
          "R5 a piece placed before play (colour letter + value), r5 a new piece")


def shape_rows(shape, fill: str = "#", empty: str = ".") -> list[str]:
    """A piece's shape as rows of text (its catalog drawing)."""
    return shape.format().replace("#", fill).replace(".", empty).split("/")


def shape_strip(labelled: list[tuple[str, object]], colour: bool = False, width: int = 100,
                colours: list | None = None) -> str:
    """Shapes side by side, each under its label (``[(label, Shape)]``), wrapped at ``width``
    characters: the pieces beside a question's choices, and `kakapo pieces`."""
    blocks = []
    for k, (label, shape) in enumerate(labelled):
        rows = shape_rows(shape, "#", " ")
        w = max(len(label), max(len(r) for r in rows))
        paint = colours[k] if colours else None
        code = f"1;{_FG[paint]}" if paint is not None else ""
        body = [_paint(r.ljust(w), code, colour and bool(code)) if r.strip() else r.ljust(w) for r in rows]
        blocks.append((w, [label.ljust(w), *body]))
    out: list[str] = []
    line: list[tuple[int, list[str]]] = []
    used = 0
    for w, b in [*blocks, (0, [])]:
        if (not b or used + w + 3 > width) and line:
            height = max(len(x) for _, x in line)
            for i in range(height):
                out.append("   ".join((x[i] if i < len(x) else " " * bw) for bw, x in line).rstrip())
            out.append("")
            line, used = [], 0
        if b:
            line.append((w, b))
            used += w + 3
    return "\n".join(out).rstrip("\n")
