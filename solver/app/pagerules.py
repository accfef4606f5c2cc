"""The game's rules and the names the front ends offer, as one document (``rules_doc``): the page
holds no rule of its own, it reads this (`GET /api/rules`), so a change to a rule is made once,
here or below it."""

from __future__ import annotations

from solver.app.documents import Doc
from solver.app.glossary import glossary_doc
from solver.app.policychoices import BATCH_DEFAULT, ONE_STEP, TABLE_DEFAULT
from solver.app.printed import PAPERS
from solver.app.registry import JOBS
from solver.core.cards import VALUES, Colour
from solver.core.codes import PolicyId
from solver.core.spec import MAX_SKILLS, MODE_RULES, max_rounds

MAX_SAMPLES = 64  # the search player's samples a request may ask for (the ladder's top rung)


def rules_doc() -> Doc:
    """The modes (their table sizes, default and largest rounds and skill counters), the colours and
    values of the cards, the policies (each with one plain sentence of what it is), the defaults,
    the kinds of job the studio runs, and the glossary of the ladder's words (``GET /glossary``)."""
    return {
        "modes": [{"name": mode, "players": list(r.players), "rounds": r.rounds, "skills": r.skills,
                   "max_rounds": max_rounds(mode), "cards_per_round": r.cards_per_round}
                  for mode, r in MODE_RULES.items()],
        "players": sorted({n for r in MODE_RULES.values() for n in r.players}),
        "limits": {"rounds": [1, max(max_rounds(mode) for mode in MODE_RULES)], "skills": [0, MAX_SKILLS],
                   "samples": [1, MAX_SAMPLES]},
        "colours": [c.long for c in Colour],
        "values": list(VALUES),
        "policies": [{"name": p.label, "about": p.summary} for p in PolicyId],
        "table_default": TABLE_DEFAULT,
        "batch_default": BATCH_DEFAULT,
        "one_step": list(ONE_STEP),
        "jobs": [{"name": j.name, "about": j.summary, "needs": j.needs, "glossary": j.glossary, "chart": j.chart}
                 for j in JOBS.values()],
        "glossary": glossary_doc(),
        "papers": list(PAPERS),
    }
