"""The campaign measured for a catalog (`kakapo campaign`): every row (a mission at a table size)
played by the ladder's rungs in batches of deals until its shortfall is known to the precision
asked (``sequential.py``), its open-hand ceiling on the deals no rung cleared, and its fewest
pieces.

The work is small tasks (``tasks.Task``: a piece of a rung's deals, a piece of the ceiling, the
planner's library of a mission, the fewest pieces), each a plain value that says everything it
needs, run side by side in this machine's processes or on a Dask cluster's workers. A mission's
library is built once, by one task, before any piece that needs it (on a cluster it travels to
the workers with the pieces). A row's next batch is decided when its batch is in, from the
results alone: the same seed gives the same rows for any number of workers, on a cluster, and
however the tasks were scheduled. Finished tasks are kept at once in a progress file of the
campaign's folder: Ctrl-C keeps them, and the same command finishes the rest.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import json
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solver.analysis.cluster import WORKER_TIMEOUT, Session
from solver.analysis.ladder import RUNGS, rung_label
from solver.analysis.report import Progress, read_missions
from solver.analysis.sequential import COSTS, estimate, first_deals, next_deals, wanted_deals
from solver.analysis.tasks import Task, run_task
from solver.core.codes import PolicyId, Result
from solver.core.stats import wilson
from solver.io.difficulty import data_digest
from solver.io.packs import FolderFile
from solver.io.safefiles import MAX_FILE_BYTES, read_regular
from solver.openhand.deal import ANSWERS, CLEARABLE, DEFAULT_TIME_LIMIT
from solver.runtime.workers import process_pool, stop_pool

PROGRESS = "campaign.progress.jsonl"
FORMAT = 2  # 2: the sequential design (each rung its own deals, the precision beside the figure)
LABELS = [rung_label(p, k) for p, k in RUNGS]
# deals a task plays: a piece of a rung costs well under a second of a hard row, so that a cluster's many
# workers all have work and no row waits long for its last piece
PIECE = {"greedy": 100, "heuristic": 100, "planner": 100, "search-2": 25, "search-4": 25, "search-8": 25,
         "search-16": 25, "search-32": 5, "search-64": 5}
OPENHAND_PIECE = 2  # deals a task of the ceiling decides: a deal that needs the exact proof takes seconds
# the work of a task in units of RUNG_COST a deal (what the time left and the order of the tasks go by), as
# measured on a new catalog's campaign (benchmarks/bench_campaign_tasks.py): a deal of the ceiling about 20,
# a planner's library about 500, the fewest pieces about 200
OPENHAND_UNITS, LIBRARY_UNITS, SOLVE_UNITS = 20.0, 500.0, 200.0
CEILING_UNITS = 20 * OPENHAND_UNITS  # a row's ceiling as foreseen before its rungs are in (about 20 deals)
SOLVE_TIME_LIMIT = 60.0  # seconds for the fewest pieces, as `kakapo solve`'s default
NEEDS_LIBRARY = {PolicyId.PLANNER.label, PolicyId.SEARCH.label}


@dataclass
class Row:
    """One mission at one table size."""

    mission: str  # its id
    mode: str
    players: int
    name: str  # the file name
    text: bytes  # the file's bytes


@dataclass
class CampaignPlan:
    """What a campaign measures: its rows, with what catalog, how many deals at most, to what precision."""

    missions: list  # (path, Mission)
    rows: list[Row]
    catalog_text: bytes
    games: int
    seed: int
    precision: float
    time_limit: float = DEFAULT_TIME_LIMIT  # the ceiling's deal solver, in CP-SAT's deterministic seconds

    def identity(self) -> dict:
        """What the campaign's folder of finished work is the work of (``report.claim_folder``)."""
        parts = sorted((r.name, r.players, hashlib.sha256(r.text).hexdigest()[:16]) for r in self.rows)
        about = [FORMAT, parts, hashlib.sha256(self.catalog_text).hexdigest()[:16], self.games, self.seed,
                 self.precision, self.time_limit]
        return {"format": FORMAT, "rows": [f"{r.mission}/{r.players}" for r in self.rows],
                "digest": hashlib.sha256(json.dumps(about).encode()).hexdigest()[:24]}


