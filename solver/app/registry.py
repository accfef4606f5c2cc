"""The kinds of long work (jobs) the studio runs in its worker processes, said once: each kind's
name, its sentence, what its request carries, the function that runs it from its request, the
words of its finished result (``jobwords``) and what they mean (``jobmeaning``), with the
glossary's term and the chart beside them. The studio's job model, the page's menu (``GET
/api/rules``), the worker (``jobrunner.run_job``) and the words beside a done job all read them from
here.

The simulated players and their defaults are ``policychoices.py``'s (and named here too, as before)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from solver.app.documents import Doc, Fraction, Shown
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
from solver.app.measuring import ceiling_job, chance_job, ladder_job, simulate_job
from solver.app.policychoices import BATCH_DEFAULT, ONE_STEP, PLAY_POLICIES, POLICIES, TABLE_DEFAULT
from solver.app.reviewing import review_job
from solver.app.tables import calibrate_job, rate_job
from solver.io.catalog import Catalog
from solver.io.replays import Replays

__all__ = ["BATCH_DEFAULT", "JOBS", "JOB_KINDS", "NEEDS", "ONE_STEP", "PLAY_POLICIES", "POLICIES", "TABLE_DEFAULT",
           "JobKind", "JobRunner"]

# runner(request, catalog, workers, progress(fraction), shown(piece) or None, the games' kept replays or None)
# -> the result document
JobRunner = Callable[[Doc, Catalog, int, Fraction, Shown | None, Replays | None], Doc]
NEEDS = ("mission", "log", "games")  # what a request carries: a mission's text, a log's, the folder's games


@dataclass(frozen=True)
class JobKind:
    name: str
    summary: str  # what it measures, in one plain sentence (the page's menu)
    needs: str  # one of NEEDS
    run: JobRunner  # the job from its request: the document of the command of that name with --json
    words: Callable[[Doc], str]  # a finished job's document in one plain line (the studio shows it)
    # what that figure means for a player, in one plain sentence, and the glossary's term that explains it
    meaning: Callable[[Doc], str] | None = None
    glossary: str | None = None
    chart: str | None = None  # the picture the page draws of a result beside its words ("ladder": its curve)


JOBS = {k.name: k for k in (
    JobKind("ladder", "the clear rate on the same deals for tables of growing strength, and the shortfall", "mission",
            ladder_job, ladder_words, meaning=ladder_meaning, glossary="shortfall", chart="ladder"),
    JobKind("simulate", "many games with one policy: the clear rate and its interval", "mission",
            simulate_job, simulate_words, meaning=simulate_meaning, glossary="clear-rate"),
    JobKind("ceiling", "the open-hand ceiling: the deals a team that sees every hand could clear", "mission",
            ceiling_job, ceiling_words, meaning=ceiling_meaning, glossary="ceiling"),
    JobKind("review", "a logged game judged decision by decision", "log", review_job, review_words),
    JobKind("rate", "which rung of the ladder a table plays like, from its finished games", "games",
            rate_job, rate_words, meaning=rate_meaning, glossary="rung"),
    JobKind("calibrate", "every table's level from all its games, its predictions checked against what it then "
            "did, and what to play next", "games", calibrate_job, calibrate_words),  # the Tables tab says its figures
    JobKind("chance", "the chance a careful table clears the game from where it stands (cards gone, rounds and "
            "skills left)", "mission", chance_job, chance_words, meaning=chance_meaning, glossary="interval"),
)}
JOB_KINDS = tuple(JOBS)
