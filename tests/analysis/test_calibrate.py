"""`kakapo calibrate TABLE...` (as docs/reference.md says): the leave-one-out predictions, the tables found
and named, the joint fit, what to play next, broken inputs, and the whole document."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner

from solver.analysis.calibrate import (
    Ladder,
    Level,
    Rates,
    Table,
    brier,
    fit_shift,
    joint_fit,
    leave_one_out,
    level_of,
    next_missions,
    reliability,
    row_rates,
)
from solver.analysis.ladder import RUNGS
from solver.analysis.rate import Measured, judge, rung_plays
from solver.app.calibrating import find_tables
from solver.cli import main
from solver.io.difficulty import campaign_difficulty
from tests.helpers.tables import PLAYS, SPREAD, FixedLadder, N, game, measured


def weights_of(judged: dict) -> np.ndarray:
    """`rate`'s rating as weights over the rungs: proportional to the likelihood of the results."""
    ll = np.array([r["log_likelihood"] for r in judged["rungs"]], float)
    w = np.exp(ll - ll.max())
    return w / w.sum()


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_leave_one_out_never_uses_the_games_own_result():
    results = [True, True, False, True, True, False, True, True]
    games = [game(c) for c in results]
    m = measured(SPREAD, len(games))
    before = leave_one_out(games, m, FixedLadder())  # type: ignore[arg-type]
    flipped = [game(not results[0]), *games[1:]]
    after = leave_one_out(flipped, m, FixedLadder())  # type: ignore[arg-type]
    assert after[0]["predicted"] == before[0]["predicted"]  # its own result is left out
    assert after[0]["cleared"] != before[0]["cleared"]
    for b, a in zip(before[1:], after[1:], strict=True):  # every other game's prediction hears it
        assert a["predicted"] != b["predicted"]
    # the prediction is the level the others' results give, at the game's mission
    others = level_of(games, m, FixedLadder(), list(range(1, len(games))))  # type: ignore[arg-type]
    assert before[0]["predicted"] == pytest.approx(others.expect(FixedLadder().rates)[0])
    assert before[0]["baseline"] == pytest.approx(float(FixedLadder().rates.rates.mean()))


def test_a_strong_table_expects_more_than_a_weak_one_and_next_is_nearest_the_target():
    m = measured(SPREAD, 12)
    strong = [game(True)] * 11 + [game(False)]
    weak = [game(False)] * 10 + [game(True)] * 2
    ls, lk = (level_of(g, m, FixedLadder()) for g in (strong, weak))  # type: ignore[arg-type]
    assert ls.weights[-1] > ls.weights[0] and lk.weights[:3].sum() > lk.weights[-1]
    campaign = campaign_difficulty()
    rates = row_rates(campaign[("b19", 2)])
    assert ls.expect(rates)[0] > lk.expect(rates)[0] + 0.3
    table = Table("t", strong)  # type: ignore[arg-type]
    nxt = next_missions(table, ls, campaign, 0.6)
    assert all(e["players"] == 2 and e["mission"].startswith("b") for e in nxt)
    assert "b19" not in [e["mission"] for e in nxt]  # cleared at this table
    gaps = [abs(e["predicted"] - 0.6) for e in nxt]
    assert gaps == sorted(gaps) and len(nxt) == 19
    for e in nxt:
        assert e["ci95"][0] <= e["predicted"] <= e["ci95"][1]
    assert [e["mission"] for e in next_missions(table, ls, campaign, 0.99)][:1] != [nxt[0]["mission"]]


def deals(rows: list[list[int]]) -> Measured:
    """Replays deal by deal: rows[r][g], the clears of rung r's replays of deal g."""
    clears = np.array(rows, np.int64)
    zeros = np.zeros_like(clears)
    return Measured(clears, zeros, zeros, PLAYS)


class DealLadder:
    """The mission rates the replays below give: the weak rungs 0.2, the strong ones 0.8."""

    rates = Rates("b19", 2, np.array([0.2] * 3 + [0.8] * 6), np.full(N, 500), "campaign")

    def of(self, _game) -> Rates:
        return self.rates


def test_a_table_of_one_rung_follows_the_deal_and_one_making_mistakes_is_not_pinned_to_a_rung():
    # 20 deals: the weak rungs (greedy, heuristic, planner) clear the first 4 in every replay and
    # nothing else; the strong rungs (search) clear every deal but the last 4
    weak = [PLAYS] * 4 + [0] * 16
    strong = [PLAYS] * 16 + [0] * 4
    m = deals([weak] * 3 + [[min(c, rung_plays(k, PLAYS)) for c in strong] for _, k in RUNGS[3:]])
    ladder = DealLadder()
    # a table of a strong rung clears exactly the deals the strong rungs clear
    bot = [game(c > 0) for c in strong]
    lb = level_of(bot, m, ladder)  # type: ignore[arg-type]
    assert lb.weights[3:].sum() > 0.99 and lb.deal_share > 0.7 and lb.deal == "follows"  # they follow the deal
    assert lb.beyond == "as" and abs(lb.shift) < 1e-6  # it does what its rung does
    # a table between the rungs: it clears the 4 easy deals and 5 of the 12 only strong rungs
    # clear (9 of 20); `rate`'s deal-by-deal rating puts it on a weak rung, sure of it
    between = [game(i < 9) for i in range(20)]
    judged = weights_of(judge(between, m))  # type: ignore[arg-type]
    assert judged[:3].sum() > 0.9 and float(judged @ ladder.rates.rates) < 0.3
    level = level_of(between, m, ladder)  # type: ignore[arg-type]
    assert level.deal_share < min(0.7, lb.deal_share - 0.2)  # its results follow the deal less
    assert level.shift > 0.5 and level.deal != "follows"  # it clears more than the weak rungs
    p, lo, hi = level.expect(ladder.rates)
    assert 0.3 < p < 0.6 and lo < 9 / 20 < hi  # near what it did, not at a rung's rate


