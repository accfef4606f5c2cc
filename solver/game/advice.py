"""A policy's advice to a seat: the seat's legal actions, best first (the human seat's choices).

The policy sees what it always sees, the seat's observation, and decides with a copy of the
seat's random stream, so asking for advice moves nothing in the game. Its own choice comes first;
the others follow by what the heuristic family says of them (the search player's by the
planner's): cards by the key its card choice compares, selections by the value of each option,
placements by the score of each place (the planner's alignment bonus included); ties, and the
choices of greedy and random, in the order of the legal actions.
"""

from __future__ import annotations

from solver.core.rules import mask_of
from solver.game.actions import Action, Phase
from solver.game.planner import PlannerPolicy
from solver.game.policies import HeuristicPolicy, SmartBase
from solver.game.rng import SplitMix64
from solver.game.state import Observation


def ranked_actions(policy, obs: Observation, rng: SplitMix64) -> list[Action]:
    """``obs.legal``, the policy's choice first, then the rest best first where it ranks them."""
    legal = list(obs.legal)
    if not legal:
        return []
    best = policy.act(obs, SplitMix64(rng.state))
    rest = [a for a in legal if a != best]
    scorer = policy if isinstance(policy, SmartBase) else PlannerPolicy() if policy.name == "search" else None
    score: list = []
    if obs.phase == Phase.PLACE and scorer is not None:
        score = place_scores(scorer, obs)
    elif isinstance(scorer, HeuristicPolicy):
        if obs.phase == Phase.REVEAL:
            score = scorer.card_keys(obs, [a.card for a in legal])
        else:
            score = scorer.option_values(obs, list(obs.options))
    if score:
        order = {a: k for k, a in enumerate(legal)}
        rest.sort(key=lambda a: (_negated(score[order[a]]), order[a]))
    return [best, *rest]


def _negated(key):
    """A sort key that puts higher ``key`` first (an int or a tuple of ints)."""
    return tuple(-x for x in key) if isinstance(key, tuple) else -key


def place_scores(policy: SmartBase, obs: Observation) -> list[int]:
    """What the policy's placement rule gives each legal placement of ``obs.piece`` (higher is better)."""
    v = policy.view(obs)
    piece = obs.piece
    assert piece is not None
    col = int(piece.colour)
    out = []
    for p in obs.placements():
        m = mask_of(p.cells)
        if hasattr(v, "plan_score"):
            out.append(v.plan_score(piece, m))
        else:
            out.append(v.score(col, m) if m & v.need else 0)
    return out
