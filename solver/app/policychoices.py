"""The simulated players both front ends offer, and their defaults, said once: every command's
--policy, the studio's "policy" and the page's menus (``pagerules.rules_doc``) list them from here."""

from __future__ import annotations

from solver.core.codes import DEFAULT_POLICY, OPEN_HAND, POLICY_NAMES, PolicyId

# the simulated players: every command's --policy, the studio's "policy"
POLICIES = POLICY_NAMES
# the default of the batch commands (simulate, play, validate, report, generate)
BATCH_DEFAULT = DEFAULT_POLICY
# the other seats of a table where people play (`play --human`, the studio's table): the planner,
# the stronger of the fast players, whose choices also order a person's (best first)
TABLE_DEFAULT = PolicyId.PLANNER.label
# the one-step players a job may name (the search player has rungs of its own in the ladder)
ONE_STEP = tuple(p for p in POLICY_NAMES if p != PolicyId.SEARCH.label)
PLAY_POLICIES = (*POLICY_NAMES, OPEN_HAND)  # `kakapo play` may also show the open-hand team's plan
