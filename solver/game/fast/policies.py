"""Twins of the policies' ``act`` (game/policies.py, game/planner.py): ``decide`` takes a seat's
observation (``FastObs``), its own random stream and the policy's memory, and returns an
action code. Like their Python twins, the policies hold no game loop.

The memory (``Memory``) holds what a policy keeps between decisions: the usefulness cache,
the board view, the planner's spoiled and live solutions, and scratch arrays. All of it is
computed from the observation alone, from the public moves of the game (``sync`` catches up
with the moves taken since the last decision), so a policy can start from any state: a fresh
memory gives the same decisions as one kept since the deal.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from solver.core.codes import ONE_PLY
from solver.core.spec import SPEC_BUDDY, SPEC_ROUNDS
from solver.game.actions import PLACE_BASE, SELECT_BASE
from solver.game.fast.board import is_legal
from solver.game.fast.cards import OPT_A, OPT_N, legal_cards
from solver.game.fast.heuristic import (
    F_ROWS,
    F_STAMP,
    NEED_SIZE,
    heuristic_card,
    heuristic_select,
    placed,
    refresh_view,
    smart_place,
    usefulness,
)
from solver.game.fast.planner import live_solutions, plan_usefulness, planner_place, spoil_solutions
from solver.game.fast.rng import below
from solver.game.fast.state import (
    I_NMOVES,
    I_NOPT,
    I_NPLACED,
    I_NT,
    I_OPTION,
    I_PHASE,
    I_ROUND,
    I_SKILLS,
    I_TRUMP,
    MAX_TRICK,
    REVEAL,
    SELECT,
)
from solver.runtime.jit import kernel

HEURISTIC, RANDOM, GREEDY, PLANNER = (int(p) for p in ONE_PLY)

# slots of Memory.mstate
M_SYNCED, M_VIEW, M_PLACED, M_LIVE_ROUND, M_LIVE_SKILLS, M_LIVE_PLACED, M_NLIVE = 0, 1, 2, 3, 4, 5, 6
M_VERSION = 7  # a number for the board the memory has synced: it changes with every board and never repeats
M_MOVED = 8  # a bit per bird whose ring a piece has touched since the deal
M_BOARD_VERSION, M_BOARD_SLOT, M_BOARD_STAMP = 9, 10, 11  # the board's row in Memory.boards, for that version
M_SIZE = 12
# columns of Memory.boards, what a player knows by board (``board_slot``): the board's key (its
# colour masks and the pieces used), the row's stamp, a bit per card whose usefulness the row
# holds and a bit per piece whose placement it holds, then per card its value, best position and
# best group (usefulness) and its placement (smart_place)
B_KEY, B_KEY_SIZE = 0, 16
B_STAMP, B_KNOWN, B_PLACED = 16, 17, 18
B_CARD, B_CARD_SIZE = 19, 4  # card c at B_CARD + 4c: value, best position, best group, placement
B_COLS = B_CARD + 40 * B_CARD_SIZE
BOARD_SLOTS = 1024  # the rows a player that reaches boards again keeps (1.5 MB)
HASH_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as an int64 (a uint64 constant would make the hash a float)
# rows of Memory.dealt: the usefulness cache on the dealt board, the same in every game
D_VALUE, D_BEST_POS, D_BEST_GRP, D_KNOWN = 0, 1, 2, 3
D_ROWS = 4

Memory = namedtuple("Memory", [
    "mstate",  # int64[M_SIZE]: moves synced, view computed, placements synced, key and count of the live solutions
    "uval", "known", "best_pos", "best_grp", "stale",  # int64[40] each: the usefulness cache (heuristic.usefulness)
    "tgt", "need",  # the board view: target birds, open cells and completion bounds (heuristic.refresh_view)
    "spoiled", "live", "pair_bonus",  # the planner: per solution, per (piece, position) of the library
    "puval", "pknown", "lost",  # int64[40] each: the planner's usefulness, and cards gone for good
    "foot_memo",  # int64[F_ROWS, footprints]: scores per (footprint, colour) of the arrays (heuristic.foot_score)
    "bird_stamp",  # per bird: the board version of its last change (a piece touched its ring)
    "dealt",  # int64[4, 40]: the usefulness cache on the dealt board (rows D_*), kept from game to game
    "grp_skip",  # per footprint group: how many of its first positions are no longer legal (heuristic.first_legal)
    "boards",  # int64[slots + 1, B_COLS]: what is known by board (``board_slot``), the last row a clock
    "cards", "lp", "scores", "occ2", "cm2", "trick",  # scratch
])
Memory.__doc__ = "What a policy keeps between decisions, all of it derived from public information."


@kernel()
def new_boards(slots):
    """What memories know by board (``board_slot``): ``slots`` rows (a power of two, or 0 for none)
    and the clock's row, for memories of one player (the same arrays T) to share."""
    return np.zeros((slots + 1, B_COLS), np.int64)


