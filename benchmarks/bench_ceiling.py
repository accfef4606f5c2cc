"""The open-hand ceiling: time per deal, undecided deals, and the wall time of `kakapo ceiling`.

    python benchmarks/bench_ceiling.py [--games 200] [--missions draft|bundled|all] [--wall 1000]

For each mission and player count: the ceiling over the first N deals (seed 1), how many deals
the simulated players cleared already, how the others were decided (the nested rollout search at
level 1 or 2, the library-guided search, the exact model, or undecided), and the time per deal
(median and worst over every deal, the pre-screened ones counting the share of the Numba run they
took). With --wall N, the wall time
of `kakapo ceiling MISSION --games N --workers 2` on the slowest mission of the table.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.game.seeds import game_seeds  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.openhand.ceiling import policy_clears  # noqa: E402
from solver.openhand.deal import DealSolver  # noqa: E402


def missions(which: str) -> list[Path]:
    draft = sorted((ROOT / "benchmarks/draft_campaign").glob("*/*.toml"))
    bundled = sorted((ROOT / "missions").glob("*/*.toml"))
    return {"draft": draft, "bundled": bundled, "all": bundled + draft}[which]


def measure(path: Path, players: int, games: int, cat) -> dict:
    m = load_mission(path, cat)
    seeds = game_seeds(1, 0, games)
    t0 = time.perf_counter()
    cleared = policy_clears(m, cat, players, seeds)
    screen = time.perf_counter() - t0
    witnessed = sum(cleared.values()) > 0
    t1 = time.perf_counter()
    solver = DealSolver(m, cat, players)
    setup = time.perf_counter() - t1
    times = [screen / games] * int(witnessed.sum())
    how = Counter()
    for i, s in enumerate(seeds):
        if witnessed[i]:
            continue
        a = solver.decide(int(s))
        times.append(a.seconds)
        how[a.how] += 1
        how[a.result] += 1
    return {"mission": m.id, "players": players, "games": games, "policies": int(witnessed.sum()),
            "greedy_rate": cleared["greedy"].mean(), "heuristic_rate": cleared["heuristic"].mean(),
            "planner_rate": cleared["planner"].mean(),
            "level1": how["rollouts, level 1"], "level2": how["rollouts, level 2"],
            "search": how["search"], "model": how["model"], "undecided": how["undecided"],
            "clearable": int(witnessed.sum()) + how["clearable"], "setup": setup,
            "median": statistics.median(times), "mean": statistics.mean(times), "worst": max(times)}


def gap(r) -> str:
    """Share of the heuristic's gap to the ceiling that the planner closes, on the same deals."""
    ceiling = r["clearable"] / r["games"]
    room = ceiling - r["heuristic_rate"]
    return "-" if room <= 0 else f"{(r['planner_rate'] - r['heuristic_rate']) / room:.0%}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--missions", choices=["draft", "bundled", "all"], default="draft")
    ap.add_argument("--only", default="", help="rows to measure, e.g. b20/2,p18/4")
    ap.add_argument("--wall", type=int, default=0, help="also time `kakapo ceiling --games N --workers 2`")
    args = ap.parse_args()
    cat = load_catalog()
    rows = []
    print("| mission | players | deals | cleared by policies | by rollouts, level 1 | level 2 | by library search "
          "| by model | undecided | ceiling | setup s | median s/deal | mean s/deal | worst s | greedy | heuristic "
          "| planner | gap closed |")
    print("|" + "---|" * 18)
    for path in missions(args.missions):
        m = load_mission(path, cat)
        for players in m.player_counts():
            if args.only and f"{m.id}/{players}" not in args.only.split(","):
                continue
            r = measure(path, players, args.games, cat)
            rows.append((path, r))
            print(f"| {r['mission']} | {players} | {r['games']} | {r['policies']} | {r['level1']} | {r['level2']} "
                  f"| {r['search']} | {r['model']} "
                  f"| {r['undecided']} | {r['clearable'] / r['games']:.3f} | {r['setup']:.1f} | {r['median']:.3f} "
                  f"| {r['mean']:.3f} | {r['worst']:.2f} | {r['greedy_rate']:.3f} | {r['heuristic_rate']:.3f} "
                  f"| {r['planner_rate']:.3f} | {gap(r)} |", flush=True)
    med = statistics.median(r["median"] for _, r in rows)
    und = sum(r["undecided"] for _, r in rows) / sum(r["games"] for _, r in rows)
    print(f"\nmedian of the per-mission medians: {med:.3f} s/deal; undecided overall: {und:.2%}; "
          f"worst undecided share: {max(r['undecided'] / r['games'] for _, r in rows):.2%}")
    closed = [(r["planner_rate"] - r["heuristic_rate"]) / (r["clearable"] / r["games"] - r["heuristic_rate"])
              for _, r in rows if r["clearable"] / r["games"] - r["heuristic_rate"] > 0]
    if closed:
        print(f"gap closed by the planner, mean over {len(closed)} rows: {statistics.mean(closed):.0%}")
    if args.wall:
        path, r = max(rows, key=lambda pr: pr[1]["mean"])
        t0 = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "cli.py"), "ceiling", str(path), "--players", str(r["players"]),
                        "--games", str(args.wall), "--workers", "2", "--json"], check=True, capture_output=True)
        print(f"`kakapo ceiling {path.name} --players {r['players']} --games {args.wall} --workers 2`: "
              f"{time.perf_counter() - t0:.1f} s wall")


if __name__ == "__main__":
    main()
