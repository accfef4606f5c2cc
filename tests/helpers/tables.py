"""Tables of known strength for the calibration: what the fit reads of a game, replays where each
rung clears a given share, and the campaign's rates of b19 standing in for a ladder."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from solver.analysis.calibrate import Rates, row_rates
from solver.analysis.ladder import RUNGS
from solver.analysis.rate import Measured, rung_plays
from solver.io.difficulty import campaign_difficulty

PLAYS = 10
N = len(RUNGS)


def game(cleared: bool, mission: str = "b19", players: int = 2):
    """What the fit reads of a game: its result, mission and table size."""
    return SimpleNamespace(cleared=cleared, path=f"{mission}.jsonl", mission=SimpleNamespace(id=mission),
                           start=SimpleNamespace(players=players), note=None)


def measured(rates: list[float], games: int) -> Measured:
    """Replays where rung r clears rates[r] of its replays on every deal."""
    clears = np.array([[round(r * rung_plays(k, PLAYS))] * games for r, (_, k) in zip(rates, RUNGS, strict=True)],
                      np.int64)
    zeros = np.zeros((N, games), np.int64)
    return Measured(clears, zeros, zeros, PLAYS)


class FixedLadder:
    """b19's campaign rates for every game (no file, no play)."""

    def __init__(self):
        self.rates = row_rates(campaign_difficulty()[("b19", 2)])

    def of(self, _game) -> Rates:
        return self.rates


# the replays of a deal where the weak rungs lose and the strong ones win: greedy .. search-64
SPREAD = [0.0, 0.1, 0.2, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]

