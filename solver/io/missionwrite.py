"""Writing a mission as a TOML file in the format of SPEC.md (the inverse of missionfile.py)."""

from __future__ import annotations

import json

from solver.core.board import SIZE, cell_name, col_of, row_of
from solver.core.rules import Mission
from solver.core.spec import MODE_RULES


def mission_toml(m: Mission, comment: str | None = None) -> str:
    grid = [["."] * SIZE for _ in range(SIZE)]
    for b in m.birds:
        for c in b.cells:
            grid[row_of(c)][col_of(c)] = b.letter
    for c, col in m.marks:
        grid[row_of(c)][col_of(c)] = col.letter
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
    out.append('board = """')
    out += ["".join(r) for r in grid]
    out.append('"""')
    for p in m.placed:
        cells = ", ".join(f'"{cell_name(c)}"' for c in sorted(p.cells))
        out += ["", "[[placed]]", f'piece = "{p.card}"', f"cells = [{cells}]"]
    return "\n".join(out) + "\n"
