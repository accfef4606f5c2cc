"""The move that lost a deal with every hand open, and what no order of play can do after it: from
the exact model of the deal before and after the move (``openhand/midround.py``).

The review knows, from its open-hand answers, a round whose start was clearable and whose end was
not (the next round's start cannot be cleared, or the game ended lost). Within it the moves are
bisected, moment by moment (a moment the game reached from one that cannot be cleared cannot be
cleared either; the last move and the lead first), down to the one move before which the deal
could still be cleared and after which it could not: the move that lost it. A moment is cleared by
the open-hand rollouts where they find a clear, else decided by the exact model.

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
  the clear found before the move put it instead, next to which bird, and whose room it took;
- else what the clear found before the move did (which pieces, in which rounds, by whose cards).

Budgets are CP-SAT's deterministic time (the same answers on any machine): moments the model does
not decide within TURN_WORK (all of them together) leave the move unknown, and a question not
answered within WHY_WORK (all of them together) is not said.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.cards import Card, Colour
from solver.core.codes import Skill
from solver.core.rules import Placement, grow, mask_of
from solver.game.actions import Action, ActionKind
from solver.game.arrays import build_arrays
from solver.game.planner import planner_library
from solver.game.state import GameState, decision_card
from solver.openhand.deal import CLEARABLE, NOT_CLEARABLE, Work
from solver.openhand.midround import MomentDeal
from solver.openhand.plan import Plan
from solver.openhand.witness import LEVEL1_ROLLOUTS, witness_moves

TURN_WORK = 6.0  # the moments' exact answers, together, in CP-SAT's deterministic seconds (most take a tenth)
PROBE_WORK = 2.0  # ... one moment's, at most
WHY_WORK = 6.0  # every question of why after that, together
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
    follow_all: bool = False  # no one seat's duty to follow in the way, but all of them together
    beaten: bool = False  # no rule of the card play in the way: whatever is led and followed, it wins nothing
    rounds: tuple[int, ...] = ()  # the rounds its card could win without the rule in the way
    leaders: tuple[int, ...] = ()  # the seats that can still lead a round (where the lead is in the way)
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
    beside: tuple[str, ...] = ()  # ... next to these birds
    in_the_way: tuple[Card, ...] = ()  # pieces of that clear whose cells the piece placed takes or touches
    ended: bool = False  # the game ended with the move
    clear_before: list[tuple[Card, Won | None, list[str]]] = field(default_factory=list)  # the clear found before
    led: bool = False  # the move was a round's first card
    buddy: bool = False  # a game with the skills that turn one card's piece into another
    outranks: tuple[Card, ...] = ()  # cards revealed before in the trick that the card revealed outranks
    trick: tuple[Card, ...] = ()  # the trick's cards after the move (a card revealed), the lead first
    trump: Colour | None = None  # the trump of the move's round


@dataclass
class Clear:
    """A clear from a moment: the new pieces it selects, where it puts them, how it wins them."""

    pieces: list[Card]
    where: dict[Card, Placement]
    won: dict[Card, Won]


def find_turn(begin: GameState, moves: list[Action], first: int, plan: Plan | None = None) -> DealTurn | None:
    """The move among ``moves`` (played from ``begin``, a moment that can be cleared, to a moment
    that cannot: the next round's start or the game's end; ``first`` the index of the first of
    them among the game's moves) before which the deal could be cleared and after which it could
    not, with what it made impossible; None where the model does not decide it within the budget.
    A moment is first given to the open-hand rollouts (``openhand/witness.py``: a clear they find
    is a clear), then to the exact model; ``plan``, a clear from ``begin`` known already (the deal
    solver's, from the round's start)."""
    states = [begin.clone()]
    for a in moves:
        s = states[-1].clone()
        s.apply(a)
        states.append(s)
    deals: dict[int, MomentDeal] = {}
    answers: dict[int, tuple[str, Clear | None]] = {}
    shared: dict = {}  # the puzzle's placements and fewest pieces, once per board (a round's cards share one)
    arrays: list = []
    work = Work(TURN_WORK)
    if plan is not None:
        answers[0] = (CLEARABLE, _from_plan(begin, plan))

    def deal(i: int) -> MomentDeal:
        s = states[i]
        if i not in deals:
            deals[i] = MomentDeal(s, Work(min(PROBE_WORK, work.left())), shared)  # one hard moment leaves some
        return deals[i]

    def decide(i: int) -> str:
        s = states[i]
        if s.is_over():
            return CLEARABLE if s.result() == "cleared" else NOT_CLEARABLE
        if i not in answers:
            if not arrays:
                arrays.append(build_arrays(s.mission, s.catalog, planner_library(s.mission, s.catalog)))
            found = _rollouts(s, arrays[0])
            if found is not None:
                answers[i] = (CLEARABLE, found)
            else:
                d = deal(i)
                result, rounds, placements = d.clears()
                work.spend(d.work.used)
                answers[i] = (result, None if rounds is None else _from_model(d, rounds, placements or []))
        return answers[i][0]

    lo, hi = 0, len(moves)
    if states[hi].is_over() and states[hi].result() == "cleared":
        return None
    tried: list[int] = []
    while hi - lo > 1:
        # the last move and the lead first: most deals are lost by one or the other (and a moment
        # that cannot be cleared is proven so far sooner than one that can is cleared); a moment
        # left undecided is stepped around, as long as one between lo and hi is not
        open_ = [i for i in range(lo + 1, hi) if i not in tried]
        if not open_:
            return None  # only undecided moments between a clearable one and a lost one
        wanted = hi - 1 if len(tried) == 0 else lo + 1 if len(tried) == 1 else (lo + hi) // 2
        i = min(open_, key=lambda j: (abs(j - wanted), j))
        tried.append(i)
        answer = decide(i)
        if answer == CLEARABLE:
            lo = i
        elif answer == NOT_CLEARABLE:
            hi = i
    if decide(lo) != CLEARABLE:
        return None
    clear = answers[lo][1]
    assert clear is not None
    before, after, action = states[lo], states[lo + 1], moves[lo]
    turn = DealTurn(first + lo, before.round, before.current_player(), action, ended=after.is_over(),
                    led=action.kind == ActionKind.REVEAL and not before.trick,
                    buddy=Skill.WILD_COLOR in before.spec.skill_kinds)
    if action.kind == ActionKind.REVEAL and action.card is not None:
        turn.outranks = tuple(c for _, c in before.trick if _outranks(action.card, c, before.trump))
        turn.trick, turn.trump = (*(c for _, c in before.trick), action.card), before.trump
    why = Work(WHY_WORK)
    b = deal(lo)
    b.work = why
    turn.clear_before = [(p, clear.won.get(p), clear.where[p].cell_names() if p in clear.where else [])
                         for p in clear.pieces]
    _explain(turn, b, clear, after, why)
    return turn


def _rollouts(state: GameState, arrays) -> Clear | None:
    """A clear from ``state`` that the open-hand rollouts find (level 1), replayed by the rules."""
    moves = witness_moves(state, arrays, 1, LEVEL1_ROLLOUTS)
    if moves is None:
        return None
    game = state.clone()
    for code in moves[len(state.moves):]:
        game.apply(Action.from_code(code))
    if game.result() != "cleared":
        raise AssertionError("the open-hand rollouts' witness does not replay: a twin differs")
    clear = Clear([], {}, {})
    for r in game.history[state.round - 1:]:
        for p in r.placements:
            if p.card not in state.board.pieces:
                clear.pieces.append(p.card)
                clear.where[p.card] = p
                clear.won[p.card] = Won(r.round, r.in_charge, r.decision, r.skill)
    return clear


def _from_plan(state: GameState, plan: Plan) -> Clear:
    """The clear of the deal solver's plan from ``state``, a round's start."""
    clear = Clear([], {}, {})
    trump = state.trump
    for k, r in enumerate(plan.rounds):
        seat, decision = decision_card(list(r.plays), trump)
        trump = decision.colour
        for p in r.placements:
            clear.pieces.append(p.card)
            clear.where[p.card] = p
            clear.won[p.card] = Won(state.round + k, seat, decision, r.skill)
    return clear


def _from_model(b: MomentDeal, rounds, placements: list[Placement]) -> Clear:
    holder = b.full.holder
    won = {}
    for r, choice in enumerate(rounds):
        for p in choice.pieces:
            won[p] = Won(b.round_of(r), holder[choice.decision], choice.decision, choice.skill)
    return Clear(list(b.moment.pending) + [p for r in rounds for p in r.pieces], {p.card: p for p in placements}, won)


def _outranks(card: Card, other: Card, trump: Colour) -> bool:
    """Whether ``card`` beats ``other`` in a trick (under ``trump``), whatever else is in it."""
    if card.colour == other.colour:
        return card.value > other.value
    return card.colour == trump


def _explain(turn: DealTurn, b: MomentDeal, clear: Clear, after: GameState, work: Work) -> None:
    where, won = dict(clear.where), dict(clear.won)
    action = turn.action
    if action.kind == ActionKind.PLACE and action.card is not None:
        turn.placed = placed = after.board.pieces.get(action.card)
        if action.card in where and placed is not None:
            instead = where[action.card]
            turn.instead = instead.cell_names()
            turn.beside = tuple(bird.letter for bird in after.mission.birds if bird.ring & mask_of(instead.cells))
            mine = mask_of(placed.cells)
            turn.in_the_way = tuple(q for q, pl in where.items() if q != placed.card and (
                mask_of(pl.cells) & mine or (q.colour == placed.card.colour and grow(mask_of(pl.cells)) & mine)))
    if after.is_over():
        return
    a = MomentDeal(after, work)
    on_board = set(after.board.pieces)
    witness = [p for p in clear.pieces if p not in on_board]
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
        other = _from_model(b, rounds2 or [], placements2 or [])
        where = {**other.where, **where}
        won = {**other.won, **won}
        witness = [p for p in other.pieces if p not in on_board]
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
            follows = tuple(("follow", s) for s in seats)
            n.follow_all = a.can(("wins", card), leave_out=follows) is True
            if not n.follow_all:
                every = tuple(("leads", s) for s in seats) + follows
                n.beaten = a.can(("wins", card), leave_out=every) is False
        rule = tuple(("leads", s) for s in n.lead) if n.lead else tuple(("follow", s, k) for s, k in n.follow)
        if rule:  # the rounds it could win without that rule
            n.rounds = tuple(a.round_of(r) for r in range(a.rounds) if a.can(("wins", card, r), leave_out=rule))
        if n.lead:
            n.leaders = tuple(s for s in seats if a.can(("leads", s)))
    if after.skills_left > 0 and Skill.WILD_COLOR in after.spec.skill_kinds:
        near = [Card(k, card.value) for k in Colour if k != card.colour]
        near += [Card(card.colour, v) for v in (card.value - 1, card.value + 1) if 1 <= v <= 8]
        held = [(c, seat) for c in near for seat, h in enumerate(after.hands) if c in h]
        n.sources = tuple((c, seat) for c, seat in held if a.can(("wins", c)) is False)


# ---------------------------------------------------------------- in words
SKILL_WORDS = {Skill.DOUBLE_SCAN: ", with a double scan", Skill.WILD_COLOR: ", with wild colour",
               Skill.SHIFT_CHANGE: ", with shift change"}
VERBS = {ActionKind.REVEAL: "revealed", ActionKind.SELECT: "selected", ActionKind.PLACE: "placed"}


def listed(words: list[str], last: str = "and") -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def deal_reason(turn: DealTurn, who, played: str) -> dict | None:
    """The reason ``"deal"`` of the move that lost the deal (``who(seat, possessive=False)``: a
    seat in words; ``played``: the move in words), or None when the model said too little:
    ``{"kind", "bird", "cells", "text", "cards", "pieces"}``, ``cards`` the cards it names with
    where each is (``{"card", "seat", "where", "held"}``: ``where`` one of ``hand``, ``played``,
    ``out``), ``pieces`` the pieces concerned with where the clear before the move put them."""
    verb = "led" if turn.led else VERBS[turn.action.kind]
    opening = (f"after {who(turn.seat)} {verb} {played} in round {turn.round}, no order of play "
               "of the cards left clears the deal")
    cards: list[dict] = []
    pieces: list[dict] = []
    bird = None
    if turn.needed:
        ns = turn.needed
        names = [str(n.piece) for n in ns]
        if ns[0].every:
            need = f"{names[0]}, which every clear needed, can no longer be won"
        else:
            need = f"every clear needed one of {listed(names, 'or')}, and none of them can be won any more"
        fates = _fates(ns, turn, who)
        n = ns[0]
        before = "" if n.won is None else (
            f" (before it, a clear could still take {n.piece} in round {n.won.round}, {who(n.won.seat, True)} "
            f"{n.won.card} winning the trick{SKILL_WORDS.get(n.won.skill, '')})")
        text = f"{opening}: {need}: " + "; ".join(fates) + before
        for n in ns:
            pieces.append({"piece": str(n.piece), "cells": n.cells})
            seat = n.holder if n.holder is not None else n.spent[1] if n.spent else None
            named = [card_named(n.piece, seat, _where(n), who)] + [card_named(c, s, "hand", who) for c, s in n.sources]
            cards += [x for x in named if x["card"] not in {y["card"] for y in cards}]
        cells = sorted({c for n in ns for c in n.cells})
    elif turn.together:
        names = [str(p) for p in turn.together]
        text = (f"{opening}: no order of play wins {listed(names)} together any more, and the clear found before "
                "it needed them all")
        pieces = [{"piece": str(p), "cells": turn.together_cells.get(p, [])} for p in turn.together]
        cells = sorted({c for cs in turn.together_cells.values() for c in cs})
    elif turn.placed is not None:
        p = turn.placed.card
        what = "the game ended with it" if turn.ended else \
            "the pieces the cards can still win no longer scan enough birds with it there"
        text = f"{opening}: {what}"
        if turn.instead:
            text += f"; the clear found before it put {p} at {' '.join(turn.instead)}"
            if turn.beside:
                text += f", next to bird {listed(list(turn.beside))}"
            if turn.in_the_way:
                text += f", and {p} now takes or touches cells that clear needed for " \
                        f"{listed([str(q) for q in turn.in_the_way])}"
        pieces = [{"piece": str(p), "cells": turn.instead or []}]
        cells = list(turn.instead or [])
        bird = turn.beside[0] if len(turn.beside) == 1 else None
    elif turn.clear_before:  # nothing narrower proven: what the clear found before it did
        took = [f"{p} in round {w.round} ({who(w.seat, True)} {w.card} winning the trick{SKILL_WORDS.get(w.skill, '')})"
                if w is not None else f"{p}" for p, w, _ in turn.clear_before]
        text = opening + (": the game ended with it" if turn.ended else "") + \
            f"; the clear found before it took {listed(took)}"
        pieces = [{"piece": str(p), "cells": c} for p, _, c in turn.clear_before]
        cells = sorted({x for _, _, c in turn.clear_before for x in c})
    else:
        return None
    return {"kind": "deal", "bird": bird, "cells": cells, "text": text, "cards": cards, "pieces": pieces}


def card_named(card: Card, seat: int | None, where: str, who) -> dict:
    """A card a reason names, with where it is and who held it, in words."""
    held = {"hand": f"in {who(seat, True)} hand" if seat is not None else "in a hand",
            "played": f"revealed by {who(seat)}" if seat is not None else "revealed",
            "out": "out of the game"}[where]
    return {"card": str(card), "seat": seat, "where": where, "held": held}


def _where(n: Needed) -> str:
    if n.holder is not None:
        return "hand"
    if n.spent is not None:
        return "played"
    return "out"


def _fates(ns: list[Needed], turn: DealTurn, who) -> list[str]:
    """Why no order of play selects each piece any more, in words (pieces whose words are the same
    said together)."""
    several = len(ns) > 1
    said: dict[str, list[Card]] = {}
    for n in ns:
        said.setdefault(_fate(n, turn, who, "{it}"), []).append(n.piece)
    out = []
    for words, pieces in said.items():
        it = listed([str(p) for p in pieces]) if several else "it"
        many = len(pieces) > 1
        out.append(words.replace("{it}", it).replace("{is}", "are" if many else "is")
                   .replace("{its card is}", "their cards are" if many else "its card is")
                   .replace("{it_o}", "them" if many else "it")
                   .replace("{any}", {1: "it", 2: "either"}.get(len(pieces), "any of them")))
    return out


def _fate(n: Needed, turn: DealTurn, who, it: str) -> str:
    p = n.piece
    if n.out:
        out = f"{it} {{is}} not in play ({{its card is}} out of the game)"
    elif n.holder is None and n.spent is not None:
        rnd, seat = n.spent
        if turn.action.kind == ActionKind.REVEAL and turn.action.card == p:
            out = f"{it} cannot win this trick" + _why_not_this_trick(n, turn, who)
        elif turn.action.kind == ActionKind.SELECT and rnd == turn.round:
            out = f"{who(seat)} revealed {p} in this round, so only this round's selection could take it"
        elif rnd == turn.round and p in turn.outranks:
            out = (f"{who(seat, True)} {p}, revealed in this trick, cannot win it any more: {turn.action.card} "
                   "outranks it")
        else:
            out = f"{who(seat)} revealed {p} in round {rnd}"
            out += (", where it cannot win" + _rules(n, who, mine=False)) if (n.lead or n.follow) else ""
    else:
        assert n.holder is not None
        out = f"{it} {{is}} in {who(n.holder, True)} hand" + _rules(n, who, mine=True)
    if n.sources:
        cards = listed([str(c) for c, _ in n.sources], "or")
        out += f"; a skill could turn {cards} into {p}, but " + (
            "it cannot win a trick either" if len(n.sources) == 1 else "none of them can win a trick either")
    elif turn.buddy and n.holder is None:
        out += ("; no skill counter is left to turn another card into {it_o}" if n.counters == 0 else
                "; no card a skill could turn into {it_o} is left in a hand")
    return out


def _why_not_this_trick(n: Needed, turn: DealTurn, who) -> str:
    """Why the card just revealed cannot win its trick: the rules on the trick so far, else the duty
    to follow that the model found in the way."""
    lead, card = turn.trick[0].colour, n.piece
    if card.colour != lead and card.colour != turn.trump:
        if lead == turn.trump:
            return f": {lead} was led, and is trump"
        return f": {lead} was led and {turn.trump} is trump"
    best = decision_card([(0, c) for c in turn.trick], turn.trump)[1] if turn.trump is not None else card
    if best != card:
        return f": {best} outranks it"
    if n.follow:  # without that duty it could win: the duty is what stops it
        return ": " + listed([f"{who(s)} must follow {k}" for s, k in n.follow])
    if n.follow_all:
        return f": the seats still to play must follow {lead}"
    return ": whatever the others play, it is outranked" if n.beaten else ""


def _rounds(rounds: tuple[int, ...]) -> str:
    """Rounds in words: "round 9", "round 7 or 9", "a round from 5 to 9"; "a trick" for none."""
    if not rounds:
        return "a trick"
    if len(rounds) >= 3 and list(rounds) == list(range(rounds[0], rounds[-1] + 1)):
        return f"a round from {rounds[0]} to {rounds[-1]}"
    return "round " + listed([str(r) for r in rounds], "or")


def _rules(n: Needed, who, mine: bool) -> str:
    """The rule of the card play in the way of the piece's card (the model asked without it)."""
    win = _rounds(n.rounds)
    if n.lead:
        seats = listed([who(s) for s in n.lead], "or")
        never = {1: f"{who(n.lead[0])} never leads", 2: "neither leads"}.get(len(n.lead), "none of them leads")
        tail = f", and {never} again" if n.never_lead else \
            f", and no order of play gives {'them' if len(n.lead) > 1 else who(n.lead[0])} the lead then"
        if n.leaders and n.never_lead:
            tail += f": only {listed([who(s) for s in n.leaders], 'or')} can"
        return f" and could win {win} only if {seats} had the lead" + tail
    if n.follow:
        colours: dict[int, list[Colour]] = {}  # per seat, then seats bound alike said together
        for s, k in n.follow:
            colours.setdefault(s, []).append(k)
        alike: dict[tuple, list[int]] = {}
        for s, ks in colours.items():
            alike.setdefault(tuple(ks), []).append(s)
        duties = listed([f"{listed([who(s) for s in seats], 'or')} did not have to follow "
                         f"{listed([str(k) for k in ks], 'or')}" for ks, seats in alike.items()], "or")
        return (f" and could win {win} only if " if mine else f": it could win {win} only if ") + duties
    if n.follow_all:
        return (" and could win a trick only if the others did not have to follow the colour led" if mine
                else ": the others must follow the colour led")
    if n.beaten:
        return " and wins no trick left, whatever is led and followed" if mine else ""
    return ", and no order of play lets {any} win a trick any more" if mine else ""
