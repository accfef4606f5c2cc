"""`kakapo review` on lost games: the review a player waits for (the quick judgement, 2 workers)
against the careful one (every move measured as far as the yardstick goes: the figures of every
earlier version), wall seconds of each, the share of decisions given the same class, and whether
both name the same decision in ``lost_by``.
Usage:

    python benchmarks/bench_review.py [--games 2] [--workers 2] [--fresh]

For each row, the first ``--games`` planner games (seed 1) that were lost are logged and
reviewed. Times are wall seconds after a warm-up review (compiled kernels and stored libraries:
what a user's second review costs). The careful reviews are kept in /tmp/kakapo-bench-review
(they do not change with the quick judgement; ``--fresh`` measures them again).
"""

from __future__ import annotations

import argparse
import json
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


def lost_by(doc: dict) -> str:
    lb = doc["lost_by"]
    return "-" if lb is None else f"r{lb['round']} seat {lb['seat']} {lb['played']}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--fresh", action="store_true", help="measure the careful reviews again")
    args = ap.parse_args()
    catalog = load_catalog()
    tmp = Path("/tmp/kakapo-bench-review")
    tmp.mkdir(exist_ok=True)
    print(f"| mission | players | game | rounds | decisions | lost_by (careful) | careful s | quick s "
          f"({args.workers} workers) | same class | same lost_by |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    quick_s, careful_s, agree, judged, same_lost = [], [], 0, 0, 0
    warm = False
    for name, players in ROWS:
        m = load_mission(bundled_mission(name), catalog)
        for i, path, rounds in lost_games(m, catalog, players, args.games, tmp):
            log = read_log(path)
            if not warm:
                review_game(log, m, catalog, 10.0, playouts=1, workers=args.workers)  # kernels, libraries
                warm = True
            kept = path.with_suffix(".careful.json")
            if kept.exists() and not args.fresh:
                careful = json.loads(kept.read_text())
            else:
                t = time.perf_counter()
                careful = review_game(log, m, catalog, 10.0, workers=args.workers, careful=True).to_json()
                careful["wall"] = time.perf_counter() - t
                kept.write_text(json.dumps(careful))
            t = time.perf_counter()
            quick = review_game(log, m, catalog, 10.0, workers=args.workers).to_json()
            wall = time.perf_counter() - t
            quick_s.append(wall)
            careful_s.append(careful["wall"])
            same = sum(a["class"] == b["class"] for a, b in zip(quick["decisions"], careful["decisions"], strict=True))
            agree, judged = agree + same, judged + len(quick["decisions"])
            lost_same = lost_by(quick) == lost_by(careful)
            same_lost += lost_same
            print(f"| {name} | {players} | {i} | {rounds} | {len(quick['decisions'])} | {lost_by(careful)} | "
                  f"{careful['wall']:.1f} | {wall:.1f} | {same}/{len(quick['decisions'])} | "
                  f"{'yes' if lost_same else 'no: ' + lost_by(quick)} |", flush=True)
    print(f"\nquick: median {statistics.median(quick_s):.1f} s wall, max {max(quick_s):.1f}; careful: median "
          f"{statistics.median(careful_s):.1f} s, max {max(careful_s):.1f} ({len(quick_s)} reviews, "
          f"{args.workers} workers); the same class for {agree} of {judged} decisions "
          f"({100 * agree / max(judged, 1):.1f} %); the same lost_by in {same_lost} of {len(quick_s)}")


if __name__ == "__main__":
    main()
