"""The Numba engine: a fast twin of solver/game/engine.py and the policies in policies.py.

Same deal, same rules, same policies, same random draws in the same order, so
a seed gives the same game here and in the reference engine (the tests compare
the trace hash of every decision, game by game). The geometry comes from the
tables built by solver/game/tables.py out of the rules module; masks are three
48-bit words in int64. All kernels live in this one file so that Numba's cache
(cache=True) is invalidated whenever any of them changes.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _cache_dir_if_needed() -> None:
    """Numba caches next to this file; where that folder is read-only (an installed package),
    point it at a per-user folder instead, so a missing or unwritable cache only costs a compile."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    here = Path(__file__).resolve().parent
    if os.access(here, os.W_OK):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    target = base / "kakapo" / "numba"
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        target = Path(tempfile.gettempdir()) / "kakapo-numba"
        target.mkdir(parents=True, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = str(target)


_cache_dir_if_needed()

import numpy as np  # noqa: E402
from numba import errors, njit  # noqa: E402

POLICY_IDS = {"heuristic": 0, "random": 1, "greedy": 2}
from .engine import RESULTS as RESULT_NAMES  # noqa: E402  result codes are indices into it

M48 = (1 << 48) - 1
_COL_A = sum(1 << (r * 12) for r in range(4))
_COL_L = sum(1 << (r * 12 + 11) for r in range(4))
NOT_COL_A = M48 & ~_COL_A
NOT_COL_L = M48 & ~_COL_L
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MUL1 = np.uint64(0xBF58476D1CE4E5B9)
MUL2 = np.uint64(0x94D049BB133111EB)
FNV_OFFSET = np.uint64(0xCBF29CE484222325)
FNV_PRIME = np.uint64(0x100000001B3)
S30, S27, S31 = np.uint64(30), np.uint64(27), np.uint64(31)

UNPLACEABLE = -1
W_UNPLACEABLE = -60
SKILL_COST = 3
DEAD_END_CHECKS = 12
PURPLE_1, PURPLE_8 = 32, 39


# ---------------------------------------------------------------- bits and random numbers
@njit(cache=True, inline="always")
def popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True)
def grow(a0, a1, a2):
    d0 = (a0 << 12) & M48
    d1 = ((a1 << 12) & M48) | (a0 >> 36)
    d2 = ((a2 << 12) & M48) | (a1 >> 36)
    u0 = (a0 >> 12) | ((a1 & 0xFFF) << 36)
    u1 = (a1 >> 12) | ((a2 & 0xFFF) << 36)
    u2 = a2 >> 12
    r0 = a0 | d0 | u0 | ((a0 & NOT_COL_L) << 1) | ((a0 & NOT_COL_A) >> 1)
    r1 = a1 | d1 | u1 | ((a1 & NOT_COL_L) << 1) | ((a1 & NOT_COL_A) >> 1)
    r2 = a2 | d2 | u2 | ((a2 & NOT_COL_L) << 1) | ((a2 & NOT_COL_A) >> 1)
    return r0, r1, r2


@njit(cache=True, inline="always")
def rnext(rs, k):
    s = rs[k] + GOLDEN
    rs[k] = s
    z = (s ^ (s >> S30)) * MUL1
    z = (z ^ (z >> S27)) * MUL2
    return z ^ (z >> S31)


@njit(cache=True, inline="always")
def below(rs, k, n):
    return np.int64(rnext(rs, k) % np.uint64(n))


@njit(cache=True, inline="always")
def mix(h, v):
    return (h ^ np.uint64(v)) * FNV_PRIME


# ---------------------------------------------------------------- rules lookups
@njit(cache=True, inline="always")
def is_legal(g, col, occ, cm, bird_all, pos_mask, pos_halo):
    if (pos_mask[g, 0] & (occ[0] | bird_all[0])) | (pos_mask[g, 1] & (occ[1] | bird_all[1])) | \
            (pos_mask[g, 2] & (occ[2] | bird_all[2])):
        return False
    return ((pos_halo[g, 0] & cm[col, 0]) | (pos_halo[g, 1] & cm[col, 1]) | (pos_halo[g, 2] & cm[col, 2])) == 0


