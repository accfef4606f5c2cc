"""What the careful table's continuations show where a move left the deal clearable but made a clear
far less likely: the piece, the trick or the bird that its clears after the better choice used and
that it gets far less often after the move played, counted on the same continuations (the same
seeds) that measured the decision (``continuations.py`` keeps every continuation's moves).

A continuation's moves say everything needed: the pieces placed (a PLACE move names its piece and
position), who won each round's trick (the cards revealed, their holders known from the deal, the
trump the last decision card's colour) and the birds scanned at its end.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from solver.analysis.review_deal import card_named
from solver.core.board import all_positions
from solver.core.cards import Card
from solver.core.rules import Placement
from solver.game.actions import Action, ActionKind, Phase
from solver.game.state import GameState, decision_card

USED = 0.5  # a piece, trick or bird at least this share of the clears after the better choice had
FAR = 0.25  # ... and that the better choice's continuations had this share of them more often, at least
FEWEST = 2  # ... and at least this many more


@dataclass(frozen=True)
class Continued:
    """What one continuation from a moment did."""

    cleared: bool
    pieces: dict[Card, Placement]  # placed from the moment on
    tricks: frozenset[tuple[int, int]]  # (round, seat in charge) of the rounds from the moment on
    birds: frozenset[str]  # scanned at its end


def continued(state: GameState, moves: list[Action], cleared: bool) -> Continued:
    """A continuation from ``state`` told by its moves (no rule checked: they were played)."""
    holder = {c: seat for seat, h in enumerate(state.hands) for c in h}
    holder.update({c: seat for seat, c in state.trick})
    trick = list(state.trick)
    trump, rnd = state.trump, state.round
    board = state.board.copy()
    pieces: dict[Card, Placement] = {}
    tricks = set()
    if state.phase in (Phase.SELECT, Phase.PLACE):  # this round's trick is won already
        assert state.decision is not None
        tricks.add((rnd, state.in_charge))
        trump, rnd, trick = state.decision.colour, rnd + 1, []
    per_trick = state.spec.reveals_per_round
    for a in moves:
        if a.kind == ActionKind.REVEAL and a.card is not None:
            trick.append((holder[a.card], a.card))
            if len(trick) == per_trick:
                seat, card = decision_card(trick, trump)
                tricks.add((rnd, seat))
                trump, rnd, trick = card.colour, rnd + 1, []
        elif a.kind == ActionKind.PLACE and a.card is not None:
            p = Placement(a.card, all_positions(state.catalog[a.card])[a.index])
            board.place(p)
            pieces[a.card] = p
    return Continued(cleared, pieces, frozenset(tricks), frozenset(board.scanned()))


def continuation_reason(cont, state: GameState, played: Action, best: Action, played_words: str,
                        best_words: str, who) -> dict | None:
    """The reason ``"continuations"`` of a decision at ``state`` (``played`` against ``best``,
    each in words), on the continuations both moments were measured on; None when no piece,
    trick or bird stands out (``who(seat)``: a seat in words)."""
    after_played, after_best = state.clone(), state.clone()
    after_played.apply(played)
    after_best.apply(best)
    n = min(cont.measured(after_played), cont.measured(after_best))
    if n < FEWEST:
        return None
    mine = _told(cont, after_played, n)
    theirs = _told(cont, after_best, n)
    clears = [c for c in theirs if c.cleared]
    if not clears:
        return None
    need = max(FEWEST, FAR * n)
    found: list[tuple] = []  # (how many more, preference, what, words, cells, bird, counts...)
    for p in set().union(*(c.pieces for c in clears)):
        used = sum(p in c.pieces for c in clears)
        more = sum(p in c.pieces for c in theirs) - sum(p in c.pieces for c in mine)
        if used >= USED * len(clears) and more >= need:
            spots = Counter(tuple(c.pieces[p].cell_names()) for c in clears if p in c.pieces)
            found.append((more, 2, p, f"{p} is won", list(spots.most_common(1)[0][0]), None,
                          _count(mine, lambda c, p=p: p in c.pieces), _count(theirs, lambda c, p=p: p in c.pieces),
                          used))
    for t in set().union(*(c.tricks for c in clears)):
        used = sum(t in c.tricks for c in clears)
        more = sum(t in c.tricks for c in theirs) - sum(t in c.tricks for c in mine)
        if used >= USED * len(clears) and more >= need:
            found.append((more, 1, t, f"{who(t[1])} wins the trick of round {t[0]}", [], None,
                          _count(mine, lambda c, t=t: t in c.tricks), _count(theirs, lambda c, t=t: t in c.tricks),
                          used))
    before = set(state.board.scanned())
    for b in set().union(*(c.birds for c in clears)) - before:
        used = sum(b in c.birds for c in clears)
        more = sum(b in c.birds for c in theirs) - sum(b in c.birds for c in mine)
        if used >= USED * len(clears) and more >= need:
            found.append((more, 0, b, f"bird {b} is scanned", [], b,
                          _count(mine, lambda c, b=b: b in c.birds), _count(theirs, lambda c, b=b: b in c.birds),
                          used))
    if not found:
        return None
    more, _, what, words, cells, bird, after_mine, after_theirs, used = max(found, key=lambda f: (f[0], f[1]))
    if played.kind == ActionKind.PLACE:  # a placement's words are long: said once, in the decision
        played_words, best_words = "it", "the better placement"
    share = f"all {used}" if used == len(clears) else f"{used} of {len(clears)}"
    text = (f"after {played_words}, {words} in {after_mine} of {n} continuations of a careful table, against "
            f"{after_theirs} of {n} after {best_words}, whose clears needed it ({share})")
    out: dict = {"kind": "continuations", "bird": bird, "cells": cells, "text": text}
    if isinstance(what, Card):
        out["pieces"] = [{"piece": str(what), "cells": cells}]
        out["cards"] = [card_named(what, _holder(state, what), _where(state, what), who)]
    return out


def _told(cont, state: GameState, n: int) -> list[Continued]:
    won = cont.won(state, n)
    return [continued(state, moves, bool(w)) for moves, w in zip(cont.paths(state, n), won, strict=True)]


def _count(told: list[Continued], has) -> int:
    return sum(1 for c in told if has(c))


def _holder(state: GameState, card: Card) -> int | None:
    return next((seat for seat, h in enumerate(state.hands) if card in h), None)


def _where(state: GameState, card: Card) -> str:
    if _holder(state, card) is not None:
        return "hand"
    played = any(c == card for _, c in state.trick) or any(c == card for r in state.history for _, c in r.plays)
    return "played" if played else "out"
