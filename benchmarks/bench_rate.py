"""`kakapo rate` on tables of known strength (issue 32): tables of bots of one rung play a mission,
their logs alone are rated, and the rating is held against the truth. Usage:

    python benchmarks/bench_rate.py [--games 100] [--plays 20] [--tables b19/2,p13/4]
                                    [--rungs heuristic,planner,search-4,search-16] [--out rate.json]
    python benchmarks/bench_rate.py --summary rate.json

For each table (mission/players) and true rung: ``--games`` games of bots of that rung in every
seat (game I of `simulate --seed 11`), their logs written as `kakapo play --log` writes them, then
every rung of the ladder replayed on every logged deal once (``rate.measure``, the default
settings). Ratings of 10, 30 and 100 games are sums over consecutive blocks of those games, so
the table says, for each number of games: how often the true rung is the best, how often it is
among the plausible rungs, and how many rungs are plausible (the interval's width).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.analysis.ladder import RUNGS, rung_label  # noqa: E402
from solver.analysis.rate import RATE_PLAYS, Measured, judge, measure, read_games  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.gamelog import write_log  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.io.paths import bundled_mission  # noqa: E402
from solver.play.playthrough import play  # noqa: E402

TABLE_SEED = 11  # the tables' games: another seed than the rating's replays (seed 1)
SIZES = (10, 30, 100)


def make_logs(folder: Path, mission: str, players: int, rung: str, games: int) -> list[str]:
    catalog = load_catalog()
    m = load_mission(bundled_mission(mission), catalog)
    policy, _, k = rung.partition("-")
    paths = []
    for i in range(games):
        played = play(m, catalog, players, TABLE_SEED, i, policy, 10.0, int(k) if k else 0)
        path = folder / f"{mission}-{players}-{rung}-{i:03d}.jsonl"
        write_log(path, played.events)
        paths.append(str(path))
    return paths


def evaluate(row: dict) -> list[dict]:
    """Ratings of blocks of 10, 30, 100 games against the truth."""
    n_games = len(row["cleared"])
    games = [type("G", (), {"cleared": c})() for c in row["cleared"]]
    m = Measured(np.array(row["clears"]), np.array(row["same"]), np.array(row["decisions"]), row["plays"])
    truth = [rung_label(p, k) for p, k in RUNGS].index(row["rung"])
    out = []
    for size in SIZES:
        blocks = [list(range(s, s + size)) for s in range(0, n_games - size + 1, size)]
        if not blocks:
            continue
        best = plausible = width = 0
        for b in blocks:
            j = judge(games, m, b)  # type: ignore[arg-type]
            best += j["best_index"] == truth
            plausible += truth in j["plausible_index"]
            width += len(j["plausible_index"])
        out.append({"games": size, "ratings": len(blocks), "true_best": best, "true_plausible": plausible,
                    "mean_plausible": width / len(blocks)})
    return out


def summary(rows: list[dict]) -> None:
    print("| table | true rung | games rated | ratings | true rung best | true rung plausible | rungs plausible "
          "(mean of 9) | CPU s a game rated |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        for e in evaluate(row):
            print(f"| {row['mission']}/{row['players']} | {row['rung']} | {e['games']} | {e['ratings']} | "
                  f"{e['true_best']} / {e['ratings']} | {e['true_plausible']} / {e['ratings']} | "
                  f"{e['mean_plausible']:.1f} | {row['cpu_per_game']:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--plays", type=int, default=RATE_PLAYS)
    ap.add_argument("--tables", default="b19/2,p13/4")
    ap.add_argument("--rungs", default="heuristic,planner,search-4,search-16")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--summary", type=Path, default=None)
    args = ap.parse_args()
    if args.summary:
        summary(json.loads(args.summary.read_text()))
        return
    rows = []
    folder = Path(tempfile.mkdtemp())
    for table in args.tables.split(","):
        mission, players = table.split("/")
        for rung in args.rungs.split(","):
            t0 = time.perf_counter()
            paths = make_logs(folder, mission, int(players), rung, args.games)
            made = time.perf_counter() - t0
            games = read_games(paths, None)
            c0 = time.process_time()
            t0 = time.perf_counter()
            m = measure(games, args.plays, 1, args.workers)
            wall = time.perf_counter() - t0
            rows.append({"mission": mission, "players": int(players), "rung": rung, "plays": args.plays,
                         "cleared": [g.cleared for g in games], "clears": m.clears.tolist(), "same": m.same.tolist(),
                         "decisions": m.decisions.tolist(), "wall": wall,
                         "cpu_per_game": wall * args.workers / args.games, "logs_seconds": made,
                         "main_cpu": time.process_time() - c0})
            print(f"{table} {rung}: {args.games} games made in {made:.0f} s, rated in {wall:.0f} s "
                  f"(cleared {sum(bool(c) for c in rows[-1]['cleared'])})", flush=True)
            if args.out:
                args.out.write_text(json.dumps(rows))
    print()
    summary(rows)


if __name__ == "__main__":
    main()
