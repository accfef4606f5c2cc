"""The Numba engine: a fast twin of engine.py, state.py and policies.py, kernel by kernel.

Each kernel carries the name of the reference function it mirrors, and tests/test_kernels.py
checks each pair on its own; tests/test_engines.py compares whole games by their trace hash.

  deal                state.deal                  play_order         GameState.play_order
  legal_cards         state.legal_cards           decision_card      state.decision_card
  selection_options   state.selection_options     count_scanned      Board.scanned
  end_check           the clear check of engine.play_game
  refresh_view        policies.BoardView (targets and open cells)
  score_mask          BoardView.score             usefulness         BoardView.usefulness (cached
                                                  across placements: placed, is_fresh)
  is_dead_end         BoardView.is_dead_end       filler             SmartBase._filler
  smart_place         SmartBase.place             heuristic_card     HeuristicPolicy.play_card
  heuristic_select    HeuristicPolicy.select      play_one           engine.play_game

The mission's geometry comes as ``GameTables`` (tables.py, built from the rules module);
masks are three 48-bit words in int64. Codes and weights are those of codes.py. All kernels
live in this one file so that Numba's cache (cache=True) is invalidated whenever any changes.
"""

from __future__ import annotations

import numpy as np

from solver.game.codes import (
    ALIGN_BASE,
    ALIGN_STEP,
    CLEARED,
    COMPLETION_BONUS,
    DEAD_END_CHECKS,
    DOUBLE_SCAN,
    GREEDY,
    HEURISTIC,
    NO_SKILL,
    NOT_OVER,
    PLANNER,
    POLICY_NAMES,
    PURPLE_1,
    PURPLE_8,
    RANDOM,
    ROUNDS_EXHAUSTED,
    SHIFT_CHANGE,
    SKILL_COST,
    SPOIL_PENALTY,
    TRACE_IN_CHARGE,
    TRACE_OPTION,
    TRACE_PLACEMENT,
    TRUMP_ROUND_ONE,
    UNPLACEABLE,
    UNPLACEABLE_RESULT,
    W_UNPLACEABLE,
    WILD_COLOR,
)
from solver.runtime.bits import grow, popcount
from solver.runtime.jit import errors, njit

POLICY_IDS = {name: i for i, name in enumerate(POLICY_NAMES)}
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MUL1 = np.uint64(0xBF58476D1CE4E5B9)
MUL2 = np.uint64(0x94D049BB133111EB)
FNV_OFFSET = np.uint64(0xCBF29CE484222325)
FNV_PRIME = np.uint64(0x100000001B3)
S30, S27, S31 = np.uint64(30), np.uint64(27), np.uint64(31)
# columns of the selection-option table: skill, number of pieces, first piece, second piece
OPT_SKILL, OPT_N, OPT_A, OPT_B = 0, 1, 2, 3
MAX_OPTIONS = 10
# the board view of the policies: open cells (3 words), the most completion bonus any placement can
# earn now, and the birds (bit per bird) that one piece could finish
NEED_BONUS, NEED_FINISHABLE = 3, 4
TAKEN = 1 << 62  # in the usefulness cache's stale birds: the best position is no longer legal


# ---------------------------------------------------------------- bits and random numbers
@njit(cache=True, inline="always")
def rnext(rs, k):
    """rng.SplitMix64.next on stream k."""
    s = rs[k] + GOLDEN
    rs[k] = s
    z = (s ^ (s >> S30)) * MUL1
    z = (z ^ (z >> S27)) * MUL2
    return z ^ (z >> S31)


@njit(cache=True, inline="always")
def below(rs, k, n):
    """rng.SplitMix64.below on stream k."""
    return np.int64(rnext(rs, k) % np.uint64(n))


@njit(cache=True, inline="always")
def mix(h, v):
    """rng.mix: one step of the trace hash."""
    return (h ^ np.uint64(v)) * FNV_PRIME


