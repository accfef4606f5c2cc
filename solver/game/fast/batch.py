"""The Numba engine's entry point from Python: ``run`` plays one game per seed with a policy, the
one-ply players through ``play.play_many`` and the search player through ``search.search_many`` (one
of ``search.table_games``'s tables)."""

from __future__ import annotations

import contextlib
import sys

import numpy as np

from solver.core.codes import PolicyId
from solver.core.spec import SPEC_PLAYERS
from solver.game.fast.play import play_many
from solver.game.fast.search import search_many, table_games_py
from solver.game.search import DEFAULT_SAMPLES
from solver.game.seeds import seat_seeds
from solver.runtime.jit import errors


def run(arrays, spec, seeds: np.ndarray, policy: str, samples: int = DEFAULT_SAMPLES):
    """Play one game per seed; ``spec`` is ``spec_array(GameSpec)``; ``samples``: the search
    player's (0 plays the planner). Returns (result codes, rounds played, birds scanned, trace hashes)."""
    n = len(seeds)
    results = np.zeros(n, np.int64)
    rounds_played = np.zeros(n, np.int64)
    scanned = np.zeros(n, np.int64)
    traces = np.zeros(n, np.uint64)
    if arrays.bird_ring.shape[0] == 0:
        raise ValueError("mission has no birds")
    pid = PolicyId.parse(policy)
    seeds, spec = np.asarray(seeds, np.uint64), np.asarray(spec, np.int64)
    streams = seat_seeds(seeds, int(spec[SPEC_PLAYERS]))
    out = (results, rounds_played, scanned, traces)
    if pid == PolicyId.SEARCH:
        top, kernel, args = search_many, table_games_py, (seeds, streams, spec, int(samples), arrays, out)
    else:
        top, kernel, args = play_many, play_many, (seeds, streams, spec, int(pid), arrays, out)
    for attempt in range(3):
        try:
            top(*args)
            break
        except errors.TypingError:
            raise
        except Exception:  # most likely a damaged cache file: drop it and compile afresh
            if attempt == 2:
                raise
            if attempt == 0:  # the top kernel's own cache first: its callees still load from theirs
                kernel._cache.flush()
            else:
                flush_caches()
    return out


def flush_caches() -> None:
    """Forget every cached compilation of the engine's kernels (a damaged index is overwritten)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(("solver.game.fast", "solver.runtime.bits")):
            continue
        for obj in list(vars(module).values()):
            cache = getattr(obj, "_cache", None)
            if cache is not None and hasattr(cache, "flush"):
                with contextlib.suppress(OSError):
                    cache.flush()
