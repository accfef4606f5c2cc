"""Where the table's bots and advisors think: worker processes, so that no decision (a search
player's included) ever runs on the server's request path or holds its interpreter.

Each request is one decision of one game (``tablegame.ThinkRequest``); the games' requests are
served first come, first served, so one game of search players does not hold back another
game's bots for longer than one decision. A worker that dies is replaced and the request asked
again. ``inline=True`` thinks in a thread of this process instead (the tests' quick studio).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from solver.runtime.workers import spawned_pool


class Thinkers:
    def __init__(self, processes: int = 1, inline: bool = False):
        self.processes = max(1, processes)
        self.inline = inline
        self._pool: concurrent.futures.Executor | None = None
        self._lock = threading.Lock()
        self._closed = False

    def _executor(self) -> concurrent.futures.Executor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the studio is stopping")
            if self._pool is None:
                if self.inline:
                    self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="kakapo-think")
                else:
                    self._pool = spawned_pool(self.processes)
            return self._pool

    def submit(self, fn: Callable[..., Any], *args: Any, retry: bool = True) -> Future[Any]:
        """``fn(*args)`` in a worker; a worker lost on the way is replaced and asked once more."""
        outer: Future[Any] = Future()

        def done(f: Future[Any]) -> None:
            e = f.exception()
            if isinstance(e, BrokenProcessPool) and retry and not self._closed:
                self._drop(pool)
                try:
                    again = self.submit(fn, *args, retry=False)
                except RuntimeError as stopped:
                    outer.set_exception(stopped)
                    return
                again.add_done_callback(lambda g: _copy(g, outer))
                return
            _copy(f, outer)

        pool = self._executor()
        try:
            inner = pool.submit(fn, *args)
        except BrokenProcessPool:
            self._drop(pool)
            pool = self._executor()
            inner = pool.submit(fn, *args)
        inner.add_done_callback(done)
        return outer

    def _drop(self, pool: concurrent.futures.Executor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        with contextlib.suppress(Exception):
            pool.shutdown(wait=False, cancel_futures=True)

    def reopen(self) -> None:
        with self._lock:
            self._closed = False

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is None:
            return
        if isinstance(pool, concurrent.futures.ProcessPoolExecutor):
            for p in list(getattr(pool, "_processes", {}).values()):
                with contextlib.suppress(Exception):
                    p.terminate()
        pool.shutdown(wait=False, cancel_futures=True)


def _copy(src: Future[Any], dst: Future[Any]) -> None:
    if dst.done():
        return
    if src.cancelled():
        dst.cancel()
        return
    e = src.exception()
    if e is not None:
        dst.set_exception(e)
    else:
        dst.set_result(src.result())
