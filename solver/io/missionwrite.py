"""Writing a mission: as a TOML file in the format of the mission files (the inverse of missionfile.py),
and as the JSON document of `kakapo show --json`."""

from __future__ import annotations

import json

from solver.core.board import SIZE, cell_name, col_of, row_of
from solver.core.rules import Board, Mission, blocked_reason
from solver.core.spec import MODE_RULES
from solver.io.missionfile import made_with


def board_rows(m: Mission) -> list[str]:
    """The board as the file draws it: 12 rows of '.', bird letters and coloured-side letters."""
    grid = [["."] * SIZE for _ in range(SIZE)]
    for b in m.birds:
        for c in b.cells:
            grid[row_of(c)][col_of(c)] = b.letter
    for c, col in m.marks:
        grid[row_of(c)][col_of(c)] = col.letter
    return ["".join(r) for r in grid]


def mission_toml(m: Mission, comment: str | None = None) -> str:
    out = [f"# {line}" for line in (comment or "").splitlines()]
    out.append(f"name = {json.dumps(m.name)}")  # a JSON string is a valid TOML basic string
    if m.story:
        out.append(f"story = {json.dumps(m.story)}")
    out.append(f'mode = "{m.mode}"')
    out.append("clear = " + ('"all"' if m.clear_all else str(m.clear)))
    if m.rounds != MODE_RULES[m.mode].rounds:
        out.append(f"rounds = {m.rounds}")
    if m.skills != MODE_RULES[m.mode].skills:
        out.append(f"skills = {m.skills}")
    digest = made_with(m)
    if digest:
        out.append(f'pieces_digest = "{digest}"')
    out.append('board = """')
    out += board_rows(m)
    out.append('"""')
    for p in m.placed:
        cells = ", ".join(f'"{cell_name(c)}"' for c in sorted(p.cells))
        out += ["", "[[placed]]", f'piece = "{p.card}"', f"cells = [{cells}]"]
    return "\n".join(out) + "\n"


def mission_json(m: Mission) -> dict:
    """`kakapo show --json`: the mission's settings, birds (and why one can never be scanned), coloured
    sides, pieces placed before play and the birds they scan already."""
    return {
        "mission": m.id, "name": m.name, "mode": m.mode, "clear": m.clear, "rounds": m.rounds, "skills": m.skills,
        "birds": [{"bird": b.letter, "cells": [cell_name(c) for c in sorted(b.cells)],
                   "blocked": blocked_reason(m, b)} for b in m.birds],
        "marks": {cell_name(c): str(col) for c, col in m.marks},
        "placed": [p.to_json() for p in m.placed],
        "scanned": Board.start(m).scanned(),
    }


def board_json(board: Board) -> dict:
    """A board as a page draws it: the pieces on it, the birds scanned (with their cells), and for
    each bird not scanned yet the cells around it still to cover (``needed``: a cell's colour when
    its side is coloured, else null)."""
    m = board.mission
    marks = {c: str(col) for c, col in m.marks}
    scanned = set(board.scanned())
    needed = {}
    for b in m.birds:
        if b.letter in scanned:
            continue
        open_ = [c for c in range(SIZE * SIZE) if b.ring >> c & 1 and not board.occupied >> c & 1]
        needed[b.letter] = {cell_name(c): marks.get(c) for c in open_}
    return {"pieces": [p.to_json() for p in board.pieces.values()], "scanned": sorted(scanned),
            "scanned_cells": sorted(cell_name(c) for b in m.birds if b.letter in scanned for c in b.cells),
            "needed": needed}
