"""Simulated players see only their seat's observation.

The whole-game re-deal test: at every decision of whole games, on a Buddy mission (with its eight
set-aside cards), a 3-player and a 4-player Party mission, every card the seat to move has not seen
(the other hands and the set-aside cards) is dealt anew, consistently with what the seat saw (the
cards played, the colours a seat has shown it lacks, who started with purple-8); the seat is given
the same own random stream and the same memory; its decision must not change, in both engines,
for every hidden-information policy, the search player included. A policy that read another
hand, a set-aside card or the deal's stream would sooner or later decide differently.

The seats' streams themselves reveal nothing of the deal: they start from a one-way hash of the
game's seed and the seat, not from the deal's stream (game/seeds.py), so the same seat stream
goes with every deal.
"""

import dataclasses
import random

import numpy as np
import pytest

from solver.core.cards import Card
from solver.core.codes import PolicyId
from solver.core.spec import GameSpec
from solver.game.engine import play_game
from solver.game.fast.state import spec_array
from solver.game.rng import SplitMix64, seat_seed
from solver.game.search import SearchPolicy
from solver.game.seeds import game_seeds, seat_seeds
from solver.game.state import Observation, deal
from solver.io.missionfile import load_mission
from tests.helpers.doors import doors
from tests.helpers.paths import ROOT
from tests.helpers.twins import arrays_for, fresh_memory, reference_policy, small_library

fplay = doors("solver.game.fast.play")
fsearch = doors("solver.game.fast.search")
fs = doors("solver.game.fast.state")
decide = doors("solver.game.fast.policies").decide

ALLOWED = {"seat", "spec", "mission", "catalog", "round", "hand", "hand_sizes", "start_player", "trump",
           "trick", "history", "board", "skills_left", "removed", "phase", "options", "piece", "legal",
           "option", "placed", "moves"}  # this round's choice and placements, every action so far: all public
ROWS = [("buddy/b04", 2), ("party/p02", 3), ("party/p03", 4)]
PURPLE_8 = Card.parse("purple-8")
SEARCH_SAMPLES = 2


def test_observation_holds_only_public_fields_and_own_hand():
    """RULES.md §23."""
    assert {f.name for f in dataclasses.fields(Observation)} == ALLOWED


# ---------------------------------------------------------------- re-dealing what a seat has not seen
def shown_voids(state) -> dict[int, set]:
    """Per seat, the colours it has shown it lacks (it did not follow a lead of that colour)."""
    out: dict[int, set] = {k: set() for k in range(state.players)}
    for plays in [r.plays for r in state.history] + [state.trick]:
        if plays:
            lead = plays[0][1].colour
            for seat, card in plays[1:]:
                if card.colour != lead:
                    out[seat].add(lead)
    return out


def redeal(state, seat: int, rng: random.Random):
    """The same moment with every card ``seat`` has not seen (the other hands, the set-aside cards)
    dealt anew: each hand keeps its size, no seat gets a colour it has shown it lacks, and purple-8,
    unless played, stays with the player who started or set aside. None when no other deal exists."""
    voids = shown_voids(state)
    others = [k for k in range(state.players) if k != seat]
    pool = [c for k in others for c in state.hands[k]] + list(state.set_aside)
    room = {k: len(state.hands[k]) for k in others} | {"aside": len(state.set_aside)}

    def allowed(card) -> list:
        out = [k for k in others if card.colour not in voids[k]]
        if card == PURPLE_8:
            out = [k for k in out if k == state.start_player]
        return out + (["aside"] if room["aside"] else [])

    for _ in range(200):
        left = dict(room)
        placed: dict = {k: [] for k in room}
        cards = sorted(pool, key=lambda c: (len(allowed(c)), rng.random()))
        for c in cards:
            options = [h for h in allowed(c) if left[h] > 0]
            if not options:
                break
            h = rng.choice(options)
            placed[h].append(c)
            left[h] -= 1
        else:
            other = state.clone()
            for k in others:
                other.hands[k] = sorted(placed[k])
                played = [card for r in state.history for p, card in r.plays if p == k] + \
                         [card for p, card in state.trick if p == k]
                other.dealt[k] = sorted(other.hands[k] + played)
            other.set_aside = sorted(placed["aside"])
            return other
    return None


class Probe:
    """Plays as ``inner`` and, at every decision, asks both engines again with the hidden cards
    dealt anew (same stream, same memory): the answers must not change."""

    def __init__(self, inner, policy: str, state, m, catalog, rng):
        self.inner, self.policy, self.state, self.rng = inner, policy, state, rng
        self.name = inner.name
        self.checks = self.changed = 0
        spec = spec_array(state.spec)
        if policy == "search":
            self.T = arrays_for(m, catalog, True)
            self.memories = lambda: fsearch.new_search_memory(spec, SEARCH_SAMPLES, self.T)
        else:
            self.T = arrays_for(m, catalog, policy == "planner")
            self.memories = lambda: fresh_memory(self.T)

    def fast_decision(self, state, seat: int, stream: int) -> tuple[int, int]:
        """The Numba engine's decision at this moment, and where the seat's stream ends."""
        S, rs = fs.fast_state(state), np.array([stream], np.uint64)
        if self.policy == "search":
            code = fsearch.search_decide(fs.observe(S, seat), self.memories(), self.T, rs)
        else:
            code = decide(int(PolicyId.parse(self.policy)), fs.observe(S, seat), self.memories(), self.T, rs)
        return int(code), int(rs[0])

    def act(self, obs, rng):
        seat, stream = obs.seat, rng.state
        other = redeal(self.state, seat, self.rng)
        fast = self.fast_decision(self.state, seat, stream)
        if other is not None:
            self.changed += sorted(other.set_aside) != sorted(self.state.set_aside) or \
                any(other.hands[k] != self.state.hands[k] for k in range(self.state.players))
            twin = other.observation(seat)
            assert twin == obs  # the observation does not depend on hidden cards at all
            assert self.fast_decision(other, seat, stream) == fast  # Numba engine: same code, same stream after
            a = self.inner.act(twin, SplitMix64(stream))
        b = self.inner.act(obs, rng)
        if other is not None:
            assert a == b  # Python engine
            self.checks += 1
        assert b.code == fast[0] and rng.state == fast[1]  # and the twins agree
        return b


