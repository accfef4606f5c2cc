"""How `kakapo review` explains lost games: the share of losing decisions, and of mistakes and
blunders, that only get the generic sentence (reason kind ``chance``), and the review's time.
Usage:

    python benchmarks/bench_review_reasons.py [--set main|other] [--workers 2] [--out DIR] [--code DIR]

The games: for each row (a campaign mission and a table size), the first game of
``game_seeds(SEED)`` that a table of heuristic players lost (``--set other``: other missions
and another seed, to check what was not tuned on). Each is reviewed at the review's defaults,
``workers`` processes, once as a warm-up (compiled kernels, the libraries of its moments), then
timed: wall seconds, and CPU seconds (this process and its workers: what the review costs however
busy the machine is). The reviews are written to ``--out`` (JSON, one per game) for a closer look.
``--code DIR`` measures the review of another checkout (an earlier version) on the same games.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = Path(sys.argv[sys.argv.index("--code") + 1]) if "--code" in sys.argv else ROOT
sys.path.insert(0, str(CODE))

from solver.analysis.review import review_game  # noqa: E402
from solver.game.engine import play_game  # noqa: E402
from solver.game.roster import make_policy  # noqa: E402
from solver.game.seeds import game_seeds  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.gamelog import read_log, write_log  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.io.paths import bundled_mission  # noqa: E402

SETS = {
    "main": (1, [("b08", 2), ("b12", 2), ("b16", 2), ("b19", 2), ("p09", 3), ("p12", 3), ("p15", 3),
                 ("p11", 4), ("p15", 4), ("p18", 4)]),
    "other": (7, [("b10", 2), ("b14", 2), ("b18", 2), ("p08", 3), ("p14", 3), ("p17", 4), ("p19", 4)]),
}
TURN = ("clearable", "not_clearable")


def first_lost(m, catalog, players: int, seed: int, tmp: Path) -> tuple[int, Path] | None:
    for i, s in enumerate(game_seeds(seed, 0, 100)):
        g = play_game(m, catalog, players, int(s), make_policy("heuristic"), log=True)
        if not g.cleared:
            path = tmp / f"{m.id}-{players}-{i}.jsonl"
            write_log(path, g.events)
            return i, path
    return None


def turned(doc: dict, rnd: int) -> bool:
    """Whether the review's own open-hand verdict turns from clearable to lost across round ``rnd``."""
    rounds = doc["rounds"]
    now = rounds[rnd - 1]["open_hand"]
    after = rounds[rnd]["open_hand"] if rnd < len(rounds) else "not_clearable"  # the game ended lost
    return (now, after) == TURN


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", choices=sorted(SETS), default="main")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("/tmp/kakapo-bench-reasons"))
    ap.add_argument("--code", type=Path, default=ROOT, help="the checkout whose review is measured")
    args = ap.parse_args()
    catalog = load_catalog()
    args.out.mkdir(parents=True, exist_ok=True)
    seed, rows = SETS[args.set]
    print("| game | rounds | lost_at | lost_by | its reasons | turned across it | mistakes+blunders | chance "
          "| s | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    lost_chance = lost_total = bad_chance = bad_total = turned_chance = 0
    seconds: list[float] = []
    cpus: list[float] = []
    warm = False
    for name, players in rows:
        m = load_mission(bundled_mission(name), catalog)
        found = first_lost(m, catalog, players, seed, args.out)
        if found is None:
            continue
        i, path = found
        log = read_log(path)
        if not warm:
            review_game(log, m, catalog, 10.0, workers=args.workers)
            warm = True
        t, cpu = time.perf_counter(), _cpu()
        doc = review_game(log, m, catalog, 10.0, workers=args.workers).to_json()
        wall, cpu = time.perf_counter() - t, _cpu() - cpu
        seconds.append(wall)
        cpus.append(cpu)
        (args.out / f"{name}-{players}-{i}.review.json").write_text(json.dumps(doc, indent=1))
        lb = doc["lost_by"]
        first = {"kind": "chance"}  # a losing decision without reasons (an earlier version): the generic sentence
        kinds = "-" if lb is None else ",".join(r["kind"] for r in lb.get("reasons") or [first])
        across = lb is not None and turned(doc, lb["round"])
        if lb is not None:
            lost_total += 1
            lost_chance += (lb.get("reasons") or [first])[0]["kind"] == "chance"
        bad = [d for d in doc["decisions"] if d["class"] in ("mistake", "blunder")]
        chance = [d for d in bad if d["reasons"][0]["kind"] == "chance"]
        bad_total += len(bad)
        bad_chance += len(chance)
        explained = {(d["round"], d["seat"], d["played"]): d["reasons"] for d in bad}
        if lb is not None:
            explained[(lb["round"], lb["seat"], lb["played"])] = lb.get("reasons") or [first]
        turned_chance += sum(turned(doc, k[0]) and r[0]["kind"] == "chance" for k, r in explained.items())
        said = "-" if lb is None else f"r{lb['round']} {lb['played']}"
        print(f"| {name}/{players} game {i} | {len(doc['rounds'])} | {doc['lost_at']} | {said} | {kinds} | "
              f"{'yes' if across else 'no'} | {len(bad)} | {len(chance)} | {wall:.1f} | {cpu:.1f} |", flush=True)
    print(f"\nlosing decisions explained by the generic sentence: {lost_chance} of {lost_total}; mistakes and "
          f"blunders: {bad_chance} of {bad_total} ({100 * bad_chance / max(1, bad_total):.0f} %); the generic "
          f"sentence across a turn of the open-hand verdict: {turned_chance}; review median "
          f"{sorted(seconds)[len(seconds) // 2]:.1f} s, mean {sum(seconds) / max(1, len(seconds)):.1f} s wall, "
          f"{sum(cpus):.1f} s CPU in all ({args.workers} workers)")


def _cpu() -> float:
    """CPU seconds of this process and of its ended workers."""
    return time.process_time() + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime


if __name__ == "__main__":
    main()
