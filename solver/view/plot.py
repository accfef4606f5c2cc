"""Pictures of a board with matplotlib (imported only here): the PNG of `show` and `solve`, and the
board every printed card draws (``draw_board``)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import Circle, Patch, Rectangle

from solver.core.board import COLUMNS, SIZE, col_of, row_of
from solver.core.cards import ALL_CARDS, VALUES, Colour
from solver.core.rules import Board
from solver.io.safefiles import save_figure

FILL = {Colour.RED: "#d62728", Colour.YELLOW: "#f2c400", Colour.GREEN: "#2ca02c",
        Colour.BLUE: "#1f77b4", Colour.PURPLE: "#8e44ad"}


def save_png(board: Board, path: str, title: str = "", new=(), culprits=(), culprit_birds=()) -> None:
    """The board; ``new`` pieces outlined, every piece labelled with its name (``red-4``: the order
    of placement does not matter for an answer, legality being monotone); ``culprits`` (cells)
    and ``culprit_birds`` (letters) circled in red: why a mission cannot be cleared."""
    fig, ax = plt.subplots(figsize=(6.4, 7.2), dpi=110)
    circled = draw_board(ax, board, new, culprits, culprit_birds=culprit_birds)
    if title:
        ax.set_title(title, pad=22)
    legend = [Patch(facecolor="#444444", label="bird"),
              Patch(facecolor="#9a9a9a", hatch="xx", label="bird that can never be scanned"),
              Patch(facecolor="white", edgecolor=FILL[Colour.BLUE], lw=3, label="coloured side"),
              Patch(facecolor="#bbbbbb", hatch="//", alpha=0.6, label="piece placed before"),
              Patch(facecolor="#bbbbbb", edgecolor="black", lw=1.8, label="new piece (labelled with its name)")]
    if circled:
        legend.append(Patch(facecolor="none", edgecolor="#e00000", lw=2.2, label="why it cannot be cleared"))
    ax.legend(handles=legend, loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=3, fontsize=7, frameon=False)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)


def draw_board(ax, board: Board, new=(), culprits=(), *, culprit_birds=(), scale: float = 1.0,
               decoys: bool = True, grid: str = "#cccccc", cell_points: float | None = None) -> bool:
    """The board on ``ax`` (cells 0..SIZE in data units, row 1 at the top, column and row names
    around it); font sizes and line widths times ``scale`` (1: a cell of about 33 points, as in
    ``save_png``). ``decoys``: birds that can never be scanned drawn as such (a setup card draws
    every bird alike), ``grid`` the lines' colour; ``cell_points``: a cell's size in points, for
    pieces' names that stay inside their piece (a printed card). True when something is circled."""
    mission = board.mission
    ax.set_xlim(0, SIZE)
    ax.set_ylim(SIZE, 0)
    ax.set_aspect("equal")
    for i in range(SIZE + 1):
        ax.plot([0, SIZE], [i, i], color=grid, lw=0.6 * max(scale, 0.6), zorder=1)
        ax.plot([i, i], [0, SIZE], color=grid, lw=0.6 * max(scale, 0.6), zorder=1)
    fresh_cards = {p.card for p in new}
    for p in board.pieces.values():
        colour = FILL[p.card.colour]
        fresh = p.card in fresh_cards
        for c in p.cells:
            ax.add_patch(Rectangle((col_of(c), row_of(c)), 1, 1, facecolor=colour, edgecolor="none",
                                   alpha=1.0 if fresh else 0.45, hatch=None if fresh else "//", zorder=2))
        _outline(ax, p.cells, lw=(1.8 if fresh else 1.0) * scale)
        ink = "black" if p.card.colour == Colour.YELLOW or not fresh else "white"  # readable on yellow
        name = str(p.card)
        if cell_points is None:
            first = min(p.cells)
            x, y, size, turn = col_of(first) + 0.5, row_of(first) + 0.5, max(6.5 * scale, 4.5), 0
        else:  # along the piece's longest run of cells, as large as fits there
            x, y, run, turn = label_spot(p.cells)
            size = min(9.0 * scale, run * cell_points * 0.85 / (0.62 * len(name)), cell_points * 0.55)
        ax.text(x, y, name, ha="center", va="center", rotation=turn,
                color=ink, fontsize=size, weight="bold", zorder=5,
                # on the hatching of an old piece: a white ground
                bbox=None if fresh else dict(boxstyle="round,pad=0.1", facecolor="white", alpha=0.85, edgecolor="none"))
    marks = mission.mark_map
    for b in mission.birds:
        decoy = decoys and not board.can_still_be_scanned(b)  # a decoy, or spoiled on this board
        for c in b.cells:
            ax.add_patch(Rectangle((col_of(c), row_of(c)), 1, 1, facecolor="#9a9a9a" if decoy else "#444444",
                                   edgecolor="none", hatch="xx" if decoy else None, zorder=2))
        _outline(ax, b.cells, color="white", lw=1.5 * scale)
        first = min(b.cells)
        ax.text(col_of(first) + 0.5, row_of(first) + 0.5, b.letter + ("\n(never)" if decoy else ""), ha="center",
                va="center", color="white", fontsize=max((11 if not decoy else 7) * scale, 6.5), weight="bold",
                zorder=5,
                bbox=dict(boxstyle="round,pad=0.15", facecolor="#333333", edgecolor="none") if decoy else None)
        for c in b.cells:  # coloured sides: a thick bar on the bird edge facing the mark
            r, k = row_of(c), col_of(c)
            for dr, dk in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                n = (r + dr) * SIZE + (k + dk)
                if 0 <= r + dr < SIZE and 0 <= k + dk < SIZE and n in marks:
                    if dr:
                        y = r + (0 if dr < 0 else 1)
                        ax.plot([k + 0.1, k + 0.9], [y, y], color=FILL[marks[n]], lw=5 * scale, zorder=6,
                                solid_capstyle="butt")
                    else:
                        x = k + (0 if dk < 0 else 1)
                        ax.plot([x, x], [r + 0.1, r + 0.9], color=FILL[marks[n]], lw=5 * scale, zorder=6,
                                solid_capstyle="butt")
    for c, col in marks.items():
        if not (board.occupied >> c) & 1:
            ax.add_patch(Rectangle((col_of(c) + 0.3, row_of(c) + 0.3), 0.4, 0.4, facecolor=FILL[col],
                                   edgecolor="none", zorder=3))
    circled = set(culprits) | {c for b in mission.birds if b.letter in set(culprit_birds) for c in b.cells}
    for c in circled:
        ax.add_patch(Circle((col_of(c) + 0.5, row_of(c) + 0.5), 0.62, facecolor="none", edgecolor="#e00000",
                            lw=2.2 * scale, zorder=7))
    ax.set_xticks([i + 0.5 for i in range(SIZE)], list(COLUMNS[:SIZE]))
    ax.set_yticks([i + 0.5 for i in range(SIZE)], [str(i + 1) for i in range(SIZE)])
    ax.xaxis.tick_top()
    ax.tick_params(length=0, labelsize=max(10 * scale, 6), pad=3.5 * scale)
    for s in ax.spines.values():
        s.set_visible(False)
    return bool(circled)


