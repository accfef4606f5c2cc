"""Twins of game/policies.py: the greedy and heuristic players' board view, usefulness,
placement and card choices.

  refresh_view     BoardView (targets and open cells)     score_mask      BoardView.score
  usefulness       BoardView.usefulness (kept across placements: ``placed``, ``is_fresh``, ``first_legal``,
                   ``is_closed``)
  is_dead_end      BoardView.is_dead_end                  filler          SmartBase._filler
  smart_place      SmartBase.place                        heuristic_card  HeuristicPolicy.play_card
  heuristic_select HeuristicPolicy.select

The arrays a kernel passes along travel in tuples, unpacked at its top (in the kernels without
reference counting a tuple is only its members' words, so it costs nothing):

  view       (occ, cm, used, tgt, need): the board (occupied cells, colour masks, pieces used) and
             what the board view makes of it (target birds, open cells and bounds: ``refresh_view``)
  mask       (m0, m1, m2): a footprint's three words
  marks      (T.bird_ring, T.mark_colour, T.mark_all): the birds' rings and coloured sides
  legality   (T.pos_mask, T.pos_halo, T.bird_all): what ``is_legal`` reads of the positions
  footmemo   (T.grp_foot, memo, bird_stamp, version, moved): the footprint memo (``foot_score``)
  cache      (value, known, best_pos, best_grp, stale): the usefulness kept across placements
  scratch    (occ2, cm2): a board to try a placement on (``is_dead_end``)
"""

from __future__ import annotations

import numpy as np

from solver.game.fast.board import is_legal, is_scanned, is_spoiled
from solver.game.fast.cards import NO_SKILL, OPT_A, OPT_B, OPT_N, OPT_SKILL, decision_card
from solver.game.weights import (
    COMPLETION_BONUS,
    DEAD_END_CHECKS,
    FILLER_NEED_PENALTY,
    SKILL_COST,
    SPOIL_PENALTY,
    UNPLACEABLE,
    W_UNPLACEABLE,
    W_UNPLACEABLE_OPTION,
)
from solver.runtime.bits import grow, popcount
from solver.runtime.jit import kernel

# the board view of the policies: open cells (3 words), the most completion bonus any placement can
# earn now, the birds (bit per bird) that one piece could finish, and the target birds
NEED_BONUS, NEED_FINISHABLE, NEED_TARGETS = 3, 4, 5
NEED_SIZE = 6
TAKEN = 1 << 62  # in the usefulness cache's stale birds: the best position is no longer legal
# rows of the footprint memo (``foot_score``), a column per (footprint, colour) of the arrays: the
# score on a board of this game and its version, the score on the dealt board and whether it is known
F_SCORE, F_STAMP, F_DEALT_SCORE, F_DEALT_KNOWN = 0, 1, 2, 3
F_ROWS = 4


@kernel(hot=True)
def refresh_view(occ, cm, tgt, need, T):
    """BoardView.__init__: targets (birds still worth scanning) and open cells around them, with
    the completion bounds: need[NEED_FINISHABLE] has a bit per target one piece could finish,
    need[NEED_BONUS] the completion bonus of all of them."""
    need[0] = 0
    need[1] = 0
    need[2] = 0
    need[NEED_BONUS] = 0
    need[NEED_FINISHABLE] = 0
    need[NEED_TARGETS] = 0
    ring, edge, mc, live = T.bird_ring, T.bird_edge, T.mark_colour, T.bird_live
    max_size = T.max_size
    for b in range(ring.shape[0]):
        t = live[b] == 1 and not is_scanned(b, occ, cm, ring, edge, mc) and not is_spoiled(b, occ, cm, ring, mc)
        tgt[b] = 1 if t else 0
        if t:
            need[NEED_TARGETS] |= np.int64(1) << b
            open_cells = 0
            for w in range(3):
                need[w] |= ring[b, w]
                open_cells += popcount(ring[b, w] & ~occ[w])
            if open_cells <= max_size:
                need[NEED_BONUS] += COMPLETION_BONUS
                need[NEED_FINISHABLE] |= np.int64(1) << b
    for w in range(3):
        need[w] &= ~occ[w]


