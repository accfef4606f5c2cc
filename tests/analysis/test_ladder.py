"""The search player through the commands (`simulate`, `play`, `play --from`) and `kakapo ladder`."""

import csv
import json

import pytest
from click.testing import CliRunner

from solver.analysis.ladder import RUNGS, shortfall
from solver.analysis.simulate import play_games
from solver.cli import main
from solver.io.missionfile import load_mission
from tests.helpers.paths import ROOT
from tests.helpers.referee import referee


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def simulate_doc(*args):
    res = run("simulate", *args, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_simulate_search_names_its_samples_and_does_not_depend_on_workers():
    one = simulate_doc("b05", "--policy", "search", "--samples", 2, "--games", 24, "--workers", 1)
    two = simulate_doc("b05", "--policy", "search", "--samples", 2, "--games", 24, "--workers", 2)
    assert one["policy"] == "search" and one["samples"] == 2
    assert (one["cleared"], one["failures"]) == (two["cleared"], two["failures"])
    planner = simulate_doc("b05", "--policy", "planner", "--games", 24, "--workers", 1)
    zero = simulate_doc("b05", "--policy", "search", "--samples", 0, "--games", 24, "--workers", 1)
    assert planner["samples"] is None and (zero["cleared"], zero["failures"]) == (planner["cleared"],
                                                                                   planner["failures"])


def test_samples_go_with_the_search_player_only():
    res = run("simulate", "b05", "--policy", "heuristic", "--samples", 4)
    assert res.exit_code == 2 and "--samples goes with --policy search" in res.output
    res = run("simulate", "b05", "--policy", "search", "--samples", -1)
    assert res.exit_code == 2


def test_ladder_json_contract_and_picture(tmp_path):
    png = tmp_path / "ladder.png"
    res = run("ladder", "b05", "--games", 12, "--workers", 1, "--json", "--png", png)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert {k: doc[k] for k in ("mission", "players", "games", "seed")} == {"mission": "b05", "players": 2,
                                                                            "games": 12, "seed": 1}
    assert [(r["policy"], r["samples"]) for r in doc["rungs"]] == list(RUNGS)
    assert [r["samples"] for r in doc["rungs"] if r["policy"] == "search"] == [2, 4, 8, 16, 32, 64]
    for r in doc["rungs"]:
        assert r["games"] == 12  # under 200 deals every rung plays them all
        assert r["clear_rate"] == r["cleared"] / 12 and r["ci95"][0] <= r["clear_rate"] <= r["ci95"][1]
        assert r["cleared"] <= r["clearable"]
    top = doc["ceiling"]
    assert set(top) >= {"clearable", "undecided", "clear_rate"}
    assert all(r["clearable"] == top["clearable"] for r in doc["rungs"])  # every rung's win is a witness
    difficulty = doc["difficulty"]
    # the shortfall can be checked from the document alone
    mean = sum(max(0.0, 1 - r["cleared"] / r["clearable"]) for r in doc["rungs"]) / len(doc["rungs"])
    assert difficulty["name"] == "shortfall" and difficulty["value"] == pytest.approx(mean)
    # where it falls among the other bundled missions of its mode, by their measured shortfall
    assert difficulty["campaign"]["of"] == 19 and "b05" not in difficulty["campaign"]["between"]
    assert 0.0 <= doc["difficulty"]["value"] <= 1.0
    assert png.stat().st_size > 5000
    # a rung is what `simulate` measures with the same seed and games
    heuristic = simulate_doc("b05", "--policy", "heuristic", "--games", 12, "--workers", 1)
    assert doc["rungs"][1]["cleared"] == heuristic["cleared"]


def test_ladder_text_and_bad_outputs(tmp_path):
    res = run("ladder", "b04", "--games", 4, "--workers", 1)
    assert res.exit_code == 0, res.output
    assert "search 16 samples" in res.output and "open-hand ceiling" in res.output and "shortfall" in res.output
    assert "in the campaign: " in res.output and "bundled missions" in res.output
    res = run("ladder", "b04", "--games", 4, "--png", tmp_path / "missing" / "x.png")
    assert res.exit_code == 2 and "missing" in res.output and "Traceback" not in res.output
    res = run("ladder", "b04", "--players", 3)
    assert res.exit_code == 2 and "--players" in res.output


def test_shortfall_counts_each_rung_against_the_clearable_deals_it_played():
    rungs = [{"cleared": 5, "games": 10}, {"cleared": 10, "games": 10}]
    assert shortfall(rungs, [True] * 10) == 0.25 and shortfall(rungs, [False] * 10) == 1.0
    # a top rung played the first 4 deals, of which 2 are clearable; it cleared 1
    rungs = [{"cleared": 6, "games": 10}, {"cleared": 1, "games": 4}]
    clearable = [True, False, True, False] + [True] * 6
    assert shortfall(rungs, clearable) == pytest.approx((0.25 + 0.5) / 2)


def test_the_top_rungs_play_the_first_200_deals():
    from solver.analysis.ladder import TOP_RUNG_DEALS, rung_games

    assert TOP_RUNG_DEALS == 200 and [rung_games(k, 500) for _, k in RUNGS] == [500] * 7 + [200, 200]
    assert [rung_games(k, 120) for _, k in RUNGS] == [120] * 9


@pytest.mark.slow
def test_play_is_game_i_of_simulate_and_the_engines_agree(tmp_path, catalog):
    results = tmp_path / "r.csv"
    res = run("simulate", "b05", "--policy", "search", "--samples", 2, "--games", 6, "--workers", 1, "--results",
              results)
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(results.open()))
    for i in (0, 5):
        log = tmp_path / f"g{i}.jsonl"
        res = run("play", "b05", "--policy", "search", "--samples", 2, "--game", i, "--log", log)
        end = json.loads(log.read_text().splitlines()[-1])
        assert (end["result"], str(end["rounds_played"])) == (rows[i]["result"], rows[i]["rounds"])
        setup = json.loads(log.read_text().splitlines()[0])
        assert setup["policy"] == "search" and setup["samples"] == 2
    m = load_mission(ROOT / "missions/buddy/b05.toml", catalog)
    fast = play_games(m, catalog, 2, 6, 1, "search", "numba", 1, samples=2)
    slow = play_games(m, catalog, 2, 6, 1, "search", "python", 1, samples=2)
    assert fast.results.tolist() == slow.results.tolist() and fast.traces.tolist() == slow.traces.tolist()


