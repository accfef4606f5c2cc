"""Running report, ladder and ceiling tasks on a Dask distributed cluster (the optional
``cluster`` extra).

Each task carries its mission and catalog as text and is decided by the same function as
locally (``report.run_task``), with one process per task on the worker, so the numbers are
those of a local run. The workers need kakapo installed (the same version), nothing else.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from solver.analysis.ladder import rung_label
from solver.analysis.tasks import Task, run_task
from solver.core.errors import InputError, NoWorkers

CONNECT_TIMEOUT = "10s"
RUNG_PIECE = {True: 25, False: 250}  # deals a task plays: the search player's rungs, the others
DECIDE_PIECE = 4  # deals a task of the ceiling decides
WORKER_TIMEOUT = 300.0  # seconds without any worker before a run gives up (--worker-timeout)
POLL = 1.0  # seconds between looks at the scheduler while nothing finishes


def quiet_lost_results(client) -> None:
    """Keep Dask's own words about a result lost with its worker off the user's screen: its
    "rescheduling" warning and the traceback of the fetch given up when no worker is left
    (``AllExit``, raised inside Dask's event loop and never retrieved). The run says what it
    waits for itself (``status``)."""
    logging.getLogger("distributed.client").setLevel(logging.ERROR)
    loop = client.loop.asyncio_loop

    def handler(loop, context):
        if type(context.get("exception")).__name__ != "AllExit":
            loop.default_exception_handler(context)

    loop.call_soon_threadsafe(loop.set_exception_handler, handler)


def run_on_cluster(address: str, tasks, worker_timeout: float = WORKER_TIMEOUT, status=None):
    """Yield (task, result) as the cluster finishes them. A worker lost in the middle of a task
    is Dask's to handle: the task runs again on another worker (the same numbers: a task is
    deterministic). While no worker is connected, ``status(text)`` says so and since when
    (and ``status(None)`` when one is back); after ``worker_timeout`` seconds of that, NoWorkers
    is raised, and what was yielded before is kept by the caller."""
    try:
        from distributed import Client, as_completed  # the optional cluster extra
    except ImportError:
        raise InputError("--scheduler", "Dask's distributed package is not installed",
                         'install the cluster extra: pip install "kakapo[cluster]"') from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        raise InputError("--scheduler", f"cannot reach a Dask scheduler at {address} ({e})",
                         "start one with `dask scheduler` and workers with `dask worker ADDRESS`, "
                         "or check the address") from None
    quiet_lost_results(client)
    alone_since: list = [None]  # when the last worker left, while none is connected

    def check_workers() -> None:
        if client.nthreads():
            if alone_since[0] is not None and status:
                status(None)
            alone_since[0] = None
            return
        now = time.monotonic()
        if alone_since[0] is None:
            alone_since[0] = now
            if status:
                status(f"waiting: no worker connected to {address} since {time.strftime('%H:%M:%S')} "
                       f"(start one with `dask worker {address}`; giving up after {worker_timeout:g} s)")
        elif now - alone_since[0] >= worker_timeout:
            raise NoWorkers(address, now - alone_since[0])

    try:
        futures = {client.submit(run_task, t, 1, key=f"kakapo-{t.kind}-{t.key}"): t for t in tasks}
        pending = as_completed(futures)
        while not pending.is_empty():
            batch = pending.next_batch(block=False)
            for future in batch:
                while True:  # a result whose worker died before it was fetched is computed again: wait for it
                    try:
                        result = future.result(timeout=POLL)
                        break
                    except TimeoutError:
                        check_workers()
                yield futures[future], result
            if not batch:
                check_workers()
                time.sleep(POLL)
    finally:
        client.close()


@dataclass
class ClusterWork:
    """The ladder's rungs and the ceiling's deals as tasks for a cluster's workers, each carrying
    the mission and catalog as text: the answers of a local run, piece by piece."""

    address: str
    mission_name: str
    mission_text: bytes
    catalog_text: bytes
    players: int
    seed: int
    time_limit: float | None = None
    worker_timeout: float = WORKER_TIMEOUT
    status: Callable[[str | None], None] | None = None

    def _task(self, kind: str, **fields) -> Task:
        return Task(kind, self.mission_name, self.mission_text, self.catalog_text, players=self.players,
                    seed=self.seed, time_limit=self.time_limit or 0.0, **fields)

    def rungs(self, wanted: list[tuple[str, int | None, int]], progress=None) -> list[np.ndarray]:
        """Each rung's results on its first n deals (``wanted``: policy, samples, n), played on the
        cluster in pieces; ``progress(label, done, total)`` as pieces finish."""
        tasks = []
        for k, (policy, samples, n) in enumerate(wanted):
            piece = RUNG_PIECE[samples is not None]
            tasks += [(k, self._task("deals", policy=policy, samples=samples or 0, first=a, games=min(piece, n - a)))
                      for a in range(0, n, piece)]
        by_task = {t.key: k for k, t in tasks}
        out = [np.zeros(n, np.int64) for _, _, n in wanted]
        done = [0] * len(wanted)
        for task, result in run_on_cluster(self.address, [t for _, t in tasks], self.worker_timeout, self.status):
            k = by_task[task.key]
            out[k][task.first:task.first + task.games] = result["results"]
            done[k] += task.games
            if progress:
                policy, samples, n = wanted[k]
                progress(rung_label(policy, samples), done[k], n)
        return out

    def decide(self, deals: list[int]) -> Iterator[list[tuple[int, str]]]:
        """The ceiling's deal solver on these deals, on the cluster: (deal, answer) lists as they end."""
        tasks = [self._task("decide", deals=tuple(deals[a:a + DECIDE_PIECE]))
                 for a in range(0, len(deals), DECIDE_PIECE)]
        for _, result in run_on_cluster(self.address, tasks, self.worker_timeout, self.status):
            yield [(int(i), str(a)) for i, a in result["answers"]]
