"""The campaign of a new catalog task by task: each task's CPU seconds as `kakapo campaign` runs it
here, and the schedule of the same tasks on more workers computed from them. Usage:

    python benchmarks/bench_campaign_tasks.py [--games 500] [--precision 0.025] [--workers 2] [--project 16]
                                              [--rows b19/2,p15/4] [--out FILE] [--from FILE]

The catalog is bench_campaign.py's (two pieces no bundled mission places redrawn), its libraries
removed from the cache first, so that they are built as a user's are. The campaign runs in this
process's driver with ``--workers`` processes (``analysis.campaign.run_campaign``, the command's
own code), each task's CPU seconds recorded where it ran. Then, from those seconds, a projection
(not a measurement): the longest chain of tasks that wait for each other (a mission's library,
then each batch of a row after the one before, a task of the ceiling after the batch it followed),
and a greedy list schedule of every task on ``--project`` workers (each worker takes the next
ready task in the driver's order, as recorded with each task), with ``--overhead`` seconds added
to each task for sending it and its answer. ``--from FILE``: the projection of an earlier ``--out`` only.
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_campaign import other_catalog  # noqa: E402


def chains(records: list[dict]) -> dict:
    """The tasks by what waits for them: a mission's library; each batch of a row (its deals tasks)."""
    groups: dict = defaultdict(list)  # ("library", mission) or (row, batch) -> task indices
    for i, r in enumerate(records):
        if r["kind"] == "library":
            groups[("library", r["mission"])].append(i)
        elif r["kind"] == "deals":
            groups[(r["row"], r["batch"])].append(i)
    return groups


def predecessors(records: list[dict]) -> list[list[int]]:
    """What each task waits for: a row's first batch, its mission's library; a later batch, the batch
    before it; a task of the ceiling, the batch it followed (an older record without it: the last);
    the fewest pieces and the libraries, nothing."""
    groups = chains(records)
    batches: dict = defaultdict(list)
    for (row, step) in groups:
        if row != "library":
            batches[row].append(step)
    out: list[list[int]] = []
    for r in records:
        if r["kind"] in ("library", "solve"):
            out.append([])
        elif r["kind"] == "deals":
            earlier = [b for b in batches[r["row"]] if b < r["batch"]]
            out.append(list(groups[(r["row"], max(earlier))] if earlier else groups[("library", r["mission"])]))
        else:
            after = r.get("batch") or max(batches[r["row"]])
            out.append(list(groups[(r["row"], after)]))
    return out


def longest_path(records: list[dict], overhead: float) -> float:
    preds = predecessors(records)
    order = sorted(range(len(records)), key=lambda i: (records[i]["kind"] != "library",
                                                       (records[i].get("batch") or 10_000)
                                                       + 0.5 * (records[i]["kind"] == "openhand")))
    finish = [0.0] * len(records)
    for i in order:
        finish[i] = max((finish[j] for j in preds[i]), default=0.0) + records[i]["cpu"] + overhead
    return max(finish, default=0.0)


def order(record: dict) -> tuple:
    """A task's place in the driver's order (an older record without it: libraries, then the longest)."""
    return tuple(record["priority"]) if "priority" in record else (record["kind"] != "library", -record["cpu"])


def list_schedule(records: list[dict], workers: int, overhead: float) -> float:
    """The makespan of a greedy list schedule: whenever a worker is free it takes the ready task
    first in the driver's order (``CampaignRun._priority`` as each task was queued: libraries, then
    the pieces of the rows with the most work foreseen, the fewest pieces last)."""
    preds = predecessors(records)
    waiting = [len(p) for p in preds]
    after: dict = defaultdict(list)
    for i, ps in enumerate(preds):
        for j in ps:
            after[j].append(i)
    ready = [(order(records[i]), i) for i in range(len(records)) if not waiting[i]]
    heapq.heapify(ready)
    running: list = []  # (end, task)
    now, free = 0.0, workers
    while ready or running:
        while ready and free:
            _, i = heapq.heappop(ready)
            heapq.heappush(running, (now + records[i]["cpu"] + overhead, i))
            free -= 1
        now, i = heapq.heappop(running)
        free += 1
        for k in after[i]:
            waiting[k] -= 1
            if waiting[k] == 0:
                heapq.heappush(ready, (order(records[k]), k))
    return now


