"""The move that lost a deal with every hand open, and what no order of play can do after it: from
the exact model of the deal before and after the move (``openhand/moment.py``).

The review knows, from its open-hand answers, a round whose start was clearable and whose end was
not (the next round's start cannot be cleared, or the game ended lost). Within it the moves are
bisected with the exact model, moment by moment (a moment the game reached from one that cannot be
cleared cannot be cleared either), down to the one move before which the deal could still be
cleared and after which it could not: the move that lost it.

What it made impossible, each claim an answer of the model:
- the pieces a clear needs that can no longer be selected: the clear found before the move, its
  pieces asked one by one after it (can any order of play still select this one?); those that
  cannot, asked of the moment before (is there a clear without them? if so, its pieces are asked
  in turn); a piece every clear needed is said so, else the ones of which every clear needed one;
- for such a piece, why its card cannot win a trick any more: spent (revealed already, in which
  round and by whom), or in a hand, and then which rule of the card play stands in the way (the
  model asked again without it): a seat that never gets the lead when the card could win, a seat
  that must follow a colour, or none (whatever is led and followed, it wins no trick);
- in Buddy, with skill counters left, the cards a skill could turn into it, none of which can
  win a trick either;
- where each piece of the clear found before the move can still be won but not all of them
  together: the fewest that cannot;
- a placement: the pieces the cards can still win no longer clear with it where it went; where
  the clear found before the move put it instead.

Budgets are CP-SAT's deterministic time (the same answers on any machine): a moment the model does
not decide within TURN_WORK leaves the move unknown, and a question not answered within WHY_WORK
is not said.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.cards import Card, Colour
from solver.core.codes import Skill
from solver.core.rules import Placement
from solver.game.actions import Action, ActionKind
from solver.game.state import GameState
from solver.openhand.deal import CLEARABLE, NOT_CLEARABLE, Work
from solver.openhand.moment import MomentDeal

TURN_WORK = 20.0  # a moment's exact answer, in CP-SAT's deterministic seconds
WHY_WORK = 20.0  # every question of why after that, together
WITNESSES = 4  # clears before the move asked for the pieces they need, at most


@dataclass(frozen=True)
class Won:
    """How the clear found before the move selected a piece: in which round, by whose card."""

    round: int
    seat: int
    card: Card
    skill: Skill


@dataclass
class Needed:
    """A piece the clears before the move needed that no order of play can select after it."""

    piece: Card
    every: bool  # every clear before the move needed this piece (else: one of the pieces said)
    cells: list[str]  # where the clear found before the move put it
    won: Won | None  # how that clear selected it
    holder: int | None  # the seat holding its card after the move (None: not in a hand)
    spent: tuple[int, int] | None  # (round, seat) in which its card was revealed, when it was
    out: bool = False  # its card is not in the game (set aside, or out with this table)
    lead: tuple[int, ...] = ()  # seats: had one of them the lead when it mattered, its card could win
    never_lead: bool = False  # ... and none of them leads any round after the move's
    follow: tuple[tuple[int, Colour], ...] = ()  # (seat, colour): without that seat's duty to follow, it could
    beaten: bool = False  # no rule of the card play in the way: whatever is led and followed, it wins nothing
    sources: tuple[tuple[Card, int], ...] = ()  # Buddy: (card, holder) a skill turns into it, none can win a trick
    counters: int = 0  # skill counters left after the move


@dataclass
class DealTurn:
    """The move that lost the deal with every hand open, and what it made impossible."""

    move: int  # its index among the game's moves
    round: int
    seat: int
    action: Action
    needed: list[Needed] = field(default_factory=list)
    together: tuple[Card, ...] = ()  # each can still be selected, but not all of them
    together_cells: dict[Card, list[str]] = field(default_factory=dict)
    placed: Placement | None = None  # the move, when it placed a piece
    instead: list[str] | None = None  # where the clear found before the move put that piece
    ended: bool = False  # the game ended with the move


def find_turn(begin: GameState, moves: list[Action], first: int) -> DealTurn | None:
    """The move among ``moves`` (played from ``begin``, a moment that can be cleared, to a moment
    that cannot: the next round's start or the game's end; ``first`` the index of the first of
    them among the game's moves) before which the deal could be cleared and after which it could
    not, with what it made impossible; None where the model does not decide it within the budget."""
    states = [begin.clone()]
    for a in moves:
        s = states[-1].clone()
        s.apply(a)
        states.append(s)
    deals: dict[int, MomentDeal] = {}
    answers: dict[int, tuple] = {}

    def decide(i: int) -> str:
        s = states[i]
        if s.is_over():
            return CLEARABLE if s.result() == "cleared" else NOT_CLEARABLE
        if i not in answers:
            deals[i] = MomentDeal(s, Work(TURN_WORK))
            answers[i] = deals[i].clears()
        return answers[i][0]

    lo, hi = 0, len(moves)
    if states[hi].is_over() and states[hi].result() == "cleared":
        return None
    tried: list[int] = []
    while hi - lo > 1:
        # the lead and the last move first: most deals are lost by one or the other
        i = lo + 1 if not tried else hi - 1 if len(tried) == 1 else (lo + hi) // 2
        tried.append(i)
        answer = decide(i)
        if answer == CLEARABLE:
            lo = i
        elif answer == NOT_CLEARABLE:
            hi = i
        else:
            return None
    if lo not in answers:
        deals[lo] = MomentDeal(states[lo], Work(TURN_WORK))
        answers[lo] = deals[lo].clears()
    result, rounds, placements = answers[lo]
    if result != CLEARABLE:
        return None
    before, after, action = states[lo], states[lo + 1], moves[lo]
    turn = DealTurn(first + lo, before.round, before.current_player(), action, ended=after.is_over())
    why = Work(WHY_WORK)
    b = deals[lo]
    b.work = why
    _explain(turn, b, rounds or [], placements or [], after, why)
    return turn


def _explain(turn: DealTurn, b: MomentDeal, rounds, placements: list[Placement], after: GameState,
             work: Work) -> None:
    where = {p.card: p for p in placements}
    action = turn.action
    if action.kind == ActionKind.PLACE and action.card is not None:
        turn.placed = after.board.pieces.get(action.card)
        if action.card in where:
            turn.instead = where[action.card].cell_names()
    if after.is_over():
        return
    a = MomentDeal(after, work)
    on_board = set(after.board.pieces)
    won = _won(b, rounds)
    witness = [p for p in _selected(b, rounds) if p not in on_board]
    cannot: list[Card] = []
    for _ in range(WITNESSES):
        new = [p for p in witness if p not in cannot and a.can(("all of", frozenset([p]))) is False]
        if not new:
            break
        cannot += new
        result, rounds2, placements2 = b.clears(frozenset(cannot))
        if result != CLEARABLE:
            if result == NOT_CLEARABLE:
                _needed(turn, b, a, cannot, where, won, after)
            return
        where = {**{p.card: p for p in placements2 or []}, **where}
        won = {**_won(b, rounds2 or []), **won}
        witness = [p for p in _selected(b, rounds2 or []) if p not in on_board]
    if not cannot and witness and a.can(("all of", frozenset(witness))) is False:
        fewest = list(witness)
        for p in list(fewest):  # the fewest of them that cannot all be selected
            rest = [q for q in fewest if q != p]
            if len(rest) >= 2 and a.can(("all of", frozenset(rest))) is False:
                fewest = rest
        turn.together = tuple(fewest)
        turn.together_cells = {p: where[p].cell_names() for p in fewest if p in where}


def _needed(turn: DealTurn, b: MomentDeal, a: MomentDeal, cannot: list[Card], where: dict, won: dict,
            after: GameState) -> None:
    """The pieces of which every clear before the move needed one (each alone where it is so),
    and why the cards cannot select them any more."""
    alone = [p for p in cannot if len(cannot) == 1 or b.clears(frozenset([p]))[0] == NOT_CLEARABLE]
    pieces = alone[:1] if alone else cannot
    for p in pieces:
        n = Needed(p, bool(alone), where[p].cell_names() if p in where else [], won.get(p), None, None,
                   counters=after.skills_left)
        _card_fate(n, a, after)
        turn.needed.append(n)


def _card_fate(n: Needed, a: MomentDeal, after: GameState) -> None:
    """Why the piece's own card cannot win a trick any more, and what a skill could still do."""
    card = n.piece
    holder = next((seat for seat, h in enumerate(after.hands) if card in h), None)
    n.holder = holder
    in_trick = next((seat for seat, c in after.trick if c == card), None)
    spent = next(((r.round, seat) for r in after.history for seat, c in r.plays if c == card), None)
    if in_trick is not None:
        n.spent = (after.round, in_trick)
    elif spent is not None:
        n.spent = spent
    elif holder is None:
        n.out = True
    if holder is not None or in_trick is not None:
        seats = range(after.players)
        n.lead = tuple(s for s in seats if a.can(("wins", card), leave_out=(("leads", s),)))
        if n.lead:
            n.never_lead = all(a.can(("leads", s)) is False for s in n.lead)
        bound = [s for s in seats if a.can(("wins", card), leave_out=(("follow", s),))]
        n.follow = tuple((s, k) for s in bound for k in Colour
                         if any(c.colour == k for c in a.moment.start.hands[s])
                         and a.can(("wins", card), leave_out=(("follow", s, k),)))
        if not n.lead and not n.follow:
            every = tuple(("leads", s) for s in seats) + tuple(("follow", s) for s in seats)
            n.beaten = a.can(("wins", card), leave_out=every) is False
    if after.skills_left > 0 and Skill.WILD_COLOR in after.spec.skill_kinds:
        near = [Card(k, card.value) for k in Colour if k != card.colour]
        near += [Card(card.colour, v) for v in (card.value - 1, card.value + 1) if 1 <= v <= 8]
        held = [(c, seat) for c in near for seat, h in enumerate(after.hands) if c in h]
        n.sources = tuple((c, seat) for c, seat in held if a.can(("wins", c)) is False)


def _selected(b: MomentDeal, rounds) -> list[Card]:
    return list(b.moment.pending) + [p for r in rounds for p in r.pieces]


def _won(b: MomentDeal, rounds) -> dict[Card, Won]:
    holder = b.full.holder
    out = {}
    for r, choice in enumerate(rounds):
        for p in choice.pieces:
            out[p] = Won(b.round_of(r), holder[choice.decision], choice.decision, choice.skill)
    return out


# ---------------------------------------------------------------- in words
SKILL_WORDS = {Skill.DOUBLE_SCAN: " with a double scan", Skill.WILD_COLOR: " with wild colour",
               Skill.SHIFT_CHANGE: " with shift change"}
VERBS = {ActionKind.REVEAL: "revealed", ActionKind.SELECT: "selected", ActionKind.PLACE: "placed"}


def listed(words: list[str], last: str = "and") -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def deal_reason(turn: DealTurn, who, played: str) -> dict | None:
    """The reason ``"deal"`` of the move that lost the deal (``who(seat, possessive=False)``: a
    seat in words; ``played``: the move in words), or None when the model said too little."""
    opening = (f"after {who(turn.seat)} {VERBS[turn.action.kind]} {played} in round {turn.round}, no order of play "
               "of the cards left clears the deal")
    cards: list[dict] = []
    pieces: list[dict] = []
    if turn.needed:
        ns = turn.needed
        names = [str(n.piece) for n in ns]
        if ns[0].every:
            need = f"{names[0]}, which every clear needed, can no longer be won"
        else:
            need = f"every clear needed one of {listed(names, 'or')}, and none of them can be won any more"
        fates = [_fate(n, who, len(ns) > 1) for n in ns]
        befores = [f"{who(n.won.seat, True)} {n.won.card} could still win it in round {n.won.round}"
                   f"{SKILL_WORDS.get(n.won.skill, '')}" for n in ns[:1] if n.won is not None]
        text = f"{opening}: {need}: " + "; ".join(fates) + (f" (before it, {befores[0]})" if befores else "")
        for n in ns:
            pieces.append({"piece": str(n.piece), "cells": n.cells})
            seat = n.holder if n.holder is not None else n.spent[1] if n.spent else None
            cards.append({"card": str(n.piece), "seat": seat, "where": _where(n)})
            cards += [{"card": str(c), "seat": seat, "where": "hand"} for c, seat in n.sources]
        cells = sorted({c for n in ns for c in n.cells})
    elif turn.together:
        names = [str(p) for p in turn.together]
        text = (f"{opening}: no order of play wins {listed(names)} together any more, and the clear found before "
                "it needed them all")
        pieces = [{"piece": str(p), "cells": turn.together_cells.get(p, [])} for p in turn.together]
        cells = sorted({c for cs in turn.together_cells.values() for c in cs})
    elif turn.placed is not None:
        where = " ".join(turn.placed.cell_names())
        what = "the game ended with it" if turn.ended else \
            "the pieces the cards can still win no longer scan enough birds with it there"
        text = f"{opening}: {what}" + (f"; the clear found before it put {turn.placed.card} at {' '.join(turn.instead)}"
                                       if turn.instead else "") + f" (it went to {where})"
        pieces = [{"piece": str(turn.placed.card), "cells": turn.instead or []}]
        cells = list(turn.instead or [])
    else:
        return None
    return {"kind": "deal", "bird": None, "cells": cells, "text": text, "cards": cards, "pieces": pieces}


def _where(n: Needed) -> str:
    if n.holder is not None:
        return "hand"
    if n.spent is not None:
        return "played"
    return "out"


def _fate(n: Needed, who, several: bool) -> str:
    """Why no order of play selects the piece any more, in words."""
    p = n.piece
    name = f"{p}" if several else "it"
    if n.out:
        out = f"{name} is not in play (its card is out of the game)"
    elif n.holder is None and n.spent is not None:
        rnd, seat = n.spent
        out = f"{who(seat)} revealed {p} in round {rnd}"
        out += (", where it cannot win" if n.lead or n.follow or n.beaten else "") + _rules(n, who, mine=False)
    else:
        assert n.holder is not None
        out = f"{name} is in {who(n.holder, True)} hand" + _rules(n, who, mine=True)
    if n.sources:
        out += (f", and a skill could turn {listed([f'{who(s, True)} {c}' for c, s in n.sources], 'or')} into it, but "
                + ("none of them" if len(n.sources) > 2 else "neither" if len(n.sources) == 2 else "it")
                + " can win a trick either")
    return out


def _rules(n: Needed, who, mine: bool) -> str:
    """The rule of the card play in the way of the piece's card (the model asked without it)."""
    if n.lead:
        seats = listed([who(s) for s in n.lead], "or")
        tail = (", and " + ("neither" if len(n.lead) == 2 else "none of them" if len(n.lead) > 2 else "that seat")
                + " leads again") if n.never_lead else ", and no order of play gives the lead when it would"
        return f" and could win a trick only if {seats} had the lead" + tail
    if n.follow:
        dutie = listed([f"{who(s)} did not have to follow {k}" for s, k in n.follow], "or")
        return (" and could win a trick only if " if mine else ": it could only if ") + dutie
    if n.beaten:
        return " and wins no trick left, whatever is led and followed" if mine else ""
    return ", and no order of play lets it win a trick any more" if mine else ""
