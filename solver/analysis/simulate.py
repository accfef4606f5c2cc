"""Monte Carlo runs: many games in worker processes, and the clear-rate statistics.

Game ``i`` is played from its own seed (``game.seeds``), so results depend only on the seed
and the game count, never on how many workers play them or on the engine.
"""

from __future__ import annotations

import time
from concurrent.futures import as_completed
from dataclasses import dataclass

import numpy as np

from solver.core.codes import PolicyId, Result
from solver.core.spec import GameSpec
from solver.core.stats import wilson
from solver.game import fast
from solver.game.arrays import build_arrays
from solver.game.engine import play_game
from solver.game.fast.state import spec_array
from solver.game.planner import planner_library
from solver.game.roster import make_policy
from solver.game.search import DEFAULT_SAMPLES
from solver.game.seeds import BLOCK, game_seeds
from solver.runtime.workers import process_pool, stop_pool


@dataclass
class Outcomes:
    results: np.ndarray  # Result codes
    rounds: np.ndarray
    traces: np.ndarray
    seconds: float = 0.0  # time spent playing (compilation and cache loading excluded)


# -------------------------------------------------------------- workers
_JOB: dict = {}


def _play_chunk(args):
    start, count = args
    job = _JOB
    seeds = game_seeds(job["seed"], start, count)
    if job["engine"] == "numba":
        res, rounds, _, traces = fast.run(job["arrays"], job["spec"], seeds, job["policy"], job["samples"])
        return start, res, rounds, traces
    policy = make_policy(job["policy"], job["samples"])
    res = np.empty(count, np.int64)
    rounds = np.empty(count, np.int64)
    traces = np.empty(count, np.uint64)
    for i, s in enumerate(seeds):
        g = play_game(job["mission"], job["catalog"], job["players"], int(s), policy)
        res[i] = Result.parse(g.result)
        rounds[i] = g.rounds_played
        traces[i] = g.trace
    return start, res, rounds, traces


def play_games(mission, catalog, players: int, games: int, seed: int, policy: str = "heuristic",
               engine: str = "numba", workers: int = 1, progress=None, samples: int = DEFAULT_SAMPLES) -> Outcomes:
    """Play ``games`` games; identical outcomes for any ``workers`` and either engine.
    ``progress(done, total)`` is called as chunks of games finish; ``samples``: the search player's."""
    spec = GameSpec.of(mission, players)
    job = {"mission": mission, "catalog": catalog, "players": players, "seed": seed, "policy": policy,
           "engine": engine, "spec": spec_array(spec), "samples": samples}
    # the library, once, here: workers inherit it
    solutions = planner_library(mission, catalog) if policy in (PolicyId.PLANNER.label, PolicyId.SEARCH.label) else ()
    if engine == "numba":
        job["arrays"] = build_arrays(mission, catalog, solutions)
        fast.run(job["arrays"], job["spec"], game_seeds(seed, 0, 1), policy, 0)  # compile (or load) once, here
    chunk = max(1, min(BLOCK, -(-games // max(1, workers * 4))))
    chunks = [(s, min(chunk, games - s)) for s in range(0, games, chunk)]
    _JOB.clear()
    _JOB.update(job)
    t0 = time.perf_counter()
    parts = []

    def finished(part):
        parts.append(part)
        if progress:
            progress(sum(len(p[1]) for p in parts), games)

    if workers <= 1 or len(chunks) == 1:
        for c in chunks:
            finished(_play_chunk(c))
    else:
        pool = process_pool(workers)
        try:
            for f in as_completed([pool.submit(_play_chunk, c) for c in chunks]):
                finished(f.result())
        except BaseException:
            stop_pool(pool)
            raise
        pool.shutdown()
    parts.sort(key=lambda p: p[0])
    return Outcomes(np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts]),
                    np.concatenate([p[3] for p in parts]), time.perf_counter() - t0)


_ARRAYS: dict = {}  # (mission, catalog, with the library) -> its arrays: a process's pieces of one mission share them


def play_range(mission, catalog, players: int, seed: int, first: int, count: int, policy: str,
               samples: int = DEFAULT_SAMPLES) -> np.ndarray:
    """The results of games first..first+count-1 of ``play_games`` with this seed (Numba engine),
    in one process: a piece of a rung that a worker plays."""
    steered = policy in (PolicyId.PLANNER.label, PolicyId.SEARCH.label)
    key = (mission, catalog.key, steered)
    if key not in _ARRAYS:
        _ARRAYS[key] = build_arrays(mission, catalog, planner_library(mission, catalog) if steered else ())
    arrays = _ARRAYS[key]
    results, _, _, _ = fast.run(arrays, spec_array(GameSpec.of(mission, players)), game_seeds(seed, first, count),
                                policy, samples)
    return results


def summarise(mission, players: int, policy: str, games: int, *, seed: int, out: Outcomes,
              engine: str, workers: int, samples: int = DEFAULT_SAMPLES) -> dict:
    seconds = out.seconds
    cleared = int((out.results == Result.CLEARED).sum())
    lo, hi = wilson(cleared, games)
    won = out.rounds[out.results == Result.CLEARED]
    return {
        "mission": mission.id,
        "players": players,
        "policy": policy,
        "samples": samples if policy == PolicyId.SEARCH.label else None,
        "games": games,
        "seed": seed,
        "cleared": cleared,
        "clear_rate": cleared / games,
        "ci95": [lo, hi],
        "failures": {r.label: int((out.results == r).sum()) for r in (Result.ROUNDS_EXHAUSTED, Result.UNPLACEABLE)},
        "mean_rounds_when_cleared": float(won.mean()) if len(won) else None,
        "games_per_second": games / seconds if seconds > 0 else None,
        "engine": engine,
        "workers": workers,
        "seconds": seconds,
    }