def project(doc: dict, workers: int, overhead: float) -> None:
    records = doc["records"]
    total = sum(r["cpu"] for r in records)
    by_kind: dict = defaultdict(float)
    for r in records:
        by_kind[r["kind"]] += r["cpu"]
    kinds = sorted(by_kind.items(), key=lambda e: -e[1])
    print(f"{len(records)} tasks, {total:.0f} CPU s in all: " + ", ".join(f"{k} {v:.0f} s" for k, v in kinds))
    one = list_schedule(records, 1, overhead)
    path = longest_path(records, overhead)
    many = list_schedule(records, workers, overhead)
    print(f"projection (from the measured CPU seconds, +{overhead * 1000:.0f} ms a task): 1 worker {one:.0f} s; "
          f"{workers} workers {many:.0f} s (longest chain {path:.0f} s): x{one / many:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--precision", type=float, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--project", type=int, default=16)
    ap.add_argument("--overhead", type=float, default=0.005, help="seconds added to each task in the projection")
    ap.add_argument("--rows", default=None)
    ap.add_argument("--keep-libraries", action="store_true", help="do not remove the catalog's libraries first")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--from", dest="source", type=Path, default=None)
    args = ap.parse_args()
    if args.source:
        project(json.loads(args.source.read_text()), args.project, args.overhead)
        return
    from solver.analysis.campaign import plan_campaign, run_campaign
    from solver.app.campaign import campaign_missions
    from solver.io.catalog import load_catalog
    from solver.io.difficulty import PRECISION
    from solver.io.missionfile import load_mission
    from solver.puzzle import librarystore

    folder = Path(tempfile.mkdtemp(prefix="kakapo-tasks-"))
    catalog = load_catalog(other_catalog(folder))
    wanted = None if args.rows is None else {(r.split("/")[0], int(r.split("/")[1])) for r in args.rows.split(",")}
    paths = [p for p in campaign_missions(None) if wanted is None or p.stem in {m for m, _ in wanted}]
    if not args.keep_libraries:
        for p in paths:
            m = load_mission(p, catalog)
            for kind in ("planner", "deal-2", "deal-3", "deal-4"):
                librarystore.library_path(m, catalog, kind).unlink(missing_ok=True)
    precision = PRECISION if args.precision is None else args.precision
    plan = plan_campaign(paths, catalog, catalog.text.encode("utf-8"), args.games, 1,
                         None if wanted is None else {n for _, n in wanted}, precision)
    plan.rows = [r for r in plan.rows if wanted is None or (r.mission, r.players) in wanted]
    records: list[dict] = []
    t0, c0 = time.perf_counter(), time.process_time()
    rows = run_campaign(plan, folder / "work", args.workers, record=records)
    wall = time.perf_counter() - t0
    print(f"{len(rows)} rows, at most {args.games} deals a rung, precision {precision}, {args.workers} worker(s): "
          f"{wall:.0f} s wall (the driver {time.process_time() - c0:.0f} CPU s)")
    for r in rows:
        print(f"  {r['mission']}/{r['players']}: {r['shortfall']:.3f} +/- {r['precision']:.3f}, deals "
              f"{list(r['rung_games'].values())}")
    doc = {"games": args.games, "precision": precision, "workers": args.workers, "wall": wall, "records": records,
           "rows": rows, "date": time.strftime("%Y-%m-%d %H:%M")}
    if args.out:
        args.out.write_text(json.dumps(doc, indent=1))
    project(doc, args.project, args.overhead)


if __name__ == "__main__":
    main()
