"""Every command of the group (``cli/group.py``'s COMMANDS): its --help shows an example that names
the command, and it runs: a small real request each (the cheapest that does its work; the two whose
work cannot be small, `generate` and `studio`, as far as their first refusal)."""

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.cli.group import COMMANDS
from tests.helpers.paths import ROOT

B01 = str(ROOT / "tests/missions/buddy/b01.toml")


def test_every_command_is_checked():
    listed = main.list_commands(None)
    assert set(listed) == set(COMMANDS) == set(RUNS)
    assert all(main.get_command(None, name) is not None for name in listed)  # each module adds its commands


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_has_an_example(command):
    res = CliRunner().invoke(main, [command, "--help"])
    assert res.exit_code == 0
    lines = [ln.strip() for ln in res.output.splitlines()]
    assert any(ln.startswith(f"Example: kakapo {command} ") for ln in lines), res.output


def said(*words):
    return lambda out, folder: all(w in out for w in words)


def doc(check):
    return lambda out, folder: check(json.loads(out))


# each command: its arguments (LOG: a finished game's log, OUT: a fresh folder, DIR: a folder of
# missions), the exit codes it may end with, and what its answer must show
RUNS = {
    "solve": (["b01", "--json"], (0,), doc(lambda d: d["status"] == "solvable" and d["pieces_used"] >= 1)),
    "show": (["b01"], (0,), said("(b01)", "bird")),
    "pieces": (["--json"], (0,), doc(lambda d: len(d) == 40 and {"piece", "cells", "shape"} <= set(d[0]))),
    "list": (["--json"], (0,), doc(lambda d: {"b01", "p20"} <= {r["id"] for r in d["missions"]})),
    "play": (["b01", "--seed", "2"], (0, 1), said("player 0 holds", "round")),
    "review": (["LOG", "--samples", "0", "--playouts", "1", "--workers", "1", "--json"], (0,),
               doc(lambda d: d["mission"] == "b01" and d["decisions"])),
    "rate": (["LOG", "--plays", "1", "--workers", "1", "--json"], (0,), doc(lambda d: d["games"] == 1 and d["best"])),
    "record": (["--sheet-of", "LOG"], (0,), said("b01")),
    "simulate": (["b01", "--games", "20", "--workers", "1", "--json"], (0,), doc(lambda d: d["games"] == 20)),
    "chance": (["b01", "--games", "2", "--json"], (0,), doc(lambda d: d["games"] == 2 and 0 <= d["clear_rate"] <= 1)),
    "ceiling": (["b01", "--games", "2", "--workers", "1", "--json"], (0,), doc(lambda d: d["clearable"] <= 2)),
    "ladder": (["b01", "--games", "1", "--workers", "1", "--json"], (0,), doc(lambda d: d["difficulty"]["name"])),
    "validate": ([B01, "--games", "0", "--json"], (0,), doc(lambda d: d["ok"] and d["files"][0]["valid"])),
    "generate": (["--mode", "buddy", "--band", "0.6-0.2", "--out", "OUT"], (2,), said("not a range of clear rates")),
    "report": ([B01, "--games", "5", "--workers", "1", "--time-limit", "5", "--out", "OUT"], (0,),
               lambda out, folder: "report.csv" in out and (folder / "report.csv").read_text().count("\n") == 2),
    "campaign": (["DIR", "--games", "1", "--workers", "1", "--out", "OUT", "--json"], (0,),
                 doc(lambda d: [r["mission"] for r in d["rows"]] == ["b01"])),
    "studio": (["--pieces", "OUT/none.toml"], (2,), said("none.toml")),
    "calibrate": (["LOG", "--plays", "1", "--workers", "1", "--json"], (0,),
                  doc(lambda d: [t["games"] for t in d["tables"]] == [1])),
    "print": (["b01", "--sheet", "--pdf", "OUT/b01.pdf"], (0,), said("1 game sheet(s)")),
    "pack": (["DIR", "--out", "OUT/b.kakapo"], (0,), said("1 mission(s)")),
    "unpack": (["PACK", "--out", "OUT"], (0,), said("b01.toml")),
}
SLOW = {"ladder", "report", "campaign", "calibrate"}  # every rung of a ladder, pandas, the fit: seconds each


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """A finished game's log, a folder with one mission, and that folder as a pack."""
    here = tmp_path_factory.mktemp("inputs")
    log, folder, pack = here / "g.jsonl", here / "missions", here / "m.kakapo"
    assert CliRunner().invoke(main, ["play", "b01", "--policy", "planner", "--log", str(log)]).exit_code in (0, 1)
    folder.mkdir()
    (folder / "b01.toml").write_text((ROOT / "tests/missions/buddy/b01.toml").read_text())
    assert CliRunner().invoke(main, ["pack", str(folder), "--out", str(pack)]).exit_code == 0
    return {"LOG": log, "DIR": folder, "PACK": pack}


@pytest.mark.parametrize("command", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW else c
                                     for c in sorted(COMMANDS)])
def test_every_command_runs_a_small_request(command, inputs, tmp_path):
    args, codes, shows = RUNS[command]
    out = tmp_path / "out"
    given = {**{k: str(v) for k, v in inputs.items()}, "OUT": str(out)}
    args = [given.get(a, a.replace("OUT/", f"{out}/")) for a in args]
    if any(a.startswith(f"{out}/") for a in args):
        out.mkdir()
    res = CliRunner().invoke(main, [command, *args])
    assert res.exit_code in codes, res.output
    assert shows(res.stdout if res.exit_code == 0 else res.output, out), res.output