def plan_campaign(paths, catalog, catalog_bytes: bytes, games: int, seed: int, players_filter, precision: float
                  ) -> CampaignPlan:
    """Every mission file read and checked before any work (a pack's from memory)."""
    missions = read_missions(paths, catalog)
    rows = []
    for path, m in missions:
        text = path.data if isinstance(path, FolderFile) else read_regular(path, MAX_FILE_BYTES)
        name = path.name if isinstance(path, FolderFile) else Path(path).name
        rows += [Row(m.id, m.mode, n, name, text) for n in m.player_counts()
                 if not players_filter or n in players_filter]
    return CampaignPlan(missions, rows, catalog_bytes, games, seed, precision)


# ---------------------------------------------------------------- where the tasks run
class _Here:
    """One task after the other in this process."""

    def __init__(self):
        self.queue: list = []

    capacity = 1

    def submit(self, task: Task, what, library=None):
        self.queue.append((task, what))

    def busy(self) -> int:
        return len(self.queue)

    def finished(self) -> list:
        task, what = self.queue.pop(0)
        return [(what, _timed(task))]

    def library_handle(self, future):
        return None

    def close(self, failed: bool) -> None:
        pass


class _Processes:
    """Tasks side by side in ``workers`` processes of this machine, started once for the campaign
    (they share the disk cache of libraries: a library task's file is read by the others)."""

    def __init__(self, workers: int):
        self.pool = process_pool(workers)
        self.capacity = workers
        self.futures: dict = {}

    def submit(self, task: Task, what, library=None):
        self.futures[self.pool.submit(_timed, task)] = what

    def busy(self) -> int:
        return len(self.futures)

    def finished(self) -> list:
        done, _ = wait(list(self.futures), return_when=FIRST_COMPLETED)
        return [(self.futures.pop(f), f.result()) for f in done]

    def library_handle(self, future):
        return None

    def close(self, failed: bool) -> None:
        if failed:
            stop_pool(self.pool)  # Ctrl-C (or an error): the workers stop now, not after their tasks
        else:
            self.pool.shutdown()


class _Cluster:
    """Tasks on a Dask cluster's workers (``cluster.Session``); a mission's library travels with
    its pieces, so that a worker of another machine does not build it again."""

    def __init__(self, address: str, worker_timeout: float, status):
        self.session = Session(address, worker_timeout, status)

    @property
    def capacity(self) -> int:
        return self.session.capacity()

    def submit(self, task: Task, what, library=None):
        args = (task,) if library is None else (task, library)
        return self.session.submit(f"kakapo-{task.kind}-{task.key}", what, _timed, *args, keep=task.kind == "library")

    def busy(self) -> int:
        return self.session.busy()

    def finished(self) -> list:
        return self.session.finished()

    def library_handle(self, future):
        return future

    def close(self, failed: bool) -> None:
        self.session.close()


def _timed(task: Task, library: dict | None = None) -> dict:
    """A task's result and the CPU seconds it took (the seconds are the scheduler's, never a figure)."""
    if isinstance(library, dict) and "result" in library:  # a library task's own answer (a cluster's future)
        library = library["result"]
    t0 = time.process_time()
    result = run_task(task, 1, library)
    return {"result": result, "cpu": time.process_time() - t0}


# ---------------------------------------------------------------- a row as it is measured
@dataclass
class RowRun:
    """A row's results so far: per rung the deals asked and their results (-1: not in yet)."""

    row: Row
    games: int
    deals: list[int] = field(default_factory=list)
    results: list[np.ndarray] = field(default_factory=list)
    waiting: int = 0  # tasks of the row not in yet
    batches: int = 0
    answers: np.ndarray | None = None  # the ceiling's, per deal (ANSWERS' index; -1: not in yet)
    ceiling_from: int = 0  # the deals before it are cleared by a rung or sent to the ceiling
    ceiling_waiting: int = 0  # the ceiling's tasks not in yet
    min_pieces: Any = "?"
    phase: str = "library"  # library, rungs, ceiling, done
    seconds_a_unit: float | None = None  # CPU seconds per unit of RUNG_COST a deal, as its pieces took
    left_units: float = 0.0  # the work its chain is still foreseen to need (its order among the rows' tasks)

    def won(self) -> list[np.ndarray]:
        return [r[:n] == int(Result.CLEARED) for r, n in zip(self.results, self.deals, strict=True)]


