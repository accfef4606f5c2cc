"""The names both front ends offer, said once: the simulated players and their defaults, and the
kinds of long work (jobs) the studio runs in its worker processes."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class JobKind:
    name: str
    summary: str
    needs: str  # what its request carries: "mission" (text), "log" (text) or "games" (the folder's)


JOBS = {k.name: k for k in (
    JobKind("ladder", "the clear rate on the same deals for tables of growing strength, and the shortfall", "mission"),
    JobKind("simulate", "many games with one policy: the clear rate and its interval", "mission"),
    JobKind("ceiling", "the open-hand ceiling: the deals a team that sees every hand could clear", "mission"),
    JobKind("review", "a logged game judged decision by decision", "log"),
    JobKind("rate", "which rung of the ladder a table plays like, from its finished games", "games"),
    JobKind("calibrate", "every table's level from all its games, its predictions checked against what it then "
            "did, and what to play next", "games"),
    JobKind("chance", "the chance a careful table clears the game from where it stands (cards gone, rounds and "
            "skills left)", "mission"),
)}
JOB_KINDS = tuple(JOBS)