@kernel(hot=True)
def score_mask(col, mask, touched, occ, tgt, marks):
    """BoardView.score on a mask; ``touched`` has bit b set if the mask meets bird b's ring."""
    m0, m1, m2 = mask
    ring, mc, ma = marks
    gain = 0
    b = -1
    while touched:
        b += 1
        bit = touched & 1
        touched >>= 1
        if not bit or not tgt[b]:
            continue
        c0 = m0 & ring[b, 0] & ~occ[0]
        c1 = m1 & ring[b, 1] & ~occ[1]
        c2 = m2 & ring[b, 2] & ~occ[2]
        if (c0 | c1 | c2) == 0:
            continue
        wrong = (c0 & ma[0] & ~mc[col, 0]) | (c1 & ma[1] & ~mc[col, 1]) | (c2 & ma[2] & ~mc[col, 2])
        if wrong:
            gain -= SPOIL_PENALTY
            continue
        gain += 2 * (popcount(c0) + popcount(c1) + popcount(c2))
        gain += 2 * (popcount(c0 & mc[col, 0]) + popcount(c1 & mc[col, 1]) + popcount(c2 & mc[col, 2]))
        rest = (ring[b, 0] & ~occ[0] & ~m0) | (ring[b, 1] & ~occ[1] & ~m1) | (ring[b, 2] & ~occ[2] & ~m2)
        if rest == 0:
            gain += COMPLETION_BONUS
    return gain


@kernel(hot=True, inline=True)  # a call costs more than its memo hit: inlined, the heuristic runs 10-17 % faster
def foot_score(k, col, mask, touched, occ, tgt, marks, footmemo):
    """score_mask of group k's footprint, from the memo (shared by the cards of a colour) while
    the birds it touches (``touched``) are as they were when it was scored. A score depends only
    on those birds' rings, so a footprint whose birds no piece has touched since the deal
    (``moved``) keeps its score on the dealt board, the same in every game; the others are
    stamped with the board ``version`` and stay good until a piece touches one of their birds
    (``bird_stamp``: the version of that bird's last change)."""
    gfoot, memo, bird_stamp, version, moved = footmemo
    f = gfoot[k]
    if touched & moved == 0:
        if memo[F_DEALT_KNOWN, f] == 0:
            memo[F_DEALT_SCORE, f] = score_mask(col, mask, touched, occ, tgt, marks)
            memo[F_DEALT_KNOWN, f] = 1
        return memo[F_DEALT_SCORE, f]
    stamp = memo[F_STAMP, f]
    fresh = stamp >= 0
    t = touched & moved
    b = 0
    while t and fresh:
        if t & 1 and bird_stamp[b] > stamp:
            fresh = False
        t >>= 1
        b += 1
    if not fresh:
        memo[F_SCORE, f] = score_mask(col, mask, touched, occ, tgt, marks)
        memo[F_STAMP, f] = version
    return memo[F_SCORE, f]


@kernel(hot=True)
def first_legal(k, col, occ, cm, legality, gps, gpos, skip):
    """Index into gpos of group k's first legal position, -1 if none is. ``skip[k]`` counts the
    group's first positions known not to be legal: within a game legality is only ever lost
    (pieces are added, never taken away), so they are not checked again. A memory that follows
    one game from the deal, or from the moment it was reset (skip all 0), keeps it right."""
    pm, ph, ba = legality
    for j in range(gps[k] + skip[k], gps[k + 1]):
        if is_legal(gpos[j], col, occ, cm, pm, ph, ba):
            skip[k] = j - gps[k]
            return j
    skip[k] = gps[k + 1] - gps[k]
    return -1


@kernel(hot=True)
def is_closed(k, m0, m1, m2, occ, gps, skip):
    """No position of group k (footprint m0, m1, m2) can be legal any more: a cell of its
    footprint is taken (every position covers it), or ``first_legal`` found none left."""
    return (m0 & occ[0]) | (m1 & occ[1]) | (m2 & occ[2]) or gps[k] + skip[k] == gps[k + 1]


@kernel(hot=True)
def is_fresh(card, known, stale):
    """The cached usefulness of ``card`` is its value now."""
    return known[card] and stale[card] == 0