class CampaignRun:
    """The campaign's driver: decides the tasks, runs them (``runner``), keeps them (``journal``)."""

    def __init__(self, plan: CampaignPlan, journal: Progress, runner, tick=None, record: list | None = None):
        self.plan, self.journal, self.runner, self.tick, self.record = plan, journal, runner, tick, record
        self.rows = [RowRun(r, plan.games, [0] * len(RUNGS), [np.full(plan.games, -1, np.int64) for _ in RUNGS])
                     for r in plan.rows]
        self.ready: list = []  # heap of (priority, order, task, what)
        self.order = itertools.count()
        self.libraries: dict[str, Any] = {}  # mission -> its library's handle for the tasks (a cluster's future)
        self.held: dict[str, list] = {}  # mission -> tasks waiting for its library
        self.done_units = 0.0
        self.inflight_units = 0.0
        self.tasks_done = 0
        self.per_unit = 0.004  # CPU seconds a unit, by the pieces finished (for the time left and the order)
        self.units_seen = [0.0, 0.0]
        self.priorities: dict[str, tuple] = {}  # each task's place in the order when queued (kept for ``record``)
        self.sent_after: dict[str, int] = {}  # a ceiling task: the row's batch it followed (kept for ``record``)

    # ------------------------------------------------ tasks
    def _task(self, row: Row, kind: str, **fields) -> Task:
        fields = {"players": row.players, "seed": self.plan.seed, **fields}
        return Task(kind, row.name, row.text, self.plan.catalog_text, **fields)

    def _units(self, task: Task) -> float:
        if task.kind == "deals":
            return float(COSTS[LABELS.index(rung_label(task.policy, task.samples or None))]) * task.games
        if task.kind == "openhand":
            return OPENHAND_UNITS * len(task.deals)
        return LIBRARY_UNITS if task.kind == "library" else SOLVE_UNITS

    def _push(self, task: Task, what) -> None:
        """Queue a task, unless the journal has its result already."""
        kept = self.journal.get(task.key) if task.kind != "library" else None
        if kept is not None:
            self._take(task, what, {"result": kept, "cpu": 0.0}, kept_already=True)
            return
        priority = self._priority(task, what)
        if self.record is not None:
            self.priorities[task.key] = priority
        heapq.heappush(self.ready, (priority, next(self.order), task, what))

    def _priority(self, task: Task, what) -> tuple[int, float, float]:
        """The order of the ready tasks (never a figure: the same seed gives the same rows in any
        order): a library first, as every piece of its mission waits for it; then the pieces of the
        rows with the most work still foreseen on their chain (batch after batch, then the ceiling),
        so that on many workers the long rows do not finish last alone; the fewest pieces, which
        nothing waits for, last; the longest piece first among equals."""
        row = what[1] if isinstance(what[1], RowRun) else None
        rate = row.seconds_a_unit if row is not None and row.seconds_a_unit else self.per_unit
        group = 0 if task.kind == "library" else 2 if task.kind == "solve" else 1
        chain = row.left_units * rate if row is not None and group == 1 else 0.0
        return group, -round(chain, 6), -round(self._units(task) * rate, 6)

    def _queue_row(self, rr: RowRun, old: list[int], new: list[int]) -> None:
        """The pieces of a row's next batch (each rung from its ``old`` deals to its ``new``)."""
        tasks = []
        for k, (policy, samples) in enumerate(RUNGS):
            piece = PIECE[LABELS[k]]
            tasks += [(self._task(rr.row, "deals", policy=policy, samples=samples or 0, first=a,
                                  games=min(piece, new[k] - a)), ("deals", rr, k))
                      for a in range(old[k], new[k], piece)]
        rr.deals = list(new)
        rr.waiting += len(tasks)
        later = 0.0 if not max(old) else float(COSTS @ np.maximum(0, wanted_deals(rr.won(), self.plan.games,
                                                                                   self.plan.precision) - new))
        rr.left_units = sum(self._units(t) for t, _ in tasks) + later + CEILING_UNITS
        for task, what in tasks:
            self._push(task, what)

    def start(self) -> None:
        seen: set[str] = set()
        for rr in self.rows:
            self.held.setdefault(rr.row.mission, []).append(rr)
        for rr in self.rows:
            if rr.row.mission not in seen:
                seen.add(rr.row.mission)
                self._push(self._task(rr.row, "library", players=0, seed=0), ("library", rr.row.mission))
            self._push(self._task(rr.row, "solve", time_limit=SOLVE_TIME_LIMIT), ("solve", rr))

    def _library_in(self, mission: str, handle) -> None:
        self.libraries[mission] = handle
        for rr in self.held.pop(mission, []):
            rr.phase = "rungs"
            rr.batches = 1
            self._queue_row(rr, [0] * len(RUNGS), first_deals(self.plan.games))

    # ------------------------------------------------ results
    def _take(self, task: Task, what, out: dict, kept_already: bool = False) -> None:
        kind, result = what[0], out["result"]
        self.tasks_done += 1
        if kept_already:
            self.done_units += self._units(task)
        else:
            if kind != "library":
                self.journal.put(task.key, result)
            self._learn(task, what, out)
        if kind == "library":
            self._library_in(what[1], out.get("handle"))
        elif kind == "solve":
            what[1].min_pieces = result["min_pieces"]
            self._maybe_done(what[1])
        elif kind == "deals":
            rr, k = what[1], what[2]
            rr.results[k][task.first:task.first + len(result["results"])] = result["results"]
            rr.waiting -= 1
            if rr.waiting == 0:
                self._batch_in(rr)
        elif kind == "openhand":
            rr = what[1]
            assert rr.answers is not None
            for i, a in result["answers"]:
                rr.answers[int(i)] = ANSWERS.index(str(a))
            rr.ceiling_waiting -= 1
            self._maybe_done(rr)

    def _learn(self, task: Task, what, out: dict) -> None:
        """What a finished task says about the time the rest takes (never about a figure)."""
        units = self._units(task)
        self.done_units += units
        row = what[1] if isinstance(what[1], RowRun) else None
        if task.kind == "deals" and out["cpu"] > 0 and row is not None:
            self.units_seen[0] += units
            self.units_seen[1] += out["cpu"]
            self.per_unit = self.units_seen[1] / max(self.units_seen[0], 1e-9)
            rate = out["cpu"] / max(units, 1e-9)
            row.seconds_a_unit = rate if row.seconds_a_unit is None else 0.5 * (row.seconds_a_unit + rate)
        if self.record is not None:
            self.record.append({"label": task.label(), "kind": task.kind, "deals": task.games or len(task.deals),
                                "mission": Path(task.mission_name).stem,
                                "row": None if row is None else f"{row.row.mission}/{row.row.players}",
                                "batch": (row.batches if task.kind == "deals" else self.sent_after.pop(task.key, None))
                                if row is not None else None,
                                "priority": list(self.priorities.pop(task.key, (1, 0.0, 0.0))),
                                "cpu": out["cpu"]})

    def _batch_in(self, rr: RowRun) -> None:
        """A row's batch is in: the ceiling of the deals every rung has played and none cleared
        (no later batch replays them: they are the ceiling's for sure), then the next batch; or,
        when the row is known well enough, the ceiling of the rest of its deals."""
        grown = next_deals(rr.won(), self.plan.games, self.plan.precision)
        if grown is not None:
            self._send_ceiling(rr, min(rr.deals))  # started now, not after the last batch: its longest deals
            rr.batches += 1                         # would otherwise end the campaign alone
            self._queue_row(rr, rr.deals, grown)
            return
        rr.phase = "ceiling"
        self._send_ceiling(rr, max(rr.deals))
        self._maybe_done(rr)

    def _send_ceiling(self, rr: RowRun, upto: int) -> None:
        """The ceiling's tasks for the deals from ``rr.ceiling_from`` to ``upto`` that no rung cleared
        (each deal decided on its own: the answers do not depend on when or with which others)."""
        if rr.answers is None:
            rr.answers = np.full(self.plan.games, -1, np.int64)
        cleared = np.zeros(upto, bool)
        for w in rr.won():
            cleared[:min(len(w), upto)] |= w[:upto]
        rr.answers[rr.ceiling_from:upto][cleared[rr.ceiling_from:upto]] = ANSWERS.index(CLEARABLE)
        todo = [i for i in range(rr.ceiling_from, upto) if not cleared[i]]
        rr.ceiling_from = max(rr.ceiling_from, upto)
        tasks = [self._task(rr.row, "openhand", deals=tuple(todo[a:a + OPENHAND_PIECE]),
                            time_limit=self.plan.time_limit) for a in range(0, len(todo), OPENHAND_PIECE)]
        rr.ceiling_waiting += len(tasks)
        for task in tasks:
            if self.record is not None:
                self.sent_after[task.key] = rr.batches
            self._push(task, ("openhand", rr))

    def _maybe_done(self, rr: RowRun) -> None:
        if rr.phase == "ceiling" and rr.ceiling_waiting == 0 and rr.min_pieces != "?":
            rr.phase = "done"

    # ------------------------------------------------ the loop
    def _left_units(self) -> float:
        """The work still to do, as now foreseen: what is queued or running, and each row's batches to come."""
        left = sum(self._units(t) for _, _, t, _ in self.ready)
        for rr in self.rows:
            if rr.phase in ("library", "rungs"):
                left += CEILING_UNITS  # its ceiling, foreseen
            if rr.phase == "library":
                left += float(COSTS @ np.array(first_deals(self.plan.games)))
            elif rr.phase == "rungs" and rr.waiting == 0 and max(rr.deals):
                wanted = wanted_deals(rr.won(), self.plan.games, self.plan.precision)
                left += float(COSTS @ np.maximum(0, wanted - np.array(rr.deals)))
        return left

    def _say(self, label: str | None) -> None:
        if self.tick is not None:
            done = self.done_units
            left_tasks = len(self.ready) + self.runner.busy()
            self.tick(int(done), int(done + self._left_units() + self.inflight_units), label,
                      tasks=(self.tasks_done, self.tasks_done + left_tasks))

    def run(self) -> None:
        self.start()
        libraries: dict = {}  # mission -> the handle of its library task (a cluster's future)
        self._say(None)
        failed = True
        try:
            while self.ready or self.runner.busy():
                room = 2 * self.runner.capacity
                while self.ready and self.runner.busy() < room:
                    _, _, task, what = heapq.heappop(self.ready)
                    mission = Path(task.mission_name).stem
                    needs = self.libraries.get(mission) if task.kind in ("deals", "openhand") else None
                    handle = self.runner.submit(task, (task, what), needs)
                    if task.kind == "library":
                        libraries[mission] = handle
                    self.inflight_units += self._units(task)
                for (task, what), out in self.runner.finished():
                    self.inflight_units -= self._units(task)
                    if task.kind == "library":
                        out = {**out, "handle": self.runner.library_handle(libraries.pop(Path(task.mission_name).stem,
                                                                                           None))}
                    self._take(task, what, out)
                    self._say(task.label())
            failed = False
        finally:
            self.runner.close(failed)

    # ------------------------------------------------ the rows
    def documents(self) -> list[dict]:
        return [row_document(rr, self.plan) for rr in self.rows]