@njit(cache=True, inline="always")
def is_scanned(b, occ, cm, bird_ring, bird_edge, mark_colour):
    if bird_edge[b]:
        return False
    for w in range(3):
        if bird_ring[b, w] & ~occ[w]:
            return False
    for col in range(5):
        for w in range(3):
            if bird_ring[b, w] & mark_colour[col, w] & ~cm[col, w]:
                return False
    return True


@njit(cache=True, inline="always")
def is_spoiled(b, occ, cm, bird_ring, mark_colour):
    for col in range(5):
        for w in range(3):
            if bird_ring[b, w] & mark_colour[col, w] & occ[w] & ~cm[col, w]:
                return True
    return False


@njit(cache=True)
def count_scanned(occ, cm, bird_ring, bird_edge, mark_colour):
    n = 0
    for b in range(bird_ring.shape[0]):
        if is_scanned(b, occ, cm, bird_ring, bird_edge, mark_colour):
            n += 1
    return n


@njit(cache=True, inline="always")
def decide(trick, nt, trump):
    """Index in the trick of the decision card: highest trump, else highest of the lead colour."""
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


# ---------------------------------------------------------------- the board view used by the policies
@njit(cache=True)
def refresh_view(occ, cm, tgt, need, uvalid, bird_ring, bird_edge, bird_live, mark_colour, max_size):
    """Targets (birds still worth scanning), open cells around them in need[0:3], and in need[3]
    the most completion bonus any placement can earn now (10 per target a single piece could finish)."""
    need[0] = 0
    need[1] = 0
    need[2] = 0
    need[3] = 0
    for b in range(bird_ring.shape[0]):
        t = bird_live[b] == 1 and not is_scanned(b, occ, cm, bird_ring, bird_edge, mark_colour) \
            and not is_spoiled(b, occ, cm, bird_ring, mark_colour)
        tgt[b] = 1 if t else 0
        if t:
            open_cells = 0
            for w in range(3):
                need[w] |= bird_ring[b, w]
                open_cells += popcount(bird_ring[b, w] & ~occ[w])
            if open_cells <= max_size:
                need[3] += 10
    for w in range(3):
        need[w] &= ~occ[w]
    for k in range(40):
        uvalid[k] = 0


@njit(cache=True, inline="always")
def score_mask(col, m0, m1, m2, touched, occ, tgt, bird_ring, mark_colour, mark_all):
    """policies.BoardView.score on a mask; ``touched`` has bit b set if the mask meets bird b's ring."""
    gain = 0
    b = -1
    while touched:
        b += 1
        bit = touched & 1
        touched >>= 1
        if not bit or not tgt[b]:
            continue
        c0 = m0 & bird_ring[b, 0] & ~occ[0]
        c1 = m1 & bird_ring[b, 1] & ~occ[1]
        c2 = m2 & bird_ring[b, 2] & ~occ[2]
        if (c0 | c1 | c2) == 0:
            continue
        wrong = (c0 & mark_all[0] & ~mark_colour[col, 0]) | (c1 & mark_all[1] & ~mark_colour[col, 1]) | \
                (c2 & mark_all[2] & ~mark_colour[col, 2])
        if wrong:
            gain -= 40
            continue
        gain += 2 * (popcount(c0) + popcount(c1) + popcount(c2))
        gain += 2 * (popcount(c0 & mark_colour[col, 0]) + popcount(c1 & mark_colour[col, 1])
                     + popcount(c2 & mark_colour[col, 2]))
        rest = (bird_ring[b, 0] & ~occ[0] & ~m0) | (bird_ring[b, 1] & ~occ[1] & ~m1) | \
               (bird_ring[b, 2] & ~occ[2] & ~m2)
        if rest == 0:
            gain += 10
    return gain


@njit(cache=True, inline="always")
def score(col, g, occ, tgt, pos_mask, pos_birds, bird_ring, mark_colour, mark_all):
    return score_mask(col, pos_mask[g, 0], pos_mask[g, 1], pos_mask[g, 2], pos_birds[g], occ, tgt, bird_ring,
                      mark_colour, mark_all)