@kernel()
def new_memory(T):
    """A memory that keeps no usefulness values by board (a player whose boards do not repeat)."""
    return new_memory_with_boards(T, new_boards(0))


@kernel()
def new_memory_with_boards(T, boards):
    """A memory that keeps usefulness values by board in ``boards`` (``board_slot``), which other
    memories of the same player (the same arrays T) may share."""
    max_pos = 0
    for c in range(40):
        max_pos = max(max_pos, T.pos_start[c + 1] - T.pos_start[c])
    n_sol = T.sol_cards.shape[0]
    foot_memo = np.zeros((F_ROWS, max(T.foot_count, 1)), np.int64)
    foot_memo[F_STAMP, :] = -1
    return Memory(np.zeros(M_SIZE, np.int64), np.zeros(40, np.int64), np.zeros(40, np.int64),
                  np.zeros(40, np.int64), np.zeros(40, np.int64), np.zeros(40, np.int64),
                  np.zeros(max(T.bird_ring.shape[0], 1), np.int64), np.zeros(NEED_SIZE, np.int64),
                  np.zeros(n_sol, np.int64), np.zeros(n_sol, np.int64), np.zeros(T.pair_card.shape[0], np.int64),
                  np.zeros(40, np.int64), np.zeros(40, np.int64), np.zeros(40, np.int64),
                  foot_memo, np.zeros(max(T.bird_ring.shape[0], 1), np.int64), np.zeros((D_ROWS, 40), np.int64),
                  np.zeros(max(T.grp_mask.shape[0], 1), np.int64), boards,
                  np.zeros(40 + MAX_TRICK, np.int64), np.zeros(max_pos, np.int64), np.zeros(max_pos, np.int64),
                  np.zeros(3, np.int64), np.zeros((5, 3), np.int64), np.zeros(MAX_TRICK, np.int64))


@kernel()
def reset_memory(mem):
    """Forget the game: the memory of a policy that has seen no move yet. What holds for the dealt
    board in every game stays (usefulness values, footprint scores), and the board version moves
    on, so that no score of another game's board is read."""
    version = mem.mstate[M_VERSION]
    mem.mstate[:] = 0
    mem.mstate[M_VERSION] = version + 1
    mem.mstate[M_LIVE_ROUND] = -1
    for c in range(40):
        known = mem.dealt[D_KNOWN, c]
        mem.known[c] = known
        if known:
            mem.uval[c] = mem.dealt[D_VALUE, c]
            mem.best_pos[c] = mem.dealt[D_BEST_POS, c]
            mem.best_grp[c] = mem.dealt[D_BEST_GRP, c]
    mem.stale[:] = 0
    mem.grp_skip[:] = 0
    mem.spoiled[:] = 0
    mem.pknown[:] = 0


@kernel(entry=True)
def reset_memory_py(mem):
    """``reset_memory`` for Python callers (kernels call ``reset_memory``, kept as IR: runtime/linkonly.py)."""
    reset_memory(mem)