def test_the_shift_beyond_the_rung():
    half = np.full(10, 0.5)
    u, sd = fit_shift(half, np.array([True, False] * 5))
    assert abs(u) < 1e-9 and 0 < sd < 1  # as many wins as expected: no shift, surer than the prior
    up, sd_up = fit_shift(half, np.array([True] * 8 + [False] * 2))
    assert 0 < up < np.log(8 / 2)  # towards the results, held back by the prior
    more, sd_more = fit_shift(np.full(40, 0.5), np.array([True] * 32 + [False] * 8))
    assert up < more < np.log(8 / 2) and sd_more < sd_up  # more games: nearer the data, surer
    assert fit_shift(half, np.array([True] * 8 + [False] * 2)) == (up, sd_up)  # deterministic
    # the interval: a single rung and no doubt about the shift is a point; doubt widens it
    rates = FixedLadder().rates
    one = np.eye(len(RUNGS))[2]
    p, lo, hi = Level(one, 1.0, 0.0, 0.0).expect(rates)
    assert p == pytest.approx(rates.rates[2]) and lo == pytest.approx(p) and hi == pytest.approx(p)
    p2, lo2, hi2 = Level(one, 1.0, 0.0, 0.8).expect(rates)
    assert p2 == pytest.approx(p) and lo2 < p - 0.05 and hi2 > p + 0.05
    p3, *_ = Level(one, 1.0, 1.0, 0.0).expect(rates)
    assert p3 > p  # a table that clears more than its rung expects more
    assert Level(one, 1.0, 1.0, 0.4).beyond == "more" and Level(one, 1.0, -1.0, 0.4).beyond == "fewer"
    assert Level(one, 1.0, 1.0, 0.6).beyond == "as"  # the shift's 95 % interval holds 0
    assert [Level(one, b, 0.0, 1.0).deal for b in (0.9, 0.5, 0.2)] == ["follows", "unsure", "less"]


def test_brier_and_the_reliability_bins():
    pairs = [(0.05, False), (0.15, True), (0.12, False), (0.95, True), (0.91, True), (1.0, True)]
    assert brier(pairs) == pytest.approx(sum((p - y) ** 2 for p, y in pairs) / 6)
    assert brier([]) is None
    bins = reliability(pairs)
    assert [b["games"] for b in bins] == [1, 2, 3]  # 1.0 falls in the last bin
    assert bins[1]["observed"] == 0.5 and bins[1]["predicted"] == pytest.approx(0.135)
    assert all(b["ci95"][0] <= b["observed"] <= b["ci95"][1] for b in bins)


def test_the_joint_fit_starts_from_the_ladder_and_hears_the_games():
    tables = np.array([0, 0, 1, 1, 0, 1])
    missions = np.array([0, 0, 0, 0, 1, 1])
    prior = np.array([0.5, 0.5, 0.5, 0.5, 0.5, 0.5])
    won = np.array([False] * 4 + [True, True])  # mission 0 always lost, mission 1 always cleared
    _, d, p = joint_fit(tables, missions, prior, won, 2, 2)
    assert d[0] > 0 > d[1]  # mission 0 is harder than the ladder said, mission 1 easier
    assert 0 < p[0] < 0.5 < p[4] < 1  # pulled from the ladder towards the results, not all the way
    again = joint_fit(tables, missions, prior, won, 2, 2)
    assert np.array_equal(again[2], p)  # deterministic
    # as many wins as the ladder expects: nothing to learn
    _, d, p = joint_fit(np.array([0, 0]), np.array([0, 0]), np.array([0.5, 0.5]), np.array([True, False]), 1, 1)
    assert abs(d[0]) < 1e-9 and p == pytest.approx([0.5, 0.5])


def named(names: dict, end=True):
    return SimpleNamespace(names=names, end={"result": "cleared"} if end else None)


