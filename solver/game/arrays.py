"""Flat NumPy arrays of a mission and catalog for the Numba engine.

Every geometric fact here is computed by solver.rules / solver.board (the one
rules module); the Numba kernels only look these arrays up. A 144-cell mask is
stored as three int64 words of 48 bits (4 board rows each), so that row shifts
stay inside signed 64-bit arithmetic.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from solver.core.board import NUM_CELLS, all_positions, position_index
from solver.core.cards import ALL_CARDS
from solver.core.rules import Board, blocked_reason, halo, mask_of
from solver.runtime.bits import join, split

GameArrays = namedtuple("GameArrays", [
    "pos_start", "pos_mask", "pos_halo", "pos_card", "pos_birds",  # every position of every piece
    "cand_start", "cand_ids",  # positions touching a live bird's ring, per piece
    "grp_start", "grp_mask", "grp_ub", "grp_birds", "grp_pos_start", "grp_pos",  # candidates by footprint
    "grp_foot", "foot_count",  # per group, its (footprint, colour) among all cards: their scores are shared
    "bkt_start", "bkt_grp",  # per (piece, bird) at piece * birds + bird: the piece's groups touching that bird
    "card_birds", "most_birds",  # per piece: birds any of its candidates touches; most one touches
    "cover_start", "cover_ids",  # per cell: candidate positions covering it
    "bird_ring", "bird_edge", "bird_live", "bird_all",
    "mark_colour", "mark_all", "mark_cell",
    "occupied", "colour_masks", "used",  # the board before play
    "clear", "max_size",
    # the planner's solutions (empty for the other policies): pieces, position per piece (-1: not in
    # it), all cells, cells per colour; the distinct (piece, position) pairs they use, per piece; and
    # per solution the pairs it is made of
    "sol_cards", "sol_pos", "sol_cells", "sol_colour",
    "pair_card", "pair_pos", "card_pair_start", "sol_pair_start", "sol_pairs",
])
GameArrays.__doc__ = "The flat arrays of one mission and catalog, as the Numba kernels read them."


def solution_arrays(solutions, pos_start, catalog) -> dict:
    """The planner's library as flat arrays (see GameArrays)."""
    n = len(solutions)
    sol_cards = np.zeros(n, np.int64)
    sol_pos = np.full((n, 40), -1, np.int64)
    sol_cells = np.zeros((n, 3), np.int64)
    sol_colour = np.zeros((n, 5, 3), np.int64)
    pairs_of: list[list[tuple[int, int]]] = []  # per solution its (piece, position) pairs
    for i, s in enumerate(solutions):
        cells, per_colour = 0, [0] * 5
        pairs_of.append([])
        for p in s.placements:
            g = int(pos_start[p.card.index]) + position_index(catalog[p.card])[p.cells]
            sol_cards[i] |= 1 << p.card.index
            sol_pos[i, p.card.index] = g
            cells |= p.mask
            per_colour[int(p.colour)] |= p.mask
            pairs_of[i].append((p.card.index, g))
        sol_cells[i] = split(cells)
        sol_colour[i] = [split(m) for m in per_colour]
    keys = sorted({pair for pairs in pairs_of for pair in pairs})
    card_pair_start = np.zeros(41, np.int64)
    for c in range(41):
        card_pair_start[c] = sum(1 for k in keys if k[0] < c)
    pair_index = {k: j for j, k in enumerate(keys)}
    sol_pair_start = np.zeros(n + 1, np.int64)
    sol_pairs: list[int] = []
    for i, pairs in enumerate(pairs_of):
        sol_pair_start[i] = len(sol_pairs)
        sol_pairs += sorted(pair_index[pair] for pair in pairs)
    sol_pair_start[n] = len(sol_pairs)
    return dict(sol_cards=sol_cards, sol_pos=sol_pos, sol_cells=sol_cells, sol_colour=sol_colour,
                pair_card=np.array([k[0] for k in keys], np.int64), pair_pos=np.array([k[1] for k in keys], np.int64),
                card_pair_start=card_pair_start, sol_pair_start=sol_pair_start,
                sol_pairs=np.array(sol_pairs, np.int64))