@kernel(hot=True)
def sync(obs, mem, T):
    """Catch up with the moves since the last decision: each placement makes usefulness values
    stale and spoils library solutions; then the board view is computed again."""
    n = obs.info[I_NMOVES]
    changed = mem.mstate[M_VIEW] == 0
    for i in range(mem.mstate[M_SYNCED], n):
        code = obs.moves[i]
        if code >= PLACE_BASE:
            piece = code // PLACE_BASE - 1
            g = T.pos_start[piece] + code % PLACE_BASE
            placed(g, obs.occ, obs.cm, mem.uval, mem.known, mem.best_pos, mem.stale, T)
            spoil_solutions(g, piece, mem.spoiled, T)
            mem.mstate[M_PLACED] += 1
            mem.mstate[M_VERSION] += 1
            touched = T.pos_birds[g]
            mem.mstate[M_MOVED] |= touched
            b = 0
            while touched:
                if touched & 1:
                    mem.bird_stamp[b] = mem.mstate[M_VERSION]
                touched >>= 1
                b += 1
            changed = True
    mem.mstate[M_SYNCED] = n
    if changed:
        refresh_view(obs.occ, obs.cm, mem.tgt, mem.need, T)
        mem.mstate[M_VIEW] = 1


@kernel(hot=True)
def refresh_live(obs, mem, T):
    """planner.live_solutions for this moment (round, counters, board), kept until one changes;
    the planner's usefulness values are forgotten with it. In party a card revealed in an
    earlier round without deciding it is gone for good (no skill brings its piece back)."""
    rnd, skills = obs.info[I_ROUND], obs.info[I_SKILLS]
    if mem.mstate[M_LIVE_ROUND] == rnd and mem.mstate[M_LIVE_SKILLS] == skills and \
            mem.mstate[M_LIVE_PLACED] == mem.mstate[M_PLACED]:
        return
    lost = mem.lost
    for c in range(40):
        lost[c] = 0
        if obs.spec[SPEC_BUDDY] == 0:
            lost[c] = 1 if obs.removed[c] or (obs.seen[c] and not obs.pile[c]) else 0
    if obs.spec[SPEC_BUDDY] == 0:
        for i in range(obs.info[I_NT]):
            lost[obs.trick[i]] = 0  # this round's cards are not gone yet
    mem.mstate[M_NLIVE] = live_solutions(obs.spec[SPEC_ROUNDS] - rnd + 1, skills, obs.used, mem.spoiled, lost,
                                         mem.live, mem.pair_bonus, T)
    mem.mstate[M_LIVE_ROUND], mem.mstate[M_LIVE_SKILLS] = rnd, skills
    mem.mstate[M_LIVE_PLACED] = mem.mstate[M_PLACED]
    for c in range(40):
        mem.pknown[c] = 0


@kernel(hot=True, always_inline=True)
def board_slot(obs, mem):
    """The row of ``mem.boards`` that holds this board's values, -1 if the memory keeps none.
    A card's usefulness (its value, and a best position and group that reach it) and a piece's
    placement are functions of the board alone (the colour masks and the pieces used), the same
    whatever game or look-ahead game reached it, and a search player's look-ahead games reach the
    same boards again and again (b19: 3 of 4 boards of a decision's look-ahead games). A row is
    the board's if its key is; else the row is taken for this board (the last one wins) and
    stamped from the clock, so that a memory that found its row at this board's version knows it
    is still its board's while the stamp is the same (memories share the rows)."""
    boards = mem.boards
    slots = boards.shape[0] - 1
    if slots == 0:
        return -1
    ms = mem.mstate
    if ms[M_BOARD_VERSION] == ms[M_VERSION] and boards[ms[M_BOARD_SLOT], B_STAMP] == ms[M_BOARD_STAMP]:
        return ms[M_BOARD_SLOT]
    used_bits = 0
    for c in range(40):
        if obs.used[c]:
            used_bits |= np.int64(1) << c
    h = used_bits * HASH_MUL
    for k in range(5):
        for w in range(3):
            h = (h ^ obs.cm[k, w]) * HASH_MUL
            h ^= h >> 29
    slot = (h ^ (h >> 32)) & (slots - 1)
    same = boards[slot, B_KEY + 15] == used_bits and boards[slot, B_STAMP] > 0
    for k in range(5):
        for w in range(3):
            if same and boards[slot, B_KEY + 3 * k + w] != obs.cm[k, w]:
                same = False
    if not same:
        for k in range(5):
            for w in range(3):
                boards[slot, B_KEY + 3 * k + w] = obs.cm[k, w]
        boards[slot, B_KEY + 15] = used_bits
        boards[slot, B_KNOWN] = 0
        boards[slot, B_PLACED] = 0
        boards[slots, 0] += 1
        boards[slot, B_STAMP] = boards[slots, 0]
    ms[M_BOARD_VERSION], ms[M_BOARD_SLOT], ms[M_BOARD_STAMP] = ms[M_VERSION], slot, boards[slot, B_STAMP]
    return slot


