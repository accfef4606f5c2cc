"""`kakapo review` on lost games: CPU seconds per review with the default settings (8 samples, 24
playouts, 10 s), every decision judged, and the classes' stability (the same log reviewed with
seed 2: the share of decisions given the same class).
Usage:

    python benchmarks/bench_review.py [--games 2]

For each row, the first ``--games`` planner games (seed 1) that were lost are logged and
reviewed; the figures are CPU seconds in this process after a warm-up review (compiled kernels
and stored libraries: what a user's second review costs).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.analysis.review import review_game  # noqa: E402
from solver.game.engine import play_game  # noqa: E402
from solver.game.roster import make_policy  # noqa: E402
from solver.game.seeds import game_seeds  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.gamelog import read_log, write_log  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.io.paths import bundled_mission  # noqa: E402

ROWS = [("b05", 2), ("b16", 2), ("b19", 2), ("p11", 3), ("p16", 4), ("p20", 4)]


def lost_games(m, catalog, players, count, tmp: Path):
    out = []
    seeds = game_seeds(1, 0, 200)
    for i, s in enumerate(seeds):
        g = play_game(m, catalog, players, int(s), make_policy("planner"), log=True)
        if not g.cleared:
            path = tmp / f"{m.id}-{players}-{i}.jsonl"
            write_log(path, g.events)
            out.append((i, path, g.rounds_played))
        if len(out) == count:
            break
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2)
    args = ap.parse_args()
    catalog = load_catalog()
    tmp = Path("/tmp/kakapo-bench-review")
    tmp.mkdir(exist_ok=True)
    print("| mission | players | game | rounds | decisions | lost_at | lost_by | CPU s | same class, seed 2 |")
    print("|---|---|---|---|---|---|---|---|---|")
    times, agree, judged = [], 0, 0
    for name, players in ROWS:
        m = load_mission(bundled_mission(name), catalog)
        for i, path, rounds in lost_games(m, catalog, players, args.games, tmp):
            log = read_log(path)
            review_game(log, m, catalog, 10.0, playouts=1)  # warm-up: kernels, tables, libraries
            t = time.process_time()
            rv = review_game(log, m, catalog, 10.0)
            cpu = time.process_time() - t
            times.append(cpu)
            other = review_game(log, m, catalog, 10.0, seed=2)  # the classes' stability: another seed
            same = sum(a.klass == b.klass for a, b in zip(rv.decisions, other.decisions, strict=True))
            agree, judged = agree + same, judged + len(rv.decisions)
            lb = rv.lost_by.decision if rv.lost_by else None
            by = f"r{lb.round} seat {lb.seat} {lb.klass}" if lb else "-"
            print(f"| {name} | {players} | {i} | {rounds} | {len(rv.decisions)} | {rv.lost_at} | {by} | {cpu:.1f} | "
                  f"{same}/{len(rv.decisions)} |", flush=True)
    print(f"\nmedian {statistics.median(times):.1f} CPU s, max {max(times):.1f} ({len(times)} reviews); "
          f"the same class with seed 2 for {agree} of {judged} decisions ({100 * agree / max(judged, 1):.1f} %)")


if __name__ == "__main__":
    main()
