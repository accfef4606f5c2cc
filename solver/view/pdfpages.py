"""Printed pages (PDF, matplotlib): a mission as a card to set up the board at the table, and a
blank game sheet to write a game on as it is played, laid out as `kakapo record` reads it.

Everything is measured in millimetres on the paper; the board is drawn to scale (the card says
the size of a cell) by the board drawing every picture uses (``plot.draw_board``). Text stays
text in the PDF (TrueType fonts embedded), so that the page can be searched, copied and read
back by a program; the file's bytes depend only on what is printed (no date inside).
"""

from __future__ import annotations

import io
import textwrap
from dataclasses import dataclass
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from solver.core.rules import Board
from solver.view.plot import draw_board

PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # width, height in mm (portrait)
PER_PAGE = (1, 2, 4)
MARGIN = 10.0  # mm around the page: what any printer prints
CUT = 6.0  # mm between a card and a cut line
PT = 25.4 / 72  # mm in a point
BOARD_CELLS = 12
INK, GREY, LIGHT = "#111111", "#555555", "#aaaaaa"


@dataclass(frozen=True)
class CardText:
    """What a mission's card says besides its board (app/printed.py fills it in)."""

    title: str  # the mission's name
    subtitle: str  # id, mode, table sizes
    story: str
    facts: tuple[tuple[str, str], ...]  # (label, value) in order: rounds, birds to clear, fewest pieces ...


@dataclass(frozen=True)
class SheetLayout:
    """A blank game sheet: the lines `kakapo record` reads, with room to write."""

    title: str  # a comment line: the mission in words
    mission: str  # what follows ``mission:``
    pieces: str | None  # what follows ``pieces:`` (None: the bundled catalog, no line)
    players: int
    rounds: int
    plays: int  # plays in a round (every person's cards)
    notes: tuple[str, ...]  # more comment lines (how to write a round, where the files go)


class Page:
    """One sheet of paper: drawing in millimetres from its top-left corner."""

    def __init__(self, width: float, height: float):
        self.w, self.h = width, height
        self.fig: Figure = plt.figure(figsize=(width / 25.4, height / 25.4))

    def text(self, x: float, y: float, s: str, size: float, weight: str = "normal", style: str = "normal",
             color: str = INK, ha: str = "left") -> None:
        """``s`` with its top at ``y``."""
        self.fig.text(x / self.w, 1 - y / self.h, s, fontsize=size, fontweight=weight, fontstyle=style, color=color,
                      ha=ha, va="top")

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.5, color: str = GREY,
             dashes: bool = False) -> None:
        self.fig.add_artist(matplotlib.lines.Line2D([x0 / self.w, x1 / self.w], [1 - y0 / self.h, 1 - y1 / self.h],
                                                    lw=width, color=color, linestyle=(0, (3, 3)) if dashes else "-"))

    def axes(self, x: float, y: float, w: float, h: float) -> Any:
        return self.fig.add_axes((x / self.w, 1 - (y + h) / self.h, w / self.w, h / self.h))


def line_height(size: float) -> float:
    return size * PT * 1.32


def wrap(text: str, width_mm: float, size: float, bold: bool = False) -> list[str]:
    """``text`` in lines that fit ``width_mm`` at ``size`` points (DejaVu Sans: a character is at
    most about 0.6 of the size wide on average; bold a little more)."""
    per_char = size * PT * (0.63 if bold else 0.57)
    chars = max(8, int(width_mm / per_char))
    return textwrap.wrap(text, chars, break_on_hyphens=False) or [""]


def _pdf_fonts() -> Any:
    """TrueType fonts, embedded: the text stays text in the PDF."""
    return plt.rc_context({"pdf.fonttype": 42, "font.family": "DejaVu Sans"})


def pdf_bytes(pages: list[Figure], title: str) -> bytes:
    out = io.BytesIO()
    with PdfPages(out, metadata={"Title": title, "Creator": "kakapo", "Producer": "kakapo (matplotlib)",
                                 "CreationDate": None}) as pdf:
        for fig in pages:
            pdf.savefig(fig)
            plt.close(fig)
    return out.getvalue()