@njit(cache=True)
def usefulness(card, occ, cm, used, tgt, need, uval, uvalid, T, G):
    """policies.BoardView.usefulness: best score of a legal placement (>= 0), -1 if none is legal."""
    (pos_start, pos_mask, pos_halo, pos_card, pos_birds, cand_start, cand_ids, cover_start, cover_ids,
     bird_ring, bird_edge, bird_live, bird_all, mark_colour, mark_all) = T
    grp_start, grp_mask, grp_ub, grp_birds, grp_pos_start, grp_pos = G
    if uvalid[card]:
        return uval[card]
    col = card // 8
    if used[card]:
        u = 0
    else:
        u = UNPLACEABLE
        for k in range(grp_start[card], grp_start[card + 1]):
            if u >= 0 and grp_ub[k] + need[3] <= u:
                break  # groups are sorted by this upper bound: none left can do better
            m0, m1, m2 = grp_mask[k, 0], grp_mask[k, 1], grp_mask[k, 2]
            if (m0 & need[0]) | (m1 & need[1]) | (m2 & need[2]):
                s = score_mask(col, m0, m1, m2, grp_birds[k], occ, tgt, bird_ring, mark_colour, mark_all)
            else:
                s = 0
            if u >= 0 and s <= u:
                continue  # cannot improve, whatever is legal
            for j in range(grp_pos_start[k], grp_pos_start[k + 1]):
                if is_legal(grp_pos[j], col, occ, cm, bird_all, pos_mask, pos_halo):
                    u = s if s > 0 else 0
                    break
        if u == UNPLACEABLE:
            for g in range(pos_start[card], pos_start[card + 1]):
                if is_legal(g, col, occ, cm, bird_all, pos_mask, pos_halo):
                    u = 0
                    break
    uval[card] = u
    uvalid[card] = 1
    return u


