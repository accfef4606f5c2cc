"""The commands with kernels built as users get them: only the kernels Python calls carry the
wrappers that make them callable from Python (runtime/jit.py ``entry``), and the others are kept as
IR linked into those (runtime/linkonly.py). The other tests build every kernel with wrappers and
as Numba finishes it (tests/conftest.py), so this one runs the engine's paths in a subprocess
built the users' way: a kernel called from Python but not marked ``entry`` fails here, and every
number must equal the one the tests' build gives."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

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
