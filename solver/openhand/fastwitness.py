"""The open-hand witness search in Numba: nested rollouts over the true deal (it sees every hand),
looking for one legal game that clears it. It cheats by design, like everything in this package:
its games are witnesses that a deal is clearable, never a player's games.

Level 1 takes, at each decision, the candidate action (every legal card, every selection option,
the planner's placement and its best others; ``search.candidates``) whose game, played on by the
planner in every seat, scores best (SEARCH_WIN a clear, SEARCH_BIRD a bird), and remembers the
best whole game seen so far: it follows that game unless a candidate does better, so it never
ends below the planner's own game from the same state (nested Monte Carlo search, Cazenave
2009). Level 2 scores each candidate by a level-1 search from there instead. The budget counts
rollouts, so the answer is the same on every machine; a clear ends the search at once.

The witness is the list of action codes from the start of the game; ``witness.py`` replays it
through the reference engine before anything believes it.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from solver.core.codes import PolicyId
from solver.game.fast.play import play_out
from solver.game.fast.policies import BOARD_SLOTS, decide_call, new_boards, new_memory_with_boards, reset_memory
from solver.game.fast.search import MAX_CANDIDATES, candidates, copy_memory, points
from solver.game.fast.state import (
    CLEARED,
    I_NMOVES,
    I_PHASE,
    I_RESULT,
    MAX_MOVES,
    OVER,
    apply_action,
    copy_state,
    current_player,
    new_state,
    observe,
)
from solver.game.weights import SEARCH_WIN
from solver.runtime.jit import kernel

PLANNER = int(PolicyId.PLANNER)

# what one level of the search works with: its copy of the game, the planner's memories, the
# candidates, and the best game it has seen (its moves from the start of the game)
Level = namedtuple("Level", ["S", "base", "play", "cand", "key", "best", "nbest", "score", "policy", "rs"])
Level.__doc__ = "Working arrays of one level of the nested search."


@kernel()
def new_level(spec, T, boards):
    """A level whose planner memories share ``boards`` (what they know by board: its rollouts
    reach the same boards again and again)."""
    return Level(new_state(spec), new_memory_with_boards(T, boards), new_memory_with_boards(T, boards),
                 np.zeros(MAX_CANDIDATES, np.int64),
                 np.zeros(MAX_CANDIDATES, np.int64), np.zeros(MAX_MOVES, np.int64), np.zeros(1, np.int64),
                 np.zeros(1, np.int64), np.full(1, PLANNER, np.int64), np.zeros(1, np.uint64))


@kernel()
def keep_if_better(L, S, T):
    """The finished game S becomes the level's best game if it scores more."""
    p = points(S, T)
    if p > L.score[0]:
        L.score[0] = p
        n = S.info[I_NMOVES]
        L.best[:n] = S.moves[:n]
        L.nbest[0] = n
    return p


@kernel()
def level1(S, L, T, budget):
    """Nested search of level 1 from S (S is played to its end, along the best game found).
    ``budget[0]``: rollouts left (spent here). Returns the points of the game S ends with."""
    L.score[0] = -1
    L.nbest[0] = 0
    while S.info[I_PHASE] != OVER:
        if L.score[0] >= SEARCH_WIN:
            break  # a clear is in hand: follow it
        seat = current_player(S)
        obs = observe(S, seat)
        blueprint = decide_call(L.policy[0], obs, L.base, T, L.rs)  # the planner draws nothing from the stream
        nc = candidates(obs, blueprint, L.base, T, L.cand, L.key) if budget[0] > 0 else 0
        for i in range(nc):
            if budget[0] <= 0:
                break
            budget[0] -= 1
            copy_state(S, L.S)
            apply_action(L.S, L.cand[i], T)
            copy_memory(L.base, L.play)
            play_out(L.S, L.policy[0], L.play, T)
            keep_if_better(L, L.S, T)
        n = S.info[I_NMOVES]
        code = L.best[n] if L.nbest[0] > n else blueprint
        apply_action(S, code, T)
    while S.info[I_PHASE] != OVER:  # a clear found: its remaining moves
        apply_action(S, L.best[S.info[I_NMOVES]], T)
    return points(S, T)


@kernel()
def level2(S, L2, L1, T, budget):
    """Nested search of level 2: each candidate scored by a level-1 search from there."""
    L2.score[0] = -1
    L2.nbest[0] = 0
    R = new_state(S.spec)
    while S.info[I_PHASE] != OVER:
        if L2.score[0] >= SEARCH_WIN:
            break
        seat = current_player(S)
        obs = observe(S, seat)
        blueprint = decide_call(L2.policy[0], obs, L2.base, T, L2.rs)
        nc = candidates(obs, blueprint, L2.base, T, L2.cand, L2.key) if budget[0] > 0 else 0
        for i in range(nc):
            if budget[0] <= 0 or L2.score[0] >= SEARCH_WIN:
                break
            copy_state(S, R)
            apply_action(R, L2.cand[i], T)
            copy_memory(L2.base, L1.base)
            level1(R, L1, T, budget)
            keep_if_better(L2, R, T)
        n = S.info[I_NMOVES]
        code = L2.best[n] if L2.nbest[0] > n else blueprint
        apply_action(S, code, T)
    while S.info[I_PHASE] != OVER:
        apply_action(S, L2.best[S.info[I_NMOVES]], T)
    return points(S, T)


@kernel(entry=True)
def find_witness(S0, T, level, rollouts, out, score):
    """A game from state S0 (not changed) that clears the mission, by the nested search of
    ``level`` (1 or 2) within ``rollouts``: its moves from the start of the game into ``out``.
    Returns how many moves (0 when no clear was found); the points of the game the search ended
    with (cleared or not) into ``score[0]``."""
    S = new_state(S0.spec)
    copy_state(S0, S)
    boards = new_boards(BOARD_SLOTS)  # shared by both levels' memories
    L1 = new_level(S0.spec, T, boards)
    budget = np.full(1, rollouts, np.int64)
    if level >= 2:
        L2 = new_level(S0.spec, T, boards)
        reset_memory(L2.base)
        level2(S, L2, L1, T, budget)
    else:
        reset_memory(L1.base)
        level1(S, L1, T, budget)
    score[0] = points(S, T)
    if S.info[I_RESULT] != CLEARED:
        return 0
    n = S.info[I_NMOVES]
    out[:n] = S.moves[:n]
    return n
