"""Long work (ladder, simulate, ceiling, review, rate) in worker processes, one job at a time, in order.

Each job runs in a process of its own (and the processes it starts for its games, in its own
process group), so the server keeps answering while it runs, a cancel ends it at once
(SIGTERM to the group), and nothing outlives the studio. The job tells its progress, the pieces of
its answer known before the whole (a review's decisions, as each is judged: ``partial``) and its
result through a queue; the server keeps each job's state for the page (``Job.snapshot``) and its
history in the database (``store``). Job ids are random (one cannot guess another's), and each job
has a token of its own, which lets whoever started it (a seat's page, say) follow it. At most
``MAX_WAITING`` jobs wait: one more is refused (``QueueFull``).
On a fresh install, a warm-up job compiles the kernels before the first job (in parts, side by
side), so that the page's first ladder does not wait for them; the page says while it runs, and
how far it is (``JobManager.kernels``, ``kernels_progress``).
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import queue
import secrets
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

from solver import __version__
from solver.app.documents import Doc
from solver.app.registry import JOBS
from solver.core.errors import KakapoError
from solver.io.catalog import load_catalog
from solver.io.replays import DatabaseReplays
from solver.runtime.cachedir import kernels_cached
from solver.runtime.workers import watch_parent
from solver.studio.store import Store, token_hash

FINAL = ("done", "failed", "cancelled")
MAX_WAITING = 16  # the host's jobs waiting
MAX_SEAT_WAITING = 4  # the seats' jobs waiting (reviews of their finished games): never the host's room


# what a result that does not read as its kind's says (a result of another version): the job is done
RESULT_UNREAD = (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError)


def result_words(kind: str, result: Doc) -> Doc:
    """``{"figure", "meaning", "glossary"}``: what a finished job's result says, in its kind's words
    (``registry.JobKind``): the figure in one line, what it means in one sentence ("" when its kind
    says none), the glossary's term that explains it; a result that does not read as its kind's is
    said to be done, never an error."""
    found = JOBS.get(kind)
    figure, meaning = f"{kind}: done", ""
    if found is not None:
        with contextlib.suppress(*RESULT_UNREAD):
            figure, meaning = found.words(result), found.meaning(result) if found.meaning is not None else ""
    return {"figure": figure, "meaning": meaning, "glossary": found.glossary if found is not None and meaning else None}


class QueueFull(Exception):
    """Too many jobs wait already."""


@dataclass
class Job:
    id: str
    kind: str
    request: Doc
    state: str = "queued"
    progress: float = 0.0
    result: Doc | None = None
    error: str | None = None
    version: int = 0
    cancel_asked: bool = field(default=False, repr=False)
    token: str = field(default="", repr=False)
    shown: list[Doc] = field(default_factory=list)  # the answer's pieces so far (a review's decisions)
    host: bool = True  # asked by the host (else by a seat of a finished game)
    started: float | None = field(default=None, repr=False)  # when it began to run (time.monotonic)

    def left_seconds(self) -> float | None:
        """The time left while it runs, from its progress so far (None until it has said enough)."""
        if self.state != "running" or self.started is None or not 0.02 <= self.progress < 1:
            return None
        spent = time.monotonic() - self.started
        return round(spent * (1 - self.progress) / self.progress, 1) if spent >= 2 else None

    def snapshot(self) -> Doc:
        """The job as the page sees it; a finished one with its result's ``words`` (its kind's)."""
        words = result_words(self.kind, self.result) if self.state == "done" and self.result is not None else None
        return {"id": self.id, "kind": self.kind, "state": self.state, "progress": round(self.progress, 4),
                "left_s": self.left_seconds(), "result": self.result, "error": self.error,
                "partial": None if self.state == "done" or not self.shown else list(self.shown), "words": words}


def _job_main(request: Doc, pieces: str | None, workers: int, out: Queue[tuple[str, Any]], parent: int) -> None:
    """In the worker process: run one job, telling progress and the result through ``out``."""
    with contextlib.suppress(OSError):
        os.setsid()  # a group of its own: a cancel ends its game workers too
    watch_parent(parent)  # and it ends with the server, however the server ends (Ctrl-C is the server's)
    from solver.app.jobrunner import run_job, warm_up  # heavy: Numba, OR-Tools (in the worker only)

    last = [-1.0]

    def tell(fraction: float) -> None:
        if fraction - last[0] >= 0.01 or fraction >= 1.0:
            last[0] = fraction
            out.put(("progress", min(1.0, max(0.0, fraction))))

    try:
        if request["kind"] == "warmup":
            warm_up(load_catalog(pieces), progress=tell, workers=workers)
            out.put(("done", {}))
            return
        out.put(("done", run_job(request, load_catalog(request.get("pieces", pieces)), workers, progress=tell,
                                 shown=lambda piece: out.put(("shown", piece)), replays=_kept_replays(request))))
    except KakapoError as e:
        out.put(("failed", getattr(e, "problem", str(e))))
    except Exception as e:  # a bug of ours: said in the job, never a dead server
        out.put(("failed", f"{type(e).__name__}: {e}"))


def _kept_replays(request: Doc) -> DatabaseReplays | None:
    """The studio's database, where rate and calibrate keep the games' replays (None for other jobs,
    or when it cannot be opened: the replays are then made and not kept)."""
    if JOBS[request["kind"]].needs != "games" or not request.get("folder"):
        return None
    try:
        store = Store(Path(request["folder"]), __version__)
    except (KakapoError, OSError):
        return None
    return DatabaseReplays(store.replays.get, store.replays.keep)


class JobManager:
    """Runs queued jobs one after another in worker processes (see the module docstring)."""

    def __init__(self, pieces: str | None, workers: int, warm: bool = True, store: Store | None = None):
        self.pieces, self.workers = pieces, workers
        self.store = store  # the jobs' history (None: kept in memory only)
        self.jobs: dict[str, Job] = {}
        self._keyed: dict[str, Job] = {}
        self._pending: deque[Job] = deque()
        self._lock = threading.Condition()
        self._stop = False
        self._process: mp.process.BaseProcess | None = None
        self._ctx = mp.get_context("spawn")
        warm = warm and not kernels_cached()  # compiled before: each job loads what it uses in a moment
        self.kernels = "compiling" if warm else "ready"
        self._thread = threading.Thread(target=self._run, name="kakapo-jobs", daemon=True)
        self._warm = Job("warmup", "warmup", {"kind": "warmup"})
        if warm:
            self._pending.append(self._warm)
        self._thread.start()

    # ---------------------------------------------------------------- the API's side
    def submit(self, request: Doc, about: str = "", key: str | None = None, host: bool = True) -> Job:
        """A new job, queued; QueueFull when MAX_WAITING of the host's wait already (or, for a job a
        seat asked for, ``host`` False, MAX_SEAT_WAITING of the seats'). ``about``: what it is about,
        in a few words, for the history. ``key``: a job asked again under the same key is the same
        job, unless it failed or was cancelled."""
        with self._lock:
            if key is not None:
                known = self._keyed.get(key)
                if known is not None and known.state not in ("failed", "cancelled"):
                    return known
            waiting = [j for j in self._pending if j.id != "warmup" and j.host == host]
            limit = MAX_WAITING if host else MAX_SEAT_WAITING
            if len(waiting) >= limit:
                raise QueueFull(f"{limit} jobs are waiting already" if host else
                                f"{limit} jobs asked from seats' links are waiting already")
            job = Job(secrets.token_urlsafe(9), request["kind"], request, token=secrets.token_urlsafe(18),
                      host=host)
            if key is not None:
                self._keyed[key] = job
            if self.store is not None:
                self.store.jobs.add(job.id, job.kind, token_hash(job.token), about[:200])
            self.jobs[job.id] = job
            self._pending.append(job)
            self._lock.notify_all()
            return job

    def kernels_progress(self) -> float:
        """The fraction of the warm-up done (1.0 once the kernels are ready)."""
        return 1.0 if self.kernels == "ready" else self._warm.progress

    def get(self, job_id: str) -> Job | None:
        return self.jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        with self._lock:
            job = self.jobs.get(job_id)
            if job is None or job.state in FINAL:
                return job
            job.cancel_asked = True
            if job.state == "queued":
                with contextlib.suppress(ValueError):
                    self._pending.remove(job)
                self._finish(job, "cancelled")
            elif self._process is not None:
                _kill_group(self._process)
            self._lock.notify_all()
            return job

    def restart(self) -> None:
        """Serve the queue again after ``shutdown`` (nothing to do while it serves)."""
        with self._lock:
            if self._thread.is_alive():
                return
            self._stop = False
            self._thread = threading.Thread(target=self._run, name="kakapo-jobs", daemon=True)
            self._thread.start()

    def shutdown(self) -> None:
        with self._lock:
            self._stop = True
            for job in list(self._pending):
                self._finish(job, "cancelled")
            self._pending.clear()
            if self._process is not None:
                _kill_group(self._process)
            self._lock.notify_all()
        self._thread.join(timeout=4)

    # ---------------------------------------------------------------- the worker thread
    def _finish(self, job: Job, state: str, result: Doc | None = None, error: str | None = None) -> None:
        job.state, job.result, job.error = state, result, error
        if state == "done":
            job.progress = 1.0
        job.version += 1
        if self.store is not None and job.id != "warmup":
            with contextlib.suppress(Exception):  # the history is a record, not the job itself
                self.store.jobs.end(job.id, state, result, error)

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._pending and not self._stop:
                    self._lock.wait()
                if self._stop:
                    return
                job = next((j for j in self._pending if j.host), self._pending[0])  # the host's first
                self._pending.remove(job)
                out = self._ctx.Queue()
                self._process = self._ctx.Process(target=_job_main,
                                                  args=(job.request, self.pieces, self.workers, out, os.getpid()),
                                                  name=f"kakapo-job-{job.id}", daemon=False)  # its games use workers
                self._process.start()
                job.state = "running"  # once its process exists: a running job always has one to stop
                job.started = time.monotonic()
                job.version += 1
                if self.store is not None and job.id != "warmup":
                    with contextlib.suppress(Exception):
                        self.store.jobs.set_state(job.id, "running")
            self._follow(job, self._process, out)
            with self._lock:
                self._process = None
                if job.id == "warmup":
                    self.kernels = "ready"

    def _follow(self, job: Job, process: BaseProcess, out: Queue[tuple[str, Any]]) -> None:
        ended = None
        while ended is None:
            try:
                what, value = out.get(timeout=0.2)
            except queue.Empty:
                if not process.is_alive():
                    time.sleep(0.1)
                    if out.empty():
                        ended = ("cancelled", None, None) if job.cancel_asked else \
                            ("failed", None, f"the worker process ended (exit code {process.exitcode})")
                continue
            except (EOFError, OSError):
                ended = ("failed", None, "the worker process ended")
                continue
            with self._lock:
                if what == "progress" and not job.cancel_asked:
                    job.progress = float(value)
                    job.version += 1
                elif what == "shown" and not job.cancel_asked:
                    job.shown.append(value)
                    job.version += 1
                elif what == "done":
                    ended = ("done", value, None)
                elif what == "failed":
                    ended = ("failed", None, value)
        process.join(timeout=2)
        with self._lock:
            state, result, error = ended
            self._finish(job, "cancelled" if job.cancel_asked else state, result, error)
            self._lock.notify_all()


def _kill_group(process: BaseProcess) -> None:
    """End the job's process and the processes it started (its process group)."""
    pid = process.pid
    if pid is None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(pid, signal.SIGTERM)
    with contextlib.suppress(Exception):
        process.terminate()
