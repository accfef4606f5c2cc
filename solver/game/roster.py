"""The simulated players by name (``core.codes.PolicyId``): one place that knows every policy class."""

from __future__ import annotations

from solver.core.codes import PolicyId
from solver.game.planner import PlannerPolicy
from solver.game.policies import GreedyPolicy, HeuristicPolicy, Policy, RandomPolicy

POLICY_CLASSES: dict[PolicyId, type[Policy]] = {
    PolicyId.HEURISTIC: HeuristicPolicy,
    PolicyId.RANDOM: RandomPolicy,
    PolicyId.GREEDY: GreedyPolicy,
    PolicyId.PLANNER: PlannerPolicy,
}


def make_policy(name: str) -> Policy:
    """A fresh policy of that name (``heuristic``, ``random``, ``greedy``, ``planner``)."""
    return POLICY_CLASSES[PolicyId.parse(name)]()