@kernel(hot=True, always_inline=True)
def evaluate(cards, n, planner, obs, mem, T):
    """The usefulness of cards[:n] into mem.uval, and with ``planner`` the planner's into mem.puval."""
    occ, used, tgt, need = obs.occ, obs.used, mem.tgt, mem.need
    uval, known, best_pos, best_grp, stale = mem.uval, mem.known, mem.best_pos, mem.best_grp, mem.stale
    boards = mem.boards
    slot = board_slot(obs, mem)
    if slot >= 0:  # the values this board's row holds, where the memory's own are not fresh
        have = boards[slot, B_KNOWN]
        for i in range(n):
            c = cards[i]
            if (have >> c) & 1 and not (known[c] and stale[c] == 0):
                at = B_CARD + B_CARD_SIZE * c
                uval[c], best_pos[c], best_grp[c] = boards[slot, at], boards[slot, at + 1], boards[slot, at + 2]
                known[c] = 1
                stale[c] = 0
    footmemo = (T.grp_foot, mem.foot_memo, mem.bird_stamp, mem.mstate[M_VERSION], mem.mstate[M_MOVED])
    usefulness(cards, n, (occ, obs.cm, used, tgt, need), (uval, known, best_pos, best_grp, stale), footmemo,
               mem.grp_skip, T)
    if slot >= 0:
        for i in range(n):
            c = cards[i]
            if not (boards[slot, B_KNOWN] >> c) & 1 and not used[c]:
                at = B_CARD + B_CARD_SIZE * c
                boards[slot, at], boards[slot, at + 1], boards[slot, at + 2] = uval[c], best_pos[c], best_grp[c]
                boards[slot, B_KNOWN] |= np.int64(1) << c
    for i in range(n):
        c = cards[i]
        if mem.mstate[M_PLACED] == 0 and not mem.dealt[D_KNOWN, c]:  # the dealt board: kept for every game
            mem.dealt[D_VALUE, c] = uval[c]
            mem.dealt[D_BEST_POS, c] = best_pos[c]
            mem.dealt[D_BEST_GRP, c] = best_grp[c]
            mem.dealt[D_KNOWN, c] = 1
        if planner and not mem.pknown[c]:
            mem.puval[c] = plan_usefulness(c, uval[c], occ, tgt, need, mem.pair_bonus, T)
            mem.pknown[c] = 1


