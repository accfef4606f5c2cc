"""Compile (or load) the package's kernels once, before any test runs: every engine path the
commands take (each policy, the search player, play, review, rate, the ceiling, open hands,
chance), on small work. tests/conftest.py runs it at the start of a session in two processes at
once, one for the tests' build of the kernels and one for the users' (runtime/jit.py), so that
the tests load kernels from the cache instead of compiling the same ones in several processes.
With a warm cache it only loads them (a few seconds)."""

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def warm() -> None:
    from click.testing import CliRunner

    from solver.cli import main

    def run(*args) -> None:
        res = CliRunner().invoke(main, [str(a) for a in args])
        if res.exit_code not in (0, 1):
            raise SystemExit(f"warming the kernels: kakapo {' '.join(map(str, args))} exited {res.exit_code}\n"
                             f"{res.output[-2000:]}")

    with tempfile.TemporaryDirectory() as tmp:
        for policy in ("heuristic", "planner", "greedy", "random"):
            run("simulate", "b19", "--games", 4, "--policy", policy, "--workers", 1, "--json")
        run("simulate", "b19", "--games", 2, "--policy", "search", "--samples", 2, "--workers", 1, "--json")
        log = Path(tmp) / "game.jsonl"
        run("play", "b19", "--policy", "search", "--samples", 2, "--log", log)
        run("review", log, "--samples", 1, "--playouts", 2, "--time-limit", 1, "--workers", 1, "--json")
        run("rate", log, "--plays", 1, "--workers", 1, "--json")
        run("ceiling", "b20", "--games", 6, "--workers", 1, "--json")
        run("play", "b20", "--policy", "open-hand", "--game", 3)
        run("chance", "b19", "--games", 2, "--json")


if __name__ == "__main__":
    warm()
