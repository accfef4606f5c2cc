"""The search player against the planner on the same deals (game i of `simulate --seed 1`), on the
rows of the prototype that motivated it (issue 15), and what it costs. Usage:

    python benchmarks/bench_search.py [--samples 16] [--workers 2] [--scale 1.0]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.analysis.simulate import play_games  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402

ROWS = (("b15", 2, 150), ("p15", 4, 150), ("p20", 4, 100), ("b20", 2, 100))  # mission, players, deals


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the deal counts")
    args = ap.parse_args()
    catalog = load_catalog()
    print(f"| mission | deals | heuristic | planner | search, {args.samples} samples | lost where the planner won "
          f"| CPU s a game |")
    print("|---|---|---|---|---|---|---|")
    for mid, players, deals in ROWS:
        deals = max(1, int(deals * args.scale))
        m = load_mission(ROOT / "missions" / ("buddy" if mid[0] == "b" else "party") / f"{mid}.toml", catalog)
        rates = {}
        for policy in ("heuristic", "planner"):
            rates[policy] = play_games(m, catalog, players, deals, 1, policy, "numba", args.workers).results == 0
        play_games(m, catalog, players, 1, 1, "search", "numba", 1, samples=1)  # compile outside the clock
        t0 = time.process_time()
        wall = time.perf_counter()
        out = play_games(m, catalog, players, deals, 1, "search", "numba", args.workers, samples=args.samples)
        wall = time.perf_counter() - wall
        cpu = max(time.process_time() - t0, wall * min(args.workers, deals))  # workers' time is not ours
        won = out.results == 0
        lost = int((rates["planner"] & ~won).sum())
        row = f"{mid}" + (f", {players} players" if mid[0] == "p" else "")
        print(f"| {row} | {deals} | {rates['heuristic'].mean():.2f} | {rates['planner'].mean():.2f} | "
              f"{won.mean():.2f} | {lost} | {cpu / deals:.2f} |", flush=True)


if __name__ == "__main__":
    main()