def label_spot(cells) -> tuple[float, float, int, int]:
    """Where a piece's name goes: the middle of its longest straight run of cells (x, y in board
    units), the run's length, and 90 when the run is upright (the name is turned)."""
    cells = set(cells)
    best = (0, 0.0, 0.0, 0)
    for c in sorted(cells):
        r, k = row_of(c), col_of(c)
        if (r * SIZE + k - 1) not in cells or k == 0:  # a run going right starts here
            n = 1
            while k + n < SIZE and r * SIZE + k + n in cells:
                n += 1
            best = max(best, (n, k + n / 2, r + 0.5, 0), key=lambda b: b[0])
        if (r - 1) * SIZE + k not in cells:  # a run going down starts here
            n = 1
            while r + n < SIZE and (r + n) * SIZE + k in cells:
                n += 1
            if n > best[0]:
                best = (n, k + 0.5, r + n / 2, 90)
    n, x, y, turn = best
    return x, y, n, turn


def _outline(ax, cells, color="black", lw=1.2):
    cells = set(cells)
    for c in cells:
        r, k = row_of(c), col_of(c)
        for dr, dk, seg in ((-1, 0, ([k, k + 1], [r, r])), (1, 0, ([k, k + 1], [r + 1, r + 1])),
                            (0, -1, ([k, k], [r, r + 1])), (0, 1, ([k + 1, k + 1], [r, r + 1]))):
            rr, kk = r + dr, k + dk
            if not (0 <= rr < SIZE and 0 <= kk < SIZE) or rr * SIZE + kk not in cells:
                ax.plot(*seg, color=color, lw=lw, zorder=4)



def save_pieces_png(catalog, path: str, title: str = "") -> None:
    """The catalog: a row per colour, a column per value, each piece drawn with its name."""
    fig, axes = plt.subplots(len(Colour), len(VALUES), figsize=(12, 8), dpi=100)
    for card in ALL_CARDS:
        ax = axes[list(Colour).index(card.colour)][card.value - 1]
        cells = catalog[card].cells
        h = max(r for r, _ in cells) + 1
        w = max(c for _, c in cells) + 1
        side = max(h, w, 3)
        for r, c in cells:
            ax.add_patch(Rectangle((c + (side - w) / 2, r + (side - h) / 2), 1, 1, facecolor=FILL[card.colour],
                                   edgecolor="#333", lw=0.8))
        ax.set_xlim(-0.2, side + 0.2)
        ax.set_ylim(side + 0.2, -0.2)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.set_title(str(card), fontsize=10)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
