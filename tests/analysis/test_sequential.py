"""The campaign's sequential design: a row's rungs play batches of deals until its shortfall is
known to the precision asked, the costly rungs fewer deals than the cheap ones; the figure is the
ladder's shortfall, its precision an honest 95 % half-width; and on the bundled campaign's deals
(measured deal by deal, benchmarks/ladder_campaign.json) the design's figures agree with the
whole file's."""

from __future__ import annotations

import json

import numpy as np

from solver.analysis.ladder import RUNGS, rung_label, shortfall
from solver.analysis.sequential import FIRST, estimate, first_deals, next_deals
from solver.io.difficulty import PRECISION
from tests.helpers.paths import ROOT

LABELS = [rung_label(p, k) for p, k in RUNGS]


def run_design(won: list[np.ndarray], games: int, precision: float) -> list[int]:
    n = first_deals(games)
    while (grown := next_deals([w[:k] for w, k in zip(won, n, strict=True)], games, precision)) is not None:
        assert all(g >= k for g, k in zip(grown, n, strict=True)) and grown != n
        n = grown
    return n


def test_a_row_every_rung_clears_stops_at_its_first_deals_and_says_how_sure_it_is():
    won = [np.ones(500, bool) for _ in RUNGS]
    assert run_design(won, 500, PRECISION) == [FIRST[k is not None] for _, k in RUNGS]
    got = estimate([w[:n] for w, n in zip(won, first_deals(500), strict=True)])
    assert got.shortfall == 0.0 and 0 < got.half_width <= PRECISION  # never exact on a few deals


def test_a_hard_row_plays_more_deals_the_cheap_rungs_most_and_never_past_games():
    rng = np.random.default_rng(3)
    rates = [0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9]
    won = [rng.random(500) < p for p in rates]
    n = run_design(won, 500, PRECISION)
    assert max(n) <= 500 and n[LABELS.index("search-64")] < n[LABELS.index("planner")]
    assert n[LABELS.index("search-2")] > FIRST[True]
    got = estimate([w[:k] for w, k in zip(won, n, strict=True)])
    assert got.half_width <= PRECISION or max(n) == 500
    lo, hi = got.interval
    assert lo <= float(np.mean([1 - p for p in rates])) <= hi
    # a wider precision asked: fewer deals; at most 60 deals a rung: never more
    assert sum(run_design(won, 500, 0.05)) < sum(n)
    assert max(run_design(won, 60, 0.001)) == 60


def test_the_figure_is_the_ladders_shortfall_and_the_ceiling_counts():
    rng = np.random.default_rng(5)
    clearable = rng.random(200) < 0.9
    won = [(rng.random(200) < 0.7) & clearable for _ in RUNGS]
    rungs = [{"cleared": int(w.sum()), "games": 200} for w in won]
    assert abs(estimate(won, clearable).shortfall - shortfall(rungs, clearable)) < 1e-12
    # more deals, a narrower interval
    assert estimate([w[:200] for w in won]).half_width < estimate([w[:50] for w in won]).half_width


def test_on_the_bundled_campaigns_deals_every_row_agrees_with_the_whole_measurement():
    """The design replayed on every rung's result per deal of the bundled campaign (500 deals, the
    top rungs 200; no game is played): each row's figure within its stated precision of the whole
    file's, the order's rank correlation with it above 0.97, at a fraction of the deals."""
    rows = json.loads((ROOT / "benchmarks" / "ladder_campaign.json").read_text())
    mine, whole, deals = [], [], 0
    for r in rows:
        won = [np.array([c == "1" for c in r["rungs"][k]["won"]]) for k in LABELS]
        clearable = np.array([c == "1" for c in r["ceiling"]["answers"]])
        n = first_deals(500)
        while (grown := next_deals([w[:k] for w, k in zip(won, n, strict=True)], 500, PRECISION)) is not None:
            grown = [min(g, len(w)) for g, w in zip(grown, won, strict=True)]  # the file's top rungs hold 200
            if grown == n:
                break
            n = grown
        got = estimate([w[:k] for w, k in zip(won, n, strict=True)], clearable)
        ref = estimate(won, clearable)
        assert abs(got.shortfall - ref.shortfall) <= got.half_width, (r["mission"], r["players"], n)
        mine.append(got.shortfall)
        whole.append(ref.shortfall)
        deals += sum(n)
    ranks = [np.argsort(np.argsort(x)) for x in (mine, whole)]
    assert np.corrcoef(*ranks)[0, 1] >= 0.97
    assert deals < 0.5 * sum(len(r["rungs"][k]["won"]) for r in rows for k in LABELS)