def build_arrays(mission, catalog, solutions=()) -> GameArrays:
    """The arrays of a mission; ``solutions`` is the planner's library (planner.planner_library)."""
    board = Board.start(mission)
    birds = mission.bird_mask
    live = [b for b in mission.birds if blocked_reason(mission, b) is None]
    ring_union = 0
    for b in live:
        ring_union |= b.ring

    pos_start = np.zeros(41, np.int64)
    pos_mask, pos_halo, pos_card, pos_birds = [], [], [], []
    cand_start = np.zeros(41, np.int64)
    cand_ids = []
    cover: dict[int, list[int]] = {}
    for card in ALL_CARDS:
        pos_start[card.index] = len(pos_mask)
        cand_start[card.index] = len(cand_ids)
        for cells in all_positions(catalog[card]):
            m = mask_of(cells)
            gid = len(pos_mask)
            pos_mask.append(split(m))
            pos_halo.append(split(halo(m)))
            pos_card.append(card.index)
            pos_birds.append(sum(1 << i for i, b in enumerate(mission.birds) if m & b.ring))
            if m & birds:
                continue
            if m & ring_union:
                cand_ids.append(gid)
                mm = m & ring_union
                while mm:
                    low = mm & -mm
                    cover.setdefault(low.bit_length() - 1, []).append(gid)
                    mm ^= low
    pos_start[40] = len(pos_mask)
    cand_start[40] = len(cand_ids)
    # Candidates of one piece with the same cells around the birds ("footprint") score the same,
    # so the usefulness scan scores each footprint once and checks its positions' legality.
    # Groups go by a static upper bound of their score (without the completion bonus, which the
    # engine adds while a bird is close to complete), best first, so that the scan can stop early;
    # the maximum it finds does not depend on the order.
    mark_colour_int = [0] * 5
    for c, col in mission.marks:
        mark_colour_int[col] |= 1 << c

    def upper_bound(foot: int, colour: int) -> int:
        ub = 0
        for b in live:
            cov = foot & b.ring
            ub += 2 * bin(cov).count("1") + 2 * bin(cov & mark_colour_int[colour]).count("1")
        return ub

    grp_start = np.zeros(41, np.int64)
    grp_mask, grp_ub, grp_birds, grp_pos_start, grp_pos = [], [], [], [], []
    for card in ALL_CARDS:
        grp_start[card.index] = len(grp_mask)
        groups: dict[int, list[int]] = {}
        for j in range(cand_start[card.index], cand_start[card.index + 1]):
            foot = join(pos_mask[cand_ids[j]]) & ring_union
            groups.setdefault(foot, []).append(cand_ids[j])
        ubs = {foot: upper_bound(foot, int(card.colour)) for foot in groups}
        for foot in sorted(groups, key=lambda f: (-ubs[f], min(groups[f]))):
            grp_mask.append(split(foot))
            grp_ub.append(ubs[foot])
            grp_birds.append(sum(1 << i for i, b in enumerate(mission.birds) if foot & b.ring))
            grp_pos_start.append(len(grp_pos))
            grp_pos.extend(sorted(groups[foot]))
    grp_start[40] = len(grp_mask)
    grp_pos_start.append(len(grp_pos))
    # cards of one colour share footprints (a monomino and a domino on the same ring cell): a score
    # is the same for all of them on one board, so the engine scores each pair once a board
    feet: dict[tuple[int, int], int] = {}
    grp_foot = np.zeros(len(grp_mask), np.int64)
    for card in ALL_CARDS:
        for k in range(grp_start[card.index], grp_start[card.index + 1]):
            key = (join(grp_mask[k]), int(card.colour))
            grp_foot[k] = feet.setdefault(key, len(feet))
    grp_mask = np.array(grp_mask, np.int64).reshape(-1, 3)
    grp_ub = np.array(grp_ub, np.int64)
    grp_birds = np.array(grp_birds, np.int64)
    grp_pos_start = np.array(grp_pos_start, np.int64)
    # the groups again, listed per bird they touch (still best bound first): a board where few birds
    # are left to scan, or few changed, needs only their lists
    n_birds = len(mission.birds)
    bkt_start = np.zeros(40 * n_birds + 1, np.int64)
    bkt_grp: list[int] = []
    for card in range(40):
        for b in range(n_birds):
            bkt_start[card * n_birds + b] = len(bkt_grp)
            bkt_grp.extend(k for k in range(grp_start[card], grp_start[card + 1]) if grp_birds[k] >> b & 1)
    bkt_start[40 * n_birds] = len(bkt_grp)
    grp_pos = np.array(grp_pos, np.int64)
    cover_start = np.zeros(NUM_CELLS + 1, np.int64)
    cover_ids = []
    for c in range(NUM_CELLS):
        cover_start[c] = len(cover_ids)
        cover_ids.extend(cover.get(c, ()))
    cover_start[NUM_CELLS] = len(cover_ids)

    mark_colour = np.zeros((5, 3), np.int64)
    mark_cell = np.full(NUM_CELLS, -1, np.int64)
    for c, col in mission.marks:
        mark_colour[col] = split(join(mark_colour[col]) | (1 << c))
        mark_cell[c] = int(col)
    colour_masks = np.array([split(m) for m in board.colour_masks], np.int64)
    used = np.zeros(40, np.int64)
    for card in board.pieces:
        used[card.index] = 1
    card_birds = np.zeros(40, np.int64)
    most_birds = np.zeros(40, np.int64)
    for card in range(40):
        for k in range(grp_start[card], grp_start[card + 1]):
            card_birds[card] |= grp_birds[k]
            most_birds[card] = max(most_birds[card], bin(int(grp_birds[k])).count("1"))
    mark_all = np.zeros(3, np.int64)
    for col in range(5):
        mark_all |= mark_colour[col]
    return GameArrays(
        pos_start=pos_start,
        pos_mask=np.array(pos_mask, np.int64).reshape(-1, 3),
        pos_halo=np.array(pos_halo, np.int64).reshape(-1, 3),
        pos_card=np.array(pos_card, np.int64),
        pos_birds=np.array(pos_birds, np.int64),  # bit i: the position touches bird i's ring
        cand_start=cand_start,
        cand_ids=np.array(cand_ids, np.int64),
        grp_start=grp_start,
        grp_mask=grp_mask,
        grp_ub=grp_ub,
        grp_birds=grp_birds,
        grp_pos_start=grp_pos_start,
        grp_pos=grp_pos,
        grp_foot=grp_foot,
        foot_count=len(feet),
        bkt_start=bkt_start,
        bkt_grp=np.array(bkt_grp, np.int64),
        card_birds=card_birds,
        most_birds=most_birds,
        cover_start=cover_start,
        cover_ids=np.array(cover_ids, np.int64),
        bird_ring=np.array([split(b.ring) for b in mission.birds], np.int64).reshape(-1, 3),
        bird_edge=np.array([1 if b.sides_on_edge() else 0 for b in mission.birds], np.int64),
        bird_live=np.array([1 if b in live else 0 for b in mission.birds], np.int64),
        bird_all=np.array(split(birds), np.int64),
        mark_colour=mark_colour,
        mark_all=mark_all,
        mark_cell=mark_cell,
        occupied=np.array(split(board.occupied), np.int64),
        colour_masks=colour_masks,
        used=used,
        clear=mission.clear,
        max_size=max(catalog[c].size for c in ALL_CARDS),
        **solution_arrays(solutions, pos_start, catalog),
    )

