"""SplitMix64: a tiny PRNG with a bit-identical twin in the Numba engine; and where each seat's
stream starts (a one-way hash, game/seeds.py says why)."""

from __future__ import annotations

import hashlib

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB
SEAT_KEY = b"kakapo seat stream v1"  # a new key would be a new set of streams (and other games)


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * MUL1) & MASK64
        z = ((z ^ (z >> 27)) * MUL2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform-enough integer in [0, n); n >= 1."""
        return self.next() % n


def mix(h: int, v: int) -> int:
    """FNV-1a style step used for the game trace hash (both engines)."""
    return ((h ^ (v & MASK64)) * FNV_PRIME) & MASK64


def seat_seed(game_seed: int, seat: int) -> int:
    """The start of seat ``seat``'s stream in the game dealt from ``game_seed`` (64 bits)."""
    data = (int(game_seed) & ((1 << 64) - 1)).to_bytes(8, "little") + int(seat).to_bytes(1, "little")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8, key=SEAT_KEY).digest(), "little")