# ---------------------------------------------------------------- mission cards
def cards_pdf(cards: list[tuple[Board, CardText]], paper: str = "a4", per_page: int = 1, title: str = "") -> bytes:
    """A card per mission, ``per_page`` on a page (1: the page portrait; 2: two halves, each card
    wide; 4: four quarters), cut lines between them."""
    width, height = PAPER[paper]
    cell = cards_cell([card for _, card in cards], paper, per_page)  # one scale for every card printed
    pages = []
    with _pdf_fonts():
        for start in range(0, len(cards), per_page):
            page = Page(width, height)
            for slot, (board, card) in enumerate(cards[start:start + per_page]):
                draw_card(page, board, card, _slot(width, height, per_page, slot), cell, wide=per_page == 2)
            _cut_lines(page, per_page)
            pages.append(page.fig)
        return pdf_bytes(pages, title or "kakapo missions")


def _slot(width: float, height: float, per_page: int, slot: int) -> tuple[float, float, float, float]:
    """The area of card ``slot`` on the page (x, y, w, h in mm), a margin inside every cut."""
    inner_w, inner_h = width - 2 * MARGIN, height - 2 * MARGIN
    if per_page == 1:
        return MARGIN, MARGIN, inner_w, inner_h
    if per_page == 2:
        h = (inner_h - 2 * CUT) / 2
        return MARGIN, MARGIN + slot * (h + 2 * CUT), inner_w, h
    w, h = (inner_w - 2 * CUT) / 2, (inner_h - 2 * CUT) / 2
    return MARGIN + (slot % 2) * (w + 2 * CUT), MARGIN + (slot // 2) * (h + 2 * CUT), w, h


def _cut_lines(page: Page, per_page: int) -> None:
    if per_page >= 2:
        page.line(0, page.h / 2, page.w, page.h / 2, 0.4, LIGHT, dashes=True)
    if per_page == 4:
        page.line(page.w / 2, 0, page.w / 2, page.h, 0.4, LIGHT, dashes=True)


def _sizes(w: float) -> tuple[float, float, float, float]:
    """Font sizes (title, body, facts, small) for a card ``w`` mm wide."""
    base = max(7.0, min(11.0, w / 190 * 11.5))
    return base * 1.75, base, base * 0.92, max(5.5, base * 0.72)


def _board_scale(cell_mm: float) -> float:
    return cell_mm / PT / 33  # draw_board's sizes are for a cell of about 33 points


def _gutter(cell_mm: float) -> float:
    """Room for the column letters above the board and the row numbers left of it."""
    return max(10 * _board_scale(cell_mm), 6) * PT * 2.4


def _text_block(card: CardText, width: float, sizes, with_title: bool) -> list[tuple[str, float, str, str, str, float]]:
    """The card's text as lines (text, size, weight, style, colour, indent), wrapped to ``width``."""
    title, body, _, _ = sizes
    lines: list[tuple[str, float, str, str, str, float]] = []
    if with_title:
        lines += [(t, title, "bold", "normal", INK, 0.0) for t in wrap(card.title, width, title, bold=True)]
        lines += [(t, body, "normal", "normal", GREY, 0.0) for t in wrap(card.subtitle, width, body)]
    if card.story:
        lines += [(t, body, "normal", "italic", INK, 0.0) for t in wrap(card.story, width, body)]
    return lines


def _facts(card: CardText, width: float, size: float) -> list[tuple[str, str]]:
    """(label, value line) rows: the label on a value's first line only."""
    label_w = _label_width(card, size)
    rows = []
    for label, value in card.facts:
        for k, part in enumerate(wrap(value, width - label_w, size)):
            rows.append((label if k == 0 else "", part))
    return rows


def _label_width(card: CardText, size: float) -> float:
    return max(len(label) for label, _ in card.facts) * size * PT * 0.63 + 3


def _height(lines, rows, facts_size: float, gaps: int) -> float:
    return sum(line_height(s) for _, s, *_ in lines) + len(rows) * line_height(facts_size) + gaps * 2.0


LEGEND = ("Birds: dark, with their letters. A coloured bar on a bird and the square beside it: that cell takes a "
          "piece of that colour. Pieces placed before the game: in their colours, named.")


def card_sizes(w: float, wide: bool) -> tuple[float, float, float, float]:
    return _sizes(w * 0.7 if wide else w)


def card_cell(card: CardText, w: float, h: float, wide: bool = False) -> float:
    """The largest cell (mm) the board of this card can have in an area ``w`` x ``h``."""
    sizes = card_sizes(w, wide)
    _, _, facts_size, small = sizes
    if not wide:
        lines = _text_block(card, w, sizes, with_title=True)
        rows = _facts(card, w, facts_size)
        legend_h = (len(wrap(LEGEND, w, small)) + 1) * line_height(small)
        return _cell_size(w, h - _height(lines, rows, facts_size, 3) - legend_h)
    head = _head(card, w, sizes)
    room = h - _height(head, [], facts_size, 1)
    cell = _cell_size(w * 0.58, room)
    while cell > 3:  # the legend under the board, in the board's width
        board_w = BOARD_CELLS * cell + _gutter(cell)
        if BOARD_CELLS * cell + _gutter(cell) + (len(wrap(LEGEND, board_w, small)) + 1) * line_height(small) <= room:
            break
        cell -= 0.5
    return cell


def _head(card: CardText, w: float, sizes) -> list[tuple[str, float, str, str, str, float]]:
    title, body, _, _ = sizes
    head = [(t, title, "bold", "normal", INK, 0.0) for t in wrap(card.title, w, title, bold=True)]
    return head + [(t, body, "normal", "normal", GREY, 0.0) for t in wrap(card.subtitle, w, body)]


def draw_card(page: Page, board: Board, card: CardText, area: tuple[float, float, float, float], cell: float,
              wide: bool = False) -> None:
    """One mission's card in the ``area`` (x, y, w, h in mm: ``_slot``), its board's cells ``cell`` mm
    (``card_cell`` at most): its name and story, the board to scale with its birds, coloured sides and
    placed pieces, and what the table needs to know."""
    x, y, w, _ = area
    sizes = card_sizes(w, wide)
    _, _, facts_size, small = sizes
    if not wide:
        yy = _draw_lines(page, _text_block(card, w, sizes, with_title=True), x, y) + 2.0
        yy = _draw_board(page, board, cell, x + (w - BOARD_CELLS * cell - _gutter(cell)) / 2, yy) + 1.0
        for t in [*wrap(LEGEND, w, small), _scale_words(cell)]:
            page.text(x, yy, t, small, color=GREY)
            yy += line_height(small)
        _draw_facts(page, card, _facts(card, w, facts_size), x, yy + 2.0, facts_size)
        return
    # wide: the name across the top, the board left, the rest right
    yy = _draw_lines(page, _head(card, w, sizes), x, y) + 2.0
    board_w = BOARD_CELLS * cell + _gutter(cell)
    _draw_board(page, board, cell, x, yy)
    right_x, right_w = x + board_w + 5.0, w - board_w - 5.0
    lines = _text_block(card, right_w, sizes, with_title=False)
    ry = _draw_lines(page, lines, right_x, yy + _gutter(cell)) + 2.0
    _draw_facts(page, card, _facts(card, right_w, facts_size), right_x, ry, facts_size)
    ly = yy + _gutter(cell) + BOARD_CELLS * cell + 1.0
    for t in [*wrap(LEGEND, board_w, small), _scale_words(cell)]:
        page.text(x, ly, t, small, color=GREY)
        ly += line_height(small)


def _cell_size(width: float, height: float) -> float:
    """The largest cell, in half millimetres, that puts the board and its names in the area."""
    cell = 20.0
    while cell > 3 and (BOARD_CELLS * cell + _gutter(cell) > width or BOARD_CELLS * cell + _gutter(cell) > height):
        cell -= 0.5
    return cell


def _scale_words(cell: float) -> str:
    return f"To scale: a cell is {cell:g} mm, the board {BOARD_CELLS * cell:g} mm a side."


def _draw_lines(page: Page, lines, x: float, y: float) -> float:
    for text, size, weight, style, colour, indent in lines:
        page.text(x + indent, y, text, size, weight, style, colour)
        y += line_height(size)
    return y


def _draw_board(page: Page, board: Board, cell: float, x: float, y: float) -> float:
    """The board with its names (a1 at the top left), its cells ``cell`` mm; the y below it."""
    g = _gutter(cell)
    ax = page.axes(x + g, y + g, BOARD_CELLS * cell, BOARD_CELLS * cell)
    draw_board(ax, board, new=list(board.pieces.values()), scale=_board_scale(cell), decoys=False, grid="#8a8a8a",
               cell_points=cell / PT)
    return y + g + BOARD_CELLS * cell


def _draw_facts(page: Page, card: CardText, rows, x: float, y: float, size: float) -> float:
    label_w = _label_width(card, size)
    for label, value in rows:
        if label:
            page.text(x, y, label, size, "bold")
        page.text(x + label_w, y, value, size)
        y += line_height(size)
    return y


# ---------------------------------------------------------------- the blank game sheet
def sheet_pdf(sheets: list[SheetLayout], paper: str = "a4") -> bytes:
    """A game sheet per mission, each a page on its side (landscape): every line printed is a line
    `kakapo record` reads (comments start with #), with room to write by hand."""
    height, width = PAPER[paper]  # landscape
    pages = []
    with _pdf_fonts():
        for layout in sheets:
            page = Page(width, height)
            draw_sheet(page, layout)
            pages.append(page.fig)
        return pdf_bytes(pages, "kakapo game sheet")


def draw_sheet(page: Page, s: SheetLayout) -> None:
    x, right = MARGIN, page.w - MARGIN
    y = MARGIN
    for part in wrap(s.title, right - x - 6, 11, bold=True):
        y = _mono_line(page, x, y, f"# {part}", 11, "bold")
    for note in s.notes:
        for part in wrap(note, right - x - 4, 7.5):
            y = _mono_line(page, x, y, f"# {part}", 7.5, color=GREY)
    y += 1.5
    y = _mono_line(page, x, y, f"mission: {s.mission}", 10)
    if s.pieces:
        y = _mono_line(page, x, y, f"pieces: {s.pieces}", 10)
    y += 1.0
    # players: a blank for each name, commas between them
    key_w = 20.0
    page.text(x, y + 2.0, "players:", 10)
    blank = min(45.0, (right - x - key_w) / s.players - 6)
    for k in range(s.players):
        bx = x + key_w + k * (blank + 6)
        page.line(bx, y + 7.0, bx + blank, y + 7.0, 0.6, INK)
        if k < s.players - 1:
            page.text(bx + blank + 1.5, y + 2.0, ",", 10)
    y += 11.0
    # the rounds: a box per play, in the order made, then / and the room for the pieces placed
    left_h = 12.0
    footer_h = 5.0
    row_h = min(15.0, (page.h - MARGIN - y - left_h - footer_h - 6.0) / s.rounds)
    number_w = 9.0
    play_w = min(30.0, (right - x - number_w) * 0.58 / s.plays)
    gap = 3.0
    pieces_x = x + number_w + s.plays * (play_w + gap) + 4.0
    y = _mono_line(page, x, y, "#  plays in the order made (NAME CARD)", 7.5, color=GREY)
    page.text(pieces_x - 4.0, y - line_height(7.5), "# pieces placed (PIECE CELL CELL ..., or -)", 7.5, color=GREY)
    y += 1.0
    for r in range(1, s.rounds + 1):
        base = y + row_h - 2.0
        page.text(x, base - 4.2, f"{r}.", 10)
        for k in range(s.plays):
            bx = x + number_w + k * (play_w + gap)
            page.line(bx, base, bx + play_w, base, 0.5, INK)
            if k < s.plays - 1:
                page.text(bx + play_w + 0.6, base - 4.2, ",", 10)
        page.text(pieces_x - 3.0, base - 4.2, "/", 10)
        page.line(pieces_x, base, right, base, 0.5, INK)
        page.line(x, y + row_h, right, y + row_h, 0.2, "#dddddd")
        y += row_h
    y += 3.0
    page.text(x, y + 2.0, "left:", 10)
    left_w = (right - x - 14.0) / s.players
    for k in range(s.players):
        bx = x + 14.0 + k * left_w
        page.line(bx, y + 7.0, bx + left_w - 6.0, y + 7.0, 0.6, INK)
        if k < s.players - 1:
            page.text(bx + left_w - 4.5, y + 2.0, ";", 10)
    y += left_h
    _mono_line(page, x, min(y, page.h - MARGIN - line_height(7)), "# typed up as written, it records: kakapo record "
               "SHEET.txt --log game.jsonl", 7, color=GREY)


def _mono_line(page: Page, x: float, y: float, text: str, size: float, weight: str = "normal",
               color: str = INK) -> float:
    page.text(x, y, text, size, weight, color=color)
    return y + line_height(size)


def cards_cell(cards: list[CardText], paper: str, per_page: int) -> float:
    """The cell (mm) the boards of these cards are printed with."""
    width, height = PAPER[paper]
    _, _, w, h = _slot(width, height, per_page, 0)
    return min(card_cell(card, w, h, per_page == 2) for card in cards)

