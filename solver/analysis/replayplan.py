"""Which replays a rating makes (`rate`, `calibrate`): each rung replays a logged deal a few times
first (``EARLY``); the others only where they can change a figure: not where the first ones all
ended as the table's game did (``settled``), nor for a rung the table's games rule out
(``ruled_out``), but always for the rungs near the table's best (``near_best``), whose figures
the best rung, the plausible ones and the table's level come from. A value is a (rung, game)
pair's replays as ``rate.replay_part`` makes them: ``{"plays", "made", "first", "rest"?}``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from solver.analysis.ladder import RUNGS, is_top_rung

if TYPE_CHECKING:
    from solver.analysis.rate import RatedGame

EARLY = 4  # replays of a deal made first: all ending as the table's game did, the others are not made (settled)
RULED_OUT = 12.0  # log-likelihood behind the best rung from which a rung's other replays are not made (ruled_out)
NEAR_BEST = 6.0  # log-likelihood behind the best rung within which a rung makes every replay (near_best)


def rung_plays(samples: int | None, plays: int) -> int:
    """The replays a rung makes of each deal: ``plays``, but half as many for the two top rungs
    (search with 32 and 64 samples cost 2 and 4 times search-16 a game; as the ladder plays them
    on fewer deals), the first half of the same streams."""
    return max(1, (plays + 1) // 2) if is_top_rung(samples) else plays


def first_plays(samples: int | None, plays: int) -> int:
    """The replays of a deal a rung makes first (``EARLY``, at most its ``rung_plays``)."""
    return min(rung_plays(samples, plays), EARLY)


def settled(value: dict, cleared: bool | None) -> bool:
    """Whether a rung's replays of a deal are known from its first ones: there were all of them, or
    every one ended as the table's game did (the others are then taken to end so too: that is what
    nearly always happens, and where a rung is that sure of a deal, the likelihood hardly moves)."""
    if cleared is None or value["made"] == value["plays"]:
        return True
    return value["first"] == (value["made"] if cleared else 0)


def clears_of(value: dict, cleared: bool | None, ruled_out: bool, complete: bool = False) -> int:
    """A rung's clears of a deal over its ``plays`` replays: all made (``complete``: the other
    replays made too, settled or not); or settled by the first ones; or, for a rung the table's
    games rule out (``ruled_out``), the first ones' share (its other replays could not change a
    figure); else the first and the other replays."""
    n, made, first = value["plays"], value["made"], value["first"]
    if cleared is None:
        return 0
    if made == n:
        return first
    if complete:
        return first + value["rest"]
    if settled(value, cleared):
        return n if cleared else 0
    if ruled_out:
        return round(first * n / made)
    return first + value["rest"]


def _table_likelihood(values: dict, games: list[RatedGame], finished: list[int], plays: int,
                      out: set[tuple[int, int]] | None) -> np.ndarray:
    """Each rung's log-likelihood of each finished game of a table (rungs x games), from the replays
    made so far (``out``: the pairs ruled out; None: every pair taken as ruled out, its first
    replays the share of all)."""
    won = np.array([bool(games[g].cleared) for g in finished])
    ll = np.zeros((len(RUNGS), len(finished)))
    for r, (_, samples) in enumerate(RUNGS):
        n = rung_plays(samples, plays)
        c = np.array([clears_of(values[(r, g)], games[g].cleared, out is None or (r, g) in out) for g in finished],
                     float)
        p = (c + 0.5) / (n + 1)
        ll[r] = np.where(won, np.log(p), np.log1p(-p))
    return ll


def near_best(values: dict, games: list[RatedGame], tables: list[list[int]], plays: int,
              out: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The (rung, game) pairs of the rungs within NEAR_BEST of their table's best rung (its
    log-likelihood over the table's finished games): they make every replay, settled or not, so
    that the best rung, the plausible ones and the table's level are those every replay gives (the
    settled shortcut moves a rung's likelihood a little; far from the best, that changes nothing)."""
    near: set[tuple[int, int]] = set()
    for table in tables:
        finished = [g for g in table if games[g].cleared is not None]
        if not finished:
            continue
        whole = _table_likelihood(values, games, finished, plays, out).sum(axis=1)
        for rung in np.flatnonzero(whole.max() - whole <= NEAR_BEST).tolist():
            near.update((rung, g) for g in table)
    return near


def ruled_out(values: dict, games: list[RatedGame], tables: list[list[int]], plays: int) -> set[tuple[int, int]]:
    """The (rung, game) pairs whose other replays cannot change a figure: the rung's log-likelihood
    over the table's finished games, the first replays taken as the share of all, is more than
    RULED_OUT below the best rung's, over all its games and with any one of them left out (as
    `calibrate` rates each game's table without it)."""
    out: set[tuple[int, int]] = set()
    for table in tables:
        finished = [g for g in table if games[g].cleared is not None]
        if not finished:
            continue
        ll = _table_likelihood(values, games, finished, plays, None)
        whole = ll.sum(axis=1)
        behind = whole.max() - whole
        for k in range(len(finished)):  # each game left out
            without = whole - ll[:, k]
            behind = np.minimum(behind, without.max() - without)
        for rung in np.flatnonzero(behind > RULED_OUT).tolist():
            out.update((rung, g) for g in table)
    return out
