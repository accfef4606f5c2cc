"""The Numba engine is a twin of the Python reference engine: the same legal actions and the same
next state at any moment, the same play-out from there, the same games, decision by decision."""

import hashlib
import json

import numpy as np
import pytest
from click.testing import CliRunner

from solver.analysis.simulate import play_games
from solver.cli import main
from solver.core.board import Shape
from solver.core.codes import ONE_PLY, RESULT_NAMES, PolicyId
from solver.core.spec import GameSpec
from solver.core.stats import wilson
from solver.game import fast
from solver.game.arrays import build_arrays
from solver.game.engine import play_game, play_out
from solver.game.fast.state import spec_array
from solver.game.roster import make_policy
from solver.game.seeds import game_seeds
from solver.io.catalog import Catalog, load_catalog
from solver.io.missionfile import load_mission
from tests.helpers.doors import doors
from tests.helpers.paths import ROOT
from tests.helpers.referee import referee
from tests.helpers.twins import arrays_for, assert_same_state, fast_legal, fresh_memory, moments, reference_policy

fs = doors("solver.game.fast.state")
fast_play_out = doors("solver.game.fast.play").play_out
decide = doors("solver.game.fast.policies").decide

CASES = [("buddy/b03", 2), ("party/p02", 3), ("party/p03", 4)]
POLICIES = [p.label for p in ONE_PLY]


def campaign_rows():
    for path in sorted((ROOT / "missions").glob("*/*.toml")):
        for players in ((2,) if path.parent.name == "buddy" else (3, 4)):
            yield path, players


def check_moments(m, catalog, players, policy, seed, cuts=3):
    """At moments across one reference game: the same legal actions; the policy's action leads to the
    same next state; both engines play out the same rest of the game."""
    T = arrays_for(m, catalog, policy == "planner")
    steps, end = moments(m, catalog, players, policy, seed)
    picks = sorted({int(len(steps) * k / (cuts + 1)) for k in range(1, cuts + 1)})
    for k in picks:
        state, action = steps[k]
        S = fs.fast_state(state)
        assert fast_legal(S, T) == sorted(a.code for a in state.legal_actions()), (m.id, policy, k)
        seat, pid, mem = state.current_player(), int(PolicyId.parse(policy)), fresh_memory(T)
        after, pol = state.clone(), reference_policy(policy, m, catalog)
        assert pol.act(after.observation(seat), after.seat_rngs[seat]) == action
        after.apply(action)
        assert decide(pid, fs.observe(S, seat), mem, T, S.rs[seat: seat + 1]) == action.code
        fs.apply_action(S, action.code, T)
        assert_same_state(after, S, f"{m.id}/{players} {policy} moment {k}")
        fast_play_out(S, pid, mem, T)
        play_out(after, pol)
        assert_same_state(after, S, f"{m.id}/{players} {policy} played out from moment {k}")
        assert after.trace == end.trace and after.result() == end.result()


def some_rows():
    """Three rows in every policy; the planner's longest one (b14: its library alone takes seconds) in
    the slow tier."""
    for name, players in (("buddy/b14", 2), ("party/p09", 3), ("party/p17", 4)):
        for policy in POLICIES:
            marks = pytest.mark.slow if (name, policy) == ("buddy/b14", "planner") else ()
            yield pytest.param(ROOT / f"missions/{name}.toml", players, policy, marks=marks,
                               id=f"{name[-3:]}-{players}-{policy}")


@pytest.mark.parametrize("path,players,policy", list(some_rows()))
def test_step_parity_on_some_campaign_rows(path, players, policy, catalog):
    check_moments(load_mission(path, catalog), catalog, players, policy, 11)


@pytest.mark.slow
@pytest.mark.parametrize("policy", POLICIES)
def test_step_parity_on_every_campaign_row(policy, catalog):
    """Every campaign mission and player count, states from the middle of games: each row with one
    policy in turn (a third of the rows each), so that the three cover every row once."""
    rows = list(campaign_rows())
    assert len(rows) == 60
    for i, (path, players) in enumerate(rows):
        if i % len(POLICIES) != POLICIES.index(policy):
            continue
        check_moments(load_mission(path, catalog), catalog, players, policy, 1000 + i, cuts=2)


@pytest.mark.slow
@pytest.mark.parametrize("name,players", [*CASES, ("buddy/b04", 2)])  # b04: pieces placed before play
def test_engines_agree_game_by_game_on_many_deals(name, players, catalog):
    m = load_mission(ROOT / f"tests/missions/{name}.toml", catalog)
    seeds = game_seeds(20261122, 0, 100)
    tables = build_arrays(m, catalog)
    spec = spec_array(GameSpec.of(m, players))
    for policy, count in (("heuristic", 100), ("random", 60), ("greedy", 60)):
        res, rounds, scanned, traces = fast.run(tables, spec, seeds[:count], policy)
        pol = make_policy(policy)
        for i in range(count):
            g = play_game(m, catalog, players, int(seeds[i]), pol)
            assert (g.trace, g.result, g.rounds_played, len(g.scanned)) == \
                (int(traces[i]), RESULT_NAMES[res[i]], int(rounds[i]), int(scanned[i])), (policy, i)