def test_tables_are_found_by_folder_and_by_names(tmp_path):
    thursday = tmp_path / "thursday"
    thursday.mkdir()
    for k in range(3):
        (thursday / f"g{k}.jsonl").write_text("x")
    (thursday / "my-copy.toml").write_text("x")  # a catalog beside the sheets: not a game
    mixed = tmp_path / "club"
    mixed.mkdir()
    for k in range(4):
        (mixed / f"g{k}.txt").write_text("x")
    loose = tmp_path / "one.jsonl"
    loose.write_text("x")
    logs = {"g0.txt": named({0: "Ann", 1: "Ben"}), "g1.txt": named({0: "ben", 1: "ann"}),
            "g2.txt": named({0: "Cy", 1: "Dee"}), "g3.txt": named({0: "Cy", 1: "Dee"}, end=False)}

    def read(p: Path):
        return logs.get(p.name) or named({})

    found, read_logs, notes = find_tables([str(thursday), str(mixed), str(loose)], read)
    assert [(name, len(paths)) for name, paths, _ in found] == [("thursday", 3), ("Ann, Ben", 2), ("Cy, Dee", 1),
                                                                ("one", 1)]
    assert len(read_logs) == 7 and len(notes) == 1 and "g3.txt" in notes[0]  # an unfinished game is left out
    found, _, _ = find_tables([str(thursday), str(thursday / "g0.jsonl")], read)
    assert [len(p) for _, p, _ in found] == [3]  # a file given twice counts once


def test_broken_inputs_are_exit_2_naming_the_file(tmp_path):
    table = tmp_path / "table"
    table.mkdir()
    bad = table / "game.jsonl"
    bad.write_text('{"event": "setup", "format": 2}\nnot json\n')
    res = run("calibrate", table)
    assert res.exit_code == 2 and "game.jsonl" in res.output and "Traceback" not in res.output
    res = run("calibrate", tmp_path / "nowhere")
    assert res.exit_code == 2 and "nowhere" in res.output
    empty = tmp_path / "empty"
    empty.mkdir()
    res = run("calibrate", empty, "--json")
    assert res.exit_code == 2 and json.loads(res.stdout)["error"]["file"] == str(empty)
    res = run("calibrate", table, "--target", "1.5")
    assert res.exit_code == 2


def bot_logs(folder: Path, mission: str, policy: str, games: int) -> None:
    folder.mkdir()
    for i in range(games):
        res = run("play", mission, "--policy", policy, "--seed", 3, "--game", i, "--log", folder / f"g{i}.jsonl")
        assert res.exit_code in (0, 1), res.output


@pytest.mark.slow
def test_calibrate_document_text_and_picture(tmp_path):
    from solver.analysis.calibrate import calibrate
    from solver.analysis.rate import measure, read_games

    bot_logs(tmp_path / "strong", "b07", "planner", 3)
    bot_logs(tmp_path / "weak", "b07", "greedy", 3)
    png = tmp_path / "rel.png"
    res = run("calibrate", tmp_path / "strong", tmp_path / "weak", "--plays", 2, "--workers", 1, "--json",
              "--png", png)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert set(doc) >= {"tables", "calibration", "missions"}
    for t in doc["tables"]:
        assert set(t) >= {"table", "games", "cleared", "best", "plausible", "next"}
        assert set(t["best"]) == {"policy", "samples"} and t["best"] in t["plausible"]
        for e in t["next"]:
            assert set(e) >= {"mission", "players", "predicted", "ci95"}
    assert [t["table"] for t in doc["tables"]] == ["strong", "weak"]
    assert doc["tables"][0]["cleared"] == 3 and doc["tables"][1]["cleared"] == 0
    c = doc["calibration"]
    assert c["games"] == 6 and c["method"] == "leave-one-out" and c["brier"] < c["brier_baseline"]
    assert sum(b["games"] for b in c["bins"]) == 6
    for b in c["bins"]:
        assert set(b) >= {"predicted", "observed", "games"}
    (m,) = doc["missions"]
    assert (m["mission"], m["players"], m["games"], m["tables"], m["observed"]) == ("b07", 2, 6, 2, 0.5)
    assert 0 < m["learned"] < 1
    strong, weak = (t["predictions"] for t in doc["tables"])
    assert min(e["predicted"] for e in strong) > max(e["predicted"] for e in weak)
    assert png.stat().st_size > 5000
    # the same numbers on two workers; each table's replays are those `rate` makes of its logs alone
    games = [read_games(sorted(str(p) for p in (tmp_path / n).glob("*.jsonl")), None) for n in ("strong", "weak")]
    two = calibrate([Table("strong", games[0]), Table("weak", games[1])], 2, 1, 2)
    assert two["tables"][1]["predictions"] == doc["tables"][1]["predictions"]
    assert two["calibration"] == c and two["missions"] == doc["missions"]
    alone = measure(games[1], 2, 1, 1)
    level = level_of(games[1], alone, Ladder(1, 1))
    assert [round(float(w), 4) for w in level.weights] == list(doc["tables"][1]["weights"].values())
    assert doc["tables"][1]["level"] == level.document()
    # its place on the ladder is `rate`'s, from the same replays
    j = judge(games[1], alone)
    assert doc["tables"][1]["best"]["policy"] == RUNGS[j["best_index"]][0]
    text = run("calibrate", tmp_path / "strong", tmp_path / "weak", "--plays", 2, "--workers", 1)
    assert text.exit_code == 0 and "table strong" in text.output and "Brier" in text.output
