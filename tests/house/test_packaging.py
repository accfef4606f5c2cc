"""A non-editable install (what pip, pipx or a wheel does) finds the bundled catalog and missions
from any working directory (docs/reference.md, "Commands in common")."""

import json
import os
import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT

pytestmark = pytest.mark.slow  # the full suite only (CI runs it)


def test_non_editable_install_runs_from_elsewhere(tmp_path):
    target = tmp_path / "site"
    build = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                            "--target", str(target), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-2000:]
    installed = target / "solver" / "missions"
    assert (installed / "pieces.toml").is_file() and len(list(installed.glob("*/*.toml"))) >= 40
    assert (installed / "difficulty.json").is_file()  # the campaign's measured ladder: validate and ladder read it
    assert (target / "solver" / "py.typed").is_file()
    assert not (target / "cli.py").exists(), "the wheel installs a generic top-level cli module"
    assert sorted(p.name for p in target.glob("*.py")) == []
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, PYTHONPATH=str(target))  # the installed copy first, not this checkout
    code = ("import sys, solver; assert solver.__file__.startswith(sys.argv[1]), solver.__file__; "
            "sys.argv = ['kakapo', 'solve', sys.argv[2], '--json']; from solver.cli import main; main()")
    r = subprocess.run([sys.executable, "-c", code, str(target), str(installed / "buddy" / "b01.toml")],
                       cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout)["status"] == "solvable"
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from solver.io.difficulty import campaign_difficulty; "
            "assert len(campaign_difficulty()) == 60, 'the installed table does not match the installed missions'")
    r = subprocess.run([sys.executable, "-c", code, str(target)], cwd=elsewhere, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
