"""Missions written by a test: a 12x12 board drawing and the file around it."""

from __future__ import annotations

EMPTY_ROWS = ["." * 12] * 12


def board_text(rows: dict[int, str] | None = None) -> str:
    """A 12x12 board drawing with the given 1-based rows replaced."""
    lines = list(EMPTY_ROWS)
    for r, text in (rows or {}).items():
        lines[r - 1] = text
    return "\n".join(lines)


def mission_text(board: str, mode: str = "buddy", clear="1", extra: str = "") -> str:
    return f'name = "Test"\nmode = "{mode}"\nclear = {clear}\nboard = """\n{board}\n"""\n{extra}'
