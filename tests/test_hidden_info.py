"""Simulated players see only their seat's observation: changing hidden cards changes no decision."""

import dataclasses
import random

import pytest

from solver.game.engine import play_game
from solver.game.rng import SplitMix64
from solver.game.roster import make_policy
from solver.game.state import Observation, deal
from solver.io.missionfile import load_mission
from tests.conftest import ROOT

ALLOWED = {"seat", "spec", "mission", "catalog", "round", "hand", "hand_sizes", "start_player", "trump",
           "trick", "history", "board", "skills_left", "removed", "phase", "options", "piece", "legal",
           "option", "placed", "moves"}  # this round's choice and placements, every action so far: all public


def test_observation_holds_only_public_fields_and_own_hand():
    """RULES.md §23."""
    assert {f.name for f in dataclasses.fields(Observation)} == ALLOWED


def reshuffle_hidden(state, seat, rng):
    """Same public history, other players' hands and the set-aside cards dealt anew."""
    other = state.clone()
    pool = [c for k, h in enumerate(other.hands) if k != seat for c in h] + other.set_aside
    rng.shuffle(pool)
    for k, h in enumerate(other.hands):
        if k != seat:
            other.hands[k] = sorted(pool[: len(h)])
            pool = pool[len(h):]
    other.set_aside = sorted(pool)
    return other


class Probe:
    """Wraps a policy; at every decision asks it again with the hidden cards changed."""

    def __init__(self, inner, state, rng):
        self.inner, self.state, self.rng, self.checks = inner, state, rng, 0
        self.name = inner.name

    def act(self, obs, rng):
        other = reshuffle_hidden(self.state, obs.seat, self.rng)
        twin = other.observation(obs.seat)
        assert twin == obs  # the observation does not depend on hidden cards at all
        assert twin.board is not obs.board and twin.board is not self.state.board
        before = rng.state
        a = self.inner.act(twin, SplitMix64(before))
        b = self.inner.act(obs, rng)
        assert a == b
        self.checks += 1
        return b


def cases():
    """Four missions in every policy; the planner's party missions (seconds each) in the slow tier."""
    for name, players in (("buddy/b03", 2), ("party/p02", 3), ("party/p03", 4), ("buddy/b04", 2)):
        for policy in ("heuristic", "random", "greedy", "planner"):
            marks = pytest.mark.slow if policy == "planner" and name.startswith("party") else ()
            yield pytest.param(name, players, policy, marks=marks, id=f"{policy}-{name}-{players}")


@pytest.mark.parametrize("name,players,policy", cases())
def test_changing_other_hands_changes_no_decision(name, players, policy, catalog):
    """RULES.md §23."""
    m = load_mission(ROOT / f"tests/missions/{name}.toml", catalog)
    for seed in range(6):
        state = deal(m, catalog, players, seed)
        probe = Probe(make_policy(policy), state, random.Random(seed))
        play_game(m, catalog, players, seed, probe, state=state)
        assert probe.checks > 10
