"""What a game of the search player costs, this checkout against another one, and that both play
the same games (the trace hash of every game). Usage:

    python benchmarks/bench_search_cost.py [--other PATH] [--samples 16] [--games 24] [--repeats 2]

Each run is a process of its own (one core, kernels compiled before the clock starts), the two
checkouts alternating ``--repeats`` times: the machine's speed drifts, so compare within a pass.
Rows: b19 with 2 players and p20 with 4 (the ladder's and the review's slowest), games 0..N-1 of
seed 3. Prints CPU milliseconds a game and the digest of the games' traces.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROWS = (("b19", 2), ("p20", 4))

ONE_RUN = """
import hashlib, sys, time
sys.path.insert(0, {bench!r})
from bench_search_cost import search_games
for name, players in {rows}:
    play = search_games(name, players, int(sys.argv[1]), int(sys.argv[2]))
    t = time.process_time()
    traces = play()
    ms = (time.process_time() - t) / int(sys.argv[2]) * 1000
    print(f"{{name}}/{{players}} {{ms:.1f}} {{hashlib.md5(traces.tobytes()).hexdigest()[:8]}}", flush=True)
"""


def search_games(mission: str, players: int, samples: int, games: int, seed: int = 3):
    """Games 0..games-1 of ``seed`` with the search player, ready to play: the kernels compiled and
    the arrays built (outside any clock). Returns a function that plays them and returns their
    traces. The project is imported here, from wherever the caller's path finds it."""
    import numpy as np

    from solver.core.spec import GameSpec
    from solver.game.arrays import build_arrays
    from solver.game.fast import search as fs
    from solver.game.fast.state import spec_array
    from solver.game.planner import planner_library
    from solver.game.seeds import game_seeds, seat_seeds
    from solver.io.catalog import load_catalog
    from solver.io.missionfile import load_mission
    from solver.io.paths import bundled_mission

    catalog = load_catalog()
    m = load_mission(bundled_mission(mission), catalog)
    T = build_arrays(m, catalog, planner_library(m, catalog))
    spec = spec_array(GameSpec.of(m, players))
    seeds = game_seeds(seed, 0, games)
    out = (np.zeros(games, np.int64), np.zeros(games, np.int64), np.zeros(games, np.int64), np.zeros(games, np.uint64))
    fs.search_many(seeds[:1], seat_seeds(seeds[:1], players), spec, samples, T, tuple(r[:1] for r in out))

    def play():
        fs.search_many(seeds, seat_seeds(seeds, players), spec, samples, T, out)
        return out[3]

    return play


def run(checkout: Path, samples: int, games: int) -> dict[str, tuple[float, str]]:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    code = ONE_RUN.format(rows=ROWS, bench=str(ROOT / "benchmarks"))
    out = subprocess.run([sys.executable, "-c", code, str(samples), str(games)], env=env,
                         cwd="/tmp", capture_output=True, text=True, check=True).stdout
    return {row: (float(ms), digest) for row, ms, digest in (line.split() for line in out.splitlines())}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--other", type=Path, default=None, help="another checkout of the project, to compare")
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    checkouts = [("this", ROOT)] + ([("other", args.other.resolve())] if args.other else [])
    for _label, path in checkouts:  # compile each checkout's kernels outside the clock
        run(path, args.samples, 1)
    rows = [f"{name}/{players}" for name, players in ROWS]
    print("| pass | checkout | " + " | ".join(f"{r}: ms a game" for r in rows) + " | traces |")
    print("|---|---|" + "---|" * len(rows) + "---|")
    for k in range(args.repeats):
        for label, path in checkouts:
            got = run(path, args.samples, args.games)
            print(f"| {k + 1} | {label} | " + " | ".join(f"{got[r][0]:.1f}" for r in rows) + " | "
                  + " ".join(got[r][1] for r in rows) + " |", flush=True)


if __name__ == "__main__":
    main()