@kernel(hot=True)
def random_action(obs, mem, T, rng):
    """RandomPolicy.act: uniform over the legal actions (one draw from the seat's stream)."""
    phase = obs.info[I_PHASE]
    if phase == REVEAL:
        nl = legal_cards(obs.hand, obs.trick[0] // 8 if obs.info[I_NT] > 0 else -1, mem.cards)
        return mem.cards[below(rng, 0, nl)]
    if phase == SELECT:
        return SELECT_BASE + below(rng, 0, obs.info[I_NOPT])
    piece = obs.opts[obs.info[I_OPTION], OPT_A + obs.info[I_NPLACED]]
    col = piece // 8
    pm, ph, ba = T.pos_mask, T.pos_halo, T.bird_all
    n = 0
    for g in range(T.pos_start[piece], T.pos_start[piece + 1]):
        if is_legal(g, col, obs.occ, obs.cm, pm, ph, ba):
            mem.lp[n] = g
            n += 1
    return PLACE_BASE * (piece + 1) + mem.lp[below(rng, 0, n)] - T.pos_start[piece]


@kernel(hot=True, always_inline=True)
def decide(policy, obs, mem, T, rng):
    """Policy.act of policy ``policy`` (a PolicyId): the action code it takes. ``rng`` is the
    seat's own random stream (a one-element view)."""
    if policy == RANDOM:
        return random_action(obs, mem, T, rng)
    info = obs.info
    phase = info[I_PHASE]
    planner = policy == PLANNER
    sync(obs, mem, T)
    if planner:
        refresh_live(obs, mem, T)
    if phase in (REVEAL, SELECT):
        # the cards to value, then one call of evaluate (inlined: one copy of it a decide)
        nt = info[I_NT]
        nl = np.int64(0)
        n = np.int64(0)  # not a literal 0: Numba would compile evaluate and usefulness a second time for it
        if phase == REVEAL:
            nl = legal_cards(obs.hand, obs.trick[0] // 8 if nt > 0 else -1, mem.cards)
            if policy == GREEDY:
                return mem.cards[below(rng, 0, nl)]
            for i in range(nt):
                mem.cards[nl + i] = obs.trick[i]
                mem.trick[i] = obs.trick[i]
            n = nl + nt
        else:
            if policy == GREEDY:
                return SELECT_BASE
            for k in range(info[I_NOPT]):
                for j in range(obs.opts[k, OPT_N]):
                    mem.cards[n] = obs.opts[k, OPT_A + j]
                    n += 1
        evaluate(mem.cards, n, planner, obs, mem, T)
        values = mem.puval if planner else mem.uval
        if phase == REVEAL:
            return heuristic_card(mem.cards, nl, mem.trick, nt, info[I_TRUMP], (obs.hand, obs.seen, obs.removed),
                                  values)
        return SELECT_BASE + heuristic_select(info[I_NOPT], obs.opts, values)
    piece = obs.opts[info[I_OPTION], OPT_A + info[I_NPLACED]]
    view = (obs.occ, obs.cm, obs.used, mem.tgt, mem.need)
    slot = board_slot(obs, mem) if policy != GREEDY else -1  # the greedy player places otherwise
    at = B_CARD + B_CARD_SIZE * piece + 3
    if slot >= 0 and (mem.boards[slot, B_PLACED] >> piece) & 1:
        g = mem.boards[slot, at]
    else:
        footmemo = (T.grp_foot, mem.foot_memo, mem.bird_stamp, mem.mstate[M_VERSION], mem.mstate[M_MOVED])
        g = smart_place(piece, policy != GREEDY, view, (mem.lp, mem.scores), (mem.occ2, mem.cm2), footmemo,
                        mem.grp_skip, T)
        if slot >= 0:
            mem.boards[slot, at] = g
            mem.boards[slot, B_PLACED] |= np.int64(1) << piece
    if planner:
        g = planner_place(piece, g, mem.mstate[M_NLIVE], mem.live, view, mem.pair_bonus, T)
    return PLACE_BASE * (piece + 1) + g - T.pos_start[piece]


@kernel(hot=True)
def decide_call(policy, obs, mem, T, rng):
    """``decide`` as a call, for the places outside the loops of the look-ahead games (a search
    player's own decision, the table's other seats, a witness search's path): one copy of it for
    them all, where each inlined copy costs compile time and saves nothing measurable."""
    return decide(policy, obs, mem, T, rng)
