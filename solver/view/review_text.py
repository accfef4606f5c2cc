"""A review (``kakapo review``) in words: the lines the terminal prints, and the sentences the
review page shares with them."""

from __future__ import annotations

from solver.analysis.review_story import act, pct
from solver.analysis.review_types import THRESHOLDS, Review, RoundReview, SeatSummary
from solver.openhand.deal import CLEARABLE, NOT_CLEARABLE, UNDECIDED


def player_name(rv: Review) -> str:
    """The yardstick's player: the search player, or the planner itself with 0 samples."""
    return "planner" if rv.samples == 0 else "search player"


def yardstick_legend(rv: Review) -> str:
    """The one legend line: what the two yardsticks and the classes mean (text and page alike)."""
    if rv.samples == 0:
        who_plays = ("the planner (--samples 0: no look-ahead; it draws no random numbers, so its continuations "
                     "of a moment are one game and its rate is 0 % or 100 %)")
    else:
        who_plays = f"the search player ({rv.samples} look-ahead deals a decision)"
    marks = ", ".join(f"{name} {100 * t:.0f}" for name, t in THRESHOLDS.items())
    return (f"How to read it: a careful table is {who_plays} in every seat, each seat deciding from its own hand "
            f"and the table, played on {rv.playouts} times from that moment on the true deal (the cards no seat "
            "could see stay as dealt, so the rate is this deal's, not the mission's); open hands says whether a "
            "team that sees every hand could still win this deal. A decision's class is the clear rate it gave "
            f"away against the careful table's choice, in points: {marks} or more.")


RESULT_WORDS = {"cleared": "cleared", "rounds_exhausted": "lost: the rounds ran out",
                "unplaceable": "lost: a selected piece fit nowhere", "in_play": "still in play"}
OPEN_WORDS = {CLEARABLE: "winnable with every hand open", NOT_CLEARABLE: "lost even with every hand open",
              UNDECIDED: "with every hand open: not decided in the time limit"}


def seat_line(rv: Review, s: SeatSummary) -> str:
    name = rv.who(s.seat)
    label = f"you (player {s.seat})" if name == "you" else name
    policy = rv.log.meta.get("policy")
    if s.human and name != "you":
        label += " (a person)"
    elif not s.human and policy:
        label += f" ({policy})"
    if not s.decisions:
        return f"{label}: no decision to make (every move was forced)"
    counts = ", ".join(f"{n} {c}" for c, n in s.classes.items() if n)
    if s.accuracy is None:
        return f"{label}: none of {s.decisions} decisions mattered (every choice led to the same result): {counts}"
    return (f"{label}: accuracy {s.accuracy:.0f} % over {s.counted} decision(s) that mattered, of {s.decisions}: "
            f"{counts}")


def round_story(rv: Review, r: RoundReview) -> list[str]:
    """A round in words: who played what, who placed which piece, and the decisions worth a word."""
    out = []
    rec = r.record
    if rec is not None:
        plays = ", ".join(f"{rv.who(p)} {c}" for p, c in rec.plays)
        out.append(f"round {r.round} (trump {rec.trump}): {plays}; {rec.decision} wins, {rv.who(rec.in_charge)}"
                   " in charge")
        owner = rv.who(rec.in_charge)
        if rec.skill.json:
            out.append(f"  {owner} used the skill {rec.skill.json.replace('_', ' ')}")
        for p in rec.placements:
            out.append(f"  {owner} placed {p.card} at {' '.join(p.cell_names())}")
        if len(rec.pieces) > len(rec.placements):
            out.append(f"  {rec.pieces[-1]} fit nowhere")
        elif not rec.pieces:
            out.append("  nothing to place (the piece is on the board already)")
    else:
        out.append(f"round {r.round} (to come)")
    out.append(f"  from its start a careful table clears {pct(r.search_rate)}; {OPEN_WORDS[r.open_hand]}")
    for d in rv.decisions:
        if d.round == r.round and d.klass not in ("best", "good", "equal", "forced"):
            out.append(f"  {d.klass}: {rv.who(d.seat)} {act(d)}: a careful table clears "
                       f"{pct(d.rate_played)} after it, {pct(d.rate_best)} after {d.best}")
            out += [f"    why: {x['text']}" for x in d.reasons]
    return out


def review_lines(rv: Review) -> list[str]:
    """The review in words."""
    m = rv.mission
    played = len(rv.rounds) - (1 if rv.result == "in_play" else 0)
    out = [f"{m.name} ({m.id}), {rv.players} players: {RESULT_WORDS.get(rv.result, rv.result)} after {played} "
           f"round(s) (log {rv.log.path})", rv.story, yardstick_legend(rv) + f" Seed {rv.seed}."]
    out += [seat_line(rv, s) for s in rv.seats]
    for r in rv.rounds:
        out += round_story(rv, r)
    if rv.lost_by is not None:  # what to do instead, and why (the story above said what happened)
        why = rv.lost_by.why
        out.append(f"The losing decision: {why[0].upper()}{why[1:]}.")
    return out
