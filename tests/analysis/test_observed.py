"""The campaign hears from tables: a `kakapo calibrate --json` document given to `list --observed`
and `report --observed` puts each mission's difficulty as the tables found it (with the games and
tables it rests on) beside the ladder's, where it rests on enough games from several tables; a file
that is not one is exit 2 naming it."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

from solver.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def observed_doc(tmp_path):
    doc = {"tables": [], "calibration": {}, "missions": [
        {"mission": "b05", "players": 2, "games": 9, "tables": 3, "observed": 0.444, "learned": 0.41, "expected": 0.52},
        {"mission": "b06", "players": 2, "games": 4, "tables": 2, "observed": 0.5, "learned": 0.5, "expected": 0.6},
        {"mission": "p02", "players": 3, "games": 12, "tables": 1, "observed": 0.5, "learned": 0.5, "expected": 0.6}]}
    path = tmp_path / "observed.json"
    path.write_text(json.dumps(doc))
    return path


def test_list_shows_what_tables_observed_where_enough_games_say_it(tmp_path):
    path = observed_doc(tmp_path)
    res = run("list", "--observed", path, "--json")
    assert res.exit_code == 0, res.output
    rows = {r["id"]: r for r in json.loads(res.stdout)["missions"]}
    assert rows["b05"]["observed"]["2"] == {"games": 9, "tables": 3, "observed": 0.444, "learned": 0.41,
                                            "expected": 0.52}
    assert rows["b06"]["observed"]["2"] is None  # 4 games: too few
    assert rows["p02"]["observed"]["3"] is None  # one table: too few
    text = run("list", "--observed", path).output
    assert "tables, 2 players: cleared 44 % of 9 games (3 tables), learned 41 %; the ladder expected 52 %" in text
    assert "observed" not in json.loads(run("list", "--json").stdout)["missions"][0]


def test_a_file_that_is_not_a_calibration_is_exit_2_naming_it(tmp_path):
    bad = tmp_path / "nope.json"
    bad.write_text('{"tables": []}')
    res = run("list", "--observed", bad)
    assert res.exit_code == 2 and "nope.json" in res.output and "kakapo calibrate" in res.output
    res = run("report", "b05", "--observed", bad, "--games", "5", "--out", tmp_path / "r")
    assert res.exit_code == 2 and "nope.json" in res.output


@pytest.mark.slow
def test_the_report_puts_the_tables_beside_the_simulated_players(tmp_path):
    path = observed_doc(tmp_path)
    res = run("report", "b05", "b06", "--games", "10", "--out", tmp_path / "r", "--observed", path, "--workers", "1")
    assert res.exit_code == 0, res.output
    with open(tmp_path / "r" / "report.csv") as f:
        rows = {r["mission"]: r for r in csv.DictReader(f)}
    assert rows["b05"]["observed_games"] == "9" and rows["b05"]["observed_tables"] == "3"
    assert float(rows["b05"]["observed_learned"]) == 0.41 and rows["b06"]["observed_games"] == ""
    md = (tmp_path / "r" / "report.md").read_text()
    assert "tables (learned)" in md and "| 9 (3) |" in md and "41.0%" in md
