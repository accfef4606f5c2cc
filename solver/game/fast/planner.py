"""Twins of game/planner.py: the library's solutions a placement spoils, the live solutions and
their alignment bonus, the planner's usefulness and placement.

  spoil_solutions  planner.conflicts (for the piece just placed)
  live_solutions   planner.live_solutions and PlanBoardView's alignment bonus
  plan_usefulness  PlanBoardView.usefulness             planner_place   PlannerPolicy.place
"""

from __future__ import annotations

import numpy as np

from solver.core import spec as rules_of_play
from solver.game.fast.board import is_legal
from solver.game.fast.heuristic import score_mask
from solver.game.weights import ALIGN_BASE, ALIGN_STEP, FILLER_NEED_PENALTY, UNPLACEABLE
from solver.runtime.bits import grow, popcount
from solver.runtime.jit import kernel

# the one rule of the piece budget (core/spec.py), compiled for the kernels
selectable_pieces = kernel(hot=True)(rules_of_play.selectable_pieces)


@kernel(hot=True)
def spoil_solutions(g, piece, spoiled, T):
    """planner.conflicts for the piece just placed at g: the solutions it spoils, for good."""
    col = piece // 8
    pm, ph = T.pos_mask, T.pos_halo
    cards, pos, cells, colour = T.sol_cards, T.sol_pos, T.sol_cells, T.sol_colour
    for i in range(cards.shape[0]):
        if spoiled[i]:
            continue
        if (cards[i] >> piece) & 1:
            if pos[i, piece] != g:
                spoiled[i] = 1
        elif (pm[g, 0] & cells[i, 0]) | (pm[g, 1] & cells[i, 1]) | (pm[g, 2] & cells[i, 2]) or \
                (ph[g, 0] & colour[i, col, 0]) | (ph[g, 1] & colour[i, col, 1]) | (ph[g, 2] & colour[i, col, 2]):
            spoiled[i] = 1


@kernel(hot=True)
def live_solutions(rounds_left, skills_left, used, spoiled, lost, live, pair_bonus, T):
    """planner.live_solutions and the alignment bonus (PlanBoardView.align) of every (piece,
    position) pair of the library: the best over the live solutions that still need that piece
    (pushed from each live solution to its pairs: dead ones cost nothing). Returns how many
    solutions are live."""
    cap = selectable_pieces(rounds_left, skills_left)
    used_bits = 0
    lost_bits = 0
    for c in range(40):
        if used[c]:
            used_bits |= np.int64(1) << c
        if lost[c]:
            lost_bits |= np.int64(1) << c
    cards, pair_card, sps, sol_pairs = T.sol_cards, T.pair_card, T.sol_pair_start, T.sol_pairs
    for j in range(pair_card.shape[0]):
        pair_bonus[j] = 0
    n_live = 0
    for i in range(cards.shape[0]):
        live[i] = -1  # not live; else the number of its pieces on the board
        if spoiled[i]:
            continue
        missing = cards[i] & ~used_bits
        if popcount(missing) > cap or missing & lost_bits:
            continue
        live[i] = popcount(cards[i]) - popcount(missing)
        n_live += 1
        bonus = ALIGN_BASE + ALIGN_STEP * live[i]  # to each of its pairs whose piece is still to place
        for k in range(sps[i], sps[i + 1]):
            j = sol_pairs[k]
            if not used[pair_card[j]] and bonus > pair_bonus[j]:
                pair_bonus[j] = bonus
    return n_live


@kernel(hot=True)
def plan_usefulness(card, u, occ, tgt, need, pair_bonus, T):
    """PlanBoardView.usefulness given the heuristic's usefulness u: u, or the score of a place a
    live solution has for the piece plus its bonus, if higher."""
    if u == UNPLACEABLE:
        return u
    col = card // 8
    pm, pb, marks = T.pos_mask, T.pos_birds, (T.bird_ring, T.mark_colour, T.mark_all)
    for j in range(T.card_pair_start[card], T.card_pair_start[card + 1]):
        if pair_bonus[j] > 0:
            g = T.pair_pos[j]
            s = pair_bonus[j]
            if (pm[g, 0] & need[0]) | (pm[g, 1] & need[1]) | (pm[g, 2] & need[2]):
                s += score_mask(col, (pm[g, 0], pm[g, 1], pm[g, 2]), pb[g], occ, tgt, marks)
            u = max(u, s)
    return u


