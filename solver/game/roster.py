"""The simulated players by name (``core.codes.PolicyId``): one place that knows every policy class."""

from __future__ import annotations

from solver.core.codes import PolicyId
from solver.game.planner import PlannerPolicy
from solver.game.policies import GreedyPolicy, HeuristicPolicy, Policy, RandomPolicy
from solver.game.search import DEFAULT_SAMPLES

POLICY_CLASSES: dict[PolicyId, type[Policy]] = {
    PolicyId.HEURISTIC: HeuristicPolicy,
    PolicyId.RANDOM: RandomPolicy,
    PolicyId.GREEDY: GreedyPolicy,
    PolicyId.PLANNER: PlannerPolicy,
}


def make_policy(name: str, samples: int = DEFAULT_SAMPLES):
    """A fresh policy of that name (``heuristic``, ``random``, ``greedy``, ``planner``, ``search``).
    The search player decides with its Numba kernels (its Python twin, game.search.SearchPolicy,
    is the reference the tests hold them to), ``samples`` look-ahead deals a decision."""
    pid = PolicyId.parse(name)
    if pid == PolicyId.SEARCH:
        from solver.game.fast.search import SearchPlayer  # heavy: Numba

        return SearchPlayer(samples)
    return POLICY_CLASSES[pid]()
