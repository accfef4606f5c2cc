"""A library of the puzzle's solutions: many different sets of pieces that scan the mission,
each with one arrangement. Public information (mission and catalog only), shared by the
open-hand search and the planner.

Solutions come from one search, ``complete``: given pieces already on the board and the birds
to scan, it lists the arrangements of the fewest further pieces (and up to ``extra`` more)
that cover every open cell around those birds with the right colours, depth-first over the
open cell with the fewest candidate placements, with iterative deepening on the number of
pieces. It is used in two ways:
- neighbourhoods: from a known solution (first the mission solver's optimal one), take away
  the pieces around one or two birds and complete again; new solutions are explored in
  turn, breadth first. This keeps the structure of good solutions, such as one piece that
  serves two birds;
- bird by bird: the covers of one bird, then of the next on the board they leave, in
  several orders and for every choice of ``clear`` birds, for variety.
Every solution is checked by the rules module before it is kept.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations, permutations

import numpy as np

from solver.core.board import all_positions
from solver.core.cards import ALL_CARDS, Card
from solver.core.rules import Board, Mission, Placement, cells_of, check_placements, halo, mask_of
from solver.puzzle.coversearch import MAX_DEPTH, complete
from solver.puzzle.solution import Solution
from solver.runtime.bits import split

MAX_SOLUTIONS = 3000
DEFAULT_BUDGET = 1000000  # search nodes for the whole library (deterministic, unlike seconds)
CALL_BUDGET = 60000  # search nodes for one completion
NEIGHBOURS = 40  # completions kept per neighbourhood
LEVEL_WIDTH = (20, 6, 3, 2, 2, 2)  # covers kept per level of the bird-by-bird search
MAX_ORDERS = 6


class _OutOfBudget(Exception):
    pass


def _words(m: int) -> np.ndarray:
    return np.array(split(m), np.int64)


class LibraryBuilder:
    def __init__(self, mission: Mission, catalog, budget: int):
        self.mission = mission
        self.catalog = catalog
        self.budget = budget
        self.board = board = Board.start(mission)
        self.birds = {b.letter: b for b in mission.birds if board.can_still_be_scanned(b)}
        marks = mission.mark_map
        self.marked_col = [0] * 5
        for c, colour in marks.items():
            self.marked_col[int(colour)] |= 1 << c
        marked = sum(self.marked_col)
        rings = 0
        for b in self.birds.values():
            rings |= b.ring
        self.open0 = rings & ~board.occupied
        # every placement legal at the start that covers an open cell around a bird
        self.cand: dict[int, list[tuple[Card, int, int, int]]] = {c: [] for c in cells_of(self.open0)}
        for card in ALL_CARDS:
            if board.is_used(card):
                continue
            col = int(card.colour)
            for cells in all_positions(catalog[card]):
                m = mask_of(cells)
                if m & self.open0 and board.is_legal_mask(col, m):
                    h = halo(m)
                    for c in cells_of(m & self.open0):
                        self.cand[c].append((card, m, col, h))
        self.wrong = [marked & ~self.marked_col[col] for col in range(5)]
        self.found: dict[int, Solution] = {}
        # the same candidates as flat arrays for the search kernel
        ids: dict[tuple[Card, int], int] = {}
        cell_lists = {c: [ids.setdefault((card, m), len(ids)) for card, m, _, _ in self.cand[c]] for c in self.cand}
        self.cands = list(ids)
        self.cell_start = np.zeros(145, np.int64)
        flat: list[int] = []
        for c in range(144):
            self.cell_start[c] = len(flat)
            flat += cell_lists.get(c, [])
        self.cell_start[144] = len(flat)
        self.cell_cands = np.array(flat, np.int64)
        self.cand_card = np.array([card.index for card, _ in self.cands], np.int64)
        self.cand_col = np.array([int(card.colour) for card, _ in self.cands], np.int64)
        self.cand_mask = np.array([_words(m) for _, m in self.cands], np.int64).reshape(-1, 3)
        self.cand_halo = np.array([_words(halo(m)) for _, m in self.cands], np.int64).reshape(-1, 3)

    # ------------------------------------------------------------ the one search
    def complete(self, letters, placed: list[tuple[Card, int]], extra: int, limit: int):
        """Lists of further (card, mask) that, with ``placed``, scan every bird in ``letters``."""
        occ = self.board.occupied
        cms = list(self.board.colour_masks)
        used = sum(1 << c.index for c in self.board.pieces)
        for card, m in placed:
            occ |= m
            cms[int(card.colour)] |= m
            used |= 1 << card.index
        need = 0
        for letter in letters:
            need |= self.birds[letter].ring
        wrong = [self.wrong[col] & need for col in range(5)]
        if any(cms[col] & wrong[col] for col in range(5)):
            return []  # a coloured side of a wanted bird is spoiled
        left0 = need & ~occ
        if not left0:
            return [()]
        if self.budget <= 0:
            raise _OutOfBudget
        order = np.array(sorted(cells_of(left0), key=lambda c: (len(self.cand[c]), c)), np.int64)
        out = np.zeros((limit, MAX_DEPTH), np.int64)
        out_len = np.zeros(limit, np.int64)
        start = (_words(left0), _words(occ), np.array([_words(m) for m in cms], np.int64), used,
                 np.array([_words(w) for w in wrong], np.int64))
        cands = (self.cell_start, self.cell_cands, self.cand_card, self.cand_col, self.cand_mask, self.cand_halo)
        found, nodes = complete(start, order, cands, extra, limit, min(CALL_BUDGET, self.budget), (out, out_len))
        self.budget -= nodes
        return [tuple(self.cands[j] for j in out[i, :out_len[i]]) for i in range(found)]

    def add(self, pieces) -> Solution | None:
        pieces = list(pieces)
        cards = sum(1 << card.index for card, _ in pieces)
        if cards in self.found:  # before the placements are built: most finds are found again
            return None
        placements = tuple(sorted((Placement(card, frozenset(cells_of(m))) for card, m in pieces),
                                  key=lambda p: p.card))
        _, scanned = check_placements(self.mission, self.catalog, placements)
        if len(scanned) < self.mission.clear:
            return None
        s = self.found[cards] = Solution(placements, cards)
        return s

    # ------------------------------------------------------------ two ways to use it
    def neighbourhoods(self, seed: Solution, max_solutions: int, extra: int) -> None:
        queue = deque([seed])
        while queue and len(self.found) < max_solutions:
            s = queue.popleft()
            pieces = [(p.card, p.mask) for p in s.placements]
            scanned = [b for b in check_placements(self.mission, self.catalog, s.placements)[1]
                       if b in self.birds][: self.mission.clear]
            for group in [(b,) for b in scanned] + list(combinations(scanned, 2)):
                ring = 0
                for letter in group:
                    ring |= self.birds[letter].ring
                keep = [(c, m) for c, m in pieces if not m & ring]
                for more in self.complete(scanned, keep, extra, NEIGHBOURS):
                    new = self.add(keep + list(more))
                    if new is not None:
                        queue.append(new)
                    if len(self.found) >= max_solutions:
                        return

    def bird_by_bird(self, max_solutions: int, extra: int) -> None:
        orders = []
        for group in combinations(sorted(self.birds), self.mission.clear):
            orders += list(permutations(group))[:MAX_ORDERS]
        quota_each = max(1, (max_solutions - len(self.found)) // max(1, len(orders)))
        for order in orders:
            quota = min(max_solutions, len(self.found) + quota_each)

            def level(i, chosen, order=order, quota=quota) -> bool:
                if i == len(order):
                    self.add(chosen)
                    return len(self.found) >= quota
                width = LEVEL_WIDTH[min(i, len(LEVEL_WIDTH) - 1)]
                for cover in self.complete([order[i]], chosen, extra, width):
                    if level(i + 1, chosen + list(cover), order, quota):
                        return True
                return False

            level(0, [])


def build_library(mission: Mission, catalog, extra: int = 1, max_solutions: int = MAX_SOLUTIONS,
                  budget: int = DEFAULT_BUDGET, optimal=None) -> list[Solution]:
    """Solutions sorted by size (then by their pieces); ``optimal`` is a list of placements
    (the mission solver's answer) to start the neighbourhoods from."""
    b = LibraryBuilder(mission, catalog, budget)
    try:
        if len(b.birds) >= mission.clear:
            seed = b.add((p.card, p.mask) for p in optimal) if optimal else None
            if seed is not None:
                b.neighbourhoods(seed, max_solutions // 2, extra)
            b.bird_by_bird(max_solutions, extra)
    except _OutOfBudget:
        pass
    return sorted(b.found.values(), key=lambda s: (s.size, sorted(p.card for p in s.placements)))
