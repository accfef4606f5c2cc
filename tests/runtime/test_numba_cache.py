"""A missing or damaged Numba cache costs a compile, never a failure: compiled once, cached safely."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

pytestmark = pytest.mark.slow  # the full suite only (CI runs it)

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


def _script(cache: Path, log: Path | None = None) -> subprocess.Popen:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), KAKAPO_NOTICES="1")
    env.pop("KAKAPO_COMPILE_NOTICE_SHOWN", None)
    if log is not None:
        env["KAKAPO_COMPILE_LOG"] = str(log)
    code = SCRIPT.format(root=str(ROOT), mission=str(ROOT / "tests/missions/buddy/b02.toml"))
    return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _numbers(proc: subprocess.Popen, stderr: list | None = None) -> list:
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err[-2000:]
    if stderr is not None:
        stderr.append(err)
    return json.loads(out.strip().splitlines()[-1])


def run_with_cache(cache: Path, stderr: list | None = None) -> list:
    """The script's numbers with this cache root."""
    return _numbers(_script(cache), stderr)


def cache_folder(root: Path | None, package: Path = ROOT) -> Path:
    """The folder the package's kernels use under a NUMBA_CACHE_DIR of ``root`` (None: this
    session's, as the commands the tests run see it)."""
    show = "import os, sys; sys.path.insert(0, {p!r}); import solver.runtime.jit; print(os.environ['NUMBA_CACHE_DIR'])"
    env = dict(os.environ)
    if root is not None:
        env["NUMBA_CACHE_DIR"] = str(root)
    r = subprocess.run([sys.executable, "-c", show.format(p=str(package))], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return Path(r.stdout.strip())


def test_the_first_run_says_it_compiles_once(tmp_path):
    said: list = []
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), KAKAPO_NOTICES="1")
    env.pop("KAKAPO_COMPILE_NOTICE_SHOWN", None)
    code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); import solver.runtime.jit"
    for _ in range(2):
        said.append(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                   timeout=120).stderr)
        folder = cache_folder(tmp_path)
        (folder / "x").mkdir(exist_ok=True)
        (folder / "x" / "play.play_many-1.py311.nbi").write_bytes(b"")  # as if the engine had been compiled
    assert "compiling the simulator, once" in said[0] and "compiling" not in said[1]


def test_damaged_cache_is_harmless_and_compiled_by_one_process(tmp_path):
    """A copy of this session's cache with the engine's kernel turned to garbage: two runs started
    together play the same games, one compiling it and the other waiting to load what the first
    cached (runtime/jit.py); the next run loads it quietly. Only the kernels Python calls are
    cached (the others are IR linked into them: runtime/linkonly.py)."""
    from solver.analysis.simulate import play_games  # it sets this process's cache folder
    from solver.io.catalog import load_catalog
    from solver.io.missionfile import load_mission

    cat = load_catalog()  # the engine in this session's cache first (loaded, or compiled once for every test)
    play_games(load_mission(ROOT / "tests/missions/buddy/b02.toml", cat), cat, 2, 1, 3, "heuristic", "numba", 1)
    session = Path(os.environ["NUMBA_CACHE_DIR"])
    root = tmp_path / "cache"
    copy = cache_folder(root)
    if session.is_dir():
        shutil.rmtree(copy)
        shutil.copytree(session, copy)
    first = run_with_cache(root)  # a warm copy loads; an empty one compiles
    damaged = [p for p in copy.rglob("*") if p.suffix in (".nbi", ".nbc") and ".play_many-" in p.name]
    assert damaged, "the engine wrote no cache"
    assert not any(".usefulness-" in p.name for p in copy.rglob("*")), "a link-only kernel was cached"
    for p in damaged:
        p.write_bytes(b"garbage")
    log = tmp_path / "compiled.log"
    together = [_script(root, log), _script(root, log)]
    assert [_numbers(p) for p in together] == [first, first]  # damaged cache: compiled again, same games
    engine = [line.split()[2] for line in log.read_text().splitlines() if line.split()[1].endswith(".play_many")]
    assert sorted(engine) == ["compiled", "loaded"], log.read_text()
    said: list = []
    assert run_with_cache(root, said) == first  # and the rewritten cache loads, quietly
    assert "compiling" not in said[0]


def test_cache_folder_follows_the_shared_codes(tmp_path):
    """Constants of other files (weights.py, core/) are compiled into the kernels: editing them must not
    reuse a cache."""
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "solver", copy / "solver", ignore=shutil.ignore_patterns("__pycache__"))
    before = cache_folder(tmp_path / "cache", copy)
    assert before.parent == tmp_path / "cache" and before.is_dir()
    weights = copy / "solver/game/weights.py"
    weights.write_text(weights.read_text().replace("SKILL_COST = 3", "SKILL_COST = 4"))
    second = cache_folder(tmp_path / "cache", copy)
    assert second != before
    spec = copy / "solver/core/spec.py"
    spec.write_text(spec.read_text().replace("MAX_SKILLS = 40", "MAX_SKILLS = 41"))
    assert cache_folder(tmp_path / "cache", copy) not in (before, second)


def test_the_studios_warm_up_compiles_what_the_jobs_start_from_and_tells_its_progress(tmp_path):
    """The warm-up's parts (run side by side) leave every kernel a job starts from in the cache,
    and their progress ends at 1; a folder without them is not taken for a compiled one."""
    from solver.app.jobrunner import WARM_PARTS, warm_up
    from solver.io.catalog import load_catalog
    from solver.runtime.cachedir import JOB_KERNELS, kernels_cached

    told: list = []
    warm_up(load_catalog(), progress=told.append, workers=2)
    assert told == [k / (len(WARM_PARTS) + 1) for k in range(1, len(WARM_PARTS) + 2)]
    assert kernels_cached(JOB_KERNELS)
    assert not kernels_cached(JOB_KERNELS, tmp_path)
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "play.play_many-51.py311.nbi").write_bytes(b"")
    assert kernels_cached(("play_many",), tmp_path) and not kernels_cached(JOB_KERNELS, tmp_path)
