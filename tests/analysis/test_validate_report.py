"""`kakapo validate` and `kakapo report`: exit codes, JSON, warnings, files, resuming after an interrupt."""

import json
import re

import pytest
from click.testing import CliRunner

from solver.analysis.report import compute_rows
from solver.cli import main
from solver.io.catalog import load_catalog
from solver.view.report_files import write_outputs
from tests.helpers.missiontext import board_text, mission_text
from tests.helpers.paths import ROOT


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.slow
def test_validate_bundled_mission_ok_with_difficulty_and_decoy_warning():
    res = invoke("validate", ROOT / "tests/missions/buddy/b03.toml", "--games", 150, "--workers", 1, "--json",
                 "--ladder-games", 0)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)["files"][0]
    assert doc["valid"] and doc["status"] == "solvable" and doc["min_pieces"] == 5 and doc["optimal"]
    assert any("bird C" in w and "decoy" in w for w in doc["warnings"])
    (d,) = doc["difficulty"]
    buddy = len(list((ROOT / "missions/buddy").glob("*.toml")))
    # placed among the other Buddy missions of the campaign: never among them itself (its id is b03)
    assert d["players"] == 2 and d["games"] == 150 and 0 <= d["harder_than"] <= d["of"] == buddy - 1


@pytest.mark.slow
def test_validate_exit_codes(write):
    good = ROOT / "tests/missions/party/p01.toml"
    unsolvable = write("edge.toml", mission_text(board_text({1: "A..........."})))
    broken = write("broken.toml", mission_text(board_text({2: "..x........."})))
    assert invoke("validate", good, "--games", 0).exit_code == 0
    res = invoke("validate", good, unsolvable, "--games", 0)
    assert res.exit_code == 1 and "UNSOLVABLE" in res.output
    res = invoke("validate", good, unsolvable, broken, "--games", 0)
    assert res.exit_code == 2 and "broken.toml" in res.output and "Traceback" not in res.output


def test_validate_warns_when_rounds_cannot_suffice(write):
    text = mission_text(board_text({5: ".....r......", 6: "....pAy.....", 7: ".....g......"}), extra="rounds = 1\n")
    res = invoke("validate", write("short.toml", text), "--games", 0, "--json")
    doc = json.loads(res.output)["files"][0]
    # 4 pieces needed, one round and a double scan select at most 2: the game cannot deliver them
    assert res.exit_code == 1 and doc["valid"] and doc["status"] == "unsolvable"


@pytest.mark.slow
def test_report_files_and_columns(tmp_path):
    res = invoke("report", ROOT / "tests/missions/buddy/b01.toml", ROOT / "tests/missions/party", "--games", 100,
                 "--workers", 1,
                 "--out", tmp_path, "--players", "2,4", "--time-limit", 5)
    assert res.exit_code == 0, res.output
    for name in ("report.csv", "report.md", "report.html", "clear_rate.png", "pieces_vs_clear_rate.png"):
        assert (tmp_path / name).stat().st_size > 100
    import pandas as pd

    df = pd.read_csv(tmp_path / "report.csv")
    for col in ("mission", "mode", "players", "games", "cleared", "clear_rate", "ci95_low", "ci95_high", "min_pieces"):
        assert col in df.columns
    party = sorted(p.stem for p in (ROOT / "tests/missions/party").glob("*.toml"))
    assert sorted(zip(df["mission"], df["players"], strict=False)) == [("b01", 2)] + [(p, 4) for p in party]
    assert (df["games"] == 100).all() and (df["clear_rate"] == df["cleared"] / 100).all()


def test_report_refuses_a_folder_holding_another_report_unless_forced(tmp_path):
    b01, b04 = ROOT / "tests/missions/buddy/b01.toml", ROOT / "tests/missions/buddy/b04.toml"
    common = ("--workers", 1, "--time-limit", 5, "--out", tmp_path)
    assert invoke("report", b01, "--games", 20, *common).exit_code == 0
    assert json.loads((tmp_path / "report.about.json").read_text())["rows"] == ["b01/2"]
    csv = (tmp_path / "report.csv").read_text()
    assert invoke("report", b01, "--games", 20, *common).exit_code == 0  # the same report: written again
    for other in ((b04, "--games", 20), (b01, "--games", 30)):  # other missions; other settings
        res = invoke("report", *other, *common)
        assert res.exit_code == 2 and "--out" in res.output and "--force" in res.output and "b01/2" in res.output
        assert "Traceback" not in res.output and (tmp_path / "report.csv").read_text() == csv
    (tmp_path / "notes.txt").write_text("mine")
    res = invoke("report", b04, "--games", 20, *common, "--force")
    assert res.exit_code == 0 and "b04" in (tmp_path / "report.csv").read_text()
    assert (tmp_path / "notes.txt").read_text() == "mine"  # only a report's own files are replaced
    (tmp_path / "report.about.json").unlink()  # report files that say nothing of what they are
    res = invoke("report", b04, "--games", 20, *common)
    assert res.exit_code == 2 and "cannot tell" in res.output


