"""The open-hand nested rollout search (openhand/fastwitness.py): its witnesses replay through the
reference engine, it never ends below the planner's own game, it is deterministic, and it finds
witnesses where the hidden-information players lose."""

import numpy as np
import pytest

from solver.core.codes import Result
from solver.game.arrays import build_arrays
from solver.game.engine import play_out
from solver.game.fast.state import MAX_MOVES, fast_state
from solver.game.planner import PlannerPolicy, planner_library
from solver.game.seeds import game_seeds
from solver.game.state import deal
from solver.io.missionfile import load_mission
from solver.openhand.witness import replay_witness, search_witness, witness_moves
from tests.helpers.doors import doors
from tests.helpers.paths import ROOT

fastwitness = doors("solver.openhand.fastwitness")


@pytest.fixture(scope="module")
def hard(catalog):
    m = load_mission(ROOT / "missions/buddy/b20.toml", catalog)
    return m, build_arrays(m, catalog, planner_library(m, catalog))


def test_witnesses_replay_and_beat_the_hidden_information_players(hard, catalog):
    m, T = hard
    found = planner_lost = 0
    for s in game_seeds(1, 0, 12):
        state = deal(m, catalog, 2, int(s))
        planner = play_out(state.clone(), PlannerPolicy(planner_library(m, catalog)))
        moves = witness_moves(state, T, 1, 3000)
        if moves is not None:
            plan = replay_witness(state, moves)  # every move legal, the mission cleared
            assert plan is not None and plan.rounds
            found += 1
            planner_lost += planner.outcome != Result.CLEARED
        elif planner.outcome == Result.CLEARED:
            pytest.fail("level 1 ended below the planner's own game")
    assert found >= 10 and planner_lost >= 5  # b20: the planner clears about one deal in six


def test_level_one_never_ends_below_the_planner_and_is_deterministic(hard, catalog):
    m, T = hard
    for s in game_seeds(2, 0, 6):
        state = deal(m, catalog, 2, int(s))
        planner = play_out(state.clone(), PlannerPolicy(planner_library(m, catalog)))
        want = 100 * (planner.outcome == Result.CLEARED) + len(planner.board.scanned())
        for rollouts in (0, 5, 200):  # the points of the game level 1 ends with
            got = np.zeros(1, np.int64)
            fastwitness.find_witness(fast_state(state), T, 1, rollouts, np.zeros(MAX_MOVES, np.int64), got)
            assert got[0] >= want, (int(s), rollouts)
            if rollouts == 0:  # no rollouts: the planner's own game
                assert got[0] == want
        a, b = np.zeros(MAX_MOVES, np.int64), np.zeros(MAX_MOVES, np.int64)
        assert fastwitness.find_witness(fast_state(state), T, 2, 500, a, np.zeros(1, np.int64)) == \
            fastwitness.find_witness(fast_state(state), T, 2, 500, b, np.zeros(1, np.int64)) and (a == b).all()


def test_a_witness_that_does_not_replay_is_refused(hard, catalog):
    m, T = hard
    for s in game_seeds(1, 0, 12):
        state = deal(m, catalog, 2, int(s))
        moves = witness_moves(state, T, 2, 5000)
        if moves is None:
            continue
        assert replay_witness(state, moves[:-1]) is None  # the game does not end there
        assert moves[-1] >= 4096  # the game ends with a placement ...
        assert replay_witness(state, [*moves[:-1], 0]) is None  # ... where revealing a card is not legal
        assert search_witness(state, T) is not None
        return
    pytest.fail("no witness on twelve deals")
