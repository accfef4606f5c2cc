"""Witness games from the Numba open-hand search (``fastwitness.py``), believed only after the
reference engine has replayed them: every move legal, the mission cleared. A replayed witness
becomes the plan that `play --policy open-hand` follows."""

from __future__ import annotations

import numpy as np

from solver.core.codes import Result
from solver.game.actions import Action
from solver.game.fast.state import MAX_MOVES, fast_state
from solver.game.state import GameState
from solver.openhand.fastwitness import find_witness
from solver.openhand.plan import Plan, PlannedRound

LEVEL1_ROLLOUTS = 3000  # about 0.2 s a deal on the campaign's hardest missions
LEVEL2_ROLLOUTS = 40000  # about 2 s: only for deals that level 1 left


def witness_moves(state: GameState, arrays, level: int, rollouts: int) -> list[int] | None:
    """The moves (from the start of the game) of a game from ``state`` that the nested search of
    ``level`` found to clear the mission, or None."""
    out = np.zeros(MAX_MOVES, np.int64)
    n = find_witness(fast_state(state), arrays, level, rollouts, out, np.zeros(1, np.int64))
    return [int(c) for c in out[:n]] if n else None


def replay_witness(state: GameState, moves: list[int]) -> Plan | None:
    """The plan of the witness game, after the reference engine has played its moves from
    ``state``: None if a move is illegal there or the game does not end cleared."""
    game = state.clone()
    done = len(game.moves)
    if [a.code for a in game.moves] != moves[:done]:
        return None
    first = len(game.history)
    for code in moves[done:]:
        action = Action.from_code(code)
        if game.is_over() or action not in game.legal_actions():
            return None
        game.apply(action)
    if not game.is_over() or game.outcome != Result.CLEARED:
        return None
    return Plan(tuple(PlannedRound(r.plays, r.skill, r.pieces, r.placements) for r in game.history[first:]))


def search_witness(state: GameState, arrays) -> tuple[Plan, int] | None:
    """Level 1, then level 2 for what level 1 left: the replayed plan and the level that found it."""
    for level, rollouts in ((1, LEVEL1_ROLLOUTS), (2, LEVEL2_ROLLOUTS)):
        moves = witness_moves(state, arrays, level, rollouts)
        if moves is not None:
            plan = replay_witness(state, moves)
            if plan is None:
                raise AssertionError("the open-hand search's witness does not replay: a twin differs")
            return plan, level
    return None