def test_report_bad_players_and_paths(tmp_path):
    assert invoke("report", "--players", "5", "--out", tmp_path).exit_code == 2
    res = invoke("report", "nowhere/", "--out", tmp_path)
    assert res.exit_code == 2 and "nowhere" in res.output


@pytest.mark.slow
def test_interrupted_report_resumes_to_the_same_result(tmp_path, monkeypatch):
    from solver.analysis import simulate

    catalog = load_catalog()
    paths = [ROOT / f"tests/missions/{n}.toml" for n in ("buddy/b01", "buddy/b03", "buddy/b04", "party/p01",
                                                         "party/p02")]
    cat_bytes = (ROOT / "missions/pieces.toml").read_bytes()
    head, args = (catalog, cat_bytes, 150), dict(seed=4, players_filter=None, policy="heuristic", workers=1,
                                                 time_limit=30.0)
    whole = compute_rows(paths, *head, **args, out_dir=tmp_path / "whole")

    real = simulate.play_games
    calls = {"n": 0}

    def flaky(*a, **k):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(simulate, "play_games", flaky)
    with pytest.raises(KeyboardInterrupt):
        compute_rows(paths, *head, **args, out_dir=tmp_path / "cut")
    monkeypatch.setattr(simulate, "play_games", real)
    done = len((tmp_path / "cut" / "report.progress.jsonl").read_text().splitlines())
    assert done >= 3  # the finished work was kept
    resumed = compute_rows(paths, *head, **args, out_dir=tmp_path / "cut")
    assert resumed == whole
    write_outputs(whole, tmp_path / "whole")
    write_outputs(resumed, tmp_path / "cut")
    assert (tmp_path / "whole/report.csv").read_text() == (tmp_path / "cut/report.csv").read_text()


@pytest.mark.slow
def test_report_band_and_ceiling_columns(tmp_path):
    res = invoke("report", ROOT / "tests/missions/buddy/b04.toml", "--games", 300, "--workers", 1, "--out", tmp_path,
                 "--baseline", "--ceiling-games", 12, "--ladder-games", 8)
    assert res.exit_code == 0, res.output
    import pandas as pd

    df = pd.read_csv(tmp_path / "report.csv")
    for col in ("greedy_rate", "heuristic_rate", "planner_rate", "ceiling_rate", "ceiling_ci95_low",
                "ceiling_ci95_high"):
        assert col in df.columns
    row = df.iloc[0]
    assert row["heuristic_rate"] == row["clear_rate"] and row["policy"] == "heuristic"
    assert row["greedy_rate"] < row["heuristic_rate"] < row["planner_rate"]  # b04: 6 %, 51 %, 80 %
    assert row["ceiling_ci95_low"] <= row["ceiling_rate"] <= row["ceiling_ci95_high"] and row["ceiling_games"] == 12
    assert (tmp_path / "band.png").stat().st_size > 1000
    assert "| ceiling |" in (tmp_path / "report.md").read_text()
    assert row["ladder_games"] == 8 and all(0 <= row[f"search{k}_rate"] <= 1 for k in (2, 4, 8, 16, 32, 64))
    # the search player's wins on the first 8 deals are clearable deals among the ceiling's first 12
    assert round(row["search16_rate"] * 8) <= round(row["ceiling_rate"] * 12) + row["ceiling_undecided"]
    assert (tmp_path / "ladder.png").stat().st_size > 1000 and "search 16" in (tmp_path / "report.md").read_text()
    rates = [row[f"{p}_rate"] for p in ("greedy", "heuristic", "planner")] + [row[f"search{k}_rate"]
                                                                              for k in (2, 4, 8, 16, 32, 64)]
    assert row["shortfall"] == pytest.approx(sum(max(0, 1 - r / row["ceiling_rate"]) for r in rates) / 9)
    # the report says why: the mission's counters, and how each policy's games were lost
    assert (row["rounds"], row["skills"], str(row["clear"])) == (8, 5, "1")
    for pol in ("greedy", "heuristic", "planner"):
        lost = row[f"{pol}_rounds_exhausted"] + row[f"{pol}_unplaceable"]
        assert lost == round(300 * (1 - row[f"{pol}_rate"]))
    page = (tmp_path / "report.html").read_text()
    assert "8 rounds, 5 skills, scan 1 of 1 birds" in page and "How games were lost" in page
    # the report's policy has its band column, with the interval under the rate: no column repeats it
    heads = re.findall(r'title="sort">([^<]*)</th>', page)
    assert "heuristic, 95% interval" in heads and "clear rate" not in heads and "heuristic" not in heads
    assert f"{100 * row['ci95_low']:.1f}&ndash;{100 * row['ci95_high']:.1f}%" in page
    assert "How games were lost" in (tmp_path / "report.md").read_text()


