"""Where the table's bots and advisors think: worker processes, so that no decision (a search
player's included) ever runs on the server's request path or holds its interpreter.

Each request is one decision of one game (``tablegame.ThinkRequest``). The tables are served
fairly, whatever one of them asks:

- each game thinks in one worker (tables of people and games of bots only in different ones where
  there are two workers or more), which keeps what the game needs between its decisions (its
  state and its players' memories), so that many games never make a worker build a game again
  for each decision;
- a worker serves its games in turn (round robin), the games with a person at the table before
  the games of bots only, so that bots playing among themselves never make a person wait behind
  them for longer than one decision;
- a request that fails (the worker died, or answered with an error) is asked again of a fresh
  worker; only a request that fails ``TRIES`` times is given up, with the reason.

``inline=True`` thinks in a thread of this process instead (the tests' quick studio).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from solver.runtime.workers import spawned_pool

TRIES = 3  # a failed request is asked again of a fresh worker, up to this many tries in all


class Stopping(RuntimeError):
    """The studio is stopping: nothing more is thought."""


@dataclass
class Task:
    game: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    people: bool
    outer: Future[Any] = field(default_factory=Future)
    tries: int = TRIES
    errors: list[str] = field(default_factory=list)


class Worker:
    """One worker process (a thread, inline) and the queue of its games' requests."""

    def __init__(self, inline: bool):
        self.inline = inline
        self.pool: concurrent.futures.Executor | None = None
        self.queues: dict[str, deque[Task]] = {}
        self.rings: tuple[deque[str], deque[str]] = (deque(), deque())  # games with people, games of bots
        self.busy = False
        self.closed = False
        self.games: set[str] = set()  # the games that think here
        self.people: set[str] = set()  # those of them with a person at the table
        self._lock = threading.Lock()

    def enqueue(self, task: Task, first: bool = False) -> None:
        with self._lock:
            if self.closed:
                raise Stopping("the studio is stopping")
            q = self.queues.setdefault(task.game, deque())
            if first:
                q.appendleft(task)
            else:
                q.append(task)
            ring = self.rings[0 if task.people else 1]
            if task.game not in ring:
                ring.appendleft(task.game) if first else ring.append(task.game)
            todo = self._next()
        if todo is not None:
            self._run(todo)

    def _next(self) -> Task | None:
        """The next request to think (lock held): the next game in turn, people's games first."""
        if self.busy or self.closed:
            return None
        for ring in self.rings:
            while ring:
                game = ring.popleft()
                q = self.queues.get(game)
                if not q:
                    self.queues.pop(game, None)
                    continue
                task = q.popleft()
                if q:
                    ring.append(game)  # more of this game: after the others' turns
                else:
                    del self.queues[game]
                self.busy = True
                return task
        return None

    def _executor(self) -> concurrent.futures.Executor:
        with self._lock:
            if self.pool is None:
                self.pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="kakapo-think") \
                    if self.inline else spawned_pool(1)
            return self.pool

    def _run(self, task: Task) -> None:
        inner: Future[Any]
        try:
            inner = self._executor().submit(task.fn, *task.args)
        except (BrokenProcessPool, RuntimeError) as e:
            inner = Future()
            inner.set_exception(e)
        inner.add_done_callback(lambda f: self._done(task, f))

    def _done(self, task: Task, f: Future[Any]) -> None:
        error = None if f.cancelled() else f.exception()
        with self._lock:
            self.busy = False
            closed = self.closed
            if error is not None and not closed:
                task.errors.append(f"{type(error).__name__}: {str(error)[:160]}")
                task.tries -= 1
                self._replace()  # a fresh worker: whatever went wrong in that one stays with it
        # the answer is given outside the lock: whoever waits for it may ask this worker again at once
        if f.cancelled() or closed:
            task.outer.cancel()
        elif error is None:
            task.outer.set_result(f.result())
        elif task.tries > 0:
            try:
                self.enqueue(task, first=True)
                return
            except Stopping:
                task.outer.cancel()
        else:
            task.outer.set_exception(GaveUp(task.errors))
        with self._lock:
            todo = self._next()
        if todo is not None:
            self._run(todo)

    def _replace(self) -> None:
        """Drop this worker's process (lock held): the next request starts a fresh one."""
        pool, self.pool = self.pool, None
        if pool is not None:
            _end(pool)

    def close(self) -> None:
        with self._lock:
            self.closed = True
            pool, self.pool = self.pool, None
            tasks = [t for q in self.queues.values() for t in q]
            self.queues.clear()
            for ring in self.rings:
                ring.clear()
        for t in tasks:
            t.outer.cancel()
        if pool is not None:
            _end(pool)

    def reopen(self) -> None:
        with self._lock:
            self.closed = False
            self.busy = False


class GaveUp(Exception):
    """A request failed every try; the reasons, in order."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__(f"{len(errors)} tries failed; the last: {errors[-1] if errors else 'no reason given'}")


class Thinkers:
    def __init__(self, processes: int = 1, inline: bool = False):
        self.processes = 1 if inline else max(1, processes)
        self.inline = inline
        self.workers = [Worker(inline) for _ in range(self.processes)]
        self._home: dict[str, Worker] = {}
        self._lock = threading.Lock()
        self._closed = False

    def home(self, game: str, people: bool = False) -> Worker:
        """The worker a game thinks in (given the first time it asks): the one with the fewest
        games of the other kind, then the fewest games, so that tables of people and games of
        bots only think apart where there are workers enough."""
        with self._lock:
            if self._closed:
                raise Stopping("the studio is stopping")
            w = self._home.get(game)
            if w is None:
                w = min(self.workers, key=lambda x: (len(x.games - x.people if people else x.people), len(x.games)))
                w.games.add(game)
                if people:
                    w.people.add(game)
                self._home[game] = w
            return w

    def submit(self, game: str, fn: Callable[..., Any], *args: Any, people: bool = False) -> Future[Any]:
        """``fn(*args)`` in ``game``'s worker, in the game's turn; its result, or GaveUp once every
        try has failed; Stopping when the studio stops."""
        task = Task(game, fn, args, people)
        self.home(game, people).enqueue(task)
        return task.outer

    def warm(self, fn: Callable[[], None]) -> None:
        """Start every worker now, each running ``fn`` (loading what a first decision needs), so that
        no person waits for a worker to start."""
        for k, w in enumerate(self.workers):
            with contextlib.suppress(Stopping):
                w.enqueue(Task(f"warm-up {k}", fn, (), False, tries=1))

    def release(self, game: str, forget: Callable[[str], None] | None = None) -> None:
        """A game that has ended: its worker lets go of what it kept for it (``forget(game)`` there)."""
        with self._lock:
            w = self._home.pop(game, None)
            if w is not None:
                w.games.discard(game)
                w.people.discard(game)
        if w is not None and forget is not None:
            with contextlib.suppress(Stopping):
                w.enqueue(Task(game, forget, (game,), False))

    def reopen(self) -> None:
        with self._lock:
            self._closed = False
        for w in self.workers:
            w.reopen()

    def close(self) -> None:
        with self._lock:
            self._closed = True
        for w in self.workers:
            w.close()


def _end(pool: concurrent.futures.Executor) -> None:
    if isinstance(pool, concurrent.futures.ProcessPoolExecutor):
        for p in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                p.terminate()
    with contextlib.suppress(Exception):
        pool.shutdown(wait=False, cancel_futures=True)
