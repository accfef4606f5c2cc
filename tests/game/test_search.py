"""The search player: each kernel of game/fast/search.py against its Python twin in game/search.py
(at moments of reference games), the sampler's promises, and the hidden information it keeps."""

import numpy as np
import pytest

from solver.core.cards import Card
from solver.core.codes import PolicyId, Result
from solver.core.rules import mask_of
from solver.core.spec import GameSpec
from solver.game import search
from solver.game.actions import Action
from solver.game.arrays import build_arrays
from solver.game.engine import play_game
from solver.game.fast.state import spec_array
from solver.game.planner import PlannerPolicy, planner_library
from solver.game.rng import SplitMix64
from solver.game.roster import make_policy
from solver.game.search import SearchPolicy
from solver.game.seeds import game_seeds, seat_seeds
from solver.io.missionfile import load_mission
from solver.io.paths import bundled_mission
from tests.helpers.doors import doors
from tests.helpers.paths import ROOT
from tests.helpers.twins import arrays_for, assert_same_state, moments, small_library, twin

fsearch = doors("solver.game.fast.search")
fs = doors("solver.game.fast.state")
decide = doors("solver.game.fast.policies").decide

ROWS = [("buddy/b12", 2), ("party/p13", 3), ("party/p18", 4), ("buddy/b04", 2)]


def mission_of(name, catalog):
    return load_mission(ROOT / f"tests/missions/draft/{name[-3:]}.toml" if name[-3:] in ("b12", "p13", "p18")
                        else ROOT / f"tests/missions/{name}.toml", catalog)


def some_moments(catalog, every=3):
    """(mission, state) at every ``every``-th decision of a planner game on each row."""
    for i, (name, players) in enumerate(ROWS):
        m = mission_of(name, catalog)
        steps, _ = moments(m, catalog, players, "planner", 40 + i)
        for state, _ in steps[::every]:
            yield m, state


def search_memory(m, players, samples, catalog):
    T = arrays_for(m, catalog, True)
    return fsearch.new_search_memory(spec_array(GameSpec.of(m, players)), samples, T), T


@twin("state.observe")
def test_fast_observation_is_what_observe_gives(catalog):
    for _, state in some_moments(catalog, every=5):
        S = fs.fast_state(state)
        for seat in range(state.players):
            want, got = fs.observe(S, seat), fs.fast_observation(state.observation(seat))
            for name, a, b in zip(want._fields, want, got, strict=True):
                assert np.array_equal(np.asarray(a), np.asarray(b)), name


@twin("search.voids")
def test_voids(catalog):
    seen_a_void = False
    for _, state in some_moments(catalog):
        obs = state.observation(state.current_player())
        out = np.zeros(state.players, np.int64)
        fsearch.voids(fs.fast_observation(obs), out)
        assert list(out) == search.voids(obs)
        seen_a_void |= any(out)
        for r in state.history:  # a void is a colour the seat could not follow
            lead = r.plays[0][1].colour
            for seat, card in r.plays[1:]:
                if card.colour != lead:
                    assert out[seat] >> int(lead) & 1
    assert seen_a_void


def fast_sample(obs, seed):
    fo = fs.fast_observation(obs)
    void = np.zeros(obs.spec.players, np.int64)
    fsearch.voids(fo, void)
    holder, cap = np.zeros(40, np.int64), np.zeros(obs.spec.players + 1, np.int64)
    order, allowed, rs = np.zeros(40, np.int64), np.zeros(40, np.int64), np.array([seed], np.uint64)
    ok = fsearch.sample_holders(fo, rs, void, holder, cap, order, allowed)
    return list(holder), bool(ok), int(rs[0])