def test_the_summary_names_wide_bands_in_words():
    import pandas as pd

    from solver.view.report_html import why_sentences

    df = pd.DataFrame([
        {"mission": "b20", "players": 2, "policy": "heuristic", "clear_rate": 0.15, "ceiling_rate": 1.0,
         "search16_rate": 0.85, "rounds_exhausted": 8000, "unplaceable": 500},
        {"mission": "b01", "players": 2, "policy": "heuristic", "clear_rate": 0.99, "ceiling_rate": 1.0,
         "search16_rate": 1.0, "rounds_exhausted": 100, "unplaceable": 0},
    ])
    how, wide = why_sentences(df)
    assert "of the 8,600 games the heuristic players lost, the rounds ran out in 94%" in how
    assert "b20 with 2 players (heuristic 15.0% against 100.0% with open hands; the search player with 16 " \
           "samples clears 85.0%)" in wide and "b01" not in wide


@pytest.mark.slow
def test_validate_prints_the_band():
    res = invoke("validate", ROOT / "tests/missions/buddy/b04.toml", "--games", 200, "--workers", 1,
                 "--ceiling-games", 3, "--ladder-games", 6, "--json")
    assert res.exit_code == 0, res.output
    (d,) = json.loads(res.output)["files"][0]["difficulty"]
    assert set(d["band"]) == {"greedy", "heuristic", "planner", "ceiling"}
    assert d["band"]["ceiling"]["games"] == 3 and d["band"]["heuristic"]["clear_rate"] == d["clear_rate"]
    ladder = d["ladder"]
    assert ladder["games"] == 6 and [r["samples"] for r in ladder["rungs"]] == [2, 4, 8, 16, 32, 64]
    assert all(r["games"] == 6 for r in ladder["rungs"])  # under 200 deals the top rungs play them all
    search = json.loads(invoke("simulate", ROOT / "tests/missions/buddy/b04.toml", "--games", 6, "--policy", "search",
                               "--samples", 4, "--workers", 1, "--json").output)
    assert ladder["rungs"][1]["cleared"] == search["cleared"]
    assert 0 <= d["shortfall"] <= 1
    place = d["shortfall_place"]  # among the campaign's 19 other Buddy missions, by their measured shortfall
    assert place["of"] == 19 and 0 <= place["harder_than"] <= 19 and "b04" not in place["between"]
    assert d["campaign"] == {**place, "by": "shortfall"} and place["source"] == "bundled"
    text = invoke("validate", ROOT / "tests/missions/buddy/b04.toml", "--games", 200, "--workers", 1,
                  "--ceiling-games", 3, "--ladder-games", 6)
    assert "band: greedy" in text.output and "open-hand ceiling" in text.output
    assert "new piece(s), proven minimal" in text.output and "solvable with at least" not in text.output
    assert "ladder, search player on 6 deals: 2 samples" in text.output and "shortfall" in text.output
    assert "by its shortfall: " in text.output and "bundled missions" in text.output
    assert "ladder" not in invoke("validate", ROOT / "tests/missions/buddy/b04.toml", "--games", 100, "--workers", 1,
                                  "--ceiling-games", 0, "--ladder-games", 0).output


@pytest.mark.slow
def test_campaign_placement_at_both_ends_and_between():
    from solver.analysis.validate import place_among, placement_phrase

    bundled = [("b01", 0.95), ("b02", 0.80), ("b03", 0.60), ("b04", 0.20)]
    easiest = place_among(0.99, bundled)
    assert easiest["between"] == [None, "b01"] and easiest["harder_than"] == 0
    assert placement_phrase(easiest).startswith("easier than b01")
    hardest = place_among(0.05, bundled)
    assert hardest["between"] == ["b04", None] and hardest["harder_than"] == 4
    assert placement_phrase(hardest).startswith("harder than b04")
    middle = place_among(0.70, bundled)
    assert middle["between"] == ["b02", "b03"] and middle["harder_than"] == 2
    assert placement_phrase(middle).startswith("between b02 and b03")
    # the order is by measured rate, not by number
    assert place_among(0.5, [("b02", 0.4), ("b01", 0.9)])["between"] == ["b01", "b02"]
    # neighbours that measure against their numbers are still named in campaign order
    swapped = place_among(0.5, [("p02", 0.3), ("p03", 0.7)])
    assert swapped["between"] == ["p03", "p02"] and placement_phrase(swapped).startswith("between p02 and p03")


