"""What a finished job's result means for a player, in one plain sentence, per job kind
(``registry.JobKind.meaning``, beside the figure its ``words`` give), with the glossary's term
that explains it (``JobKind.glossary``): the studio sends both with a done job and the page shows
them as they are, holding no sentence of its own.

Percentages are whole here, rounded as the page rounds them (JavaScript's ``Math.round``: a half
towards +infinity), so that a figure reads the same wherever it is shown."""

from __future__ import annotations

from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal

from solver.app.documents import Doc
from solver.app.jobwords import rung_name
from solver.core.codes import PolicyId

ABOUT = {p.label: p.summary for p in PolicyId}  # what each policy is, in one plain sentence


def rounded(x: float) -> int:
    """``Math.round(x)``: the nearest integer, a half towards +infinity."""
    exact = Decimal(x)
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP if exact >= 0 else ROUND_HALF_DOWN))


def whole(x: float) -> str:
    """A rate (0 .. 1) as a whole percentage: "42 %"."""
    return f"{rounded(100 * x)} %"


def _about(policy: str) -> str:
    what = ABOUT.get(policy, "")
    return f" ({what})" if what else ""


def ladder_meaning(d: Doc) -> str:
    shortfall, ceiling, rungs = d["difficulty"]["value"], d["ceiling"]["clear_rate"], d["rungs"]
    lost = "every table, even the weakest, wins every deal that can be won" if shortfall < 0.005 else (
        f"a table picked at random among {len(rungs)} strengths, from {rung_name(rungs[0])} (the weakest) to "
        f"{rung_name(rungs[-1])} (the strongest), loses about {rounded(100 * shortfall)} in 100 of the deals that "
        "can be won")
    top = "every deal can be won by a team that sees every hand" if ceiling >= 0.9995 else (
        f"even a team that sees every hand (open hands) wins only {whole(ceiling)} of the deals: the rest cannot be "
        "won at all")
    return f"What it means: {lost}; {top}. Each point of the curve is one such table (a rung)."


def simulate_meaning(d: Doc) -> str:
    low, high = d["ci95"]
    return (f"What it means: a table playing like {d['policy']}{_about(d['policy'])} wins about "
            f"{whole(d['clear_rate'])} of its games of this mission; after {d['games']} games the true rate is very "
            f"likely between {whole(low)} and {whole(high)}.")


def ceiling_meaning(d: Doc) -> str:
    undecided = d.get("undecided")
    return (f"What it means: {whole(d['clear_rate'])} of the deals can be won at all, by a team that cheats by "
            "seeing every hand; no real table does better"
            + (f", and {undecided} deal(s) could not be decided in the time allowed." if undecided else "."))


def chance_meaning(d: Doc) -> str:
    return (f"What it means: from where the table stands, a careful table wins about {whole(d['clear_rate'])} of the "
            "ways the unseen cards may lie.")


def rate_meaning(d: Doc) -> str:
    return (f"What it means: the people play about as well as the {rung_name(d['best'])} table"
            f"{_about(d['best'].get('policy'))}; the table below gives the clear rate to expect from them at each "
            "mission, from the campaign measured for the pieces they played with.")
