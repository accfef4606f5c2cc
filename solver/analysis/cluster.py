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
from solver.runtime.workers import WORKER_TIMEOUT

CONNECT_TIMEOUT = "10s"
RUNG_PIECE = {True: 25, False: 250}  # deals a task plays: the search player's rungs, the others
DECIDE_PIECE = 4  # deals a task of the ceiling decides
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


def connect(address: str):
    """A Dask client of the scheduler at ``address`` (InputError when Dask is missing or nothing
    answers there), its own words about lost results kept off the screen."""
    try:
        from distributed import Client  # the optional cluster extra
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
    return client


class Session:
    """Work sent to a Dask cluster a piece at a time, as the caller decides what comes next (the
    campaign's batches, `rate`'s replays): ``submit`` a function call under a key that names
    everything that determines its result; ``finished`` waits for at least one. A worker lost in
    the middle of a piece is Dask's to handle: the piece runs again on another worker (the same
    numbers: every piece is deterministic). While no worker is connected, ``status(text)`` says
    so and since when (``status(None)`` when one is back); after ``worker_timeout`` seconds of
    that, NoWorkers is raised, and what was finished before is the caller's to keep."""

    def __init__(self, address: str, worker_timeout: float = WORKER_TIMEOUT, status=None):
        self.address, self.worker_timeout, self.status = address, worker_timeout, status
        self.client = connect(address)
        self.waiting: dict = {}  # future -> what the caller gave with it
        self.kept: list = []  # futures other pieces take as arguments: kept on the cluster until the end
        self.alone_since: float | None = None  # when the last worker left, while none is connected

    def capacity(self) -> int:
        """The threads the cluster's workers have now (at least 1)."""
        return max(1, sum(self.client.nthreads().values()))

    def submit(self, key: str, what, fn, *args, keep: bool = False):
        """Run ``fn(*args)`` on a worker; ``what`` comes back with its result. ``args`` may hold a
        future a ``keep`` submit returned: the worker gets its result (once per worker)."""
        future = self.client.submit(fn, *args, key=key, pure=False)
        self.waiting[future] = what
        if keep:
            self.kept.append(future)
        return future

    def busy(self) -> int:
        return len(self.waiting)

    def _check_workers(self) -> None:
        if self.client.nthreads():
            if self.alone_since is not None and self.status:
                self.status(None)
            self.alone_since = None
            return
        now = time.monotonic()
        if self.alone_since is None:
            self.alone_since = now
            if self.status:
                self.status(f"waiting: no worker connected to {self.address} since {time.strftime('%H:%M:%S')} "
                            f"(start one with `dask worker {self.address}`; giving up after "
                            f"{self.worker_timeout:g} s)")
        elif now - self.alone_since >= self.worker_timeout:
            raise NoWorkers(self.address, now - self.alone_since)

    def finished(self) -> list:
        """(what, result) of at least one piece (none when nothing is waiting)."""
        from distributed import wait  # the optional cluster extra

        while self.waiting:
            try:
                done = wait(list(self.waiting), timeout=POLL, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                self._check_workers()
                continue
            out = []
            for future in done:
                try:  # a result whose worker died before it was fetched is computed again: wait for it
                    result = future.result(timeout=POLL)
                except TimeoutError:
                    self._check_workers()
                    continue
                out.append((self.waiting.pop(future), result))
            if out:
                self._check_workers()
                return out
        return []

    def close(self) -> None:
        self.client.close()


def run_on_cluster(address: str, tasks, worker_timeout: float = WORKER_TIMEOUT, status=None):
    """Yield (task, result) as the cluster finishes these tasks (``Session``'s rules: a worker
    lost is Dask's to handle; NoWorkers after ``worker_timeout`` seconds without any worker)."""
    session = Session(address, worker_timeout, status)
    try:
        for t in tasks:
            session.submit(f"kakapo-{t.kind}-{t.key}", t, run_task, t, 1)
        while session.busy():
            yield from session.finished()
    finally:
        session.close()


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
