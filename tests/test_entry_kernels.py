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

from tests.cli_batch import run_here
from tests.conftest import ROOT
from tests.test_numba_cache import cache_folder, run_with_cache

pytestmark = pytest.mark.slow  # it compiles the users' kernels (half a minute with an empty cache)

TIMING = ("seconds", "games_per_second", "workers", "cpu_seconds", "elapsed")


# every engine path a command takes, each command run in one process per build (the kernels a
# command shares with the ones before are typed once, as in a studio that runs many jobs)
COMMANDS = [
    *(["simulate", "b19", "--games", "300", "--policy", p, "--workers", "1", "--json"]
      for p in ("heuristic", "planner", "greedy", "random")),
    ["simulate", "b19", "--games", "6", "--policy", "search", "--samples", "2", "--workers", "1", "--json"],
    # the Python engine's search player (new_search_memory_py, search_decide_py, new_state_py)
    ["play", "b19", "--policy", "search", "--samples", "2", "--log", "{folder}/game.jsonl"],
    # review (reset_memory_py, search_play_on) and rate (table_play_on_py) of that game
    ["review", "{folder}/game.jsonl", "--samples", "1", "--playouts", "2", "--time-limit", "1", "--json"],
    ["rate", "{folder}/game.jsonl", "--plays", "1", "--json"],
    ["ceiling", "b20", "--games", "6", "--workers", "1", "--json"],
    ["play", "b20", "--policy", "open-hand", "--game", "3"],
]

def run_commands(folder, users: bool) -> list:
    """The commands' results with the users' build (a process of their own, from an environment
    without the tests' switch), or the tests' (here: the kernels this test process shares with
    the other tests, compiled once)."""
    folder.mkdir()
    if not users:
        return run_here(COMMANDS, str(folder))
    env = dict(os.environ)
    env.pop("KAKAPO_KERNEL_WRAPPERS", None)
    batch = [sys.executable, str(ROOT / "tests/cli_batch.py"), str(ROOT), json.dumps(COMMANDS), str(folder)]
    r = subprocess.run(batch, env=env, cwd=folder, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def strip(doc):
    return {k: v for k, v in doc.items() if k not in TIMING} if isinstance(doc, dict) else doc


def test_every_engine_path_runs_with_the_users_kernels(tmp_path):
    users, tests = run_commands(tmp_path / "users", True), run_commands(tmp_path / "tests", False)
    for args, (code, out, error), (code_t, out_t, _) in zip(COMMANDS, users, tests, strict=True):
        assert error is None and code in (0, 1), (args, error, out[-2000:])
        assert code == code_t, args
        if "--json" in args:
            assert strip(json.loads(out)) == strip(json.loads(out_t)), args
    assert json.loads(users[0][1])["games"] == 300
    assert (tmp_path / "users/game.jsonl").read_text() == (tmp_path / "tests/game.jsonl").read_text()
    assert json.loads(users[COMMANDS.index(["ceiling", "b20", "--games", "6", "--workers", "1", "--json"])][1])[
        "clearable"] >= 1
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
