"""The ladder on every campaign row: the clear rate of each rung on the same deals (game i of
`simulate --seed 1`), what each rung costs, and the checks of issue 15: the search player with 16
samples never below the planner beyond the paired interval, the ladder rising with the samples, and
the shortfall (the campaign's difficulty figure) against the mission numbers. Usage:

    python benchmarks/bench_ladder.py [--games 200] [--jobs 2] [--ceiling] [--rows b14/2,p20/4]
                                      [--out ladder.json] [--summary ladder.json] [--extend old.json]

Rows are spread over ``--jobs`` processes; each row plays in one process, so its CPU seconds are
its own. ``--summary FILE`` prints the tables again from a file written by ``--out``. ``--extend
FILE`` keeps the rungs an earlier ``--out`` file measured on the same deals and plays only the
rungs it lacks (the ceiling is decided again, with every rung's wins as witnesses).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.analysis.ladder import RUNGS, rung_games, rung_label, shortfall  # noqa: E402
from solver.io.paths import MISSIONS  # noqa: E402

SEARCH_RUNGS = [rung_label(p, k) for p, k in RUNGS if k is not None]


def campaign_rows() -> list[tuple[str, int]]:
    rows = []
    for path in sorted((MISSIONS / "buddy").glob("b*.toml")) + sorted((MISSIONS / "party").glob("p*.toml")):
        mid = path.stem
        rows += [(mid, 2)] if mid.startswith("b") else [(mid, 3), (mid, 4)]
    return rows


def run_row(args) -> dict:
    mid, players, games, seed, with_ceiling, time_limit, known = args
    from solver.core.codes import Result
    from solver.core.spec import GameSpec
    from solver.game import fast
    from solver.game.arrays import build_arrays
    from solver.game.fast.state import spec_array
    from solver.game.planner import planner_library
    from solver.game.seeds import game_seeds
    from solver.io.catalog import load_catalog
    from solver.io.missionfile import load_mission
    from solver.io.paths import bundled_mission
    from solver.openhand.ceiling import ceiling

    catalog = load_catalog()
    mission = load_mission(bundled_mission(mid), catalog)
    tables = build_arrays(mission, catalog, planner_library(mission, catalog))
    spec = spec_array(GameSpec.of(mission, players))
    seeds = game_seeds(seed, 0, games)
    row: dict = {"mission": mid, "players": players, "games": games, "seed": seed, "rungs": {}}
    any_won = np.zeros(games, bool)
    for policy, samples in RUNGS:
        label, n = rung_label(policy, samples), rung_games(samples, games)
        if label in known and known[label]["games"] == n:
            row["rungs"][label] = known[label]
        else:
            fast.run(tables, spec, seeds[:1], policy, samples or 0)  # compile or load outside the clock
            t0 = time.process_time()
            results, _, _, _ = fast.run(tables, spec, seeds[:n], policy, samples or 0)
            cpu = time.process_time() - t0
            row["rungs"][label] = {"won": "".join("1" if r == Result.CLEARED else "0" for r in results),
                                   "games": n, "cleared": int((results == Result.CLEARED).sum()),
                                   "cpu_per_game": cpu / n}
        any_won[:n] |= np.array([c == "1" for c in row["rungs"][label]["won"]], bool)
    if with_ceiling:
        limit = {} if time_limit is None else {"time_limit": time_limit}
        top = ceiling(mission, catalog, players, games, seed, 1, witnesses=any_won, **limit)
        row["ceiling"] = {k: top[k] for k in ("clearable", "not_clearable", "undecided", "seconds")}
        row["ceiling"]["answers"] = "".join("1" if a == "clearable" else "0" for a in top["answers"])
        row["shortfall"] = shortfall(list(row["rungs"].values()), [a == "clearable" for a in top["answers"]])
    return row


def paired(a: str, b: str) -> tuple[int, int, float, float]:
    """Deals b wins and a loses, deals a wins and b loses, the difference of rates (b - a) and
    the half-width of its 95 % paired interval."""
    n = len(a)
    gain = sum(1 for x, y in zip(a, b, strict=True) if x == "0" and y == "1")
    loss = sum(1 for x, y in zip(a, b, strict=True) if x == "1" and y == "0")
    d = (gain - loss) / n
    var = max(gain + loss - (gain - loss) ** 2 / n, 0) / n**2
    return gain, loss, d, 1.96 * math.sqrt(var)


def spearman(x: list[float], y: list[float]) -> float:
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(v):
            j = i
            while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2
            i = j + 1
        return r

    rx, ry = ranks(x), ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    vy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (vx * vy) if vx and vy else float("nan")


def summary(rows: list[dict]) -> None:
    labels = list(rows[0]["rungs"])
    print(f"| row | deals | {' | '.join(labels)} | ceiling | shortfall | search-16 vs planner (won / lost) "
          f"| CPU s a game, search-16 |")
    print("|---|---|" + "---|" * (len(labels) + 4))
    below, falls, slowest = [], [], (0.0, "")
    for r in rows:
        n = r["games"]
        rates = " | ".join(f"{r['rungs'][lab]['cleared'] / r['rungs'][lab].get('games', n):.2f}" for lab in labels)
        top = r.get("ceiling")
        ceil = f"{top['clearable'] / n:.2f}" + (f" ({top['undecided']} und.)" if top["undecided"] else "") \
            if top else "-"
        sf = f"{r['shortfall']:.3f}" if "shortfall" in r else "-"
        gain, loss, d, half = paired(r["rungs"]["planner"]["won"], r["rungs"]["search-16"]["won"])
        name = f"{r['mission']}/{r['players']}"
        if d + half < 0:
            below.append(name)
        chain = ["planner", *SEARCH_RUNGS]
        for a, b in itertools.pairwise(chain):
            wa, wb = r["rungs"][a]["won"], r["rungs"][b]["won"]
            _, _, d2, h2 = paired(wa[:len(wb)], wb[:len(wa)])  # on the deals both played
            if d2 + h2 < 0:
                falls.append(f"{name} {a} > {b}")
        cpu = r["rungs"]["search-16"]["cpu_per_game"]
        slowest = max(slowest, (cpu, name))
        print(f"| {name} | {n} | {rates} | {ceil} | {sf} | {gain} / {loss} | {cpu:.3f} |")
    print()
    print(f"search-16 below the planner beyond the paired 95 % interval: {', '.join(below) or 'no row'}")
    print(f"a search rung below the one before it beyond the paired interval: {', '.join(falls) or 'no row'}")
    print(f"slowest row at 16 samples: {slowest[1]}, {slowest[0]:.3f} CPU s a game")
    if all("shortfall" in r for r in rows):
        for players in (2, 3, 4):
            part = [r for r in rows if r["players"] == players]
            if len(part) > 2:
                num = [int(r["mission"][1:]) for r in part]
                print(f"Spearman, mission number against shortfall, {players} players: "
                      f"{spearman(num, [r['shortfall'] for r in part]):.3f}; against the planner's rate: "
                      f"{spearman(num, [r['rungs']['planner']['cleared'] for r in part]):.3f}; "
                      f"against search-16's: {spearman(num, [r['rungs']['search-16']['cleared'] for r in part]):.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ceiling", action="store_true", help="decide the deals no rung cleared (the shortfall)")
    ap.add_argument("--time-limit", type=float, default=None, help="the ceiling's, per deal")
    ap.add_argument("--rows", default="", help="e.g. b14/2,p20/4 (default: the whole campaign)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--summary", type=Path, default=None, help="print the tables of an earlier --out file")
    ap.add_argument("--extend", type=Path, default=None, help="keep the rungs this earlier --out file measured")
    args = ap.parse_args()
    if args.summary:
        summary(json.loads(args.summary.read_text()))
        return
    rows = campaign_rows()
    if args.rows:
        wanted = {(r.split("/")[0], int(r.split("/")[1])) for r in args.rows.split(",")}
        rows = [r for r in rows if r in wanted]
    known: dict = {}
    if args.extend:
        for r in json.loads(args.extend.read_text()):
            if (r["games"], r["seed"]) == (args.games, args.seed):
                known[(r["mission"], r["players"])] = {k: {"games": r["games"], **v} for k, v in r["rungs"].items()}
    jobs = [(mid, players, args.games, args.seed, args.ceiling, args.time_limit, known.get((mid, players), {}))
            for mid, players in rows]
    t0 = time.perf_counter()
    done: list[dict] = []
    with get_context("fork").Pool(args.jobs) as pool:
        for row in pool.imap_unordered(run_row, jobs):
            done.append(row)
            cleared = " ".join(f"{v['cleared']}" for v in row["rungs"].values())
            print(f"[{len(done)}/{len(jobs)} {time.perf_counter() - t0:.0f} s] {row['mission']}/{row['players']}: "
                  f"{cleared}" + (f", shortfall {row['shortfall']:.3f}" if "shortfall" in row else ""), flush=True)
            if args.out:
                args.out.write_text(json.dumps(sorted(done, key=lambda r: (r["mission"], r["players"]))))
    done.sort(key=lambda r: (r["mission"], r["players"]))
    print(f"\n{len(done)} rows, {args.games} deals each, {time.perf_counter() - t0:.0f} s on {args.jobs} processes\n")
    summary(done)


if __name__ == "__main__":
    main()
