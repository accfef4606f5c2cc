"""The chance that a careful table clears a game from where it stands (the studio's "table" panel,
`kakapo chance`): over many deals of the cards nobody has seen (``game/moment.py``: the board, the
cards gone, the rounds and skills left, the trump), the search player plays every seat to the end
(Numba); the rate over the deals, with its Wilson interval, is the answer.
"""

from __future__ import annotations

import numpy as np

from solver.core.cards import Card, Colour
from solver.core.codes import Result
from solver.core.rules import Mission
from solver.core.stats import wilson
from solver.game.arrays import build_arrays
from solver.game.fast.search import search_play_on
from solver.game.fast.state import fast_state
from solver.game.moment import check_hand, deal_moment, moment_spec
from solver.game.planner import planner_library
from solver.game.search import DEFAULT_SAMPLES
from solver.game.seeds import game_seeds


def chance(m: Mission, catalog, players: int, gone: list[Card], *, games: int, seed: int = 1,
           trump: Colour | None = None, samples: int = DEFAULT_SAMPLES, progress=None,
           hand: list[Card] | None = None) -> dict:
    """The search player's clear rate from the moment over ``games`` deals of the unseen cards
    (``hand``: the asking seat's cards, the same in every deal)."""
    spec, held = moment_spec(m, players, gone, trump)
    if hand is not None:
        hand = check_hand(spec, held, hand)
    T = build_arrays(m, catalog, planner_library(m, catalog))
    seeds = game_seeds(seed, 0, games)
    results = np.zeros(1, np.int64)
    cleared = 0
    for i, s in enumerate(seeds.tolist()):
        state = deal_moment(m, catalog, spec, held, int(s), hand)
        search_play_on(fast_state(state), samples, T, np.array([s], np.uint64), results)
        cleared += int(results[0] == int(Result.CLEARED))
        if progress:
            progress(i + 1, games)
    lo, hi = wilson(cleared, games)
    return {"mission": m.id, "players": players, "games": games, "seed": seed, "cleared": cleared,
            "clear_rate": cleared / games, "ci95": [lo, hi], "gone": [str(c) for c in sorted(gone)],
            "rounds_left": m.rounds, "skills_left": m.skills, "trump": str(spec.trump_round_one),
            "policy": "search", "samples": samples, "hand": None if hand is None else [str(c) for c in hand]}