@njit(cache=True)
def is_dead_end(col, card, g, occ, cm, used, clear, occ2, cm2, T):
    """Would placing position g leave fewer than `clear` birds that can still be scanned?
    occ2 and cm2 are scratch arrays (3,) and (5, 3)."""
    (pos_start, pos_mask, pos_halo, pos_card, pos_birds, cand_start, cand_ids, cover_start, cover_ids, bird_ring,
     bird_edge, bird_live, bird_all, mark_colour, mark_all) = T
    cm2[:, :] = cm
    for w in range(3):
        occ2[w] = occ[w] | pos_mask[g, w]
        cm2[col, w] |= pos_mask[g, w]
    alive = 0
    for b in range(bird_ring.shape[0]):
        if not bird_live[b]:
            continue
        if is_spoiled(b, occ2, cm2, bird_ring, mark_colour):
            continue
        ok = True
        for w in range(3):
            if not ok:
                break
            open_w = bird_ring[b, w] & ~occ2[w]
            while open_w and ok:
                low = open_w & -open_w
                open_w ^= low
                c = w * 48 + popcount(low - 1)
                want = -1
                for k in range(5):
                    if mark_colour[k, w] & low:
                        want = k
                ok = False
                for j in range(cover_start[c], cover_start[c + 1]):
                    h = cover_ids[j]
                    r = pos_card[h]
                    if r == card or used[r] or (want >= 0 and r // 8 != want):
                        continue
                    if is_legal(h, r // 8, occ2, cm2, bird_all, pos_mask, pos_halo):
                        ok = True
                        break
        if ok:
            alive += 1
    return alive < clear


# ---------------------------------------------------------------- policies
@njit(cache=True)
def heuristic_card(seat, legal, nl, trick, nt, trump, hand, seen, removed, uval):
    """policies.HeuristicPolicy.play_card; uval must hold the usefulness of every legal and trick card."""
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
        wi = decide(trick, nt + 1, trump)
        winner = trick[wi]
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
def heuristic_select(nopt, opt_skill, opt_n, opt_a, opt_b, uval):
    """policies.HeuristicPolicy.select; uval must hold the usefulness of every option's pieces."""
    best = 0
    best_val = 0
    for k in range(nopt):
        total = 0
        for j in range(opt_n[k]):
            u = uval[opt_a[k] if j == 0 else opt_b[k]]
            total += -1000 if u == UNPLACEABLE else u
        val = 4 * total - (4 * SKILL_COST if opt_skill[k] else 0)
        if opt_n[k] == 2 and uval[opt_a[k]] >= uval[opt_b[k]]:
            val += 1
        if k == 0 or val > best_val:
            best, best_val = k, val
    return best


@njit(cache=True)
def filler(piece, need, occ, cm, tgt, T):
    """The legal placement (global id) intruding least on the cells around the wanted birds, or -1."""
    (pos_start, pos_mask, pos_halo, pos_card, pos_birds, cand_start, cand_ids, cover_start, cover_ids,
     bird_ring, bird_edge, bird_live, bird_all, mark_colour, mark_all) = T
    col = piece // 8
    z0, z1, z2 = grow(need[0], need[1], need[2])
    z0, z1, z2 = grow(z0, z1, z2)
    best = -1
    best_cost = -1
    for g in range(pos_start[piece], pos_start[piece + 1]):
        if not is_legal(g, col, occ, cm, bird_all, pos_mask, pos_halo):
            continue
        touches = (pos_mask[g, 0] & need[0]) | (pos_mask[g, 1] & need[1]) | (pos_mask[g, 2] & need[2])
        if touches and score(col, g, occ, tgt, pos_mask, pos_birds, bird_ring, mark_colour, mark_all) > 0:
            continue
        cost = popcount(pos_mask[g, 0] & z0) + popcount(pos_mask[g, 1] & z1) + popcount(pos_mask[g, 2] & z2)
        if touches:
            cost += 100
        if best_cost < 0 or cost < best_cost:
            best, best_cost = g, cost
    return best


@njit(cache=True)
def smart_place(piece, useful_g, useful_s, avoid_dead_ends, occ, cm, used, tgt, need, clear, T):
    """Global id of the chosen placement, as policies.SmartBase.place chooses it; -1 if none is legal.

    Useful placements (score > 0) are taken best score first, ties to the lower position index."""
    (pos_start, pos_mask, pos_halo, pos_card, pos_birds, cand_start, cand_ids, cover_start, cover_ids,
     bird_ring, bird_edge, bird_live, bird_all, mark_colour, mark_all) = T
    col = piece // 8
    scratch_occ = np.empty(3, np.int64)
    scratch_cm = np.empty((5, 3), np.int64)
    n_useful = 0
    for j in range(cand_start[piece], cand_start[piece + 1]):
        g = cand_ids[j]
        if ((pos_mask[g, 0] & need[0]) | (pos_mask[g, 1] & need[1]) | (pos_mask[g, 2] & need[2])) == 0:
            continue
        if not is_legal(g, col, occ, cm, bird_all, pos_mask, pos_halo):
            continue
        sc = score(col, g, occ, tgt, pos_mask, pos_birds, bird_ring, mark_colour, mark_all)
        if sc > 0:
            useful_g[n_useful] = g
            useful_s[n_useful] = sc
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
        if not is_dead_end(col, piece, g, occ, cm, used, clear, scratch_occ, scratch_cm, T):
            return g
    f = filler(piece, need, occ, cm, tgt, T)
    if f < 0:
        return top  # every legal placement is useful (or none is legal: -1)
    if n_useful == 0 or not avoid_dead_ends:
        return f
    if not is_dead_end(col, piece, f, occ, cm, used, clear, scratch_occ, scratch_cm, T):
        return f
    return top


# ---------------------------------------------------------------- one game
@njit(cache=True)
def play_one(seed, players, policy, T, G, settings, occ0, cm0, used0, out):
    (pos_start, pos_mask, pos_halo, pos_card, pos_birds, cand_start, cand_ids, cover_start, cover_ids, bird_ring,
     bird_edge, bird_live, bird_all, mark_colour, mark_all) = T
    buddy = settings[0] == 1
    rounds = settings[1]
    skills = settings[2]
    clear = settings[3]
    nb = bird_ring.shape[0]

    # ---- deal (same draws as state.deal)
    rs = np.empty(players + 1, np.uint64)
    rs[players] = np.uint64(seed)
    GAME = players  # the game stream lives in the last slot
    removed = np.zeros(40, np.int64)
    deck = np.empty(40, np.int64)
    n = 0
    for c in range(40):
        if players == 3 and c == PURPLE_1:
            removed[c] = 1
            continue
        deck[n] = c
        n += 1
    for i in range(n - 1, 0, -1):
        j = below(rs, GAME, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    aside = 8 if buddy else 0
    hand_size = 16 if buddy else (13 if players == 3 else 10)
    hand = np.zeros((players, 40), np.int64)
    for k in range(players):
        for i in range(aside + k * hand_size, aside + (k + 1) * hand_size):
            hand[k, deck[i]] = 1
    start = -1
    for k in range(players):
        if hand[k, PURPLE_8]:
            start = k
    if start < 0:
        start = below(rs, GAME, players)
    for k in range(players):
        rs[k] = rnext(rs, GAME)

    # ---- state
    occ = occ0.copy()
    cm = cm0.copy()
    used = used0.copy()
    seen = np.zeros(40, np.int64)
    tgt = np.zeros(max(nb, 1), np.int64)
    need = np.zeros(4, np.int64)
    uval = np.zeros(40, np.int64)
    uvalid = np.zeros(40, np.int64)
    refresh_view(occ, cm, tgt, need, uvalid, bird_ring, bird_edge, bird_live, mark_colour, settings[4])
    max_pos = 0
    for c in range(40):
        max_pos = max(max_pos, pos_start[c + 1] - pos_start[c])
    lp = np.empty(max_pos, np.int64)
    scores = np.empty(max_pos, np.int64)
    legal = np.empty(40, np.int64)
    trick = np.empty(5, np.int64)
    trick_player = np.empty(4, np.int64)
    order = np.empty(4, np.int64)
    opt_skill = np.zeros(10, np.int64)
    opt_n = np.zeros(10, np.int64)
    opt_a = np.zeros(10, np.int64)
    opt_b = np.zeros(10, np.int64)
    skills_left = skills
    trump = 4
    h = FNV_OFFSET
    result = -1
    rnd = 0
    for rnd in range(1, rounds + 1):
        if buddy:
            order[0] = start
            order[1] = 1 - start
            order[2] = start
            order[3] = 1 - start
            nplays = 4
        else:
            for k in range(players):
                order[k] = (start + k) % players
            nplays = players
        nt = 0
        for step in range(nplays):
            seat = order[step]
            nl = 0
            if nt > 0:
                lead = trick[0] // 8
                for c in range(lead * 8, lead * 8 + 8):
                    if hand[seat, c]:
                        legal[nl] = c
                        nl += 1
            if nl == 0:
                for c in range(40):
                    if hand[seat, c]:
                        legal[nl] = c
                        nl += 1
            if policy == 0:
                for i in range(nl + nt):  # usefulness of the cards the decision looks at
                    c = legal[i] if i < nl else trick[i - nl]
                    if not uvalid[c]:
                        usefulness(c, occ, cm, used, tgt, need, uval, uvalid, T, G)
                card = heuristic_card(seat, legal, nl, trick, nt, trump, hand, seen, removed, uval)
            else:
                card = legal[below(rs, seat, nl)]
            hand[seat, card] = 0
            trick[nt] = card
            trick_player[nt] = seat
            nt += 1
            seen[card] = 1
            h = mix(h, card)
        wi = decide(trick, nt, trump)
        decision = trick[wi]
        in_charge = trick_player[wi]
        h = mix(h, 64 + in_charge)

        # ---- selection options, in the order of state.selection_options
        nopt = 1
        opt_skill[0] = 0
        if used[decision]:
            opt_n[0] = 0
        else:
            opt_n[0] = 1
            opt_a[0] = decision
        if skills_left > 0:
            same = True
            lowest = trick[0]
            for i in range(nt):
                if trick[i] // 8 != trick[0] // 8:
                    same = False
                if trick[i] % 8 < lowest % 8:
                    lowest = trick[i]
            if same and not used[lowest]:
                if not used[decision]:
                    opt_skill[nopt] = 1
                    opt_n[nopt] = 2
                    opt_a[nopt] = decision
                    opt_b[nopt] = lowest
                    nopt += 1
                    opt_skill[nopt] = 1
                    opt_n[nopt] = 2
                    opt_a[nopt] = lowest
                    opt_b[nopt] = decision
                    nopt += 1
                else:
                    opt_skill[nopt] = 1
                    opt_n[nopt] = 1
                    opt_a[nopt] = lowest
                    nopt += 1
            if buddy:
                for colour in range(5):
                    alt = colour * 8 + decision % 8
                    if colour != decision // 8 and not used[alt]:
                        opt_skill[nopt] = 2
                        opt_n[nopt] = 1
                        opt_a[nopt] = alt
                        nopt += 1
                for dv in (-1, 1):
                    v = decision % 8 + dv
                    if 0 <= v <= 7 and not used[(decision // 8) * 8 + v]:
                        opt_skill[nopt] = 3
                        opt_n[nopt] = 1
                        opt_a[nopt] = (decision // 8) * 8 + v
                        nopt += 1
        if policy == 0:
            for i in range(nopt):
                for j in range(opt_n[i]):
                    p = opt_a[i] if j == 0 else opt_b[i]
                    if not uvalid[p]:
                        usefulness(p, occ, cm, used, tgt, need, uval, uvalid, T, G)
            k = heuristic_select(nopt, opt_skill, opt_n, opt_a, opt_b, uval)
        elif policy == 1:
            k = below(rs, in_charge, nopt)
        else:
            k = 0
        h = mix(h, 128 + k)
        if opt_skill[k]:
            skills_left -= 1

        # ---- placements
        for j in range(opt_n[k]):
            piece = opt_a[k] if j == 0 else opt_b[k]
            col = piece // 8
            if policy == 1:
                nlp = 0
                for g in range(pos_start[piece], pos_start[piece + 1]):
                    if is_legal(g, col, occ, cm, bird_all, pos_mask, pos_halo):
                        lp[nlp] = g
                        nlp += 1
                g = lp[below(rs, in_charge, nlp)] if nlp > 0 else -1
            else:
                g = smart_place(piece, lp, scores, policy == 0, occ, cm, used, tgt, need, clear, T)
            if g < 0:
                result = 2
                break
            for w in range(3):
                occ[w] |= pos_mask[g, w]
                cm[col, w] |= pos_mask[g, w]
            used[piece] = 1
            h = mix(h, 4096 + piece * 4096 + (g - pos_start[piece]))
            refresh_view(occ, cm, tgt, need, uvalid, bird_ring, bird_edge, bird_live, mark_colour, settings[4])
        trump = decision // 8
        start = in_charge
        if result < 0:
            if count_scanned(occ, cm, bird_ring, bird_edge, mark_colour) >= clear:
                result = 0
            elif rnd == rounds:
                result = 1
        if result >= 0:
            break
    out[0] = result
    out[1] = rnd
    out[2] = count_scanned(occ, cm, bird_ring, bird_edge, mark_colour)
    return h


@njit(cache=True)
def play_many(seeds, players, policy, T, G, settings, occ0, cm0, used0, results, rounds_played, scanned, traces):
    out = np.zeros(3, np.int64)
    for i in range(seeds.shape[0]):
        traces[i] = play_one(seeds[i], players, policy, T, G, settings, occ0, cm0, used0, out)
        results[i] = out[0]
        rounds_played[i] = out[1]
        scanned[i] = out[2]


# ---------------------------------------------------------------- Python entry point
def pack(tables: dict) -> tuple:
    mark_all = tables["mark_colour"][0] | tables["mark_colour"][1] | tables["mark_colour"][2] | \
        tables["mark_colour"][3] | tables["mark_colour"][4]
    return (tables["pos_start"], tables["pos_mask"], tables["pos_halo"], tables["pos_card"], tables["pos_birds"],
            tables["cand_start"],
            tables["cand_ids"], tables["cover_start"], tables["cover_ids"], tables["bird_ring"], tables["bird_edge"],
            tables["bird_live"], tables["bird_all"], tables["mark_colour"], mark_all.astype(np.int64))


def run(tables: dict, seeds: np.ndarray, players: int, policy: str):
    """Play one game per seed; returns (result codes, rounds played, birds scanned, trace hashes)."""
    n = len(seeds)
    results = np.zeros(n, np.int64)
    rounds_played = np.zeros(n, np.int64)
    scanned = np.zeros(n, np.int64)
    traces = np.zeros(n, np.uint64)
    bird_ring = tables["bird_ring"]
    T = pack(tables)
    if bird_ring.shape[0] == 0:
        raise ValueError("mission has no birds")
    G = (tables["grp_start"], tables["grp_mask"], tables["grp_ub"], tables["grp_birds"], tables["grp_pos_start"],
         tables["grp_pos"])
    args = (np.asarray(seeds, np.uint64), players, POLICY_IDS[policy], T, G, tables["settings"],
            tables["occupied"], tables["colour_masks"], tables["used"], results, rounds_played, scanned, traces)
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