@pytest.mark.slow
def test_planner_engines_agree_game_by_game(catalog):
    """The planner's twin with its own library: tight draft missions (where it differs most from the
    heuristic) and b04."""
    from solver.game.planner import planner_library

    for path, players, count in (("tests/missions/draft/b12.toml", 2, 40), ("tests/missions/draft/p13.toml", 3, 30),
                                 ("tests/missions/buddy/b04.toml", 2, 60)):
        m = load_mission(ROOT / path, catalog)
        seeds = game_seeds(20261122, 0, count)
        res, rounds, _scanned, traces = fast.run(build_arrays(m, catalog, planner_library(m, catalog)),
                                                spec_array(GameSpec.of(m, players)), seeds, "planner")
        pol = make_policy("planner")
        for i in range(count):
            g = play_game(m, catalog, players, int(seeds[i]), pol)
            assert (g.trace, g.result, g.rounds_played) == \
                (int(traces[i]), RESULT_NAMES[res[i]], int(rounds[i])), (path, i)


@pytest.mark.slow
@pytest.mark.parametrize("name,players", [*CASES, ("buddy/b04", 2), ("party/p01", 4)])
def test_logs_pass_the_referee(name, players, catalog):
    m = load_mission(ROOT / f"tests/missions/{name}.toml", catalog)
    results = set()
    for policy in ("heuristic", "random", "greedy", "planner"):
        for seed in range(12):
            g = play_game(m, catalog, players, seed, make_policy(policy), log=True)
            results.add(referee(json.loads(json.dumps(g.events)), m, catalog))
    assert "cleared" in results and "rounds_exhausted" in results


@pytest.mark.slow
def test_same_numbers_whatever_workers_and_engine(catalog):
    m = load_mission(ROOT / "tests/missions/party/p03.toml", catalog)
    one = play_games(m, catalog, 3, 2500, 7, "heuristic", "numba", 1)
    two = play_games(m, catalog, 3, 2500, 7, "heuristic", "numba", 2)
    assert np.array_equal(one.traces, two.traces) and np.array_equal(one.results, two.results)
    py = play_games(m, catalog, 3, 60, 7, "heuristic", "python", 2)
    assert np.array_equal(py.traces, one.traces[:60])


def test_seeds_do_not_depend_on_chunking():
    whole = game_seeds(5, 0, 2600)
    parts = np.concatenate([game_seeds(5, 0, 999), game_seeds(5, 999, 1001), game_seeds(5, 2000, 600)])
    assert np.array_equal(whole, parts)
    assert len(set(whole.tolist())) == 2600
    assert not np.array_equal(game_seeds(6, 0, 10), whole[:10])


def test_wilson_interval_matches_the_documented_example():
    """docs/reference.md's `simulate --json` document: 6123 clears of 10000, ci95 [0.6027, 0.6218]."""
    lo, hi = wilson(6123, 10000)
    assert round(lo, 4) == 0.6027 and round(hi, 4) == 0.6218
    assert wilson(0, 50)[0] == 0.0 and 0.06 < wilson(0, 50)[1] < 0.08
    assert wilson(50, 50)[1] == 1.0


def simulate(*args):
    return CliRunner().invoke(main, ["simulate", *map(str, args)])


def test_simulate_json_contract():
    res = simulate(ROOT / "tests/missions/buddy/b01.toml", "--games", 500, "--seed", 3, "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    for key in ("mission", "players", "policy", "games", "seed", "cleared", "clear_rate", "ci95", "failures",
                "mean_rounds_when_cleared", "games_per_second"):
        assert key in doc
    assert doc["mission"] == "b01" and doc["players"] == 2 and doc["policy"] == "heuristic" and doc["games"] == 500
    assert doc["clear_rate"] == doc["cleared"] / 500
    assert doc["cleared"] + doc["failures"]["rounds_exhausted"] + doc["failures"]["unplaceable"] == 500
    assert list(wilson(doc["cleared"], 500)) == doc["ci95"]


def test_simulate_engines_agree_on_the_cli():
    a = json.loads(simulate(ROOT / "tests/missions/party/p01.toml", "--games", 80, "--players", 3, "--engine", "python",
                            "--workers", 1, "--json").output)
    b = json.loads(simulate(ROOT / "tests/missions/party/p01.toml", "--games", 80, "--players", 3, "--engine", "numba",
                            "--workers", 2, "--json").output)
    for key in ("cleared", "failures", "mean_rounds_when_cleared", "ci95"):
        assert a[key] == b[key]


