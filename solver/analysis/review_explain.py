"""Why a costly decision cost what it did: the reasons of the review's mistakes, blunders and losing
decision, ``[{"kind", "bird", "cells", "text"}]``, and the cards and pieces they name (the
decision's ``named``: ``{"cards": [{"card", "seat", "where", "held"}], "pieces": [{"piece",
"cells"}]}``, for the page to show). In this order:

1. ``deal``: the move lost the deal with every hand open (``review_deal``, from the exact model of
   the deal before and after it): what no order of play can do any more; after what the move did
   to a bird, where it spoiled one, and before what else the puzzle says (``review_reasons``);
2. what the move made impossible or harder on the board or in the puzzle (``review_reasons``);
3. ``continuations``: the deal stays clearable, and the careful table's continuations after the
   better choice used a piece, a trick or a bird that they get far less often after the move
   played (``review_continuations``);
4. else ``chance``: the generic sentence. Never for the move that lost the deal with every hand
   open, nor for any other decision of the round in which it was lost, when anything else can
   be said.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from solver.analysis.review_continuations import continuation_reason
from solver.analysis.review_deal import DealTurn, deal_reason
from solver.analysis.review_types import Decision

BIRD_KINDS = ("side_spoiled", "side_uncoverable", "cell_uncoverable", "too_few_birds")


def explain(decisions: list[Decision], catalog, players: int, cont, turn: DealTurn | None,
            who: Callable[..., str], workers: int = 1) -> None:
    """The reasons of ``decisions`` (those without any yet), ``workers`` at a time (CP-SAT leaves
    Python's lock while it solves); ``cont`` the review's continuations, ``turn`` the move that
    lost the deal with every hand open (or None), ``who(seat, possessive=False)`` a seat in words."""
    from solver.analysis.review_reasons import Puzzle, chance, puzzle_reasons  # heavy: OR-Tools

    todo = [d for d in decisions if d.state is not None and d.played_action is not None and not d.reasons]

    def one(d: Decision) -> list[dict]:
        assert d.state is not None and d.played_action is not None
        board = puzzle_reasons(Puzzle(catalog, players), d.state, d.played_action)
        if turn is not None and len(d.state.moves) == turn.move:
            lost = deal_reason(turn, who, d.played)
            if lost is not None:  # after a bird the move spoiled, before what else the puzzle says
                birds = [r for r in board if r["kind"] in BIRD_KINDS]
                return [*birds, lost, *(r for r in board if r not in birds)]
        if board:
            return board
        if d.best_action is not None and d.best_action != d.played_action:
            seen = continuation_reason(cont, d.state, d.played_action, d.best_action, d.played, d.best, who)
            if seen is not None:
                return [seen]
        return [chance(d.rate_played, d.rate_best, d.best)]

    with ThreadPoolExecutor(max(1, min(workers, len(todo)))) as pool:
        for d, found in zip(todo, pool.map(one, todo), strict=True):
            d.named = named(found)
            d.reasons = [{k: r[k] for k in ("kind", "bird", "cells", "text")} for r in found]


def named(reasons: list[dict]) -> dict | None:
    """The cards and pieces the reasons name, each once, in the order they are named."""
    cards: dict[str, dict] = {}
    pieces: dict[str, dict] = {}
    for r in reasons:
        for c in r.get("cards", []):
            cards.setdefault(c["card"], c)
        for p in r.get("pieces", []):
            pieces.setdefault(p["piece"], p)
    return {"cards": list(cards.values()), "pieces": list(pieces.values())} if cards or pieces else None