@pytest.mark.slow
def test_report_keeps_two_files_with_the_same_text_apart(tmp_path):
    text = (ROOT / "tests/missions/buddy/b01.toml").read_text()
    (tmp_path / "in").mkdir()
    for name in ("twin-a.toml", "twin-b.toml"):
        (tmp_path / "in" / name).write_text(text)
    res = invoke("report", tmp_path / "in", "--games", 50, "--workers", 1, "--out", tmp_path / "out",
                 "--time-limit", 5)
    assert res.exit_code == 0, res.output
    import pandas as pd

    df = pd.read_csv(tmp_path / "out" / "report.csv")
    assert sorted(df["mission"]) == ["twin-a", "twin-b"]


@pytest.mark.slow
def test_report_tasks_side_by_side_equal_one_after_the_other(tmp_path):
    catalog = load_catalog()
    paths = [ROOT / f"tests/missions/{n}.toml" for n in ("buddy/b01", "buddy/b04", "party/p01")]
    cat_bytes = (ROOT / "missions/pieces.toml").read_bytes()
    serial = compute_rows(paths, catalog, cat_bytes, 120, seed=7, players_filter=None, policy="planner", workers=1,
                          time_limit=30.0, out_dir=tmp_path / "one")
    parallel = compute_rows(paths, catalog, cat_bytes, 120, seed=7, players_filter=None, policy="planner", workers=2,
                            time_limit=30.0, out_dir=tmp_path / "two")
    assert parallel == serial and len(serial) == 4


def test_report_plans_each_task_once():
    from solver.analysis.report import plan_report

    paths = [ROOT / "tests/missions/buddy/b01.toml", ROOT / "tests/missions/party/p01.toml"]
    cat_bytes = (ROOT / "missions/pieces.toml").read_bytes()
    plan = plan_report(paths, load_catalog(), cat_bytes, 100, seed=1, players_filter=None, policy="heuristic",
                       time_limit=5.0, baseline=True)
    tasks = plan.tasks()
    # a solve per row (with 3 players purple-1 is out) + 3 rows x (greedy, heuristic, planner): the main
    # policy is the band's heuristic
    assert len(tasks) == len({t.key for t in tasks}) == 3 + 3 * 3


def test_band_line_says_the_true_relation_of_unrounded_rates():
    from solver.cli import band_line

    # 0.9996 prints as 100.0 % and 0.9994 as 99.9 %: the sign follows the rates, not the print
    line = band_line([("greedy 80.0%", 0.8), ("heuristic 100.0%", 0.9996), ("planner 99.9%", 0.9994),
                      ("open-hand ceiling 100.0% of 200 deals", 1.0)])
    assert line == "greedy 80.0% <= heuristic 100.0% > planner 99.9% <= open-hand ceiling 100.0% of 200 deals"


def test_validate_checks_every_file_before_any_work(tmp_path, monkeypatch):
    from solver.analysis import validate as v

    broken = tmp_path / "broken.toml"
    broken.write_text((ROOT / "tests/missions/buddy/b01.toml").read_text().replace('mode = "buddy"\n', ""))
    order = []
    real = v.validate_file
    monkeypatch.setattr(v, "validate_file", lambda *a, **k: order.append("work") or real(*a, **k))
    import solver.cli.measure as cli

    monkeypatch.setattr(cli, "print_invalid", lambda d: order.append("broken") or None)
    res = invoke("validate", ROOT / "tests/missions/buddy/b01.toml", broken, "--games", 0)
    assert res.exit_code == 2 and order == ["broken", "work"]  # the broken file is named before any solving


def test_validate_says_how_many_answers_the_puzzle_has(monkeypatch):
    from solver.analysis import validate as v
    from solver.puzzle.cpsat import SolutionCount

    doc = json.loads(invoke("validate", ROOT / "tests/missions/buddy/b01.toml", "--games", 0, "--json").output)
    (f,) = doc["files"]
    assert f["count_complete"] is True and f["solution_count"] > 1  # b01: many sets of two pieces
    assert f"{f['solution_count']} distinct sets of 2 pieces do it" in \
        invoke("validate", ROOT / "tests/missions/buddy/b01.toml", "--games", 0).output
    monkeypatch.setattr(v, "count_solutions", lambda m, cat, k, cap, **kw: SolutionCount(k, 1, True, "sets"))
    assert "one intended answer" in invoke("validate", ROOT / "tests/missions/buddy/b01.toml", "--games", 0).output
