"""`kakapo rate LOG...` (as docs/reference.md and docs/rate.md say): its document, the mixed-table kernel
against the reference engine, the seats it rates, broken inputs, and a table of known strength placed on the
ladder."""

from __future__ import annotations

import json

import pytest

from solver.analysis.ladder import RUNGS
from solver.io.missionfile import load_mission
from solver.io.paths import bundled_mission
from tests.helpers.commands import bot_logs, run


@pytest.mark.slow
def test_rate_document_and_picture(tmp_path):
    logs = bot_logs(tmp_path, "b05", "planner", 3)
    png = tmp_path / "rate.png"
    res = run("rate", *logs, "--plays", 3, "--workers", 1, "--mission", "b06", "--json", "--png", png)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["games"] == 3 and doc["seats"] == [0, 1]  # no human seat: every seat
    assert [(r["policy"], r["samples"]) for r in doc["rungs"]] == list(RUNGS)
    for r in doc["rungs"]:
        assert r["log_likelihood"] <= 0 and 0 <= r["agreement"] <= 1 and 0 <= r["expected_clears"] <= 3
    planner = next(r for r in doc["rungs"] if r["policy"] == "planner")
    assert planner["agreement"] == 1.0  # the planner decides without its stream: it agrees with itself
    best = doc["best"]
    assert best in doc["plausible"] and (best["policy"], best["samples"]) in RUNGS
    top = max(r["log_likelihood"] for r in doc["rungs"])
    for r in doc["rungs"]:  # plausible: within the likelihood ratio's bound of the best
        inside = {"policy": r["policy"], "samples": r["samples"]} in doc["plausible"]
        assert inside == (top - r["log_likelihood"] <= 1.92)
    (p,) = doc["predictions"]
    assert p["mission"] == "b06" and p["players"] == 2 and p["ci95"][0] <= p["clear_rate"] <= p["ci95"][1]
    assert png.stat().st_size > 5000
    text = run("rate", *logs, "--plays", 3, "--workers", 1)
    assert text.exit_code == 0 and "<- best" in text.output
    (tmp_path / ".kakapo-replays").unlink()  # the replays kept beside the logs: made again here, on two workers
    two = json.loads(run("rate", *logs, "--plays", 3, "--workers", 2, "--json").output)
    assert two["rungs"] == doc["rungs"]  # the same numbers whatever the workers


def test_the_rated_seats_default_to_the_people(tmp_path, catalog):
    from solver.io.loginputs import catalog_text
    from solver.play.tablegame import TableGame, TableSetup
    from solver.play.thinker import play_here

    m = load_mission(bundled_mission("b05"), catalog)
    setup = TableSetup("g1", m.id, m.name, m.source, catalog_text(catalog), 2, (1,), "heuristic", None, 3, 0, True)
    g = play_here(TableGame(setup), lambda q: 1)
    log = tmp_path / "g1.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in g.log()))
    res = run("rate", log, "--plays", 2, "--workers", 1, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["seats"] == [1]
    res = run("rate", log, "--plays", 2, "--workers", 1, "--json", "--seat", "0")
    assert json.loads(res.output)["seats"] == [0]


def test_broken_inputs_are_exit_2_naming_the_file_and_line(tmp_path):
    (log,) = bot_logs(tmp_path, "b05", "heuristic", 1)
    lines = log.read_text().splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n{not json\n")
    res = run("rate", broken)
    assert res.exit_code == 2 and "broken.jsonl" in res.output and "line 2" in res.output
    assert "Traceback" not in res.output
    res = run("rate", log, "--seat", "5")
    assert res.exit_code == 2 and "seat 5" in res.output
    res = run("rate", log, "--seat", "x")
    assert res.exit_code == 2
    res = run("rate", log, "--mission", "zz99")
    assert res.exit_code == 2 and "zz99" in res.output
    res = run("rate", tmp_path / "missing.jsonl")
    assert res.exit_code == 2


@pytest.mark.slow
def test_a_naive_table_is_told_from_a_careful_one(tmp_path):
    """Greedy bots' games on b10 place the table at greedy, and rule the planner out (6 games of 3
    replays: greedy's log-likelihood about -1, every other rung's below -10)."""
    logs = bot_logs(tmp_path, "b10", "greedy", 6)
    res = run("rate", *logs, "--plays", 3, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["best"] == {"policy": "greedy", "samples": None}
    assert {"policy": "planner", "samples": None} not in doc["plausible"]
