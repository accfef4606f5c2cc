"""The campaign's sequential design: each row's rungs play batches of deals until the row's
shortfall is known to a stated precision, the cheap rungs more deals than the costly ones.

A row (a mission at a table size) starts with every rung on its first deals (``FIRST``: the
one-step players on 100, the search player on 25). After each batch, the shortfall and the
half-width of its 95 % interval are estimated (``estimate``); once the half-width is within the
precision, or every rung has played ``games`` deals, the row is done. Otherwise each rung is given
its share of the next batch by Neyman allocation: the deals a rung should play grow with the spread
of its results and shrink with the square root of what a deal costs it (``RUNG_COST``, fixed
constants measured once: benchmarks/RESULTS.md), at most doubling a rung's deals a batch, in whole
steps (``STEP``). A rung that clears every deal so far has little to tell: the search player's
upper rungs, which cost the most, usually stop at their first 25 deals.

Every decision depends only on the results of the deals played (and these only on the deal and
the seed: game i of `simulate --seed S`), never on the clock, the workers or the order results
arrive in: the same seed gives the same rows anywhere.

The estimate: rung r clears X_r of its first n_r deals, of which Y_r are clearable (the open-hand
ceiling; before it is known, every deal); the shortfall is the mean over the rungs of
max(0, 1 - X_r / Y_r), as the ladder's. Its variance comes from each deal's influence on it (the
rungs share deals, so their covariances count), with a floor for rungs whose results so far do not
vary (a pseudo-count: (X + 1) / (n + 2)), so that a row is never taken as exact on few deals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.analysis.ladder import RUNGS, rung_label

Z95 = 1.959964
FIRST = {False: 100, True: 25}  # the deals a rung plays first: the one-step players, the search player
STEP = FIRST  # and the steps its deals grow by
# what a deal costs each rung, relative (the search player: about 1.26 + 0.42 K, K its samples; measured on
# the campaign's rows, benchmarks/RESULTS.md); fixed, so that the allocation never depends on the machine
RUNG_COST = {rung_label(p, k): (0.03 if k is None else 1.26 + 0.42 * k) for p, k in RUNGS}


def is_search(samples: int | None) -> bool:
    return samples is not None


def first_deals(games: int) -> list[int]:
    """Each rung's first batch (at most ``games`` deals)."""
    return [min(games, FIRST[is_search(k)]) for _, k in RUNGS]


@dataclass(frozen=True)
class Estimate:
    """A row's shortfall from the deals played so far, and the half-width of its 95 % interval."""

    shortfall: float
    half_width: float

    @property
    def interval(self) -> tuple[float, float]:
        return max(0.0, self.shortfall - self.half_width), min(1.0, self.shortfall + self.half_width)


def estimate(won: list[np.ndarray], clearable: np.ndarray | None = None) -> Estimate:
    """The shortfall and its precision: ``won[r]`` rung r's results on its first deals (True:
    cleared); ``clearable`` per deal, at least as many as the longest rung played (None: every
    deal taken as clearable, as before the ceiling is decided)."""
    deals = max(len(w) for w in won)
    y = np.ones(deals) if clearable is None else np.asarray(clearable[:deals], float)
    influence = np.zeros(deals)
    terms, floor = [], 0.0
    for w in won:
        n = len(w)
        x = np.asarray(w, float)
        cleared, within = float(x.sum()), float(y[:n].sum())
        if within == 0:
            terms.append(1.0)  # no clearable deal among its own: counted as missing them all, as the ladder does
            continue
        ratio = cleared / within
        terms.append(max(0.0, 1.0 - ratio))
        influence[:n] += (x - ratio * y[:n]) / within
        p = (cleared + 1) / (n + 2)
        floor += p * (1 - p) / n
    k = len(won)
    variance = float((influence ** 2).sum()) / k ** 2 * deals / max(deals - 1, 1)
    variance = max(variance, floor / k ** 2)
    return Estimate(float(np.mean(terms)), Z95 * float(np.sqrt(variance)))


COSTS = np.array([RUNG_COST[rung_label(p, k)] for p, k in RUNGS])
STEPS = np.array([STEP[is_search(k)] for _, k in RUNGS])


def wanted_deals(won: list[np.ndarray], games: int, precision: float) -> np.ndarray:
    """Each rung's deals by Neyman allocation (proportional to the spread of its results over the
    square root of its cost), scaled so that the row would reach ``precision``: enough deals for
    independent rungs, times how much their covariance makes the variance exceed the independent
    one; in whole steps, at most ``games``."""
    n = np.array([len(w) for w in won])
    now = estimate(won)
    p = np.array([(float(np.sum(w)) + 1) / (len(w) + 2) for w in won])
    spread = np.sqrt(p * (1 - p))
    independent = float(np.sum(spread ** 2 / n)) / len(won) ** 2
    correlated = (now.half_width / Z95) ** 2 / max(independent, 1e-300)
    wanted_variance = (precision / Z95) ** 2 / max(correlated, 1.0)
    target = spread / np.sqrt(COSTS) * float(np.sum(spread * np.sqrt(COSTS))) / (len(won) ** 2 * wanted_variance)
    return np.minimum(games, np.ceil(target / STEPS) * STEPS).astype(int)


def next_deals(won: list[np.ndarray], games: int, precision: float) -> list[int] | None:
    """Each rung's deals after the next batch, or None when the row is done: its half-width
    within ``precision`` (every deal taken as clearable), or every rung at ``games`` deals. A batch
    at most doubles a rung's deals (the first results say little about a rung's spread)."""
    n = np.array([len(w) for w in won])
    caps = np.full(len(won), games)
    if (n >= caps).all() or estimate(won).half_width <= precision:
        return None
    grown = np.minimum(caps, np.maximum(n, np.minimum(2 * n, wanted_deals(won, games, precision)))).astype(int)
    if (grown == n).all():  # the allocation is met but not the precision: one more step for every rung that can
        grown = np.minimum(caps, n + STEPS)
    return [int(x) for x in grown]
