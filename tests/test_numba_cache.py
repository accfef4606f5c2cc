"""A missing or damaged Numba cache costs a compile, never a failure (issue: compile once, cache safely)."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.analysis.simulate import play_games
cat = load_catalog()
m = load_mission({mission!r}, cat)
out = play_games(m, cat, 2, 200, 3, "heuristic", "numba", 1)
print(json.dumps([int(x) for x in out.traces[:20]] + [int((out.results == 0).sum())]))
"""


def run_with_cache(cache: Path, stderr: list | None = None) -> list:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), KAKAPO_NOTICES="1")
    env.pop("KAKAPO_COMPILE_NOTICE_SHOWN", None)
    code = SCRIPT.format(root=str(ROOT), mission=str(ROOT / "tests/missions/buddy/b02.toml"))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    if stderr is not None:
        stderr.append(r.stderr)
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_missing_then_damaged_cache_is_harmless(tmp_path):
    said: list = []
    first = run_with_cache(tmp_path, said)  # empty cache: compiles and writes it, and says so
    assert "compiling the simulator, once" in said[0]
    files = [p for p in tmp_path.rglob("*") if p.suffix in (".nbi", ".nbc")]
    assert files, "the engine wrote no cache"
    for p in files:
        p.write_bytes(b"garbage")
    assert run_with_cache(tmp_path) == first  # damaged cache: recompiles, same games
    assert run_with_cache(tmp_path, said) == first  # and the rewritten cache loads, quietly
    assert "compiling" not in said[1]


def test_cache_folder_follows_the_shared_codes(tmp_path):
    """Constants of other files (weights.py, core/) are compiled into the kernels: editing them must not
    reuse a cache."""
    import shutil

    show = "import os, sys; sys.path.insert(0, {root!r}); import solver.game.fast; print(os.environ['NUMBA_CACHE_DIR'])"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def folder(root):
        r = subprocess.run([sys.executable, "-c", show.format(root=str(root))], env=env, capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 0, r.stderr[-2000:]
        return Path(r.stdout.strip())

    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "solver", copy / "solver", ignore=shutil.ignore_patterns("__pycache__"))
    before = folder(copy)
    assert before.parent == tmp_path / "cache" and before.is_dir()
    weights = copy / "solver/game/weights.py"
    weights.write_text(weights.read_text().replace("SKILL_COST = 3", "SKILL_COST = 4"))
    second = folder(copy)
    assert second != before
    spec = copy / "solver/core/spec.py"
    spec.write_text(spec.read_text().replace("MAX_SKILLS = 40", "MAX_SKILLS = 41"))
    assert folder(copy) not in (before, second)