@kernel(hot=True, always_inline=True)
def planner_place(piece, h, n_live, live, view, pair_bonus, T):
    """PlannerPolicy.place given h, the heuristic's choice (-1 if the piece fits nowhere); ``view``
    as the heuristic's (game/fast/heuristic.py)."""
    if h < 0:
        return -1
    occ, cm, _, tgt, need = view
    col = piece // 8
    pm, ph, ba, pb = T.pos_mask, T.pos_halo, T.bird_all, T.pos_birds
    marks = (T.bird_ring, T.mark_colour, T.mark_all)
    # a place a live solution has for it, or the heuristic's: the best planner score; ties to h,
    # then to the lower position
    h_touches = (pm[h, 0] & need[0]) | (pm[h, 1] & need[1]) | (pm[h, 2] & need[2])
    h_score = score_mask(col, (pm[h, 0], pm[h, 1], pm[h, 2]), pb[h], occ, tgt, marks) if h_touches else 0
    best, best_s = h, h_score
    aligned = False
    for j in range(T.card_pair_start[piece], T.card_pair_start[piece + 1]):
        g = T.pair_pos[j]
        if pair_bonus[j] > 0 and g == h:
            best_s = h_score + pair_bonus[j]
    for j in range(T.card_pair_start[piece], T.card_pair_start[piece + 1]):
        g = T.pair_pos[j]
        if pair_bonus[j] <= 0 or not is_legal(g, col, occ, cm, pm, ph, ba):
            continue
        aligned = True
        if g == h:
            continue
        s = pair_bonus[j]
        if (pm[g, 0] & need[0]) | (pm[g, 1] & need[1]) | (pm[g, 2] & need[2]):
            s += score_mask(col, (pm[g, 0], pm[g, 1], pm[g, 2]), pb[g], occ, tgt, marks)
        if s > best_s or (s == best_s and best != h and g < best):
            best, best_s = g, s
    if aligned:
        return best
    if n_live == 0 or (h_touches and h_score > 0):
        return h
    # a filler: where it spoils no live solution (none has this piece) and intrudes least
    u0, u1, u2 = 0, 0, 0
    c0, c1, c2 = 0, 0, 0
    for i in range(live.shape[0]):
        if live[i] >= 0:
            u0 |= T.sol_cells[i, 0]
            u1 |= T.sol_cells[i, 1]
            u2 |= T.sol_cells[i, 2]
            c0 |= T.sol_colour[i, col, 0]
            c1 |= T.sol_colour[i, col, 1]
            c2 |= T.sol_colour[i, col, 2]
    z0, z1, z2 = grow(need[0], need[1], need[2])
    z0, z1, z2 = grow(z0, z1, z2)
    best = -1
    best_cost = -1
    for g in range(T.pos_start[piece], T.pos_start[piece + 1]):
        if not is_legal(g, col, occ, cm, pm, ph, ba):
            continue
        if (pm[g, 0] & u0) | (pm[g, 1] & u1) | (pm[g, 2] & u2) or (ph[g, 0] & c0) | (ph[g, 1] & c1) | (ph[g, 2] & c2):
            continue
        cost = popcount(pm[g, 0] & z0) + popcount(pm[g, 1] & z1) + popcount(pm[g, 2] & z2)
        if (pm[g, 0] & need[0]) | (pm[g, 1] & need[1]) | (pm[g, 2] & need[2]):
            cost += FILLER_NEED_PENALTY
        if best_cost < 0 or cost < best_cost:
            best, best_cost = g, cost
    return h if best < 0 else best