@twin("search.sample_holders")
def test_sample_holders(catalog):
    for k, (_, state) in enumerate(some_moments(catalog)):
        seat = state.current_player()
        obs = state.observation(seat)
        rng = SplitMix64(1000 + k)
        want, ok = search.sample_holders(obs, rng, search.voids(obs))
        assert fast_sample(obs, 1000 + k) == (want, ok, rng.state)
        # the promises: every unseen card placed, hand sizes and set-aside kept, voids and purple-8 respected
        players = state.players
        unseen = {c.index for c in obs.unseen()}
        assert {c for c in range(40) if want[c] >= 0} == unseen
        for h in range(players):
            assert want.count(h) == (0 if h == seat else obs.hand_sizes[h])
        assert want.count(players) == state.spec.set_aside
        void = search.voids(obs)
        if ok:
            assert all(not void[want[c]] >> (c // 8) & 1 for c in unseen if want[c] < players)
        p8 = state.spec.start_card.index
        if p8 in unseen:
            assert want[p8] in (search.game_start(obs), players)


def test_the_sampler_matches_the_deal_where_nothing_is_known(catalog):
    """Before any card is revealed, a card's holder is drawn in proportion to the hands (Buddy: the
    other hand 16, set aside 8); purple-8 follows the start player's likelihood."""
    m = mission_of("buddy/b04", catalog)
    from solver.game.state import deal

    state = deal(m, catalog, 2, 7)
    seat = 1 - state.start_player
    obs = state.observation(seat)
    rng = SplitMix64(3)
    counts = np.zeros(3)
    p8_with_start = 0
    for _ in range(600):
        holder, _ = search.sample_holders(obs, rng, search.voids(obs))
        for c in obs.unseen():
            counts[holder[c.index]] += 1
        if Card.parse("purple-8") in obs.unseen():
            p8_with_start += holder[Card.parse("purple-8").index] == state.start_player
    share = counts / counts.sum()
    assert share[seat] == 0 and abs(share[1 - seat] - 16 / 24) < 0.02 and abs(share[2] - 8 / 24) < 0.02
    if Card.parse("purple-8") in obs.unseen():  # exact posterior: 16 / (16 + 8 / 2) = 0.8
        assert abs(p8_with_start / 600 - 0.8) < 0.06


@twin("search.determinize")
def test_determinize(catalog):
    for k, (m, state) in enumerate(some_moments(catalog, every=4)):
        seat = state.current_player()
        obs = state.observation(seat)
        holder, _, _ = fast_sample(obs, 50 + k)
        ref = search.determinize(obs, holder, 99 + k)
        S2 = fs.new_state(spec_array(state.spec))
        fsearch.determinize(fs.fast_observation(obs), np.array(holder, np.int64), np.uint64(99 + k), S2)
        assert_same_state(ref, S2, f"{m.id} moment {k}")
        again = ref.observation(seat)  # the seat sees the same game
        for field in ("hand", "hand_sizes", "trick", "history", "phase", "options", "legal", "moves", "skills_left"):
            assert getattr(again, field) == getattr(obs, field), field
        assert again.board.occupied == obs.board.occupied


@pytest.mark.slow
@twin("search.plan_score", "search.candidates")
def test_candidates(catalog):
    kinds = set()
    for m, state in some_moments(catalog, every=2):
        seat = state.current_player()
        obs = state.observation(seat)
        planner = PlannerPolicy(small_library(m, catalog))
        blueprint = planner.act(obs, SplitMix64(0))
        sm, T = search_memory(m, state.players, 2, catalog)
        fo = fs.fast_observation(obs)
        code = decide(fsearch.PLANNER, fo, sm.base, T, np.zeros(1, np.uint64))
        assert code == blueprint.code
        n = fsearch.candidates(fo, code, sm.base, T, sm.cand, sm.key)
        want = search.candidates(obs, blueprint, planner)
        assert [int(c) for c in sm.cand[:n]] == [a.code for a in want]
        kinds.add(obs.phase)
        if obs.piece is not None:
            view = planner.view(obs)
            for a, p in zip(obs.legal, obs.placements(), strict=True):
                g = T.pos_start[obs.piece.index] + a.index
                assert fsearch.plan_score(obs.piece.index, g, fo, sm.base, T) == view.plan_score(
                    obs.piece, mask_of(p.cells))
    assert len(kinds) == 3


@twin("search.look_ahead", "search.points")
def test_look_ahead(catalog):
    """The points of one sample's game after one candidate, from the same moment, sample and seed."""
    scores = set()
    for k, (m, state) in enumerate(some_moments(catalog, every=6)):
        seat = state.current_player()
        obs = state.observation(seat)
        planner = PlannerPolicy(small_library(m, catalog))
        sm, T = search_memory(m, state.players, 1, catalog)
        fo = fs.fast_observation(obs)
        decide(fsearch.PLANNER, fo, sm.base, T, np.zeros(1, np.uint64))  # the base memory at this moment
        holder, _, _ = fast_sample(obs, 300 + k)
        sm.holders[0] = holder
        sm.seeds[0] = 41 + k
        for action in obs.legal[:3]:
            state2 = search.determinize(obs, holder, 41 + k)
            state2.apply(action)
            want = search.look_ahead(state2, planner)
            assert fsearch.look_ahead(fo, sm, 0, action.code, T) == want, (m.id, k, action)
            scores.add(want)
    assert len(scores) > 1  # games that end differently


@pytest.mark.slow
@twin("search.search_decide", "search.new_search_memory", "search.copy_memory")
@pytest.mark.parametrize("samples", [1, 2])
def test_search_decide(catalog, samples):
    """The same decision and the same stream afterwards, from the same moment and stream (the Numba
    search stops a candidate's samples once it cannot win: it plays fewer games for that decision)."""
    decided = pruned = 0
    for k, (m, state) in enumerate(some_moments(catalog, every=10)):
        seat = state.current_player()
        obs = state.observation(seat)
        rng = SplitMix64(777 + k)
        want = SearchPolicy(samples, small_library(m, catalog)).act(obs, rng)
        sm, T = search_memory(m, state.players, samples, catalog)
        rs = np.array([777 + k], np.uint64)
        got = fsearch.search_decide(fs.fast_observation(obs), sm, T, rs)
        assert got == want.code and int(rs[0]) == rng.state, (m.id, k)
        decided += len(obs.legal) > 1
        planner = PlannerPolicy(small_library(m, catalog))
        n_cand = len(search.candidates(obs, planner.act(obs, SplitMix64(0)), planner))
        pruned += n_cand > 1 and sm.played[0] < n_cand * samples
    assert decided >= 5
    assert samples == 1 or pruned > 0


def test_search_keeps_hidden_information(catalog):
    """Re-dealing the cards the seat cannot see changes nothing it decides (Numba search)."""
    m = mission_of("party/p13", catalog)
    steps, _ = moments(m, catalog, 3, "planner", 5)
    sm, T = search_memory(m, 3, 2, catalog)
    for state, _ in steps[::4]:
        seat = state.current_player()
        S = fs.fast_state(state)
        first = fsearch.search_decide(fs.observe(S, seat), sm, T, np.array([11], np.uint64))
        other = state.clone()
        pool = sorted(c for k in range(3) if k != seat for c in other.hands[k])
        np.random.default_rng(len(pool)).shuffle(pool)
        for k in range(3):
            if k != seat:
                n = len(other.hands[k])
                other.hands[k], pool = sorted(pool[:n]), pool[n:]
        S2 = fs.fast_state(other)
        assert fsearch.search_decide(fs.observe(S2, seat), sm, T, np.array([11], np.uint64)) == first


@twin("search.table_games")
def test_table_games_from_late_moments_play_the_references_moves(catalog):
    """The last decisions of a game played on by the search player in every seat: the same moves
    (the trace hash of every move) and result as the Python engine's."""
    for name, players in ROWS[:3]:
        m = mission_of(name, catalog)
        steps, _ = moments(m, catalog, players, "planner", 8)
        state = steps[-min(len(steps), 7)][0]
        _, T = search_memory(m, players, 1, catalog)
        seeds = np.array([3, 2**63 + 1], np.uint64)
        out = (np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.uint64))
        table = (np.zeros(players, np.int64), np.full(2, int(PolicyId.SEARCH), np.int64), np.ones(2, np.int64))
        fsearch.table_games(fs.fast_state(state), fsearch.DRAWN, seeds, np.zeros((2, players), np.uint64), table, T,
                            out, np.zeros((0, 0), np.int64))
        for i, seed in enumerate(seeds):
            ref = search.play_on(state, int(seed), SearchPolicy(1, small_library(m, catalog)))
            assert (out[0][i], out[3][i]) == (int(Result.parse(ref.result())), ref.trace), (m.id, i)


@twin("search.table_games")
@pytest.mark.parametrize("keyed", [False, True], ids=["drawn", "keyed"])
def test_play_on_from_a_moment_equals_the_reference(catalog, keyed):
    """A moment played on with other streams, both engines: the same moves and result. DRAWN: each
    seat's stream drawn once from the seed (`kakapo chance`, the rated tables); KEYED: each
    decision's drawn from the seed and the move number (the review's continuations)."""
    for name, players in ROWS[:2]:
        m = mission_of(name, catalog)
        steps, _ = moments(m, catalog, players, "planner", 4)
        state = steps[-min(len(steps), 9)][0]
        T = arrays_for(m, catalog, True)
        seeds = np.array([5, 77, 2**63 + 9], np.uint64)
        results, paths = np.zeros(3, np.int64), np.zeros((3, 64), np.int64)
        fsearch.search_play_on(fs.fast_state(state), 1, T, seeds, results,
                               streams=fsearch.KEYED if keyed else fsearch.DRAWN, paths=paths)
        for i, x in enumerate(seeds):
            ref = search.play_on(state, int(x), SearchPolicy(1, small_library(m, catalog)), keyed=keyed)
            assert results[i] == int(Result.parse(ref.result())), (name, i)
            played = [a.code for a in ref.moves[len(state.moves):]]
            assert paths[i, :len(played)].tolist() == played and (paths[i, len(played):] == -1).all()


def test_a_keyed_continuation_passes_through_the_moments_it_reaches(catalog):
    """A keyed continuation whose first move is M is, on the same seed, the continuation of the
    moment after M, move for move and result (what lets the review keep one continuation for every
    moment it passes), from early moments where the seeds' games differ."""
    for name, players in (ROWS[0], ROWS[2]):
        m = mission_of(name, catalog)
        steps, _ = moments(m, catalog, players, "planner", 4)
        T = arrays_for(m, catalog, True)
        seeds = game_seeds(9, 0, 6)
        for state, _ in steps[2:4]:
            results, paths = np.zeros(6, np.int64), np.zeros((6, 160), np.int64)
            fsearch.search_play_on(fs.fast_state(state), 4, T, seeds, results, streams=fsearch.KEYED, paths=paths)
            assert len({tuple(p) for p in paths}) > 1, name  # the streams decide: the seeds' games differ
            for i in range(6):
                after = state.clone()
                after.apply(Action.from_code(int(paths[i, 0])))
                again, rest = np.zeros(1, np.int64), np.zeros((1, 160), np.int64)
                fsearch.search_play_on(fs.fast_state(after), 4, T, seeds[i:i + 1], again, streams=fsearch.KEYED,
                                       paths=rest)
                assert again[0] == results[i] and rest[0, :159].tolist() == paths[i, 1:].tolist(), (name, i)


@pytest.mark.slow
@twin("search.table_games")
def test_whole_search_games_equal_the_reference(catalog):
    m = load_mission(ROOT / "tests/missions/buddy/b01.toml", catalog)
    T = arrays_for(m, catalog, True)
    seeds = game_seeds(3, 0, 2)
    out = (np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.uint64))
    fsearch.search_many(seeds, seat_seeds(seeds, 2), spec_array(GameSpec.of(m, 2)), 1, T, out)
    for i, s in enumerate(seeds):
        g = play_game(m, catalog, 2, int(s), SearchPolicy(1, small_library(m, catalog)))
        assert (Result.parse(g.result), g.trace) == (out[0][i], out[3][i])


