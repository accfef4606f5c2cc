"""Twin of game/rng.py: SplitMix64 streams and the trace hash's mixing step."""

from __future__ import annotations

import numpy as np

from solver.game import rng as reference
from solver.runtime.jit import kernel

GOLDEN = np.uint64(reference.GOLDEN)
MUL1 = np.uint64(reference.MUL1)
MUL2 = np.uint64(reference.MUL2)
FNV_OFFSET = np.uint64(reference.FNV_OFFSET)
FNV_PRIME = np.uint64(reference.FNV_PRIME)
S30, S27, S31 = np.uint64(30), np.uint64(27), np.uint64(31)


@kernel(hot=True)
def rnext(rs, k):
    """SplitMix64.next on stream k of rs."""
    s = rs[k] + GOLDEN
    rs[k] = s
    z = (s ^ (s >> S30)) * MUL1
    z = (z ^ (z >> S27)) * MUL2
    return z ^ (z >> S31)


@kernel(hot=True)
def below(rs, k, n):
    """SplitMix64.below on stream k of rs."""
    return np.int64(rnext(rs, k) % np.uint64(n))


@kernel(hot=True)
def mix(h, v):
    """rng.mix: one step of the trace hash."""
    return (h ^ np.uint64(v)) * FNV_PRIME
