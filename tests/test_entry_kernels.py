"""The commands with kernels built as users get them: only the kernels Python calls carry the
wrappers that make them callable from Python (runtime/jit.py ``entry``), and the others are kept as
IR linked into those (runtime/linkonly.py). The other tests build every kernel with wrappers and
as Numba finishes it (tests/conftest.py), so this one runs the engine's paths in a subprocess
built the users' way: a kernel called from Python but not marked ``entry`` fails here, and every
number must equal the one the tests' build gives."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.test_numba_cache import cache_folder, run_with_cache

pytestmark = pytest.mark.slow  # it compiles the users' kernels (half a minute with an empty cache)

TIMING = ("seconds", "games_per_second", "workers", "cpu_seconds", "elapsed")


def kakapo(*args, tmp_path, users=True):
    env = dict(os.environ)
    if users:
        env.pop("KAKAPO_KERNEL_WRAPPERS", None)
    r = subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], env=env, cwd=tmp_path,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode in (0, 1), r.stderr[-3000:]
    assert "Traceback" not in r.stderr
    return r.stdout


def both(*args, tmp_path):
    """The JSON a command prints with the users' kernels, checked equal to the tests' build's."""
    users, tests = (json.loads(kakapo(*args, "--json", tmp_path=tmp_path, users=u)) for u in (True, False))
    strip = lambda d: {k: v for k, v in d.items() if k not in TIMING} if isinstance(d, dict) else d  # noqa: E731
    assert strip(users) == strip(tests), args
    return users


def test_every_engine_path_runs_with_the_users_kernels(tmp_path):
    for policy in ("heuristic", "planner", "greedy", "random"):
        assert both("simulate", "b19", "--games", 300, "--policy", policy, "--workers", 1,
                    tmp_path=tmp_path)["games"] == 300
    both("simulate", "b19", "--games", 6, "--policy", "search", "--samples", 2, "--workers", 1, tmp_path=tmp_path)
    # the Python engine's search player (new_search_memory_py, search_decide_py, new_state_py)
    for users, name in ((True, "users.jsonl"), (False, "tests.jsonl")):
        kakapo("play", "b19", "--policy", "search", "--samples", 2, "--log", name, tmp_path=tmp_path, users=users)
    assert (tmp_path / "users.jsonl").read_text() == (tmp_path / "tests.jsonl").read_text()
    # review (reset_memory_py, search_play_on) and rate (table_play_on_py) of that game
    both("review", "users.jsonl", "--samples", 1, "--playouts", 2, "--time-limit", 1, tmp_path=tmp_path)
    both("rate", "users.jsonl", "--plays", 1, tmp_path=tmp_path)
    assert "clearable" in kakapo("ceiling", "b20", "--games", 6, "--workers", 1, tmp_path=tmp_path)
    kakapo("play", "b20", "--policy", "open-hand", "--game", 3, tmp_path=tmp_path)
    damaged_users_cache_is_harmless(tmp_path / "cache")


def damaged_users_cache_is_harmless(root):
    """The users' build caches only the kernels Python calls, each holding its callees: in a copy
    of the cache the runs above wrote, the engine's top kernel turned to garbage is compiled again,
    with the same games, and the next run loads it quietly (a copy, so that the compile it costs
    here is the top kernel's alone, not the whole build's)."""
    shared = cache_folder(None, users=True)
    copy = root / shared.name
    shutil.copytree(shared, copy)
    first = run_with_cache(root, users=True)  # loads
    damaged = [p for p in copy.rglob("*") if p.suffix in (".nbi", ".nbc") and ".play_many-" in p.name]
    assert damaged, "the engine wrote no cache"
    assert not any(".usefulness-" in p.name for p in copy.rglob("*")), "a link-only kernel was cached"
    for p in damaged:
        p.write_bytes(b"garbage")
    assert run_with_cache(root, users=True) == first
    said: list = []
    assert run_with_cache(root, said, users=True) == first
    assert "compiling" not in said[0]
