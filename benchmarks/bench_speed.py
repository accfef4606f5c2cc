"""Engine speed on every campaign row: games per CPU second of each one-step policy (Numba engine,
one process, compilation and the planner's library excluded) and the ratio of its cost to a
random game's on the same row in the same run, so that figures from two machines compare; and the
first runs of `kakapo simulate` and `kakapo solve` with an empty kernel cache. Usage:

    python benchmarks/bench_speed.py [--games 4000] [--rows b05/2,p20/4] [--policies heuristic,planner]
                                     [--first-run] [--out speed.json]

Targets (issue 16): heuristic >= 10,000 games per CPU second on every row and <= 3 times a random
game; planner >= 5,000; the first `kakapo simulate ... --games 100` <= 15 CPU s (issue 30).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_ladder import campaign_rows  # noqa: E402

POLICIES = ("random", "greedy", "heuristic", "planner")


def measure_row(mid: str, players: int, games: int, policies, repeats: int) -> dict:
    from solver.core.spec import GameSpec
    from solver.game import fast
    from solver.game.arrays import build_arrays
    from solver.game.fast.state import spec_array
    from solver.game.planner import planner_library
    from solver.game.seeds import game_seeds
    from solver.io.catalog import load_catalog
    from solver.io.missionfile import load_mission
    from solver.io.paths import bundled_mission

    cat = load_catalog()
    m = load_mission(bundled_mission(mid), cat)
    tables = build_arrays(m, cat, planner_library(m, cat))
    spec = spec_array(GameSpec.of(m, players))
    seeds = game_seeds(1, 0, games)
    out = {"mission": mid, "players": players, "games": games}
    for policy in ("random", *policies):
        fast.run(tables, spec, seeds[:2], policy, 0)
        best = None
        for _ in range(repeats):
            t = time.process_time()
            fast.run(tables, spec, seeds, policy, 0)
            dt = time.process_time() - t
            best = dt if best is None else min(best, dt)
        out[policy] = games / best
    return out


FIRST_RUN = ["simulate", "b01", "--games", "100", "--workers", "1"]
FIRST_SOLVE = ["solve", "b01"]


def first_run(args: list[str]) -> tuple[float, float, float, float]:
    """`kakapo ARGS` with an empty kernel cache, then again: (CPU s, wall s) of each run; CPU
    seconds are the child's user + system time, the figure issue 30 sets at most 15."""
    out: list[float] = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for _ in range(2):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], env=env, check=True, capture_output=True)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            out += [after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall]
    return out[0], out[1], out[2], out[3]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=2, help="best of this many runs a policy and row")
    ap.add_argument("--rows", default="")
    ap.add_argument("--policies", default="greedy,heuristic,planner")
    ap.add_argument("--first-run", action="store_true", help="also time a first run with an empty kernel cache")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    rows = campaign_rows()
    if args.rows:
        wanted = {(r.split("/")[0], int(r.split("/")[1])) for r in args.rows.split(",")}
        rows = [r for r in rows if r in wanted]
    policies = [p for p in args.policies.split(",") if p]
    head = " | ".join(f"{p} g/s | {p} / random" for p in policies)
    print(f"| row | random g/s | {head} |")
    print("|---|---|" + "---|---|" * len(policies))
    done = []
    for mid, players in rows:
        r = measure_row(mid, players, args.games, policies, args.repeats)
        done.append(r)
        cells = " | ".join(f"{r[p]:,.0f} | {r['random'] / r[p]:.1f}x" for p in policies)
        print(f"| {mid}/{players} | {r['random']:,.0f} | {cells} |", flush=True)
    print()
    for p in policies if done else ():
        speeds = [r[p] for r in done]
        ratios = [r["random"] / r[p] for r in done]
        slow = min(done, key=lambda r: r[p])
        print(f"{p}: min {min(speeds):,.0f} g/s ({slow['mission']}/{slow['players']}), median "
              f"{statistics.median(speeds):,.0f}; cost per game {statistics.median(ratios):.1f}x random (median), "
              f"{max(ratios):.1f}x (worst)")
    if args.first_run:
        for cmd in (FIRST_RUN, FIRST_SOLVE):
            cpu, wall, cpu2, wall2 = first_run(cmd)
            print(f"`kakapo {' '.join(cmd)}` with an empty kernel cache: {cpu:.1f} CPU s ({wall:.1f} s wall); "
                  f"after: {cpu2:.1f} CPU s ({wall2:.1f} s wall)")
    if args.out:
        args.out.write_text(json.dumps(done, indent=1))


if __name__ == "__main__":
    main()
