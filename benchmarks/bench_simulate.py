"""Games per second of both engines and policies, Numba compile times, and the wall time of the
`kakapo simulate` command. Usage:

    python benchmarks/bench_simulate.py [--games 10000] [--python-games 200] [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.analysis.simulate import play_games  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402

COMPILE_SNIPPET = """
import time, sys
sys.path.insert(0, %r)
t0 = time.perf_counter()
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.analysis.simulate import play_games
cat = load_catalog()
m = load_mission(%r, cat)
t1 = time.perf_counter()
play_games(m, cat, 2, 1, 1, "heuristic", "numba", 1)
t2 = time.perf_counter()
print(f"{t1 - t0:.3f} {t2 - t1:.3f}")
"""


def compile_times():
    mission = str(ROOT / "missions/buddy/b01.toml")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = []
        for _ in ("cold", "warm"):
            r = subprocess.run([sys.executable, "-c", COMPILE_SNIPPET % (str(ROOT), mission)], env=env,
                               capture_output=True, text=True, check=True)
            out.append(float(r.stdout.split()[1]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--python-games", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="first mission of each mode only")
    ap.add_argument("--draft", action="store_true",
                    help="also the harder draft campaign missions (benchmarks/draft_campaign), heuristic only")
    args = ap.parse_args()
    cat = load_catalog()
    paths = sorted(ROOT.glob("missions/*/*.toml"))
    if args.quick:
        paths = [p for p in paths if p.stem in ("b01", "p01")]
    print("games per second on one core (numba excludes compilation)")
    print(f"{'mission':8} {'players':>7} {'policy':10} {'numba g/s':>10} {'python g/s':>10} {'ratio':>7} {'clear':>6}")
    for path in paths:
        m = load_mission(path, cat)
        for players in m.player_counts():
            for policy in ("heuristic", "random"):
                play_games(m, cat, players, 1, 1, policy, "numba", 1)  # warm
                fast = play_games(m, cat, players, args.games, 1, policy, "numba", 1)
                slow = play_games(m, cat, players, args.python_games, 1, policy, "python", 1)
                nf, ns = args.games / fast.seconds, args.python_games / slow.seconds
                print(f"{m.id:8} {players:>7} {policy:10} {nf:>10.0f} {ns:>10.0f} {nf / ns:>6.0f}x "
                      f"{(fast.results == 0).mean():>6.3f}", flush=True)
    print(f"clear rates over {args.games} games (numba), heuristic against the baselines")
    print(f"{'mission':8} {'players':>7} {'heuristic':>10} {'greedy':>8} {'random':>8}")
    for path in paths:
        m = load_mission(path, cat)
        for players in m.player_counts():
            rates = [(play_games(m, cat, players, args.games, 1, p, "numba", 2).results == 0).mean()
                     for p in ("heuristic", "greedy", "random")]
            print(f"{m.id:8} {players:>7} {rates[0]:>10.3f} {rates[1]:>8.3f} {rates[2]:>8.3f}", flush=True)
    if args.draft:
        print("draft campaign missions, heuristic, numba, one core")
        rates = []
        for path in sorted((ROOT / "benchmarks/draft_campaign").glob("*/*.toml")):
            m = load_mission(path, cat)
            for players in m.player_counts():
                play_games(m, cat, players, 1, 1, "heuristic", "numba", 1)
                out = play_games(m, cat, players, args.games, 1, "heuristic", "numba", 1)
                rates.append(args.games / out.seconds)
                print(f"  {m.id} {players}p: {rates[-1]:.0f} g/s, clear {(out.results == 0).mean():.3f}, "
                      f"mean rounds {out.rounds.mean():.2f}", flush=True)
        rates.sort()
        print(f"  min {rates[0]:.0f}, median {rates[len(rates) // 2]:.0f}, max {rates[-1]:.0f} g/s")
    cold, warm = compile_times()
    print(f"numba first call: cold cache {cold:.2f} s, warm cache {warm:.2f} s")
    print("wall time of `kakapo simulate MISSION --games 10000 --workers 2` (start-up included)")
    for path in paths:
        t = time.perf_counter()
        subprocess.run(["kakapo", "simulate", str(path), "--games", "10000", "--workers", "2", "--json"],
                       check=True, capture_output=True)
        print(f"  {path.stem}: {time.perf_counter() - t:.2f} s", flush=True)


if __name__ == "__main__":
    main()