def row_document(rr: RowRun, plan: CampaignPlan) -> dict:
    """A row as ``difficulty.json`` keeps it: each rung's clear rate on its own deals (``rung_games``),
    the ceiling on the deals the rungs played, the shortfall and the half-width of its 95 % interval
    (``precision``), and the fewest pieces."""
    won = rr.won()
    assert rr.answers is not None
    answers = rr.answers[:max(rr.deals)]  # the deals the rungs played, the ceiling's on each
    clearable = answers == ANSWERS.index(CLEARABLE)
    got = estimate(won, clearable)
    span = len(answers)
    rates = {label: float(w.mean()) for label, w in zip(LABELS, won, strict=True)}
    lo, hi = got.interval
    ceiling_lo, ceiling_hi = wilson(int(clearable.sum()), span)
    return {"mission": rr.row.mission, "mode": rr.row.mode, "players": rr.row.players, "games": span,
            "seed": plan.seed, "digest": data_digest(rr.row.text), "rates": rates,
            "rung_games": dict(zip(LABELS, rr.deals, strict=True)),
            "ceiling_rate": float(clearable.mean()), "ceiling_ci95": [ceiling_lo, ceiling_hi],
            "undecided": int((answers == ANSWERS.index("undecided")).sum()),
            "shortfall": got.shortfall, "precision": got.half_width, "shortfall_ci95": [lo, hi],
            "min_pieces": rr.min_pieces}


def run_campaign(plan: CampaignPlan, out_dir: Path, workers: int, scheduler: str | None = None,
                 tick: Callable[[int, int, str | None], None] | None = None, worker_timeout: float = WORKER_TIMEOUT,
                 status=None, record: list | None = None) -> list[dict]:
    """Every row of the plan measured (``difficulty.json``'s rows, in the plan's order); the finished
    tasks kept in ``out_dir``'s progress file as they come. ``tick(done, total, label)``: the work
    done and foreseen, in units of estimated work (their ratio is the share done; the time left
    follows from it), and ``tasks=(finished, foreseen)``. ``record``: each task's label, row, batch and
    CPU seconds are appended there."""
    out_dir.mkdir(parents=True, exist_ok=True)
    journal = Progress(out_dir / PROGRESS)
    if scheduler:
        runner: Any = _Cluster(scheduler, worker_timeout, status)
    elif workers > 1:
        runner = _Processes(workers)
    else:
        runner = _Here()
    run = CampaignRun(plan, journal, runner, tick, record)
    run.run()
    return run.documents()
