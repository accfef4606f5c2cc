"""Per-game seeds and per-seat streams.

Game ``i`` of a run seeded with ``S`` gets its own seed from numpy's SeedSequence (block
``i // BLOCK`` spawned from ``S``), so a game's deal depends only on the seed and its index, never
on how many workers play the run or on the engine.

Each seat's own random stream (the choices a randomised policy makes) starts from a keyed BLAKE2b
hash of (the game's seed, the seat): a one-way derivation, independent of the shuffle, so that no
state a seat's stream reaches tells the game's seed, and so the deal, the set-aside cards or
another seat's stream (docs/reference.md, random streams).
"""

from __future__ import annotations

import numpy as np

from solver.game.rng import seat_seed

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


def seat_seeds(game_seeds_: np.ndarray, players: int) -> np.ndarray:
    """``seat_seed`` for every game and seat: uint64[games, players]."""
    seeds = np.asarray(game_seeds_, np.uint64)
    out = np.empty((len(seeds), players), np.uint64)
    for i, s in enumerate(seeds.tolist()):
        for k in range(players):
            out[i, k] = seat_seed(s, k)
    return out
