"""The statistics every report of a rate uses."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


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


TOO_WIDE = 0.5  # an interval wider than this (of the 0..1 scale) tells a player nothing yet


def too_wide(ci95: tuple[float, float] | list[float]) -> bool:
    """Whether an interval is too wide to tell a player anything: "too few games to say yet"
    (the studio's Tables tab and `calibrate`'s ``too_few_games`` say it where this holds)."""
    return ci95[1] - ci95[0] > TOO_WIDE
