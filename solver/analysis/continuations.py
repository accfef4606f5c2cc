"""The search player's continuations from the moments of a logged game: the yardstick of
``kakapo review``. A moment's continuations are played on the true deal (the hidden cards stay as
dealt), each from its own seed, and kept: a moment is never played twice for the same seed.

Each decision of a continuation draws its stream from the seed and the number of moves so far
(``search.play_on``, keyed): a continuation is a function of the moment and its seed alone. So a
continuation of a moment on the game's line whose first moves are the game's own is, on the same
seed, the continuation of each moment those moves reach, and where it leaves the line its first
other move gives the continuation of that alternative: played once, it is kept for all of them."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

import numpy as np

from solver.core.codes import Result
from solver.core.rules import Mission
from solver.game.actions import Action
from solver.game.arrays import build_arrays
from solver.game.fast.policies import reset_memory_py
from solver.game.fast.search import KEYED, new_search_memory_py, search_decide_py, search_play_on
from solver.game.fast.state import fast_observation, fast_state, spec_array
from solver.game.planner import planner_library
from solver.game.seeds import game_seeds
from solver.game.state import GameState
from solver.runtime.workers import process_pool, stop_pool

CHOICES = 3  # the search player's choice is asked on this many decide streams: its choices are the yardstick
DECIDE_SEED = 1  # the decide streams' seed, whatever --seed (the continuations') is
CHUNK = 4  # continuations a task of the workers plays, at most (a few tenths of a second in an early round)
UNKNOWN = -1  # a continuation not played yet (else 1: cleared, 0: not)
R = TypeVar("R")


class Continuations:
    """The search player's clear rate from a moment (``rate``) and its choice at one (``prefers``),
    on the Numba engine with the mission's arrays built once. The continuations of many moments are
    played at once (``ensure``), spread over ``workers`` processes: each continuation is a function
    of the moment and its seed alone, so the rates are the same for any number of workers, and the
    continuations of the moments on ``line`` (the game's moves from the deal) are shared (the
    module docstring)."""

    def __init__(self, mission: Mission, catalog, state: GameState, samples: int, *, playouts: int, deepest: int,
                 seed: int, workers: int = 1, line: tuple[Action, ...] = ()):
        self.T = build_arrays(mission, catalog, planner_library(mission, catalog))
        self.samples = samples
        self.playouts = playouts
        self.deepest = deepest  # continuations a moment may be measured on, at most
        self.seeds = game_seeds(seed, 0, deepest)  # the first ``playouts`` are the review's
        # the search player's choices at a moment are a function of the moment alone (as an engine's
        # at a fixed depth): --seed moves only the continuations that measure them
        self.decide_seeds = [int(x) for x in game_seeds(DECIDE_SEED, 1, CHOICES)]
        self.memory = new_search_memory_py(spec_array(state.spec), samples, self.T)
        self.start = state.clone()
        self.line = tuple(line)
        self.workers = workers
        self.played = 0  # continuations played (the others were shared)
        self._won: dict[tuple, np.ndarray] = {}  # by the moves from the deal: per seed, cleared, not, or UNKNOWN
        # by the moves from the deal: per seed, the moves of its continuation from there (-1 past its end)
        self._paths: dict[tuple, dict[int, np.ndarray]] = {}
        self.most_moves = state.spec.rounds * (state.spec.reveals_per_round + 3)  # a game's moves, at most
        self._pool: ProcessPoolExecutor | None = None

    def ensure(self, states: list[GameState], upto: int) -> None:
        """Play, for each moment, its first ``upto`` continuations not known yet."""
        self.ensure_each([(state, upto) for state in states])

    def ensure_each(self, wanted: list[tuple[GameState, int]]) -> None:
        """``ensure`` with a depth per moment, all of them played at once over the workers: in
        waves, a moment's continuation waiting while the same seed's continuation of an earlier
        moment of the line is played (it may lead through this one)."""
        depth: dict[tuple, int] = {}
        for state, upto in wanted:
            if not state.is_over():
                key = tuple(state.moves)
                depth[key] = max(depth.get(key, 0), upto)
        while True:
            missing = {key: set(np.flatnonzero(self._array(key)[:upto] == UNKNOWN).tolist())
                       for key, upto in depth.items()}
            missing = {key: seeds for key, seeds in missing.items() if seeds}
            if not missing:
                return
            ready = []
            for key in sorted(missing, key=len):
                waiting = set().union(*(missing.get(self.line[:n], ()) for n in range(len(self.start.moves), len(key))
                                        if key[:n] == self.line[:n]))
                seeds = sorted(missing[key] - waiting)
                if seeds:
                    ready.append((key, seeds))
            self._play(ready)

    def _play(self, ready: list[tuple[tuple, list[int]]]) -> None:
        total = sum(len(seeds) for _, seeds in ready)
        chunk = max(1, min(CHUNK, -(-total // (2 * self.workers)))) if self.workers > 1 else total
        tasks = [(key, seeds[a:a + chunk], self._path_depth(key)) for key, seeds in ready
                 for a in range(0, len(seeds), chunk)]
        if len(tasks) > 1 and self.workers > 1:
            results = self._parallel(tasks)
        else:
            results = [_continuations(self.start, self.T, self.samples, self.seeds, *task) for task in tasks]
        for (key, seeds, _), (won, paths) in zip(tasks, results, strict=True):
            self.played += len(seeds)
            self._array(key)[seeds] = won
            kept = self._paths.setdefault(key, {})
            for s, path in zip(seeds, paths, strict=True):
                kept[s] = path
            if key == self.line[:len(key)]:
                self._share(key, seeds, won, paths)

    def _path_depth(self, key: tuple) -> int:
        """How many first moves of a continuation of ``key`` to keep: all of them (a game has at
        most ``most_moves``), what its clears did (``paths``) and, for a moment on the line, the
        moments its moves reach (``_share``)."""
        return max(1, self.most_moves - len(key) + 1)

    def _share(self, key: tuple, seeds: list[int], won: np.ndarray, paths: np.ndarray) -> None:
        """A continuation of a moment on the line is the continuation, on its seed, of every moment
        its moves reach: along the line, and the first one off it."""
        for s, result, path in zip(seeds, won, paths, strict=True):
            at = len(key)
            for j, code in enumerate(path):
                if code < 0:
                    break
                action = Action.from_code(int(code))
                on_line = at < len(self.line) and action == self.line[at]
                reached = self.line[:at + 1] if on_line else (*self.line[:at], action)
                self._array(reached)[s] = result
                self._paths.setdefault(reached, {})[s] = path[j + 1:]
                if not on_line:
                    break
                at += 1

    def _array(self, key: tuple) -> np.ndarray:
        won = self._won.get(key)
        if won is None:
            won = self._won[key] = np.full(self.deepest, UNKNOWN, np.int8)
        return won

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            _CONTINUATIONS.update(start=self.start, T=self.T, samples=self.samples, seeds=self.seeds)
            self._pool = process_pool(self.workers)  # forked: the workers inherit the arrays and the deal
        return self._pool

    def _parallel(self, tasks: list) -> list[tuple[np.ndarray, np.ndarray]]:
        try:
            return list(self._workers().map(_continuations_task, tasks))
        except BaseException:
            self.close()
            raise

    def submit(self, fn: Callable[..., R], *args) -> Future[R]:
        """Other work of the review for the workers, alongside the continuations (one worker busy
        with it plays none meanwhile; ``close`` ends it too)."""
        return self._workers().submit(fn, *args)

    def close(self, wait: bool = False) -> None:
        """End the workers: now (running tasks terminated), or with ``wait`` once their tasks are
        done (the review's end: a pool terminated then raced the interpreter's exit, which wrote
        to its closed pipe: "OSError: Bad file descriptor" on stderr)."""
        if self._pool is not None:
            if wait:
                self._pool.shutdown(wait=True, cancel_futures=True)
            else:
                stop_pool(self._pool)
            self._pool = None

    def rate(self, state: GameState, upto: int | None = None) -> float:
        """The share of the first ``upto`` continuations from ``state`` (default: the review's
        playouts) that the search player clears."""
        want = self.playouts if upto is None else upto
        return float(np.mean(self.won(state, want)))

    def won(self, state: GameState, upto: int) -> np.ndarray:
        """Which of the first ``upto`` continuations from ``state`` the search player clears."""
        if state.is_over():
            return np.full(upto, state.outcome == Result.CLEARED)
        self.ensure([state], upto)
        return self._won[tuple(state.moves)][:upto] == 1

    def paths(self, state: GameState, upto: int) -> list[list[Action]]:
        """The moves of each of the first ``upto`` continuations from ``state`` (played if not yet)."""
        if state.is_over():
            return [[] for _ in range(upto)]
        self.ensure([state], upto)
        kept = self._paths[tuple(state.moves)]
        return [[Action.from_code(int(c)) for c in kept[s] if c >= 0] for s in range(upto)]

    def planner_clears(self, states: list[GameState]) -> list[bool]:
        """Whether the planner (the ladder's rung that draws no random numbers: one game a moment,
        whatever the seed) clears the game from each moment; played in this process (a game is a
        few milliseconds)."""
        out = []
        for state in states:
            if state.is_over():
                out.append(state.outcome == Result.CLEARED)
                continue
            results = np.zeros(1, np.int64)
            search_play_on(fast_state(state), 0, self.T, self.seeds[:1], results, streams=KEYED,
                           paths=np.zeros((1, 0), np.int64))
            out.append(bool(results[0] == int(Result.CLEARED)))
        return out

    def measured(self, state: GameState) -> int:
        """How many first continuations of ``state`` are known (an ended game: as many as ever wanted)."""
        if state.is_over():
            return self.deepest
        unknown = np.flatnonzero(self._won.get(tuple(state.moves), np.full(1, UNKNOWN)) == UNKNOWN)
        return int(unknown[0]) if len(unknown) else self.deepest

    def prefers(self, state: GameState) -> list[Action]:
        """The search player's choices for the seat to act (from its observation only), one per
        decide stream, without repeats: its first choice first."""
        obs = fast_observation(state.observation(state.current_player()))
        out: list[Action] = []
        for s in self.decide_seeds:
            reset_memory_py(self.memory.base)
            a = Action.from_code(int(search_decide_py(obs, self.memory, self.T, np.array([s], np.uint64))))
            if a not in out:
                out.append(a)
        return out


_CONTINUATIONS: dict = {}  # a review's deal and arrays: forked workers inherit them


def _continuations(start: GameState, T, samples: int, seeds: np.ndarray, moves: tuple, which: list[int],
                   depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Continuations ``which`` of the moment ``moves`` leads to from ``start``: cleared or not
    (1, 0), and the first ``depth`` moves of each (-1 past its end)."""
    state = start.clone()
    for a in moves[len(start.moves):]:
        state.apply(a)
    results = np.zeros(len(which), np.int64)
    paths = np.zeros((len(which), depth), np.int64)
    search_play_on(fast_state(state), samples, T, seeds[which], results, streams=KEYED, paths=paths)
    return (results == int(Result.CLEARED)).astype(np.int8), paths


def _continuations_task(task: tuple) -> tuple[np.ndarray, np.ndarray]:
    moves, which, depth = task
    job = _CONTINUATIONS
    return _continuations(job["start"], job["T"], job["samples"], job["seeds"], moves, which, depth)
