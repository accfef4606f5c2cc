"""`kakapo generate`: valid, solvable missions in the band, reproducible, never overwriting."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.io.missionwrite import mission_toml
from solver.puzzle.cpsat import solve
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # the full suite only (CI runs it)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_generate_writes_missions_in_the_band_and_never_overwrites(tmp_path):
    # seed 1 lands in the band after a few candidates (seed 4 takes six times as long)
    res = run("generate", "--mode", "party", "--band", "0.35-0.75", "--count", 1, "--seed", 1, "--out", tmp_path,
              "--json")
    assert res.exit_code == 0, res.output
    (doc,) = json.loads(res.output)
    assert set(doc) == {"file", "clear_rate", "ci95", "min_pieces"}
    assert 0.35 <= doc["clear_rate"] <= 0.75 and doc["ci95"][0] <= doc["clear_rate"] <= doc["ci95"][1]
    catalog = load_catalog()
    m = load_mission(doc["file"], catalog)  # the real parser accepts it
    best = solve(m, catalog)
    assert best.status == "solvable" and best.pieces_used == doc["min_pieces"] <= m.rounds + min(m.skills, m.rounds)
    # the rate is what `simulate` measures with the same seed and games
    sim = json.loads(run("simulate", doc["file"], "--games", 2000, "--seed", 1, "--players", 4, "--workers", 1,
                         "--json").output)
    assert sim["clear_rate"] == doc["clear_rate"]
    first = Path(doc["file"]).read_text()
    again = run("generate", "--mode", "party", "--band", "0.35-0.75", "--count", 1, "--seed", 1, "--out", tmp_path,
                "--json")
    (doc2,) = json.loads(again.output)
    assert doc2["file"] != doc["file"] and Path(doc["file"]).read_text() == first
    assert Path(doc2["file"]).read_text().split("\n", 1)[1] == first.split("\n", 1)[1]  # same seed, same mission


def test_generate_bad_band_and_players(tmp_path):
    for band in ("0.5", "0.6-0.4", "x-y", "0.2-1.5"):
        res = run("generate", "--mode", "buddy", "--band", band, "--out", tmp_path)
        assert res.exit_code == 2 and "--band" in res.output and "Traceback" not in res.output
    res = run("generate", "--mode", "buddy", "--band", "0.2-0.4", "--players", 3, "--out", tmp_path)
    assert res.exit_code == 2 and "--players" in res.output


def test_written_missions_read_back_unchanged(tmp_path):
    catalog = load_catalog()
    for path in sorted(ROOT.glob("missions/*/*.toml")):
        m = load_mission(path, catalog)
        copy = tmp_path / path.name
        copy.write_text(mission_toml(m))
        assert load_mission(copy, catalog) == m