def python_policy(policy: str, m, catalog):
    if policy == "search":
        return SearchPolicy(SEARCH_SAMPLES, small_library(m, catalog))
    return reference_policy(policy, m, catalog)


def cases():
    for name, players in ROWS:
        for policy in ("random", "greedy", "heuristic", "planner", "search"):
            # the Python twins of the planner and the search player take seconds a game: one game in
            # the quick tier (not the search player's: test_search checks it there), more in the slow tier
            slow = policy == "search"
            marks = [pytest.mark.slow] if slow else []
            yield pytest.param(name, players, policy, 1, marks=marks, id=f"{policy}-{name}-{players}")
            if policy != "search":  # the search player's second game adds a minute and no new kind of moment
                yield pytest.param(name, players, policy, 2, marks=[pytest.mark.slow],
                                   id=f"{policy}-{name}-{players}-more")


@pytest.mark.parametrize("name,players,policy,games", list(cases()))
def test_redealing_what_a_seat_has_not_seen_changes_no_decision(name, players, policy, games, catalog):
    """RULES.md §23, at every decision of whole games, both engines."""
    m = load_mission(ROOT / f"tests/missions/{name}.toml", catalog)
    start = 0 if games == 1 else 1
    for game in range(start, start + games):
        seed = int(game_seeds(11, game, 1)[0])
        state = deal(m, catalog, players, seed)
        probe = Probe(python_policy(policy, m, catalog), policy, state, m, catalog, random.Random(game))
        play_game(m, catalog, players, seed, probe, state=state)
        assert probe.checks > 10 and probe.changed >= probe.checks // 2  # re-deals that really differ


def test_redeal_keeps_what_the_seat_saw(catalog):
    """The re-deal itself: the seat's view unchanged, the hidden cards moved, the rules' constraints kept."""
    m = load_mission(ROOT / "tests/missions/buddy/b04.toml", catalog)
    state = deal(m, catalog, 2, 5)
    rng = random.Random(1)
    for _ in range(9):  # into the game a little, so that voids may show
        state.apply(state.legal_actions()[0])
    other = redeal(state, state.current_player(), rng)
    assert other is not None
    seat = state.current_player()
    assert other.hands[seat] == state.hands[seat] and other.observation(seat) == state.observation(seat)
    assert sorted(c for h in other.hands for c in h) + sorted(other.set_aside) != \
        sorted(c for h in state.hands for c in h) + sorted(state.set_aside) or \
        other.set_aside != state.set_aside
    for k, lacks in shown_voids(state).items():
        assert not any(c.colour in lacks for c in other.hands[k])


# ---------------------------------------------------------------- the seats' streams
def test_seat_streams_do_not_come_from_the_deal(catalog):
    """A seat's stream starts from a one-way hash of (game seed, seat): the same for the Python and
    the Numba engine, different for every seat and game, and not a draw of the deal's stream."""
    m = load_mission(ROOT / "tests/missions/buddy/b04.toml", catalog)
    seeds = game_seeds(1, 0, 50)
    starts = set()
    for s in seeds.tolist():
        state = deal(m, catalog, 2, s)
        rngs = [r.state for r in state.seat_rngs]
        assert rngs == [seat_seed(s, k) for k in range(2)]
        deal_stream = SplitMix64(s)
        draws = {deal_stream.next() for _ in range(200)}
        assert not draws & set(rngs)  # not a value the deal's stream gives
        starts.update(rngs)
    assert len(starts) == 100
    assert seat_seeds(seeds[:3], 4).tolist() == [[seat_seed(s, k) for k in range(4)] for s in seeds[:3].tolist()]
    # the Numba engine deals the same streams
    spec = GameSpec.of(m, 2)
    S = fs.new_state(spec_array(spec))
    T = arrays_for(m, catalog, False)
    fplay.deal_game(int(seeds[0]), seat_seeds(seeds[:1], 2)[0], S, T)
    assert [int(x) for x in S.rs[:2]] == [seat_seed(int(seeds[0]), k) for k in range(2)]


def test_a_policy_is_handed_arrays_of_its_own(catalog):
    """The Numba observation's hand is a copy (writing to it touches no seat's hand) and the stream
    a policy gets is not a view of the state's streams."""
    m = load_mission(ROOT / "tests/missions/party/p03.toml", catalog)
    state = deal(m, catalog, 4, 3)
    S = fs.fast_state(state)
    hands = S.hand.copy()
    obs = fs.observe(S, 1)
    assert not np.shares_memory(obs.hand, S.hand)
    obs.hand[:] = 7
    assert np.array_equal(S.hand, hands)
    assert not np.shares_memory(S.own_rs, S.rs)
