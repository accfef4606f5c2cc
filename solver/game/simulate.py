"""Monte Carlo runs: per-game seeds, worker processes, and the clear-rate statistics.

Game ``i`` of a run with seed ``S`` gets its own seed from numpy's SeedSequence
(block ``i // BLOCK`` spawned from ``S``), so results depend only on the seed and
the game count, never on how many workers play them or on the engine.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import as_completed
from dataclasses import dataclass

import numpy as np

from ..workers import process_pool, stop_pool
from .codes import RESULT_NAMES  # result codes are indices into it

BLOCK = 1000
Z95 = 1.959963984540054


def game_seeds(seed: int, start: int, count: int) -> np.ndarray:
    """Seeds of games start .. start+count-1 for a run seeded with ``seed``."""
    out = np.empty(count, np.uint64)
    i = 0
    while i < count:
        g = start + i
        block, offset = divmod(g, BLOCK)
        take = min(BLOCK - offset, count - i)
        words = np.random.SeedSequence(seed, spawn_key=(block,)).generate_state(offset + take, np.uint64)
        out[i:i + take] = words[offset:offset + take]
        i += take
    return out


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, centre - half)  # exact ends: no rounding dust at 0 or n
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (lo, hi)


@dataclass
class Outcomes:
    results: np.ndarray  # 0 cleared, 1 rounds exhausted, 2 unplaceable
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
        from . import fast

        res, rounds, _, traces = fast.run(job["tables"], seeds, job["players"], job["policy"])
        return start, res, rounds, traces
    from .engine import play_game
    from .policies import make_policy

    policy = make_policy(job["policy"])
    res = np.empty(count, np.int64)
    rounds = np.empty(count, np.int64)
    traces = np.empty(count, np.uint64)
    for i, s in enumerate(seeds):
        g = play_game(job["mission"], job["catalog"], job["players"], int(s), policy)
        res[i] = RESULT_NAMES.index(g.result)
        rounds[i] = g.rounds_played
        traces[i] = g.trace
    return start, res, rounds, traces


def play_games(mission, catalog, players: int, games: int, seed: int, policy: str = "heuristic",
               engine: str = "numba", workers: int = 1, progress=None) -> Outcomes:
    """Play ``games`` games; identical outcomes for any ``workers`` and either engine.
    ``progress(done, total)`` is called as chunks of games finish."""
    from .state import game_shape

    game_shape(mission, players)
    job = {"mission": mission, "catalog": catalog, "players": players, "seed": seed, "policy": policy,
           "engine": engine}
    solutions = ()
    if policy == "planner":  # the library, once, here: workers inherit it
        from .planner import planner_library

        solutions = planner_library(mission, catalog)
    if engine == "numba":
        from . import fast
        from .tables import build_tables

        job["tables"] = build_tables(mission, catalog, solutions)
        fast.run(job["tables"], game_seeds(seed, 0, 1), players, policy)  # compile (or load) once, here
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


def summarise(mission, players: int, policy: str, games: int, seed: int, out: Outcomes,
              engine: str, workers: int) -> dict:
    seconds = out.seconds
    cleared = int((out.results == 0).sum())
    lo, hi = wilson(cleared, games)
    won = out.rounds[out.results == 0]
    return {
        "mission": mission.id,
        "players": players,
        "policy": policy,
        "games": games,
        "seed": seed,
        "cleared": cleared,
        "clear_rate": cleared / games,
        "ci95": [lo, hi],
        "failures": {"rounds_exhausted": int((out.results == 1).sum()), "unplaceable": int((out.results == 2).sum())},
        "mean_rounds_when_cleared": float(won.mean()) if len(won) else None,
        "games_per_second": games / seconds if seconds > 0 else None,
        "engine": engine,
        "workers": workers,
        "seconds": seconds,
    }


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))