@pytest.mark.slow
def test_play_from_repeats_a_search_game_and_its_log_passes_the_referee(tmp_path, catalog):
    original = tmp_path / "g.jsonl"
    res = run("play", "p15", "--players", 4, "--policy", "search", "--samples", 2, "--seed", 3, "--log", original)
    assert res.exit_code in (0, 1), res.output
    again = tmp_path / "again.jsonl"
    res = run("play", "--from", original, "--round", 3, "--log", again)
    assert res.exit_code in (0, 1), res.output
    assert again.read_text() == original.read_text()
    events = [json.loads(line) for line in original.read_text().splitlines()]
    assert referee(events, load_mission(ROOT / "missions/party/p15.toml", catalog), catalog) == events[-1]["result"]


@pytest.mark.slow
def test_every_deal_the_search_player_clears_the_ceiling_calls_clearable(catalog):
    """The ceiling's own open-hand search finds them all, with a model budget too small to matter."""
    from solver.openhand.ceiling import ceiling

    m = load_mission(ROOT / "missions/buddy/b20.toml", catalog)
    searched = play_games(m, catalog, 2, 8, 1, "search", "numba", 1).results == 0
    quick = play_games(m, catalog, 2, 8, 1, "planner", "numba", 1).results == 0
    assert searched.sum() > quick.sum()  # b20: the one-step players leave deals the search player clears
    doc = ceiling(m, catalog, 2, 8, 1, 1, time_limit=0.05)
    assert all(doc["answers"][i] == "clearable" for i in range(8) if searched[i])
    assert doc["cleared_by_policies"] >= quick.sum()  # the one-step players' wins are witnesses too
