"""The names both front ends offer, said once: the simulated players and their defaults, and the
kinds of long work (jobs) the studio runs in its worker processes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from solver.app.documents import Doc
from solver.app.jobmeaning import ceiling_meaning, chance_meaning, ladder_meaning, rate_meaning, simulate_meaning
from solver.app.jobwords import (
    calibrate_words,
    ceiling_words,
    chance_words,
    ladder_words,
    rate_words,
    review_words,
    simulate_words,
)
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
    summary: str  # what it measures, in one plain sentence (the page's menu)
    needs: str  # what its request carries: "mission" (text), "log" (text) or "games" (the folder's)
    words: Callable[[Doc], str]  # a finished job's document in one plain line (the studio shows it)
    # what that figure means for a player, in one plain sentence, and the glossary's term that explains it
    meaning: Callable[[Doc], str] | None = None
    glossary: str | None = None
    chart: str | None = None  # the picture the page draws of a result beside its words ("ladder": its curve)


JOBS = {k.name: k for k in (
    JobKind("ladder", "the clear rate on the same deals for tables of growing strength, and the shortfall", "mission",
            ladder_words, meaning=ladder_meaning, glossary="shortfall", chart="ladder"),
    JobKind("simulate", "many games with one policy: the clear rate and its interval", "mission",
            simulate_words, meaning=simulate_meaning, glossary="clear-rate"),
    JobKind("ceiling", "the open-hand ceiling: the deals a team that sees every hand could clear", "mission",
            ceiling_words, meaning=ceiling_meaning, glossary="ceiling"),
    JobKind("review", "a logged game judged decision by decision", "log", review_words),
    JobKind("rate", "which rung of the ladder a table plays like, from its finished games", "games",
            rate_words, meaning=rate_meaning, glossary="rung"),
    JobKind("calibrate", "every table's level from all its games, its predictions checked against what it then "
            "did, and what to play next", "games", calibrate_words),  # the Tables tab says each of its figures
    JobKind("chance", "the chance a careful table clears the game from where it stands (cards gone, rounds and "
            "skills left)", "mission", chance_words, meaning=chance_meaning, glossary="interval"),
)}
JOB_KINDS = tuple(JOBS)
