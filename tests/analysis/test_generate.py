"""`kakapo generate`: valid, solvable missions in the band, reproducible, never overwriting."""

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.analysis.generate import board_key, known_missions
from solver.cli import main
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.io.missionwrite import mission_toml
from solver.puzzle.cpsat import solve
from tests.helpers.paths import ROOT

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
    # the same command again makes a new mission: another board (up to symmetry), name and story
    m2 = load_mission(doc2["file"], catalog)
    assert board_key(m2) != board_key(m) and m2.name != m.name and m2.story != m.story
    assert all(board_key(m2) != board_key(k) for k in known_missions(tmp_path / "nowhere", catalog))  # campaign too
    # and the seed still decides: into a folder of its own, the first mission again
    fresh = run("generate", "--mode", "party", "--band", "0.35-0.75", "--count", 1, "--seed", 1, "--out",
                tmp_path / "fresh", "--json")
    (doc3,) = json.loads(fresh.output)
    assert Path(doc3["file"]).read_text().split("\n", 1)[1] == first.split("\n", 1)[1]


def test_board_key_is_the_same_for_the_eight_symmetries(catalog):
    from solver.core.board import SIZE, cell, col_of, row_of
    from solver.core.rules import Bird

    m = load_mission(ROOT / "missions/buddy/b07.toml", catalog)
    n = SIZE - 1
    turn = lambda c: cell(col_of(c), n - row_of(c))  # noqa: E731
    mirror = lambda c: cell(row_of(c), n - col_of(c))  # noqa: E731
    for f in (turn, mirror, lambda c: turn(turn(c)), lambda c: mirror(turn(c))):
        moved = replace(m, birds=tuple(Bird(b.letter, frozenset(map(f, b.cells))) for b in m.birds),
                        marks=tuple((f(c), col) for c, col in m.marks),
                        placed=tuple(replace(p, cells=frozenset(map(f, p.cells))) for p in m.placed))
        assert board_key(moved) == board_key(m)
    other = load_mission(ROOT / "missions/buddy/b08.toml", catalog)
    assert board_key(other) != board_key(m)


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
