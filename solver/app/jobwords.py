"""A finished job's result in one plain line, per job kind (``registry.JobKind.words``): what the
studio shows beside a done job, so that the page holds no sentence of its own for a result.

The figures are written as the page writes them (a rate as "41.5 %", a shortfall to three
places, halves rounded up as JavaScript's ``toFixed`` rounds them)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from solver.app.documents import Doc


def fixed(x: float, places: int) -> str:
    """``x`` with ``places`` decimals, a half rounded away from zero (the page's ``toFixed``)."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def pct(x: float) -> str:
    """A rate (0 .. 1) as a percentage to one decimal: "41.5 %"."""
    return f"{fixed(100 * x, 1)} %"


def rung_name(rung: Doc) -> str:
    """A rung's or a policy's name as people read it: "search-16", "planner"."""
    return f"{rung['policy']}-{rung['samples']}" if rung.get("samples") else str(rung["policy"])


def _bundled(campaign: Doc) -> bool:
    return not campaign.get("source") or campaign["source"] == "bundled"


def campaign_words(difficulty: Doc, players: int) -> str:
    """Where a ladder's figure falls among the other missions of its mode and table measured with
    the same catalog, in one statement ("" when nothing is to be said)."""
    c = difficulty.get("campaign")
    if not c:
        return str(difficulty.get("campaign_text") or "")
    easier = (c.get("between") or [None])[0]
    bundled = _bundled(c)
    others = (f"the {c['of']} other bundled missions for {players} players" if bundled else
              f"your campaign's {c['of']} other missions for {players} players")
    if not c["of"]:
        return "no bundled mission to compare with" if bundled else "no other mission of your campaign to compare with"
    if c["harder_than"] == 0:
        return f"easier than all {others}"
    if c["harder_than"] == c["of"]:
        return f"harder than all {others}"
    return f"harder than {c['harder_than']} of {others}, just after {easier}"


def ladder_words(d: Doc) -> str:
    place = campaign_words(d["difficulty"], d["players"])
    c = d["difficulty"].get("campaign")
    which = "" if not c else "in the campaign: " if _bundled(c) else "in your campaign: "
    figures = f"shortfall {fixed(d['difficulty']['value'], 3)}; open-hand ceiling {pct(d['ceiling']['clear_rate'])}"
    return f"ladder: {figures}" + (f"; {which}{place}" if place else "")


def _interval(d: Doc) -> str:
    return f"95 % interval {pct(d['ci95'][0])} to {pct(d['ci95'][1])}"


def simulate_words(d: Doc) -> str:
    return f"simulate: {d['policy']} clears {pct(d['clear_rate'])} ({_interval(d)}) of {d['games']} games"


def chance_words(d: Doc) -> str:
    return f"a careful table clears {pct(d['clear_rate'])} ({_interval(d)}) of {d['games']} deals of the unseen cards"


def ceiling_words(d: Doc) -> str:
    return f"ceiling: open hands clear {pct(d['clear_rate'])} of {d['games']} deals ({d['undecided']} undecided)"


def rate_words(d: Doc) -> str:
    return f"rate: the table plays like {rung_name(d['best'])} (from {d['games']} game(s))"


def review_words(d: Doc) -> str:
    return (f"review of a game: {len(d.get('decisions') or [])} decisions judged (open the log in the Review tab to "
            "see them)")


def calibrate_words(d: Doc) -> str:
    tables = d["tables"]
    games, cleared = sum(t["games"] for t in tables), sum(t["cleared"] for t in tables)
    return f"calibrate: {len(tables)} table(s) from {games} finished game(s), {cleared} cleared"
