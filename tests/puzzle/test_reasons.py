"""`solve` says why a mission is unsolvable: proven reasons, the most specific first (docs/reference.md,
`kakapo solve`)."""

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from tests.helpers.missiontext import board_text, mission_text
from tests.helpers.paths import ROOT


def reasons_of(*args):
    res = CliRunner().invoke(main, ["solve", *[str(a) for a in args], "--json"])
    assert res.exit_code == 1, res.output
    doc = json.loads(res.output)
    assert doc["status"] == "unsolvable" and doc["reasons"]
    for r in doc["reasons"]:
        assert set(r) == {"code", "birds", "cells", "message"} and r["message"]
    return doc["reasons"]


def test_bird_on_the_edge_and_too_few_birds(write):
    rs = reasons_of(write("edge.toml", mission_text(board_text({1: "....A......."}))))
    assert rs[0]["code"] == "bird_on_edge" and rs[0]["birds"] == ["A"]
    assert rs[-1]["code"] == "too_few_birds"


def test_spoiled_side_names_the_cell(write):
    extra = '\n[[placed]]\npiece = "red-1"\ncells = ["f6"]\n'
    rs = reasons_of(write("spoiled.toml", mission_text(board_text({6: ".....bA....."}), extra=extra)))
    assert rs[0]["code"] == "side_spoiled" and rs[0]["birds"] == ["A"] and rs[0]["cells"] == ["f6"]


def test_out_of_the_game_with_three_players_names_purple_1(write):
    path = write("purple.toml", mission_text(board_text({6: ".....pA....."}), mode="party"))
    others = ",".join(f"purple-{v}" for v in range(2, 9))
    rs = reasons_of(path, "--players", 3, "--exclude", others)
    assert rs[0]["code"] == "side_uncoverable" and rs[0]["cells"] == ["f6"]
    assert "purple-1 is out of the game with 3 players" in rs[0]["message"]
    assert "purple-2 is excluded" in rs[0]["message"]


def test_piece_budget_of_the_rounds(write):
    path = write("short.toml", mission_text(board_text({6: ".....A......"}), extra="rounds = 1\nskills = 0\n"))
    (r,) = reasons_of(path)
    assert r["code"] == "piece_budget" and "1 rounds" in r["message"]
    res = CliRunner().invoke(main, ["solve", str(path)])
    assert "why: it needs at least" in res.output


@pytest.mark.slow
def test_minimal_set_of_birds_that_conflict():
    (r,) = reasons_of(ROOT / "tests/golden/unsolvable/one_yellow_left.toml")
    assert r["code"] == "birds_conflict" and r["birds"] == ["A", "B"]


def test_no_reasons_when_solvable():
    res = CliRunner().invoke(main, ["solve", str(ROOT / "tests/missions/buddy/b01.toml"), "--json"])
    assert res.exit_code == 0 and "reasons" not in json.loads(res.output)


def test_png_of_an_unsolvable_mission_marks_the_culprits(tmp_path, monkeypatch):
    import solver.view.plot

    seen = {}
    real = solver.view.plot.save_png

    def spy(*a, **k):
        seen.update(k)
        return real(*a, **k)

    monkeypatch.setattr(solver.view.plot, "save_png", spy)
    png = tmp_path / "why.png"
    res = CliRunner().invoke(main, ["solve", str(ROOT / "tests/golden/unsolvable/one_yellow_left.toml"), "--png",
                                    str(png)])
    assert res.exit_code == 1 and png.stat().st_size > 1000
    assert sorted(seen["culprit_birds"]) == ["A", "B"]


@pytest.mark.slow
def test_validate_gives_the_same_reasons():
    res = CliRunner().invoke(main, ["validate", str(ROOT / "tests/golden/unsolvable/one_yellow_left.toml"),
                                    "--games", "0", "--json"])
    assert res.exit_code == 1
    (doc,) = json.loads(res.output)["files"]
    assert doc["status"] == "unsolvable" and doc["reasons"][0]["birds"] == ["A", "B"]
