"""Worker processes that never outlive the command that started them.

Every pool of the project comes from ``process_pool``: forked workers (they inherit the arrays
and the compiled engine) that ask the kernel to send them SIGTERM when their parent dies, so
Ctrl-C, SIGTERM or SIGKILL of the main process leaves no worker behind, even one in the middle
of a long task. SIGINT is ignored in the workers: the main process alone decides what an
interrupt means (it cancels the pool and says what was kept).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1
WORKER_TIMEOUT = 300.0  # seconds with no Dask worker connected before a run gives up (--worker-timeout)


def _die_with_parent(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def watch_parent(parent: int) -> None:
    """For processes that a server's threads start (the kernel's parent-death signal follows the
    thread that started a process, not the process): a thread of the worker's own ends it once its
    parent is gone, even a SIGKILLed one. SIGINT is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=watch, name="kakapo-parent-watch", daemon=True).start()


def spawned_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of fresh (spawned) workers for a process with threads, such as the studio's server:
    forking a threaded process is unsafe. Its workers end when the server does, however it ends."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"), initializer=watch_parent,
                               initargs=(os.getpid(),))


def process_pool(workers: int) -> ProcessPoolExecutor:
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_die_with_parent,
                               initargs=(os.getpid(),))


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """End a pool now: pending work cancelled, running workers terminated (after an interrupt,
    nothing they would still compute is wanted, and waiting for them would hang the exit)."""
    for p in list(getattr(pool, "_processes", {}).values()):  # no public way before Python 3.14
        with contextlib.suppress(OSError, AttributeError):
            p.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


def default_workers() -> int:
    """All cores, at most 8."""
    return max(1, min(os.cpu_count() or 1, 8))
