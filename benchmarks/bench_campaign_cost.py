"""Where a new catalog's campaign spends its time (`kakapo campaign --pieces FILE`), in CPU seconds
(process time: the figures hold on a loaded machine). Usage:

    python benchmarks/bench_campaign_cost.py [--games 200] [--rows b19/2,p15/4] [--cold] [--out FILE]

The catalog is bench_campaign.py's (the bundled one with green-6 and blue-5 redrawn: every mission
fits it, and no shipped library is its). In one process, mission after mission: the planner's
library, the deal solver's library per table size (with ``--cold`` both are removed from the cache
first, so they are built as a user's are the first time), then every task of the campaign's plan
for that row as the command runs it (``analysis.tasks.run_task``), each timed: the fewest pieces,
each rung of the ladder, the open-hand ceiling. Then the cost of starting a process (a fresh
interpreter that imports the task runner and loads the kernels the tasks use). Writes per task
its label, kind, rung, deals and CPU seconds (``--out``: JSON), and prints the sums by kind.

Run it with PYTHONPATH on another checkout to measure that version (the plan and its tasks are
that version's).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_campaign import other_catalog  # noqa: E402
from solver.app.campaign import campaign_missions  # noqa: E402

try:  # the version this measures: the campaign as the batch report's plan, before the sequential design
    from solver.app.campaign import CEILING_TIME_LIMIT  # type: ignore[attr-defined]
except ImportError:
    CEILING_TIME_LIMIT = 60.0
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.puzzle import librarystore  # noqa: E402

START_UP = """
import time, resource
t0 = time.perf_counter()
from solver.analysis.tasks import Task, run_task
from solver.io.paths import MISSIONS
p = MISSIONS / "buddy" / "b01.toml"
from solver.io.catalog import DEFAULT_CATALOG
for policy, k in (("planner", 0), ("search", 2)):
    run_task(Task("sim", p.name, p.read_bytes(), DEFAULT_CATALOG.read_bytes(), players=2, games=2, seed=1,
                  policy=policy, samples=k))
run_task(Task("ceiling", p.name, p.read_bytes(), DEFAULT_CATALOG.read_bytes(), players=2, games=2, seed=1))
u = resource.getrusage(resource.RUSAGE_SELF)
print(time.perf_counter() - t0, u.ru_utime + u.ru_stime)
"""


def start_up_cost() -> tuple[float, float]:
    """(wall, CPU) seconds of a fresh process that imports the task runner and loads the kernels."""
    out = subprocess.run([sys.executable, "-c", START_UP], capture_output=True, text=True, cwd=ROOT, check=True)
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


def kind_of(task) -> str:
    if task.kind != "sim":
        return task.kind
    return task.policy if not task.samples or task.policy != "search" else f"search-{task.samples}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--rows", default=None, help="MISSION/PLAYERS,... (default: every row of the campaign)")
    ap.add_argument("--cold", action="store_true", help="remove the catalog's libraries from the cache first")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    from solver.analysis.report import plan_report  # heavy: the engines
    from solver.analysis.tasks import run_task
    from solver.game.planner import planner_library
    from solver.openhand.deal import DealSolver

    folder = Path(tempfile.mkdtemp(prefix="kakapo-cost-"))
    pieces = other_catalog(folder)
    catalog = load_catalog(pieces)
    wanted = None if args.rows is None else {(r.split("/")[0], int(r.split("/")[1])) for r in args.rows.split(",")}
    paths = [p for p in campaign_missions(None) if wanted is None or p.stem in {m for m, _ in wanted}]
    plan = plan_report(paths, catalog, catalog.text.encode("utf-8"), args.games, seed=1, players_filter=None,
                       policy="heuristic", time_limit=CEILING_TIME_LIMIT, baseline=True, ceiling_games=args.games,
                       ladder_games=args.games)
    records = []
    t_all = time.process_time()
    t0 = time.process_time()
    exec(compile(START_UP.replace("print(", "(").replace("from solver.analysis.tasks import Task, run_task", ""),
                 "warm-up", "exec"), {"Task": __import__("solver.analysis.tasks").analysis.tasks.Task,
                                      "run_task": run_task})
    records.append({"mission": None, "players": None, "kind": "kernels loaded", "cpu": time.process_time() - t0})
    for path, m in plan.missions:
        rows = [(mid, n, parts) for mid, n, parts in plan.rows
                if mid == m.id and (wanted is None or (mid, n) in wanted)]
        if not rows:
            continue
        if args.cold:
            for kind in ["planner"] + [f"deal-{n}" for _, n, _ in rows]:
                librarystore.library_path(m, catalog, kind).unlink(missing_ok=True)
        fresh = load_mission(path, catalog)  # a mission object of its own: the in-process caches miss
        t0 = time.process_time()
        planner_library(fresh, catalog)
        records.append({"mission": m.id, "players": None, "kind": "library (planner)", "cpu": time.process_time() - t0})
        for mid, n, parts in rows:
            t0 = time.process_time()
            solver = DealSolver(fresh, catalog, n)
            solver.library  # noqa: B018
            records.append({"mission": mid, "players": n, "kind": "library (deal)", "cpu": time.process_time() - t0})
            tasks = [plan.solve[(mid, n)], *parts.values()]
            seen = set()
            for task in tasks:
                if task.key in seen:
                    continue
                seen.add(task.key)
                t0 = time.process_time()
                run_task(task, 1)
                cpu = time.process_time() - t0
                records.append({"mission": mid, "players": n, "kind": kind_of(task), "games": task.games, "cpu": cpu})
            line = ", ".join(f"{r['kind']} {r['cpu']:.1f}" for r in records if r["mission"] == mid
                             and r["players"] in (n, None))
            print(f"{mid}/{n}: {line}", flush=True)
    total = time.process_time() - t_all
    wall, cpu = start_up_cost()
    sums: dict[str, float] = {}
    for r in records:
        sums[r["kind"]] = sums.get(r["kind"], 0.0) + r["cpu"]
    print(f"\n{len(plan.rows) if wanted is None else len(wanted)} rows, {args.games} deals: {total:.0f} CPU s in all")
    for k, v in sorted(sums.items(), key=lambda e: -e[1]):
        print(f"  {k:<20} {v:8.1f} CPU s  {v / total:6.1%}")
    print(f"a process's start (imports, kernels loaded, first small tasks): {wall:.1f} s wall, {cpu:.1f} CPU s")
    if args.out:
        args.out.write_text(json.dumps({"games": args.games, "records": records, "total_cpu": total,
                                        "start_up": {"wall": wall, "cpu": cpu}}, indent=1))


if __name__ == "__main__":
    main()
