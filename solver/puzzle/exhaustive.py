"""A plain exhaustive solver (no CP-SAT), to cross-check the CP-SAT model on small missions.

For every set of ``clear`` birds that can still be scanned, iterative deepening
on the number of pieces: take the first ring cell not yet covered and try every
unused piece in every legal placement covering it (of the right colour if the
cell is marked). Complete, since any solution covers that cell with some piece.
Only for small missions and few available pieces: the search is exponential.
"""

from __future__ import annotations

from itertools import combinations

from solver.core.board import all_positions
from solver.core.cards import ALL_CARDS
from solver.core.rules import Board, Mission, Placement


def min_pieces(mission: Mission, catalog, exclude=(), max_pieces: int = 6) -> list[Placement] | None:
    """Fewest new placements that clear the mission, or None if none with <= max_pieces."""
    start = Board.start(mission)
    birds = [b for b in mission.birds if start.can_still_be_scanned(b)]
    pieces = [c for c in ALL_CARDS if c not in set(exclude) and not start.is_used(c)]
    positions = {c: _covering(catalog[c]) for c in pieces}
    marks = mission.mark_map
    best: list[Placement] | None = None
    for group in combinations(birds, mission.clear):
        need = 0
        for b in group:
            need |= b.ring
        need &= ~start.occupied
        limit = max_pieces if best is None else len(best) - 1
        for depth in range(0, limit + 1):
            found = _search(start, need, marks, pieces, positions, depth, [])
            if found is not None:
                best = found
                break
    return best


def _search(board: Board, need: int, marks, pieces, positions, depth: int, chosen: list[Placement]):
    open_cells = need & ~board.occupied
    if not open_cells:
        return list(chosen)
    if depth == 0:
        return None
    if bin(open_cells).count("1") > _largest(board, pieces, positions, depth):
        return None
    for p, nxt in _moves(board, need, marks, pieces, positions, open_cells):
        chosen.append(p)
        found = _search(nxt, need, marks, pieces, positions, depth - 1, chosen)
        chosen.pop()
        if found is not None:
            return found
    return None


def _covering(shape) -> tuple[int, dict[int, list]]:
    """A piece's size, and its positions on the board by the cells they cover."""
    by_cell: dict[int, list] = {}
    for cells in all_positions(shape):
        for c in cells:
            by_cell.setdefault(c, []).append(cells)
    return len(shape.cells), by_cell


def _largest(board: Board, cards, positions, depth: int) -> int:
    """A bound: the cells the ``depth`` largest unused pieces cover together."""
    sizes = sorted((positions[c][0] for c in cards if not board.is_used(c)), reverse=True)
    return sum(sizes[:depth])


def _moves(board: Board, need: int, marks, pieces, positions, open_cells: int):
    """(placement, board after it) for every legal placement of an unused piece that covers the
    first open cell without spoiling a coloured side that is needed."""
    target = (open_cells & -open_cells).bit_length() - 1
    want = marks.get(target)
    for card in pieces:
        if board.is_used(card) or (want is not None and card.colour != want):
            continue
        for cells in positions[card][1].get(target, ()):
            p = Placement(card, cells)
            if board.placement_problem(p) is not None:
                continue
            if any(c in marks and marks[c] != card.colour and (need >> c) & 1 for c in cells):
                continue  # would spoil a coloured side we need
            nxt = board.copy()
            nxt.place(p)
            yield p, nxt


def all_answers(mission: Mission, catalog, pieces: int, exclude=()) -> set[frozenset[Placement]]:
    """Every arrangement of exactly ``pieces`` new placements that clears the mission, when no
    fewer can (``pieces`` is the minimum): the same search, collecting instead of stopping. Each
    piece of a fewest answer covers a needed cell, and the first open cell of an answer is covered
    by exactly one of its pieces, so the search meets every answer; different groups of birds can
    meet one answer twice, hence the set."""
    start = Board.start(mission)
    birds = [b for b in mission.birds if start.can_still_be_scanned(b)]
    cards = [c for c in ALL_CARDS if c not in set(exclude) and not start.is_used(c)]
    positions = {c: _covering(catalog[c]) for c in cards}
    out: set[frozenset[Placement]] = set()
    for group in combinations(birds, mission.clear):
        need = 0
        for b in group:
            need |= b.ring
        _collect(start, need & ~start.occupied, mission.mark_map, cards, positions, pieces, [], out)
    return out


def _collect(board: Board, need: int, marks, cards, positions, depth: int, chosen: list[Placement], out) -> None:
    open_cells = need & ~board.occupied
    if not open_cells:
        if depth == 0:
            out.add(frozenset(chosen))
        return
    if depth == 0 or bin(open_cells).count("1") > _largest(board, cards, positions, depth):
        return
    for p, nxt in _moves(board, need, marks, cards, positions, open_cells):
        chosen.append(p)
        _collect(nxt, need, marks, cards, positions, depth - 1, chosen, out)
        chosen.pop()