@kernel(hot=True, always_inline=True)
def usefulness(cards, n, view, cache, footmemo, skip, T):
    """BoardView.usefulness of each of cards[:n] into value[card]: best score of a legal placement
    (>= 0), UNPLACEABLE if none is legal.

    Kept across placements in value/known, with the best position, its footprint group (-1: a
    position that scores nothing) and ``stale``: the birds that placements touched since, plus
    the TAKEN bit when the best position is no longer legal (``placed``). A value whose best
    group touches none of those birds is still reached (by that position or another of its
    group), so only the groups around those birds are scored again; a value that ``is_fresh``
    is not looked at. A group's score comes from ``foot_score`` (its memo is shared by the
    cards of a colour); a group none of whose positions is legal any more (``first_legal``) is
    not scored. The cards of a decision are valued in one call, inlined into its caller (a call per
    card, passing some 30 arrays as 200 words of arguments, was a tenth of the heuristic's time)."""
    occ, cm, used, tgt, need = view
    value, known, best_pos, best_grp, stale = cache
    pos_start, bkt_start, bkt_grp, card_birds, most_birds = T.pos_start, T.bkt_start, T.bkt_grp, T.card_birds, \
        T.most_birds
    gm, gub, gbirds, gps, gpos = T.grp_mask, T.grp_ub, T.grp_birds, T.grp_pos_start, T.grp_pos
    legality = (T.pos_mask, T.pos_halo, T.bird_all)
    pm, ph, ba = legality
    marks = (T.bird_ring, T.mark_colour, T.mark_all)
    n_birds = T.bird_ring.shape[0]
    for i in range(n):
        card = cards[i]
        if is_fresh(card, known, stale):
            continue
        col = card // 8
        if used[card]:
            value[card] = 0
            known[card] = 1
            stale[card] = 0
            continue
        birds = need[NEED_TARGETS]  # only groups touching these birds need scoring (others score 0)
        u = UNPLACEABLE
        best = -1
        bgrp = -1
        if known[card]:
            if value[card] == UNPLACEABLE:
                stale[card] = 0
                continue  # placements only take room away
            k0 = best_grp[card]
            if k0 < 0 or not gbirds[k0] & stale[card]:
                # the best group's score is as it was; is one of its positions still legal?
                if is_legal(best_pos[card], col, occ, cm, pm, ph, ba):
                    best = best_pos[card]
                elif k0 >= 0:
                    j = first_legal(k0, col, occ, cm, legality, gps, gpos, skip)
                    if j >= 0:
                        best = gpos[j]
                if best >= 0:
                    # the others touching none of the changed birds did not beat it then and score
                    # the same now (a changed bird that is no target any more may have taken a
                    # penalty away)
                    birds = stale[card] & ~TAKEN
                    u, bgrp = value[card], k0
        # the most completion bonus one placement of this piece can add: birds it can touch that
        # one piece could finish, at most as many as one of its footprints touches
        bonus = COMPLETION_BONUS * min(popcount(need[NEED_FINISHABLE] & card_birds[card]), most_birds[card])
        rest_birds = birds
        while rest_birds:
            low = rest_birds & -rest_birds
            rest_birds ^= low
            b = popcount(low - 1)
            earlier = birds & (low - 1)  # a group touching one of these was scored in that bird's list
            for i_k in range(bkt_start[card * n_birds + b], bkt_start[card * n_birds + b + 1]):
                k = bkt_grp[i_k]
                if gbirds[k] & earlier:
                    continue
                if u >= 0 and gub[k] + bonus <= u:
                    break  # groups are sorted by this bound: none left can do better
                if u >= 0 and gub[k] + COMPLETION_BONUS * popcount(gbirds[k] & need[NEED_FINISHABLE]) <= u:
                    continue  # its own bound: only birds this footprint touches can give it a bonus
                m0, m1, m2 = gm[k, 0], gm[k, 1], gm[k, 2]
                if is_closed(k, m0, m1, m2, occ, gps, skip):
                    continue
                if (m0 & need[0]) | (m1 & need[1]) | (m2 & need[2]):
                    s = foot_score(k, col, (m0, m1, m2), gbirds[k], occ, tgt, marks, footmemo)
                else:
                    s = 0
                if u >= 0 and s <= u:
                    continue  # cannot improve, whatever is legal
                j = first_legal(k, col, occ, cm, legality, gps, gpos, skip)
                if j >= 0:
                    u = s if s > 0 else 0
                    best = gpos[j]
                    bgrp = k
        if u == UNPLACEABLE:
            for g in range(pos_start[card], pos_start[card + 1]):
                if is_legal(g, col, occ, cm, pm, ph, ba):
                    u = 0
                    best = g
                    bgrp = -1
                    break
        value[card] = u
        known[card] = 1
        best_pos[card] = best
        best_grp[card] = bgrp
        stale[card] = 0


