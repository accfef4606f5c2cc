"""The open-hand ceiling of a mission: for each of the first N deals of ``simulate``, whether a
team that sees every hand could clear it.

A deal that a hidden-information policy clears is clearable: that game is the witness, and
the Numba engine plays those first, the one-step players on every deal, in a fraction of a
second for all deals. The others go to the deal solver (``deal.py``: the nested rollout search
with open hands, then the exact model) in worker processes. Every answer depends only on the
deal and deterministic budgets, so the numbers are the same whatever the number of workers and
however busy the machine is.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import numpy as np

from solver.core.codes import Result
from solver.core.spec import GameSpec
from solver.core.stats import wilson
from solver.game import fast
from solver.game.arrays import build_arrays
from solver.game.fast.state import spec_array
from solver.game.planner import planner_library
from solver.game.seeds import game_seeds
from solver.openhand.deal import ANSWERS, CLEARABLE, NOT_CLEARABLE, UNDECIDED, DealSolver
from solver.runtime.workers import process_pool, stop_pool

# Policies whose cleared games count as witnesses, in this order (``play --policy open-hand``
# falls back to the first of them that clears a deal the solver could not decide).
WITNESS_POLICIES = ("heuristic", "planner", "greedy")

_JOB: dict = {}


def policy_clears(mission, catalog, players: int, seeds: np.ndarray, arrays=None) -> dict[str, np.ndarray]:
    """For each witness policy, which of these deals it clears (Numba engine)."""
    arrays = arrays if arrays is not None else build_arrays(mission, catalog, planner_library(mission, catalog))
    spec = spec_array(GameSpec.of(mission, players))
    out = {}
    for name in WITNESS_POLICIES:
        results, _, _, _ = fast.run(arrays, spec, seeds, name)
        out[name] = results == Result.CLEARED
    return out


def _decide_chunk(indices):
    solver, seeds = _JOB["solver"], _JOB["seeds"]
    return [(i, solver.decide(int(seeds[i])).result) for i in indices]


def _each(fn, chunks: list, workers: int):
    """fn over the chunks, in worker processes when there are several; an interrupt stops them."""
    if workers <= 1 or len(chunks) <= 1:
        yield from map(fn, chunks)
        return
    pool = process_pool(workers)
    try:
        yield from pool.map(fn, chunks)
    except BaseException:
        stop_pool(pool)  # an interrupt ends at once
        raise
    pool.shutdown()


def _chunks(items: list, most: int, workers: int) -> list[list]:
    """Items in chunks of up to ``most``, smaller when there are few, so every worker gets some."""
    size = max(1, min(most, len(items) // (4 * max(1, workers))))
    return [items[k:k + size] for k in range(0, len(items), size)]


def decide_deals(mission, catalog, players: int, seed: int, deals: list[int], time_limit: float | None = None,
                 ) -> list[tuple[int, str]]:
    """The deal solver's answer for each of these deals (game i of ``simulate --seed``), in one
    process: a piece of the ceiling that a cluster's worker decides."""
    seeds = game_seeds(seed, 0, max(deals) + 1)
    arrays = build_arrays(mission, catalog, planner_library(mission, catalog))
    limit = {} if time_limit is None else {"time_limit": time_limit}
    solver = DealSolver(mission, catalog, players, arrays=arrays, **limit)
    return [(i, solver.decide(int(seeds[i])).result) for i in deals]


def ceiling(mission, catalog, players: int, games: int, seed: int, workers: int = 1,
            *, time_limit: float | None = None, progress=None, witnesses: np.ndarray | None = None,
            decide: Callable[[list[int]], Iterable[list[tuple[int, str]]]] | None = None) -> dict:
    """Answers per deal and the summary of ``kakapo ceiling``. ``witnesses``: deals known to
    be cleared already (by games the caller played on the same deals, e.g. the ladder's).
    ``decide``: where the deals left go (by default worker processes here; a cluster's workers
    give the same answers), yielding lists of (deal, answer) as they are decided."""
    t0 = time.perf_counter()
    seeds = game_seeds(seed, 0, games)
    answers = np.full(games, -1, np.int64)
    arrays = build_arrays(mission, catalog, planner_library(mission, catalog))  # once, for both parts
    by_policy = policy_clears(mission, catalog, players, seeds, arrays)
    witnessed = np.zeros(games, bool) if witnesses is None else np.asarray(witnesses, bool).copy()
    for cleared in by_policy.values():
        witnessed |= cleared
    answers[witnessed] = ANSWERS.index(CLEARABLE)
    todo = [i for i in range(games) if answers[i] < 0]
    _JOB.clear()
    _JOB.update(seeds=seeds)
    done = games - len(todo)
    if progress:
        progress(done, games)
    limit = {} if time_limit is None else {"time_limit": time_limit}
    if decide is not None:
        parts = decide(todo) if todo else iter(())
    else:
        solver = DealSolver(mission, catalog, players, arrays=arrays, **limit) if todo else None
        if solver is not None:
            solver.library  # noqa: B018  (the puzzle and library here, once, before the workers fork)
        _JOB.update(solver=solver)
        parts = _each(_decide_chunk, _chunks(todo, 4, workers), workers)
    for part in parts:
        for i, result in part:
            answers[i] = ANSWERS.index(result)
        done += len(part)
        if progress:
            progress(done, games)
    counts = {name: int((answers == ANSWERS.index(name)).sum()) for name in ANSWERS}
    lo, hi = wilson(counts[CLEARABLE], games)
    return {
        "mission": mission.id, "players": players, "games": games, "seed": seed,
        "clearable": counts[CLEARABLE], "not_clearable": counts[NOT_CLEARABLE], "undecided": counts[UNDECIDED],
        "clear_rate": counts[CLEARABLE] / games, "ci95": [lo, hi],
        "cleared_by_policies": int(witnessed.sum()),
        "seconds": time.perf_counter() - t0,
        "answers": [ANSWERS[a] for a in answers],
    }
