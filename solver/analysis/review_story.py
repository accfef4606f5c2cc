"""A review's words: the decision that lost the game, and the review's story.

The summary says what happened (the result, and when the deal was lost); the losing decision says
what to do instead and why (its reasons, from the exact puzzle before and after it). Names are the
log's where it has them.
"""

from __future__ import annotations

from solver.analysis.review_types import LOST_BY_MIN, Decision, LostBy, Review
from solver.openhand.deal import CLEARABLE

VERBS = {"card": "revealed", "selection": "selected", "placement": "placed"}
DOING = {"card": "revealing", "selection": "selecting", "placement": "placing"}


def pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def act(d: Decision) -> str:
    """A decision in words: "revealed blue-4", "selected double scan: ...", "placed red-3 at ..."."""
    return f"{VERBS.get(d.kind, d.kind)} {d.played}"


def lost_by(rv: Review) -> LostBy | None:
    """The decision the review holds responsible for the loss: the costliest one that mattered at
    or before the round from which the deal was lost with open hands (any round when not known);
    its words say what to do instead and why."""
    if rv.result in ("cleared", "in_play"):
        return None
    last = rv.lost_at if rv.lost_at is not None else len(rv.rounds)
    candidates = [d for d in rv.decisions if d.round <= last and d.cost >= LOST_BY_MIN and d.counted]
    if not candidates:
        return None
    d = max(candidates, key=lambda x: (x.cost, -x.round))
    return LostBy(d, advice(rv, d))


def advice(rv: Review, d: Decision) -> str:
    """What to do instead and why: the better move, what the move played made impossible or harder."""
    before = "" if d.rate_before is None else f", from {pct(d.rate_before)} before"
    why = "; ".join(r["text"] for r in d.reasons[:2])
    return (f"in round {d.round} {rv.who(d.seat)} {act(d)}; {DOING.get(d.kind, d.kind)} {d.best} instead would have "
            f"kept {pct(d.rate_best)} for a careful table, against {pct(d.rate_played)} after the move played{before}"
            + (f". Why: {why}" if why else ""))


def open_story(rv: Review) -> str:
    """What the open-hand yardstick says of the whole game, in one clause."""
    if rv.lost_at == 1:
        return "not even a team that sees every hand could have cleared this deal"
    if rv.lost_at is not None:
        before = rv.rounds[rv.lost_at - 2].open_hand
        if before == CLEARABLE:
            if rv.turned_by is not None:
                return f"with every hand open the deal stayed winnable until {_turned(rv)}"
            return f"with every hand open the deal stayed winnable until round {rv.lost_at - 1}"
        return f"with every hand open the deal was lost from round {rv.lost_at} on"
    if rv.rounds and rv.rounds[-1].open_hand == CLEARABLE:
        if rv.turned_by is not None and rv.result != "in_play":
            return f"with every hand open the deal stayed winnable until {_turned(rv)}"
        return "with every hand open the deal was still winnable in the last round"
    return "whether a team that sees every hand could still have won was not decided in the time limit"


def _turned(rv: Review) -> str:
    """The move that lost the deal with every hand open, in words ("player 1 led green-1 in round 8")."""
    d = rv.turned_by
    assert d is not None
    if rv.lost_by is not None and rv.lost_by.decision is d:  # the story has just said it
        return "that move"
    led = d.kind == "card" and d.state is not None and not d.state.trick
    return f"{rv.who(d.seat)} {'led ' + d.played if led else act(d)} in round {d.round}"


def story(rv: Review) -> str:
    """What happened, in plain sentences (the losing decision's advice is said apart, in ``lost_by``)."""
    if rv.result == "cleared":
        worst = max((d for d in rv.decisions if d.counted), key=lambda d: d.cost, default=None)
        if worst is None or worst.cost < LOST_BY_MIN:
            return "Cleared, and no decision put the clear at risk."
        return (f"Cleared, though {rv.who(worst.seat, True)} riskiest decision was in round {worst.round}: after it "
                f"a careful table cleared {pct(worst.rate_played)}, after {worst.best} {pct(worst.rate_best)}.")
    if rv.result == "in_play":
        last = rv.rounds[-1]
        return (f"The game goes on: from round {last.round} a careful table clears {pct(last.search_rate)}; "
                + open_story(rv) + ".")
    start = rv.rounds[0].search_rate if rv.rounds else 0.0
    if rv.lost_by is not None:
        d = rv.lost_by.decision
        return (f"Lost; the game turned in round {d.round}, when {rv.who(d.seat)} {act(d)}: a careful table "
                f"cleared {pct(d.rate_played)} from there. From the deal it cleared {pct(start)}; {open_story(rv)}.")
    if rv.lost_at == 1:
        return ("Lost, and no decision made a difference: not even a team that sees every hand could have cleared "
                f"this deal (a careful table clears {pct(start)} of its continuations from the deal).")
    if start < LOST_BY_MIN:
        return (f"Lost, and no decision made a difference: from the deal a careful table clears only {pct(start)}; "
                f"only a table that saw every hand could have cleared it ({open_story(rv)}).")
    return (f"Lost, though no single decision cost {pct(LOST_BY_MIN)} or more (a careful table cleared {pct(start)} "
            f"from the deal): the loss came from small losses and the cards; {open_story(rv)}.")