@kernel(hot=True)
def placed(g, occ, cm, value, known, best_pos, stale, T):
    """After position g was placed: what it makes stale in the usefulness cache (see ``usefulness``):
    the birds it touched, and the TAKEN bit where the best position is taken. The placed piece
    itself is used from now on: worth 0."""
    touched = T.pos_birds[g]
    pm, ph, ba = T.pos_mask, T.pos_halo, T.bird_all
    for c in range(40):
        if not known[c]:
            continue
        stale[c] |= touched
        if best_pos[c] >= 0 and not is_legal(best_pos[c], c // 8, occ, cm, pm, ph, ba):
            stale[c] |= TAKEN
    piece = T.pos_card[g]
    value[piece] = 0
    known[piece] = 1
    stale[piece] = 0


@kernel(hot=True)
def is_dead_end(col, card, g, view, scratch, T):
    """BoardView.is_dead_end: would placing position g leave fewer than the mission's ``clear``
    birds that can still be scanned? ``scratch``: arrays (3,) and (5, 3)."""
    occ, cm, used, _, _ = view
    occ2, cm2 = scratch
    for k in range(5):  # a loop, not cm2[:, :] = cm: no reference counting here
        for w in range(3):
            cm2[k, w] = cm[k, w]
    pm, ph, ba = T.pos_mask, T.pos_halo, T.bird_all
    for w in range(3):
        occ2[w] = occ[w] | pm[g, w]
        cm2[col, w] |= pm[g, w]
    ring, mc, live = T.bird_ring, T.mark_colour, T.bird_live
    cover_start, cover_ids, pos_card = T.cover_start, T.cover_ids, T.pos_card
    alive = 0
    for b in range(ring.shape[0]):
        if not live[b]:
            continue
        if is_spoiled(b, occ2, cm2, ring, mc):
            continue
        ok = True
        for w in range(3):
            if not ok:
                break
            open_w = ring[b, w] & ~occ2[w]
            while open_w and ok:
                low = open_w & -open_w
                open_w ^= low
                c = w * 48 + popcount(low - 1)
                want = -1
                for k in range(5):
                    if mc[k, w] & low:
                        want = k
                ok = False
                for j in range(cover_start[c], cover_start[c + 1]):
                    h = cover_ids[j]
                    r = pos_card[h]
                    if r == card or used[r] or (want >= 0 and r // 8 != want):
                        continue
                    if is_legal(h, r // 8, occ2, cm2, pm, ph, ba):
                        ok = True
                        break
        if ok:
            alive += 1
    return alive < T.clear


@kernel(hot=True)
def filler(piece, need, occ, cm, tgt, T):
    """SmartBase._filler: the legal position (global id) intruding least on the cells around the
    wanted birds among those that do not score, or -1."""
    col = piece // 8
    z0, z1, z2 = grow(need[0], need[1], need[2])
    z0, z1, z2 = grow(z0, z1, z2)
    pm, ph, ba, pb = T.pos_mask, T.pos_halo, T.bird_all, T.pos_birds
    marks = (T.bird_ring, T.mark_colour, T.mark_all)
    best = -1
    best_cost = -1
    for g in range(T.pos_start[piece], T.pos_start[piece + 1]):
        if not is_legal(g, col, occ, cm, pm, ph, ba):
            continue
        touches = (pm[g, 0] & need[0]) | (pm[g, 1] & need[1]) | (pm[g, 2] & need[2])
        if touches and score_mask(col, (pm[g, 0], pm[g, 1], pm[g, 2]), pb[g], occ, tgt, marks) > 0:
            continue
        cost = popcount(pm[g, 0] & z0) + popcount(pm[g, 1] & z1) + popcount(pm[g, 2] & z2)
        if touches:
            cost += FILLER_NEED_PENALTY
        if best_cost < 0 or cost < best_cost:
            best, best_cost = g, cost
    return best


@kernel(hot=True, always_inline=True)
def smart_place(piece, avoid_dead_ends, view, useful, scratch, footmemo, skip, T):
    """SmartBase.place: global id of the chosen position, -1 if none is legal.

    Useful positions (score > 0) go best score first, ties to the lower position, and only the
    first few are checked for dead ends: so the footprint groups are scored first (each once for
    all its positions, ``foot_score``) and only the best scores' positions are tried for
    legality, a score at a time (checking every useful position was a sixth of the heuristic's
    time). ``useful_s`` holds a scoring group as score << 32 | group, ``useful_g`` the legal
    positions of one score."""
    occ, cm, _, tgt, need = view
    useful_g, useful_s = useful
    col = piece // 8
    gm, gbirds, gps, gpos = T.grp_mask, T.grp_birds, T.grp_pos_start, T.grp_pos
    legality = (T.pos_mask, T.pos_halo, T.bird_all)
    pm, ph, ba = legality
    marks = (T.bird_ring, T.mark_colour, T.mark_all)
    n_groups = 0
    for k in range(T.grp_start[piece], T.grp_start[piece + 1]):
        m0, m1, m2 = gm[k, 0], gm[k, 1], gm[k, 2]
        if ((m0 & need[0]) | (m1 & need[1]) | (m2 & need[2])) == 0 or is_closed(k, m0, m1, m2, occ, gps, skip):
            continue  # scores nothing, or no position of it is legal
        s = foot_score(k, col, (m0, m1, m2), gbirds[k], occ, tgt, marks, footmemo)
        if s > 0:
            useful_s[n_groups] = (s << 32) | k
            n_groups += 1
    checks = DEAD_END_CHECKS if avoid_dead_ends else 1
    top = -1
    n_useful = 0
    step = 0
    while step < checks:
        level = 0  # the best score left, and the legal positions of its groups
        for i in range(n_groups):
            level = max(level, useful_s[i] >> 32)
        if level == 0:
            break
        n_level = 0
        for i in range(n_groups):
            if useful_s[i] >> 32 == level:
                k = useful_s[i] & 0xFFFFFFFF
                useful_s[i] = 0  # taken
                first = first_legal(k, col, occ, cm, legality, gps, gpos, skip)
                if first < 0:
                    continue
                useful_g[n_level] = gpos[first]
                n_level += 1
                for j in range(first + 1, gps[k + 1]):
                    if is_legal(gpos[j], col, occ, cm, pm, ph, ba):
                        useful_g[n_level] = gpos[j]
                        n_level += 1
        n_useful += n_level
        while n_level > 0 and step < checks:
            pick = 0  # the lowest position of this score
            for i in range(1, n_level):
                if useful_g[i] < useful_g[pick]:
                    pick = i
            g = useful_g[pick]
            n_level -= 1
            useful_g[pick] = useful_g[n_level]
            if step == 0:
                top = g
            if not avoid_dead_ends:
                return g
            step += 1
            if not is_dead_end(col, piece, g, view, scratch, T):
                return g
    f = filler(piece, need, occ, cm, tgt, T)
    if f < 0:
        return top  # every legal placement is useful (or none is legal: -1)
    if n_useful == 0 or not avoid_dead_ends:
        return f
    if not is_dead_end(col, piece, f, view, scratch, T):
        return f
    return top


# ---------------------------------------------------------------- the heuristic's choices
@kernel(hot=True, always_inline=True)
def heuristic_card(legal, nl, trick, nt, trump, accounted, uval):
    """HeuristicPolicy.play_card; uval must hold the usefulness of every legal and trick card.
    ``trick`` is scratch: trick[nt] is written. ``accounted`` (hand_row, seen, removed): the cards
    no other seat can hold (the seat's own, those played, those out of the game)."""
    hand_row, seen, removed = accounted
    best = legal[0]
    best_value = 0
    best_card_value = 0
    first = True
    if nt == 0:
        for i in range(nl):
            c = legal[i]
            beaters = 0
            for x in range(40):
                if hand_row[x] or seen[x] or removed[x]:
                    continue
                if (x // 8 == c // 8 and x % 8 > c % 8) or (c // 8 != trump and x // 8 == trump):
                    beaters += 1
            w = uval[c]
            if w == UNPLACEABLE:
                w = W_UNPLACEABLE
            value = (w * 4) // (4 + beaters) if w > 0 else w
            if first or value > best_value or (value == best_value and c % 8 < best_card_value):
                best, best_value, best_card_value, first = c, value, c % 8, False
        return best
    for i in range(nl):
        c = legal[i]
        trick[nt] = c
        winner = trick[decision_card(trick, nt + 1, trump)]
        w = uval[winner]
        value = (W_UNPLACEABLE if w == UNPLACEABLE else w) * 4
        if winner != c:
            u = uval[c]
            if u > 0:
                value -= 2 * u
        if first or value > best_value or (value == best_value and c % 8 < best_card_value):
            best, best_value, best_card_value, first = c, value, c % 8, False
    return best


@kernel(hot=True, always_inline=True)
def heuristic_select(nopt, opts, uval):
    """HeuristicPolicy.select; uval must hold the usefulness of every option's pieces."""
    best = 0
    best_val = 0
    for k in range(nopt):
        total = 0
        for j in range(opts[k, OPT_N]):
            u = uval[opts[k, OPT_A + j]]
            total += W_UNPLACEABLE_OPTION if u == UNPLACEABLE else u
        val = 4 * total - (4 * SKILL_COST if opts[k, OPT_SKILL] != NO_SKILL else 0)
        if opts[k, OPT_N] == 2 and uval[opts[k, OPT_A]] >= uval[opts[k, OPT_B]]:
            val += 1
        if k == 0 or val > best_val:
            best, best_val = k, val
    return best
