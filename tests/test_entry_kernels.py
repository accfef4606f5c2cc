"""The commands with kernels built as users get them: only the kernels Python calls carry the
wrappers that make them callable from Python (runtime/jit.py ``entry``). The other tests build every
kernel with wrappers (tests/conftest.py), so this one runs the engine's paths in a subprocess
without them: a kernel called from Python but not marked ``entry`` fails here."""

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # it compiles the users' kernels (half a minute with an empty cache)


def kakapo(*args, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "KAKAPO_KERNEL_WRAPPERS"}
    r = subprocess.run([sys.executable, str(ROOT / "cli.py"), *map(str, args)], env=env, cwd=tmp_path,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode in (0, 1), r.stderr[-3000:]
    assert "Traceback" not in r.stderr
    return r.stdout


def test_every_engine_path_runs_with_the_users_kernels(tmp_path):
    b01 = ROOT / "tests/missions/buddy/b01.toml"
    for policy in ("heuristic", "planner", "greedy", "random"):
        assert "games/s" in kakapo("simulate", b01, "--games", 50, "--policy", policy, "--workers", 1,
                                   tmp_path=tmp_path)
    assert "search (1 samples)" in kakapo("simulate", b01, "--games", 4, "--policy", "search", "--samples", 1,
                                          "--workers", 1, tmp_path=tmp_path)
    assert "CLEARED" in kakapo("play", b01, "--policy", "search", "--samples", 1, tmp_path=tmp_path)
    assert "clearable" in kakapo("ceiling", "b20", "--games", 6, "--workers", 1, tmp_path=tmp_path)
    kakapo("play", "b20", "--policy", "open-hand", "--game", 3, tmp_path=tmp_path)
