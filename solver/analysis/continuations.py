"""The search player's continuations from the moments of a logged game: the yardstick of
``kakapo review``. A moment's continuations are played on the true deal (the hidden cards stay as
dealt), each from its own seed, and kept: a moment is never played twice for the same seed."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import numpy as np

from solver.core.codes import Result
from solver.core.rules import Mission
from solver.game.actions import Action
from solver.game.arrays import build_arrays
from solver.game.fast.policies import reset_memory_py
from solver.game.fast.search import new_search_memory_py, search_decide_py, search_play_on
from solver.game.fast.state import fast_observation, fast_state, spec_array
from solver.game.planner import planner_library
from solver.game.seeds import game_seeds
from solver.game.state import GameState
from solver.runtime.workers import process_pool, stop_pool

CHOICES = 3  # the search player's choice is asked on this many decide streams: its choices are the yardstick
DECIDE_SEED = 1  # the decide streams' seed, whatever --seed (the continuations') is
CHUNK = 4  # continuations a task of the workers plays (a few tenths of a second in an early round)


class Continuations:
    """The search player's clear rate from a moment (``rate``) and its choice at one (``prefers``),
    on the Numba engine with the mission's arrays built once. The continuations of many moments are
    played at once (``ensure``), spread over ``workers`` processes: each continuation is a function
    of the moment and its seed alone, so the rates are the same for any number of workers."""

    def __init__(self, mission: Mission, catalog, state: GameState, samples: int, playouts: int, deepest: int,
                 seed: int, workers: int = 1):
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
        self.workers = workers
        self._won: dict[tuple, np.ndarray] = {}  # by the moves from the deal: each continuation played once
        self._pool: ProcessPoolExecutor | None = None

    def ensure(self, states: list[GameState], upto: int) -> None:
        """Play, for each moment, its first ``upto`` continuations not played yet."""
        self.ensure_each([(state, upto) for state in states])

    def ensure_each(self, wanted: list[tuple[GameState, int]]) -> None:
        """``ensure`` with a depth per moment, all of them played at once over the workers."""
        todo: dict[tuple, tuple[int, int]] = {}
        for state, upto in wanted:
            key = tuple(state.moves)
            have = len(self._won.get(key, ()))
            if not state.is_over() and have < upto and upto > todo.get(key, (0, 0))[1]:
                todo[key] = (have, upto)
        if not todo:
            return
        if self.workers > 1:  # in pieces of CHUNK continuations, so that every worker has its share
            tasks = [(key, a, min(a + CHUNK, hi)) for key, (lo, hi) in todo.items() for a in range(lo, hi, CHUNK)]
        else:
            tasks = [(key, lo, hi) for key, (lo, hi) in todo.items()]
        if len(tasks) > 1 and self.workers > 1:
            results = self._parallel(tasks)
        else:
            results = [_continuations(self.start, self.T, self.samples, self.seeds, key, lo, hi)
                       for key, lo, hi in tasks]
        for (key, _, _), won in zip(tasks, results, strict=True):  # in order: a moment's pieces follow each other
            earlier = self._won.get(key)
            self._won[key] = won if earlier is None else np.concatenate([earlier, won])

    def _parallel(self, tasks: list) -> list[np.ndarray]:
        if self._pool is None:
            _CONTINUATIONS.update(start=self.start, T=self.T, samples=self.samples, seeds=self.seeds)
            self._pool = process_pool(self.workers)  # forked: the workers inherit the arrays and the deal
        try:
            return list(self._pool.map(_continuations_task, tasks))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None

    def rate(self, state: GameState, upto: int | None = None) -> float:
        """The share of the first ``upto`` continuations from ``state`` (default: the review's
        playouts) that the search player clears."""
        if state.is_over():
            return 1.0 if state.outcome == Result.CLEARED else 0.0
        want = self.playouts if upto is None else upto
        self.ensure([state], want)
        return float(np.mean(self._won[tuple(state.moves)][:want]))

    def won(self, state: GameState, upto: int) -> np.ndarray:
        """Which of the first ``upto`` continuations from ``state`` the search player clears."""
        if state.is_over():
            return np.full(upto, state.outcome == Result.CLEARED)
        self.ensure([state], upto)
        return self._won[tuple(state.moves)][:upto]

    def measured(self, state: GameState) -> int:
        """How many continuations of ``state`` are known (an ended game: as many as ever wanted)."""
        return self.deepest if state.is_over() else len(self._won.get(tuple(state.moves), ()))

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


def _continuations(start: GameState, T, samples: int, seeds: np.ndarray, moves: tuple, lo: int, hi: int) -> np.ndarray:
    """Continuations lo..hi-1 of the moment ``moves`` leads to from ``start``: cleared or not."""
    state = start.clone()
    for a in moves[len(start.moves):]:
        state.apply(a)
    results = np.zeros(hi - lo, np.int64)
    search_play_on(fast_state(state), samples, T, seeds[lo:hi], results)
    return results == int(Result.CLEARED)


def _continuations_task(task: tuple) -> np.ndarray:
    moves, lo, hi = task
    job = _CONTINUATIONS
    return _continuations(job["start"], job["T"], job["samples"], job["seeds"], moves, lo, hi)