# ---------------------------------------------------------------- the deal and the card rules
@njit(cache=True)
def deal(seed, players, buddy, rs, hand, removed):
    """state.deal: shuffle, hands, start player, one random stream per seat (rs[players] is the game's)."""
    rs[players] = np.uint64(seed)
    deck = np.empty(40, np.int64)
    n = 0
    for c in range(40):
        if players == 3 and c == PURPLE_1:
            removed[c] = 1
            continue
        deck[n] = c
        n += 1
    for i in range(n - 1, 0, -1):
        j = below(rs, players, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    aside = 8 if buddy else 0
    hand_size = 16 if buddy else (13 if players == 3 else 10)
    for k in range(players):
        for i in range(aside + k * hand_size, aside + (k + 1) * hand_size):
            hand[k, deck[i]] = 1
    start = -1
    for k in range(players):
        if hand[k, PURPLE_8] and start < 0:
            start = k
    if start < 0:
        start = below(rs, players, players)
    for k in range(players):
        rs[k] = rnext(rs, players)
    return start


@njit(cache=True, inline="always")
def play_order(buddy, players, start, order):
    """GameState.play_order: who reveals the cards of a round, in order; returns how many."""
    if buddy:
        order[0] = start
        order[1] = 1 - start
        order[2] = start
        order[3] = 1 - start
        return 4
    for k in range(players):
        order[k] = (start + k) % players
    return players


@njit(cache=True, inline="always")
def legal_cards(hand_row, lead, out):
    """state.legal_cards: cards of the lead colour if the hand holds any, else the whole hand."""
    n = 0
    if lead >= 0:
        for c in range(lead * 8, lead * 8 + 8):
            if hand_row[c]:
                out[n] = c
                n += 1
    if n == 0:
        for c in range(40):
            if hand_row[c]:
                out[n] = c
                n += 1
    return n


@njit(cache=True, inline="always")
def decision_card(trick, nt, trump):
    """state.decision_card: index in the trick of the highest trump, else of the highest lead card."""
    best = -1
    for i in range(nt):
        if trick[i] // 8 == trump and (best < 0 or trick[i] % 8 > trick[best] % 8):
            best = i
    if best >= 0:
        return best
    lead = trick[0] // 8
    best = 0
    for i in range(1, nt):
        if trick[i] // 8 == lead and trick[i] % 8 > trick[best] % 8:
            best = i
    return best


@njit(cache=True)
def selection_options(buddy, used, trick, nt, decision, skills_left, opts):
    """state.selection_options into opts (rows: skill, pieces, first, second); returns how many.

    Order: no skill, double scan (both orders), wild colour, shift change."""
    opts[0, OPT_SKILL] = NO_SKILL
    opts[0, OPT_N] = 0 if used[decision] else 1
    opts[0, OPT_A] = decision
    n = 1
    if skills_left <= 0:
        return n
    same = True
    lowest = trick[0]
    for i in range(nt):
        if trick[i] // 8 != trick[0] // 8:
            same = False
        if trick[i] % 8 < lowest % 8:
            lowest = trick[i]
    if same and not used[lowest]:
        if not used[decision]:
            opts[n, OPT_SKILL], opts[n, OPT_N], opts[n, OPT_A], opts[n, OPT_B] = DOUBLE_SCAN, 2, decision, lowest
            n += 1
            opts[n, OPT_SKILL], opts[n, OPT_N], opts[n, OPT_A], opts[n, OPT_B] = DOUBLE_SCAN, 2, lowest, decision
            n += 1
        else:
            opts[n, OPT_SKILL], opts[n, OPT_N], opts[n, OPT_A] = DOUBLE_SCAN, 1, lowest
            n += 1
    if buddy:
        for colour in range(5):
            alt = colour * 8 + decision % 8
            if colour != decision // 8 and not used[alt]:
                opts[n, OPT_SKILL], opts[n, OPT_N], opts[n, OPT_A] = WILD_COLOR, 1, alt
                n += 1
        for dv in (-1, 1):
            v = decision % 8 + dv
            if 0 <= v <= 7 and not used[(decision // 8) * 8 + v]:
                opts[n, OPT_SKILL], opts[n, OPT_N], opts[n, OPT_A] = SHIFT_CHANGE, 1, (decision // 8) * 8 + v
                n += 1
    return n


# ---------------------------------------------------------------- the rules module's board
# Helpers called in inner loops take the table arrays themselves: reading an array out of the
# GameTables tuple inside a loop costs a reference count each time (measured: a third of the run).
@njit(cache=True, inline="always")
def is_legal(g, col, occ, cm, pm, ph, ba):
    """Board.is_legal_mask for position g (pm, ph, ba: T.pos_mask, T.pos_halo, T.bird_all)."""
    if (pm[g, 0] & (occ[0] | ba[0])) | (pm[g, 1] & (occ[1] | ba[1])) | (pm[g, 2] & (occ[2] | ba[2])):
        return False
    return ((ph[g, 0] & cm[col, 0]) | (ph[g, 1] & cm[col, 1]) | (ph[g, 2] & cm[col, 2])) == 0


@njit(cache=True, inline="always")
def is_scanned(b, occ, cm, ring, edge, mc):
    """Board.is_scanned (ring, edge, mc: T.bird_ring, T.bird_edge, T.mark_colour)."""
    if edge[b]:
        return False
    for w in range(3):
        if ring[b, w] & ~occ[w]:
            return False
    for col in range(5):
        for w in range(3):
            if ring[b, w] & mc[col, w] & ~cm[col, w]:
                return False
    return True


@njit(cache=True, inline="always")
def is_spoiled(b, occ, cm, ring, mc):
    """A coloured side of bird b covered by another colour (Board.can_still_be_scanned, negated)."""
    for col in range(5):
        for w in range(3):
            if ring[b, w] & mc[col, w] & occ[w] & ~cm[col, w]:
                return True
    return False


@njit(cache=True)
def count_scanned(occ, cm, T):
    """len(Board.scanned())."""
    ring, edge, mc = T.bird_ring, T.bird_edge, T.mark_colour
    n = 0
    for b in range(ring.shape[0]):
        if is_scanned(b, occ, cm, ring, edge, mc):
            n += 1
    return n


@njit(cache=True, inline="always")
def end_check(unplaceable, scanned, clear, rnd, rounds):
    """The end of a round in engine.play_game: unplaceable, cleared, out of rounds, or go on."""
    if unplaceable:
        return UNPLACEABLE_RESULT
    if scanned >= clear:
        return CLEARED
    if rnd == rounds:
        return ROUNDS_EXHAUSTED
    return NOT_OVER


@njit(cache=True, inline="always")
def place(g, piece, occ, cm, used):
    """Board.place for position g of ``piece`` (legality checked by the caller)."""
    col = piece // 8
    for w in range(3):
        occ[w] |= g[w]
        cm[col, w] |= g[w]
    used[piece] = 1


# ---------------------------------------------------------------- the policies' board view
@njit(cache=True)
def refresh_view(occ, cm, tgt, need, T):
    """BoardView.__init__: targets (birds still worth scanning) and open cells around them, with
    the completion bounds: need[NEED_FINISHABLE] has a bit per target one piece could finish,
    need[NEED_BONUS] the completion bonus of all of them."""
    need[0] = 0
    need[1] = 0
    need[2] = 0
    need[NEED_BONUS] = 0
    need[NEED_FINISHABLE] = 0
    ring, edge, mc, live = T.bird_ring, T.bird_edge, T.mark_colour, T.bird_live
    max_size = T.max_size
    for b in range(ring.shape[0]):
        t = live[b] == 1 and not is_scanned(b, occ, cm, ring, edge, mc) and not is_spoiled(b, occ, cm, ring, mc)
        tgt[b] = 1 if t else 0
        if t:
            open_cells = 0
            for w in range(3):
                need[w] |= ring[b, w]
                open_cells += popcount(ring[b, w] & ~occ[w])
            if open_cells <= max_size:
                need[NEED_BONUS] += COMPLETION_BONUS
                need[NEED_FINISHABLE] |= np.int64(1) << b
    for w in range(3):
        need[w] &= ~occ[w]


@njit(cache=True, inline="always")
def score_mask(col, m0, m1, m2, touched, occ, tgt, ring, mc, ma):
    """BoardView.score on a mask; ``touched`` has bit b set if the mask meets bird b's ring
    (ring, mc, ma: T.bird_ring, T.mark_colour, T.mark_all)."""
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


@njit(cache=True)
def usefulness(card, occ, cm, used, tgt, need, value, known, best_pos, best_grp, stale, pos_start, pm, ph, ba,
               grp_start, gm, gub, gbirds, gps, gpos, ring, mc, ma, card_birds, most_birds):
    """BoardView.usefulness: best score of a legal placement (>= 0), UNPLACEABLE if none is legal.

    Kept across placements in value/known, with the best position, its footprint group (-1: a
    position that scores nothing) and ``stale``: the birds that placements touched since, plus
    the TAKEN bit when the best position is no longer legal (``placed``). A value whose best
    group touches none of those birds is still reached (by that position or another of its
    group), so only the groups around those birds are scored again. Callers read value[card]
    directly while ``is_fresh``. The tables are passed one by one: this runs a hundred times a
    round, and taking arrays out of GameTables costs a reference count each."""
    col = card // 8
    if used[card]:
        value[card] = 0
        known[card] = 1
        stale[card] = 0
        return 0
    birds = -1  # only groups touching these birds need scoring; -1: all of them
    u = UNPLACEABLE
    best = -1
    bgrp = -1
    if known[card]:
        if value[card] == UNPLACEABLE:
            stale[card] = 0
            return UNPLACEABLE  # placements only take room away
        if stale[card] == 0:
            return value[card]
        k0 = best_grp[card]
        if k0 < 0 or not gbirds[k0] & stale[card]:
            # the best group's score is as it was; is one of its positions still legal?
            if is_legal(best_pos[card], col, occ, cm, pm, ph, ba):
                best = best_pos[card]
            elif k0 >= 0:
                for j in range(gps[k0], gps[k0 + 1]):
                    if is_legal(gpos[j], col, occ, cm, pm, ph, ba):
                        best = gpos[j]
                        break
            if best >= 0:
                birds = stale[card] & ~TAKEN
                u, bgrp = value[card], k0
    # the most completion bonus one placement of this piece can add: birds it can touch that one
    # piece could finish, at most as many as one of its footprints touches
    bonus = COMPLETION_BONUS * min(popcount(need[NEED_FINISHABLE] & card_birds[card]), most_birds[card])
    for k in range(grp_start[card], grp_start[card + 1]):
        if birds != -1 and not gbirds[k] & birds:
            continue  # its score is as it was, and it did not beat the best then
        if u >= 0 and gub[k] + bonus <= u:
            break  # groups are sorted by this bound: none left can do better
        if u >= 0 and gub[k] + COMPLETION_BONUS * popcount(gbirds[k] & need[NEED_FINISHABLE]) <= u:
            continue  # its own bound: only birds this footprint touches can give it a bonus
        m0, m1, m2 = gm[k, 0], gm[k, 1], gm[k, 2]
        if (m0 & need[0]) | (m1 & need[1]) | (m2 & need[2]):
            s = score_mask(col, m0, m1, m2, gbirds[k], occ, tgt, ring, mc, ma)
        else:
            s = 0
        if u >= 0 and s <= u:
            continue  # cannot improve, whatever is legal
        for j in range(gps[k], gps[k + 1]):
            g = gpos[j]
            if is_legal(g, col, occ, cm, pm, ph, ba):
                u = s if s > 0 else 0
                best = g
                bgrp = k
                break
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
    return u


@njit(cache=True)
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


@njit(cache=True, inline="always")
def is_fresh(card, known, stale):
    """The cached usefulness of ``card`` is its value now."""
    return known[card] and stale[card] == 0


@njit(cache=True)
def is_dead_end(col, card, g, occ, cm, used, clear, occ2, cm2, T):
    """BoardView.is_dead_end: would placing position g leave fewer than ``clear`` birds that can
    still be scanned? occ2 and cm2 are scratch arrays (3,) and (5, 3)."""
    cm2[:, :] = cm
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
    return alive < clear


@njit(cache=True)
def filler(piece, need, occ, cm, tgt, T):
    """SmartBase._filler: the legal position (global id) intruding least on the cells around the
    wanted birds among those that do not score, or -1."""
    col = piece // 8
    z0, z1, z2 = grow(need[0], need[1], need[2])
    z0, z1, z2 = grow(z0, z1, z2)
    pm, ph, ba, pb = T.pos_mask, T.pos_halo, T.bird_all, T.pos_birds
    ring, mc, ma = T.bird_ring, T.mark_colour, T.mark_all
    best = -1
    best_cost = -1
    for g in range(T.pos_start[piece], T.pos_start[piece + 1]):
        if not is_legal(g, col, occ, cm, pm, ph, ba):
            continue
        touches = (pm[g, 0] & need[0]) | (pm[g, 1] & need[1]) | (pm[g, 2] & need[2])
        if touches and score_mask(col, pm[g, 0], pm[g, 1], pm[g, 2], pb[g], occ, tgt, ring, mc, ma) > 0:
            continue
        cost = popcount(pm[g, 0] & z0) + popcount(pm[g, 1] & z1) + popcount(pm[g, 2] & z2)
        if touches:
            cost += 100
        if best_cost < 0 or cost < best_cost:
            best, best_cost = g, cost
    return best


@njit(cache=True)
def smart_place(piece, avoid_dead_ends, occ, cm, used, tgt, need, clear, useful_g, useful_s, occ2, cm2, T):
    """SmartBase.place: global id of the chosen position, -1 if none is legal.

    Useful positions (score > 0) go best score first, ties to the lower position; each footprint
    group is scored once for all its positions."""
    col = piece // 8
    gm, gbirds, gps, gpos = T.grp_mask, T.grp_birds, T.grp_pos_start, T.grp_pos
    pm, ph, ba = T.pos_mask, T.pos_halo, T.bird_all
    ring, mc, ma = T.bird_ring, T.mark_colour, T.mark_all
    n_useful = 0
    for k in range(T.grp_start[piece], T.grp_start[piece + 1]):
        m0, m1, m2 = gm[k, 0], gm[k, 1], gm[k, 2]
        if ((m0 & need[0]) | (m1 & need[1]) | (m2 & need[2])) == 0:
            continue
        s = score_mask(col, m0, m1, m2, gbirds[k], occ, tgt, ring, mc, ma)
        if s <= 0:
            continue
        for j in range(gps[k], gps[k + 1]):
            g = gpos[j]
            if is_legal(g, col, occ, cm, pm, ph, ba):
                useful_g[n_useful] = g
                useful_s[n_useful] = s
                n_useful += 1
    top = -1
    for step in range(min(n_useful, DEAD_END_CHECKS if avoid_dead_ends else 1)):
        pick = -1
        for i in range(n_useful):
            if useful_s[i] > 0 and (pick < 0 or useful_s[i] > useful_s[pick] or
                                    (useful_s[i] == useful_s[pick] and useful_g[i] < useful_g[pick])):
                pick = i
        g = useful_g[pick]
        useful_s[pick] = 0  # checked
        if step == 0:
            top = g
        if not avoid_dead_ends:
            return g
        if not is_dead_end(col, piece, g, occ, cm, used, clear, occ2, cm2, T):
            return g
    f = filler(piece, need, occ, cm, tgt, T)
    if f < 0:
        return top  # every legal placement is useful (or none is legal: -1)
    if n_useful == 0 or not avoid_dead_ends:
        return f
    if not is_dead_end(col, piece, f, occ, cm, used, clear, occ2, cm2, T):
        return f
    return top


# ---------------------------------------------------------------- the heuristic's choices
@njit(cache=True)
def heuristic_card(seat, legal, nl, trick, nt, trump, hand, seen, removed, uval):
    """HeuristicPolicy.play_card; uval must hold the usefulness of every legal and trick card."""
    best = legal[0]
    best_value = 0
    best_card_value = 0
    first = True
    if nt == 0:
        for i in range(nl):
            c = legal[i]
            beaters = 0
            for x in range(40):
                if hand[seat, x] or seen[x] or removed[x]:
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


@njit(cache=True)
def heuristic_select(nopt, opts, uval):
    """HeuristicPolicy.select; uval must hold the usefulness of every option's pieces."""
    best = 0
    best_val = 0
    for k in range(nopt):
        total = 0
        for j in range(opts[k, OPT_N]):
            u = uval[opts[k, OPT_A + j]]
            total += -1000 if u == UNPLACEABLE else u
        val = 4 * total - (4 * SKILL_COST if opts[k, OPT_SKILL] != NO_SKILL else 0)
        if opts[k, OPT_N] == 2 and uval[opts[k, OPT_A]] >= uval[opts[k, OPT_B]]:
            val += 1
        if k == 0 or val > best_val:
            best, best_val = k, val
    return best


# ---------------------------------------------------------------- the planner (planner.py)
@njit(cache=True)
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


@njit(cache=True)
def live_solutions(rnd, skills_left, used, spoiled, lost, live, pair_bonus, T):
    """planner.live_solutions and the alignment bonus (PlanBoardView.align) of every (piece,
    position) pair of the library: the best over the live solutions that still need that piece.
    Returns how many solutions are live."""
    rounds_left = T.rounds - rnd + 1
    cap = rounds_left + min(skills_left, rounds_left)
    used_bits = 0
    lost_bits = 0
    for c in range(40):
        if used[c]:
            used_bits |= np.int64(1) << c
        if lost[c]:
            lost_bits |= np.int64(1) << c
    cards = T.sol_cards
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
    pair_card, pss, pair_sols = T.pair_card, T.pair_sol_start, T.pair_sols
    for j in range(pair_card.shape[0]):
        pair_bonus[j] = 0
        if used[pair_card[j]]:
            continue
        for k in range(pss[j], pss[j + 1]):
            s = live[pair_sols[k]]
            if s >= 0:
                pair_bonus[j] = max(pair_bonus[j], ALIGN_BASE + ALIGN_STEP * s)
    return n_live


@njit(cache=True)
def plan_usefulness(card, u, occ, tgt, need, pair_bonus, T):
    """PlanBoardView.usefulness given the heuristic's usefulness u: u, or the score of a place a
    live solution has for the piece plus its bonus, if higher."""
    if u == UNPLACEABLE:
        return u
    col = card // 8
    pm, pb, ring, mc, ma = T.pos_mask, T.pos_birds, T.bird_ring, T.mark_colour, T.mark_all
    for j in range(T.card_pair_start[card], T.card_pair_start[card + 1]):
        if pair_bonus[j] > 0:
            g = T.pair_pos[j]
            s = pair_bonus[j]
            if (pm[g, 0] & need[0]) | (pm[g, 1] & need[1]) | (pm[g, 2] & need[2]):
                s += score_mask(col, pm[g, 0], pm[g, 1], pm[g, 2], pb[g], occ, tgt, ring, mc, ma)
            u = max(u, s)
    return u


@njit(cache=True)
def planner_place(piece, h, n_live, live, occ, cm, tgt, need, pair_bonus, T):
    """PlannerPolicy.place given h, the heuristic's choice (-1 if the piece fits nowhere)."""
    if h < 0:
        return -1
    col = piece // 8
    pm, ph, ba, pb = T.pos_mask, T.pos_halo, T.bird_all, T.pos_birds
    ring, mc, ma = T.bird_ring, T.mark_colour, T.mark_all
    # a place a live solution has for it, or the heuristic's: the best planner score; ties to h,
    # then to the lower position
    h_touches = (pm[h, 0] & need[0]) | (pm[h, 1] & need[1]) | (pm[h, 2] & need[2])
    h_score = score_mask(col, pm[h, 0], pm[h, 1], pm[h, 2], pb[h], occ, tgt, ring, mc, ma) if h_touches else 0
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
            s += score_mask(col, pm[g, 0], pm[g, 1], pm[g, 2], pb[g], occ, tgt, ring, mc, ma)
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
            cost += 100
        if best_cost < 0 or cost < best_cost:
            best, best_cost = g, cost
    return h if best < 0 else best


# ---------------------------------------------------------------- one game
@njit(cache=True)
def play_one(seed, players, policy, T, out):
    """engine.play_game: returns the trace hash; out = [result, rounds played, birds scanned]."""
    buddy = T.buddy == 1
    nb = T.bird_ring.shape[0]
    rs = np.empty(players + 1, np.uint64)
    hand = np.zeros((players, 40), np.int64)
    removed = np.zeros(40, np.int64)
    start = deal(seed, players, buddy, rs, hand, removed)

    occ = T.occupied.copy()
    cm = T.colour_masks.copy()
    used = T.used.copy()
    seen = np.zeros(40, np.int64)
    tgt = np.zeros(max(nb, 1), np.int64)
    need = np.zeros(5, np.int64)
    uval = np.zeros(40, np.int64)
    known = np.zeros(40, np.int64)
    best_pos = np.zeros(40, np.int64)
    best_grp = np.zeros(40, np.int64)
    stale = np.zeros(40, np.int64)
    # the tables the usefulness scan reads, bound once per game (see ``usefulness``)
    pos_start, pm, ph, ba, grp_start = T.pos_start, T.pos_mask, T.pos_halo, T.bird_all, T.grp_start
    gm, gub, gbirds, gps, gpos = T.grp_mask, T.grp_ub, T.grp_birds, T.grp_pos_start, T.grp_pos
    ring, mc, ma, card_birds, most_birds = T.bird_ring, T.mark_colour, T.mark_all, T.card_birds, T.most_birds
    refresh_view(occ, cm, tgt, need, T)
    # the planner's state: solutions spoiled for good, cards lost (party), and per moment the live
    # solutions, each pair's bonus and the planner's usefulness (puval, known while pknown)
    n_sol = T.sol_cards.shape[0]
    spoiled = np.zeros(n_sol, np.int64)
    live = np.zeros(n_sol, np.int64)
    lost = removed.copy() if not buddy else np.zeros(40, np.int64)
    pair_bonus = np.zeros(T.pair_card.shape[0], np.int64)
    puval = np.zeros(40, np.int64)
    pknown = np.zeros(40, np.int64)
    n_live = 0
    max_pos = 0
    for c in range(40):
        max_pos = max(max_pos, T.pos_start[c + 1] - T.pos_start[c])
    lp = np.empty(max_pos, np.int64)
    scores = np.empty(max_pos, np.int64)
    occ2 = np.empty(3, np.int64)
    cm2 = np.empty((5, 3), np.int64)
    legal = np.empty(40, np.int64)
    trick = np.empty(5, np.int64)
    trick_player = np.empty(4, np.int64)
    order = np.empty(4, np.int64)
    opts = np.zeros((MAX_OPTIONS, 4), np.int64)
    skills_left = T.skills
    trump = TRUMP_ROUND_ONE
    h = FNV_OFFSET
    result = NOT_OVER
    rnd = 0
    for rnd in range(1, T.rounds + 1):
        if policy == PLANNER:
            n_live = live_solutions(rnd, skills_left, used, spoiled, lost, live, pair_bonus, T)
            pknown[:] = 0
        nplays = play_order(buddy, players, start, order)
        nt = 0
        for step in range(nplays):
            seat = order[step]
            nl = legal_cards(hand[seat], trick[0] // 8 if nt > 0 else -1, legal)
            if policy == HEURISTIC or policy == PLANNER:
                # usefulness of the cards the decision looks at; written out here and for the selection
                # below on purpose: as a kernel of its own (~30 array arguments, which Numba will not
                # inline) the engine ran 3 times slower
                for i in range(nl + nt):
                    c = legal[i] if i < nl else trick[i - nl]
                    if not is_fresh(c, known, stale):
                        usefulness(c, occ, cm, used, tgt, need, uval, known, best_pos, best_grp, stale, pos_start, pm,
                                   ph, ba, grp_start, gm, gub, gbirds, gps, gpos, ring, mc, ma, card_birds,
                                   most_birds)
                    if policy == PLANNER and not pknown[c]:
                        puval[c] = plan_usefulness(c, uval[c], occ, tgt, need, pair_bonus, T)
                        pknown[c] = 1
                card = heuristic_card(seat, legal, nl, trick, nt, trump, hand, seen, removed,
                                      puval if policy == PLANNER else uval)
            else:
                card = legal[below(rs, seat, nl)]
            hand[seat, card] = 0
            trick[nt] = card
            trick_player[nt] = seat
            nt += 1
            seen[card] = 1
            h = mix(h, card)
        wi = decision_card(trick, nt, trump)
        decision = trick[wi]
        in_charge = trick_player[wi]
        h = mix(h, TRACE_IN_CHARGE + in_charge)

        nopt = selection_options(buddy, used, trick, nt, decision, skills_left, opts)
        if policy == HEURISTIC or policy == PLANNER:
            for i in range(nopt):
                for j in range(opts[i, OPT_N]):
                    c = opts[i, OPT_A + j]
                    if not is_fresh(c, known, stale):
                        usefulness(c, occ, cm, used, tgt, need, uval, known, best_pos, best_grp, stale, pos_start, pm,
                                   ph, ba, grp_start, gm, gub, gbirds, gps, gpos, ring, mc, ma, card_birds,
                                   most_birds)
                    if policy == PLANNER and not pknown[c]:
                        puval[c] = plan_usefulness(c, uval[c], occ, tgt, need, pair_bonus, T)
                        pknown[c] = 1
            k = heuristic_select(nopt, opts, puval if policy == PLANNER else uval)
        elif policy == RANDOM:
            k = below(rs, in_charge, nopt)
        else:
            k = 0
        h = mix(h, TRACE_OPTION + k)
        if opts[k, OPT_SKILL] != NO_SKILL:
            skills_left -= 1
            if policy == PLANNER:
                n_live = live_solutions(rnd, skills_left, used, spoiled, lost, live, pair_bonus, T)

        unplaceable = False
        for j in range(opts[k, OPT_N]):
            piece = opts[k, OPT_A + j]
            col = piece // 8
            if policy == RANDOM:
                nlp = 0
                pm, ph, ba = T.pos_mask, T.pos_halo, T.bird_all
                for g in range(T.pos_start[piece], T.pos_start[piece + 1]):
                    if is_legal(g, col, occ, cm, pm, ph, ba):
                        lp[nlp] = g
                        nlp += 1
                g = lp[below(rs, in_charge, nlp)] if nlp > 0 else -1
            else:
                g = smart_place(piece, policy != GREEDY, occ, cm, used, tgt, need, T.clear, lp, scores, occ2, cm2, T)
                if policy == PLANNER:
                    g = planner_place(piece, g, n_live, live, occ, cm, tgt, need, pair_bonus, T)
            if g < 0:
                unplaceable = True
                break
            place(T.pos_mask[g], piece, occ, cm, used)
            h = mix(h, TRACE_PLACEMENT + piece * TRACE_PLACEMENT + (g - T.pos_start[piece]))
            refresh_view(occ, cm, tgt, need, T)
            placed(g, occ, cm, uval, known, best_pos, stale, T)
            if policy == PLANNER:
                spoil_solutions(g, piece, spoiled, T)
                n_live = live_solutions(rnd, skills_left, used, spoiled, lost, live, pair_bonus, T)
        if policy == PLANNER and not buddy:
            for i in range(nt):  # revealed without deciding: gone for good in party
                if i != wi:
                    lost[trick[i]] = 1
        trump = decision // 8
        start = in_charge
        result = end_check(unplaceable, count_scanned(occ, cm, T), T.clear, rnd, T.rounds)
        if result != NOT_OVER:
            break
    out[0] = result
    out[1] = rnd
    out[2] = count_scanned(occ, cm, T)
    return h


@njit(cache=True)
def play_many(seeds, players, policy, T, results, rounds_played, scanned, traces):
    out = np.zeros(3, np.int64)
    for i in range(seeds.shape[0]):
        traces[i] = play_one(seeds[i], players, policy, T, out)
        results[i] = out[0]
        rounds_played[i] = out[1]
        scanned[i] = out[2]


# ---------------------------------------------------------------- Python entry point
def run(tables, seeds: np.ndarray, players: int, policy: str):
    """Play one game per seed; returns (result codes, rounds played, birds scanned, trace hashes)."""
    n = len(seeds)
    results = np.zeros(n, np.int64)
    rounds_played = np.zeros(n, np.int64)
    scanned = np.zeros(n, np.int64)
    traces = np.zeros(n, np.uint64)
    if tables.bird_ring.shape[0] == 0:
        raise ValueError("mission has no birds")
    args = (np.asarray(seeds, np.uint64), players, POLICY_IDS[policy], tables, results, rounds_played, scanned,
            traces)
    try:
        play_many(*args)
    except errors.TypingError:
        raise
    except Exception:  # most likely a damaged cache file: drop the cache and compile afresh
        flush_caches()
        play_many(*args)
    return results, rounds_played, scanned, traces


def flush_caches() -> None:
    """Forget every cached compilation of this module (a damaged index is overwritten)."""
    for obj in list(globals().values()):
        cache = getattr(obj, "_cache", None)
        if cache is not None and hasattr(cache, "flush"):
            try:
                cache.flush()
            except OSError:
                pass
