"""Per-game seeds: game ``i`` of a run seeded with ``S`` gets its own seed from numpy's
SeedSequence (block ``i // BLOCK`` spawned from ``S``), so a game's deal depends only on the
seed and its index, never on how many workers play the run or on the engine."""

from __future__ import annotations

import numpy as np

BLOCK = 1000


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