def test_simulate_unclearable_mission_clears_nothing(write):
    from tests.helpers.missiontext import board_text, mission_text

    path = write("decoy.toml", mission_text(board_text({1: "AA.........."}), mode="party"))
    for players in (3, 4):
        doc = json.loads(simulate(path, "--games", 300, "--players", players, "--workers", 1, "--json").output)
        assert doc["cleared"] == 0 and doc["mean_rounds_when_cleared"] is None


@pytest.mark.parametrize("args", [["--players", 3], ["--players", 5]])
def test_simulate_wrong_player_count_exit_2(args):
    res = simulate(ROOT / "tests/missions/buddy/b01.toml", *args)
    assert res.exit_code == 2 and "b01.toml" in res.output and "--players" in res.output
    res = simulate(ROOT / "tests/missions/party/p01.toml", "--players", 2)
    assert res.exit_code == 2 and "3 or 4" in res.output


def test_play_log_and_exit_code(tmp_path):
    log = tmp_path / "game.jsonl"
    res = CliRunner().invoke(main, ["play", str(ROOT / "tests/missions/party/p01.toml"), "--players", "3",
                                    "--seed", "4",
                                    "--log", str(log)])
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["event"] == "setup" and lines[-1]["event"] == "end"
    assert res.exit_code == (0 if lines[-1]["result"] == "cleared" else 1)
    assert f"round {len(lines) - 2} " in res.output
    keys = {"event", "round", "start_player", "trump", "plays", "decision", "in_charge", "skill", "pieces",
            "placements", "skills_left", "scanned"}
    assert all(set(e) == keys for e in lines[1:-1])
    assert set(lines[0]) == {"event", "mission", "players", "rounds", "skills", "hands", "set_aside", "removed",
                             "start_player", "seed", "game", "policy",  # docs/logs.md's keys, and which run played it
                             "format", "mission_text", "mission_digest", "pieces_text", "pieces_digest",
                             "pieces_text_digest", "human"}
    setup = lines[0]
    assert setup["format"] == 2 and setup["human"] == []
    assert setup["mission_text"] == (ROOT / "tests/missions/party/p01.toml").read_text(encoding="utf-8")
    assert setup["mission_digest"] == hashlib.sha256(setup["mission_text"].encode()).hexdigest()[:16]
    assert setup["pieces_text"] == (ROOT / "missions/pieces.toml").read_text(encoding="utf-8")
    assert setup["pieces_digest"] == hashlib.sha256(setup["pieces_text"].encode()).hexdigest()[:16]


def test_play_is_game_zero_of_simulate(tmp_path, catalog):
    m = load_mission(ROOT / "tests/missions/buddy/b02.toml", catalog)
    log = tmp_path / "g.jsonl"
    CliRunner().invoke(main, ["play", str(ROOT / "tests/missions/buddy/b02.toml"), "--seed", "9", "--log", str(log)])
    end = json.loads(log.read_text().splitlines()[-1])
    out = play_games(m, catalog, 2, 1, 9, "heuristic", "numba", 1)
    assert RESULT_NAMES[out.results[0]] == end["result"] and out.rounds[0] == end["rounds_played"]


@pytest.mark.slow
def test_heuristic_beats_random_and_greedy(catalog):
    totals = {"heuristic": 0, "greedy": 0, "random": 0}
    for path in sorted((ROOT / "missions").glob("*/*.toml")):
        m = load_mission(path, catalog)
        players = m.player_counts()[-1]
        rate = {p: (play_games(m, catalog, players, 100, 1, p, "numba", 1).results == 0).mean()
                for p in ("heuristic", "greedy", "random")}
        assert rate["heuristic"] >= rate["greedy"] - 0.02 and rate["heuristic"] >= rate["random"], (m.id, rate)
        if rate["greedy"] > 0.1:  # clearly better, or near perfect where greedy already is
            assert rate["heuristic"] > min(rate["greedy"] + 0.05, 0.99), (m.id, rate)
        for p in totals:
            totals[p] += rate[p]
    assert totals["heuristic"] > 1.3 * totals["greedy"] and totals["heuristic"] > totals["random"] + 2, totals


def test_the_planners_library_is_built_once_per_mission_and_catalog_content():
    from solver.game.planner import planner_library

    first_catalog = load_catalog()
    m = load_mission(ROOT / "tests/missions/buddy/b03.toml", first_catalog)
    first = planner_library(m, first_catalog)
    assert first and planner_library(m, load_catalog()) is first  # another catalog object, the same pieces
    shapes = {c: first_catalog[c] for c in first_catalog}
    card = next(c for c in shapes if shapes[c] != Shape.parse("#"))
    shapes[card] = Shape.parse("#")
    assert Catalog(shapes).key != first_catalog.key  # a different piece: a library of its own