def test_search_clears_more_than_the_planner(catalog):
    """On the same deals, a little look-ahead already clears more of a tight mission."""
    from solver.game import fast

    m = load_mission(ROOT / "missions/buddy/b15.toml", catalog)
    T = arrays_for(m, catalog, True)
    spec = spec_array(GameSpec.of(m, 2))
    seeds = game_seeds(1, 0, 30)
    planner = (fast.run(T, spec, seeds, "planner")[0] == 0).sum()
    searched = (fast.run(T, spec, seeds, "search", 2)[0] == 0).sum()
    assert fast.run(T, spec, seeds, "search", 0)[0].tolist() == fast.run(T, spec, seeds, "planner")[0].tolist()
    assert searched >= planner + 3, (planner, searched)


@twin("search.table_games")
def test_the_mixed_table_kernel_plays_the_reference_engines_games(catalog):
    """Seat k plays its group's policy with a memory of its group: the same results as the Python
    engine with one policy object per group, the streams drawn from each seed."""
    from solver.game.search import play_on
    from solver.game.state import deal

    for mid, players, rated, mine, other in (("b12", 2, {0}, "heuristic", "planner"),
                                             ("p05", 3, {1}, "greedy", "heuristic"),
                                             ("p05", 4, {0, 2}, "search", "planner")):
        m = load_mission(bundled_mission(mid), catalog)
        T = build_arrays(m, catalog, planner_library(m, catalog))
        start = deal(m, catalog, players, 123)
        seeds = game_seeds(5, 0, 6)
        group = np.array([0 if s in rated else 1 for s in range(players)], np.int64)
        pols = np.array([int(PolicyId.parse(mine)), int(PolicyId.parse(other))], np.int64)
        ks = np.array([2 if mine == "search" else 0, 0], np.int64)
        fast = np.zeros(len(seeds), np.int64)
        fsearch.table_play_on(fs.fast_state(start), group, pols, ks, T, seeds, fast)
        for i, s in enumerate(seeds):
            a, b = make_policy(mine, 2), make_policy(other)
            state = play_on(start, int(s), [a if k in rated else b for k in range(players)])
            assert int(state.outcome) == fast[i], (mid, players, i)
