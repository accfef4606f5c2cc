"""Games per second of the Numba engine on a few campaign rows, for this checkout and, to compare,
another one (an older commit checked out with `git worktree add /tmp/old COMMIT`). Each row runs
`cli.py simulate ... --workers 1 --json` in every tree in turn, several times, and keeps the best
rate, so a busy moment of a shared machine costs one repeat, not the comparison. Usage:

    python benchmarks/bench_engines.py [--other /tmp/old] [--games 20000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROWS = (("missions/buddy/b05.toml", 2), ("missions/buddy/b14.toml", 2), ("missions/party/p17.toml", 3),
        ("missions/party/p20.toml", 4))
POLICIES = ("heuristic", "planner", "greedy", "random")


def rate(tree: Path, mission: str, players: int, policy: str, games: int) -> float:
    out = subprocess.run([sys.executable, str(tree / "cli.py"), "simulate", str(tree / mission), "--players",
                          str(players), "--policy", policy, "--games", str(games), "--workers", "1", "--json"],
                         capture_output=True, text=True, check=True, cwd=tree)
    return float(json.loads(out.stdout)["games_per_second"])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--other", type=Path, help="another checkout to compare with")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    trees = [ROOT] + ([args.other] if args.other else [])
    for tree in trees:  # compile outside the measurement
        rate(tree, ROWS[0][0], ROWS[0][1], "planner", 10)
    names = " ".join(f"{t.name:>10}" for t in trees)
    print(f"games per second of play, one worker, best of {args.repeats} "
          "(start-up, compile and the planner's library excluded)")
    print(f"{'row':10} {'policy':10} {names}")
    for mission, players in ROWS:
        for policy in POLICIES:
            best = [0.0] * len(trees)
            for _ in range(args.repeats):
                for i, tree in enumerate(trees):
                    best[i] = max(best[i], rate(tree, mission, players, policy, args.games))
            row = f"{Path(mission).stem}/{players}"
            print(f"{row:10} {policy:10} " + " ".join(f"{b:>10.0f}" for b in best), flush=True)


if __name__ == "__main__":
    main()
