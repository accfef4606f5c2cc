"""Simulated players see only their seat's observation: changing hidden cards changes no decision."""

import dataclasses
import random

import pytest

from solver.game.engine import play_game
from solver.game.policies import make_policy
from solver.game.rng import SplitMix64
from solver.game.state import Observation, deal, observe
from solver.io.missionfile import load_mission
from tests.conftest import ROOT

ALLOWED = {"seat", "num_players", "mission", "catalog", "round", "hand", "hand_sizes", "start_player", "trump",
           "trick", "history", "board", "skills_left", "removed"}


def test_observation_holds_only_public_fields_and_own_hand():


    """RULES.md §23."""
    assert {f.name for f in dataclasses.fields(Observation)} == ALLOWED


def reshuffle_hidden(state, seat, rng):
    """Same public history, other players' hands and the set-aside cards dealt anew."""
    other = copy_state(state)
    pool = [c for k, h in enumerate(other.hands) if k != seat for c in h] + other.set_aside
    rng.shuffle(pool)
    for k, h in enumerate(other.hands):
        if k != seat:
            other.hands[k] = sorted(pool[: len(h)])
            pool = pool[len(h):]
    other.set_aside = sorted(pool)
    return other


def copy_state(state):
    s = dataclasses.replace(state)
    s.hands = [list(h) for h in state.hands]
    s.set_aside = list(state.set_aside)
    s.board = state.board.copy()
    s.history = list(state.history)
    return s


class Probe:
    """Wraps a policy; at every decision asks it again with the hidden cards changed."""

    def __init__(self, inner, state, rng):
        self.inner, self.state, self.rng, self.checks = inner, state, rng, 0
        self.name = inner.name

    def _twin(self, obs):
        other = reshuffle_hidden(self.state, obs.seat, self.rng)
        twin = observe(other, obs.seat, list(obs.trick))
        assert twin == obs  # the observation does not depend on hidden cards at all
        assert twin.board is not obs.board and twin.board is not self.state.board
        return twin

    def _same(self, method, obs, *args):
        rng_state = args[-1].state
        a = getattr(self.inner, method)(obs, *args)
        b = getattr(self.inner, method)(self._twin(obs), *args[:-1], SplitMix64(rng_state))
        assert a == b
        self.checks += 1
        args[-1].state = SplitMix64(rng_state).state
        return getattr(self.inner, method)(obs, *args)

    def play_card(self, obs, legal, rng):
        return self._same("play_card", obs, legal, rng)

    def select(self, obs, options, rng):
        return self._same("select", obs, options, rng)

    def place(self, obs, piece, legal, rng):
        return self._same("place", obs, piece, legal, rng)


@pytest.mark.parametrize("name,players", [("buddy/b03", 2), ("party/p02", 3), ("party/p03", 4), ("buddy/b04", 2)])
@pytest.mark.parametrize("policy", ["heuristic", "random", "planner"])
def test_changing_other_hands_changes_no_decision(name, players, policy, catalog):
    """RULES.md §23."""
    m = load_mission(ROOT / f"tests/missions/{name}.toml", catalog)
    for seed in range(6):
        state = deal(m, catalog, players, seed)
        probe = Probe(make_policy(policy), state, random.Random(seed))
        play_game(m, catalog, players, seed, probe, state=state)
        assert probe.checks > 10
