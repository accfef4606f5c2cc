"""`kakapo ladder`: the clear rate of one mission on the same deals for tables of growing strength,
from the naive baseline to the search player, with the open-hand ceiling above them all.

A difficulty number is only as good as the players behind it: a mission that the heuristic
rarely clears may be easy for a table that thinks ahead. The ladder shows the whole curve, and
sums it up in one figure, the *shortfall*: the share of the clearable deals that a table picked
at random from the ladder's rungs misses (0: every rung clears every deal the ceiling clears;
1: no rung clears any). docs/policies.md defines the rungs.
"""

from __future__ import annotations

import numpy as np

from solver.analysis.simulate import play_games
from solver.core.codes import PolicyId, Result
from solver.core.stats import wilson
from solver.openhand.ceiling import ceiling

# (policy, samples): the naive baseline, the one-ply players, then the search player thinking more
RUNGS = ((PolicyId.GREEDY.label, None), (PolicyId.HEURISTIC.label, None), (PolicyId.PLANNER.label, None),
         *((PolicyId.SEARCH.label, k) for k in (2, 4, 8, 16)))
LADDER_SAMPLES = tuple(k for _, k in RUNGS if k is not None)  # the search rungs
DIFFICULTY = "shortfall"


def rung_label(policy: str, samples: int | None) -> str:
    return policy if samples is None else f"{policy}-{samples}"


def ladder(mission, catalog, players: int, games: int, seed: int, workers: int = 1, progress=None,
           time_limit: float | None = None) -> dict:
    """SPEC's `kakapo ladder` document. ``progress(label, done, total)`` follows each rung."""
    rungs = []
    cleared_any = np.zeros(games, bool)
    for policy, samples in RUNGS:
        label = rung_label(policy, samples)
        tick = (lambda d, t, lab=label: progress(lab, d, t)) if progress else None
        out = play_games(mission, catalog, players, games, seed, policy, "numba", workers, progress=tick,
                         samples=samples or 0)
        won = out.results == Result.CLEARED
        cleared_any |= won
        cleared = int(won.sum())
        rungs.append({"policy": policy, "samples": samples, "cleared": cleared, "clear_rate": cleared / games,
                      "ci95": list(wilson(cleared, games))})
    tick = (lambda d, t: progress("ceiling", d, t)) if progress else None
    limit = {} if time_limit is None else {"time_limit": time_limit}
    top = ceiling(mission, catalog, players, games, seed, workers, progress=tick, witnesses=cleared_any,
                  **limit)  # every rung's win is a witness
    ceiling_doc = {"clearable": top["clearable"], "not_clearable": top["not_clearable"],
                   "undecided": top["undecided"], "clear_rate": top["clear_rate"], "ci95": top["ci95"]}
    return {"mission": mission.id, "players": players, "games": games, "seed": seed, "rungs": rungs,
            "ceiling": ceiling_doc, "difficulty": {"name": DIFFICULTY, "value": shortfall(rungs, top["clearable"])}}


def shortfall(rungs: list[dict], clearable: int) -> float:
    """The share of the clearable deals a rung misses, averaged over the rungs (1.0 when no deal
    is known to be clearable)."""
    if clearable == 0:
        return 1.0
    return float(np.mean([max(0.0, 1.0 - r["cleared"] / clearable) for r in rungs]))


def shortfall_of_rates(rates: list[float], ceiling_rate: float) -> float:
    """The shortfall from clear rates measured over different numbers of deals (`validate`,
    `report`: the band's games and the ladder's deals differ): each rate against the ceiling's."""
    if ceiling_rate <= 0:
        return 1.0
    return float(np.mean([max(0.0, 1.0 - r / ceiling_rate) for r in rates]))
