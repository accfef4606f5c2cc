"""`kakapo ladder`: the clear rate of one mission on the same deals for arrays of growing strength,
from the naive baseline to the search player, with the open-hand ceiling above them all.

A difficulty number is only as good as the players behind it: a mission that the heuristic
rarely clears may be easy for a table that thinks ahead. The ladder shows the whole curve, and
sums it up in one figure, the *shortfall*: the share of the clearable deals that a table picked
at random from the ladder's rungs misses (0: every rung clears every deal the ceiling clears;
1: no rung clears any). docs/policies.md defines the rungs. The two top rungs (search with 32 and
64 samples, which cost 2 and 4 times search-16) play the first TOP_RUNG_DEALS of the deals.
"""

from __future__ import annotations

import numpy as np

from solver.analysis.simulate import play_games
from solver.core.codes import PolicyId, Result
from solver.core.stats import wilson
from solver.openhand.ceiling import ceiling

# (policy, samples): the naive baseline, the one-ply players, then the search player thinking more
RUNGS = ((PolicyId.GREEDY.label, None), (PolicyId.HEURISTIC.label, None), (PolicyId.PLANNER.label, None),
         *((PolicyId.SEARCH.label, k) for k in (2, 4, 8, 16, 32, 64)))
LADDER_SAMPLES = tuple(k for _, k in RUNGS if k is not None)  # the search rungs
DIFFICULTY = "shortfall"
TOP_RUNG_DEALS = 200  # search-32 and search-64 play at most this many deals (the first ones)


def is_top_rung(samples: int | None) -> bool:
    """Search with more than 16 samples: the rungs that play fewer deals (and `rate` replays less)."""
    return samples is not None and samples > 16


def rung_games(samples: int | None, games: int) -> int:
    """The deals a rung plays: every deal, but the top rungs at most the first TOP_RUNG_DEALS
    (measured: they bring the ladder within 10 points of the ceiling on every campaign row, at 2
    and 4 times search-16's cost a deal; benchmarks/RESULTS.md)."""
    return min(games, TOP_RUNG_DEALS) if is_top_rung(samples) else games


def rung_label(policy: str, samples: int | None) -> str:
    return policy if samples is None else f"{policy}-{samples}"


def ladder(mission, catalog, players: int, games: int, *, seed: int, workers: int = 1, progress=None,
           time_limit: float | None = None, cluster=None) -> dict:
    """`kakapo ladder`'s document. ``progress(label, done, total)`` follows each rung.
    ``cluster``: a Dask cluster's workers play the rungs and decide the ceiling's deals
    (``analysis.cluster.ClusterWork``): the same document."""
    rungs = []
    cleared_any = np.zeros(games, bool)
    wanted = [(policy, samples, rung_games(samples, games)) for policy, samples in RUNGS]
    played = cluster.rungs(wanted, progress) if cluster is not None else None
    for k, (policy, samples, n) in enumerate(wanted):
        if played is not None:
            results = played[k]
        else:
            label = rung_label(policy, samples)
            tick = (lambda d, t, lab=label: progress(lab, d, t)) if progress else None
            results = play_games(mission, catalog, players, n, seed, policy, "numba", workers, progress=tick,
                                 samples=samples or 0).results  # game i of `simulate --seed S`: the first n deals
        won = results == Result.CLEARED
        cleared_any[:n] |= won
        cleared = int(won.sum())
        rungs.append({"policy": policy, "samples": samples, "games": n, "cleared": cleared,
                      "clear_rate": cleared / n, "ci95": list(wilson(cleared, n))})
    at_ceiling = (lambda d, t: progress("ceiling", d, t)) if progress else None
    limit = {} if time_limit is None else {"time_limit": time_limit}
    top = ceiling(mission, catalog, players, games, seed, workers, progress=at_ceiling, witnesses=cleared_any,
                  decide=cluster.decide if cluster is not None else None, **limit)  # every rung's win is a witness
    ceiling_doc = {"clearable": top["clearable"], "not_clearable": top["not_clearable"],
                   "undecided": top["undecided"], "clear_rate": top["clear_rate"], "ci95": top["ci95"]}
    clearable = np.array([a == "clearable" for a in top["answers"]])
    for r in rungs:  # the clearable deals among those the rung played: its shortfall's denominator
        r["clearable"] = int(clearable[:r["games"]].sum())
    return {"mission": mission.id, "players": players, "games": games, "seed": seed, "rungs": rungs,
            "ceiling": ceiling_doc, "difficulty": {"name": DIFFICULTY, "value": shortfall(rungs, clearable)}}


def shortfall(rungs: list[dict], clearable) -> float:
    """The share of the clearable deals a rung misses, averaged over the rungs; each rung against
    the clearable deals among those it played (``rungs``: "cleared" and "games", its first deals;
    ``clearable``: per deal, known clearable). 1.0 when no deal is known to be clearable."""
    known = np.asarray(clearable, bool)
    if not known.any():
        return 1.0
    parts = []
    for r in rungs:
        within = int(known[:r.get("games", len(known))].sum())
        parts.append(max(0.0, 1.0 - r["cleared"] / within) if within else 1.0)
    return float(np.mean(parts))


def shortfall_of_rates(rates: list[float], ceiling_rate: float) -> float:
    """The shortfall from clear rates measured over different numbers of deals (`validate`,
    `report`: the band's games and the ladder's deals differ): each rate against the ceiling's."""
    if ceiling_rate <= 0:
        return 1.0
    return float(np.mean([max(0.0, 1.0 - r / ceiling_rate) for r in rates]))
