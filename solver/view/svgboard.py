"""A board as an inline SVG picture (for HTML pages: no image files, no matplotlib)."""

from __future__ import annotations

from html import escape

from solver.core.board import SIZE, col_of, row_of
from solver.core.cards import Colour
from solver.core.rules import Board

FILL = {Colour.RED: "#d62728", Colour.YELLOW: "#f2c400", Colour.GREEN: "#2ca02c",
        Colour.BLUE: "#1f77b4", Colour.PURPLE: "#8e44ad"}


def board_svg(board: Board, cell: int = 13, new=(), title: str = "", ghost=()) -> str:
    """Pieces filled with their colour (those in ``new`` outlined in black, the others paler),
    birds dark grey with their letter (green once scanned), coloured sides as small squares;
    ``ghost``: placements not made (a better move), drawn as dashed outlines of their colour."""
    side = SIZE * cell
    fresh = {p.card for p in new}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" viewBox="0 0 {side} {side}" '
             f'role="img" aria-label="{escape(title or "board")}">',
             f'<rect width="{side}" height="{side}" fill="#fafafa" stroke="#bbb"/>']
    for i in range(1, SIZE):
        parts.append(f'<path d="M0 {i * cell}H{side}M{i * cell} 0V{side}" stroke="#e4e4e4" stroke-width="1"/>')
    for c, colour in board.mission.marks:
        x, y = col_of(c) * cell, row_of(c) * cell
        parts.append(f'<rect x="{x + cell * 0.3:.1f}" y="{y + cell * 0.3:.1f}" width="{cell * 0.4:.1f}" '
                     f'height="{cell * 0.4:.1f}" fill="{FILL[colour]}"/>')
    scanned = set(board.scanned())
    for b in board.mission.birds:
        ground = "#2e7d32" if b.letter in scanned else "#555"
        for c in b.cells:
            parts.append(f'<rect x="{col_of(c) * cell}" y="{row_of(c) * cell}" width="{cell}" height="{cell}" '
                         f'fill="{ground}"/>')
        first = min(b.cells)
        parts.append(f'<text x="{col_of(first) * cell + cell / 2}" y="{row_of(first) * cell + cell * 0.78:.1f}" '
                     f'font-size="{cell * 0.75:.0f}" text-anchor="middle" fill="#fff" '
                     f'font-family="sans-serif">{escape(b.letter)}</text>')
    for p in board.pieces.values():
        stroke = ' stroke="#000" stroke-width="1.2"' if p.card in fresh else ""
        opacity = "1" if p.card in fresh else "0.55"
        for c in p.cells:
            parts.append(f'<rect x="{col_of(c) * cell}" y="{row_of(c) * cell}" width="{cell}" height="{cell}" '
                         f'fill="{FILL[p.card.colour]}" fill-opacity="{opacity}"{stroke}>'
                         f'<title>{escape(str(p.card))}</title></rect>')
    for p in ghost:
        for c in p.cells:
            parts.append(f'<rect x="{col_of(c) * cell + 1}" y="{row_of(c) * cell + 1}" width="{cell - 2}" '
                         f'height="{cell - 2}" fill="{FILL[p.card.colour]}" fill-opacity="0.25" '
                         f'stroke="{FILL[p.card.colour]}" stroke-width="1.5" stroke-dasharray="3 2">'
                         f'<title>{escape(str(p.card))} (the better move)</title></rect>')
    parts.append("</svg>")
    return "".join(parts)
