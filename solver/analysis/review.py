"""`kakapo review LOG`: where a logged game was won or lost, round by round.

For the start of each round:
- ``open_hand``: could a team that sees every hand still clear the deal from there (the ceiling's
  deal solver on the moment, ``openhand.deal.from_moment``): ``clearable``, ``not_clearable`` or
  ``undecided`` within the budget. A game that was cleared is its own witness for every round.
  From a moment that cannot be cleared no later moment can, and a moment the game reached from a
  clearable one was reachable from every earlier one; so the rounds are decided by bisection, and
  a round's answer may be implied by another's (``how`` says which).
- ``search_rate``: the share of ``playouts`` continuations in which the search player, in every
  seat and deciding from its seat's observation only, clears the game from there; the
  continuations are played on the true deal (the hidden cards stay as dealt; only the players'
  random streams differ, drawn from ``--seed``). With 0 samples the player is the planner, which
  draws no random numbers: every continuation is the same game.
- ``costliest``: of the round's decisions (each card, the selection, each placement) where the
  search player would have chosen otherwise, the one whose choice lost the most: the search
  player's clear rate after its alternative minus after the move played, on the same streams.

``lost_at`` is the first round from whose start the deal cannot be cleared with open hands;
``lost_in`` the round whose decisions lost it (the one before ``lost_at`` when that one was
clearable, or the last round when the game was lost with the deal still clearable at its start);
within it, the move after which no order of play clears the deal (``review_deal``, beside the
open-hand answers). Costly decisions say why (``review_explain``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from solver.analysis.continuations import Continuations
from solver.analysis.review_deal import DealTurn, find_turn
from solver.analysis.review_explain import explain
from solver.analysis.review_story import lost_by, story
from solver.analysis.review_types import (
    CLASSES,
    LOST_BY_MIN,
    UNCOUNTED,
    Decision,
    OpenEnd,
    Review,
    RoundReview,
    SeatSummary,
    classify,
    move_accuracy,
    who,
)
from solver.core.board import all_positions
from solver.core.rules import Mission, Placement
from solver.game.actions import Action, ActionKind
from solver.game.resume import replay, start_of_log
from solver.game.state import GameState
from solver.io.gamelog import GameLog
from solver.openhand.deal import CLEARABLE, NOT_CLEARABLE, DealSolver, from_moment

REVIEW_SAMPLES = 8  # the search player's look-ahead deals a decision, in the review
REVIEW_PLAYOUTS = 24  # continuations per moment
REFINE = 3  # a decision that lost something is measured again on this many times the continuations
REFINE_FROM = 0.05  # ... from this loss on (below it, best on any draw of the continuations)
# The review a player waits for (``careful`` off) judges as the careful one does, with less work:
# every move is screened on the first SCREEN continuations, and a move that no alternative beats on
# any of them is the best. Elsewhere the move played and its strongest alternative are measured
# STEP continuations at a time, and a decision stops as soon as its class is settled: the class
# its figures give now is, with probability SURE, the class the careful judgement reaches (on the
# review's playouts, then on REFINE times as many for a loss of REFINE_FROM or more), predicted
# from the continuations measured so far (best and good count as one: neither gets a mark or a
# word). A lost game's decisions that may be the one that lost it (CONTENDER) are then measured as
# far as the careful judgement goes, so that ``lost_by`` is named on the same figures.
# benchmarks/bench_review.py compares the two.
SCREEN = 8
STEP = 8
GROUP = {"best": 0, "good": 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}  # good: no mark, no word
SURE = 0.95
PREDICTIONS = 400  # draws of the continuations still to measure, to predict the careful class
CONTENDER = 0.30  # a decision this close to the costliest may be the one that lost the game
PLACES_TRIED = 8  # a placement's other choices tried by the planner (spread over the legal ones), at most


def review_game(log: GameLog, mission: Mission, catalog, time_limit: float, *, samples: int = REVIEW_SAMPLES,
                playouts: int = REVIEW_PLAYOUTS, seed: int = 1,
                progress: Callable[[str], None] | None = None, workers: int = 1, careful: bool = False,
                judged: Callable[[Decision], None] | None = None) -> Review:
    """The review of a logged game (the module docstring); the log is checked by the rules first.
    ``workers`` processes play the continuations (the same review for any number); ``careful``
    measures every move as far as the yardstick goes (see SCREEN); ``judged(decision)`` is told
    each decision as soon as it is judged, round by round."""
    t0 = time.perf_counter()
    say = progress or (lambda _text: None)
    final = replay(log, mission, catalog)  # every move checked; InputError names the line
    state = start_of_log(log, mission, catalog)
    n = final.rounds_played()
    cont = Continuations(mission, catalog, state, samples, playouts=playouts, deepest=REFINE * playouts, seed=seed,
                         workers=workers, line=tuple(final.moves))
    judge = _judge_round if careful else _judge_round_quick
    reviews: list[RoundReview] = []
    decisions: list[Decision] = []
    human = tuple(log.human)
    cleared = final.result() == "cleared"
    open_args = (final.is_over(), cleared, _round_starts(state, final), catalog, final.players, time_limit,
                 _round_moves(final))
    try:
        # the open-hand answers (and the move that lost the deal) on a worker while the continuations
        # are played (the same answers)
        opening = cont.submit(_open_hands_and_turn, *open_args) if workers > 1 and not cleared else None
        if opening is not None:
            say("review: the deal with open hands, round by round, alongside")
        for record, round_moves in zip(final.history, _round_moves(final), strict=True):
            begin = state.clone()
            rr = RoundReview(record.round, record.start_player, board=state.board.copy(), record=record)
            say(f"review: round {record.round} of {n}: every decision, the search player from before and after it")
            moments = []
            for action in round_moves:
                moments.append((state.clone(), action))
                state.apply(action)
            rr.search_rate, round_decisions = judge(begin, moments, cont, human)
            _mark_equal(round_decisions, cont)
            for d in _with_forced(moments, round_decisions, rr.search_rate, human):
                decisions.append(d)
                if judged:
                    judged(d)
            reviews.append(rr)
        if not final.is_over():  # a game still in play: the round to come too
            rr = RoundReview(state.round, state.leader, board=state.board.copy())
            say(f"review: round {state.round} (to come): the search player from here")
            rr.search_rate = cont.rate(state)
            reviews.append(rr)
        if opening is None:
            say("review: the deal with open hands, round by round")
        decided, turn = opening.result() if opening is not None else _open_hands_and_turn(*open_args)
        _open_hands(cleared, reviews, decided)
        lost_at = next((r.round for r in reviews if r.open_hand == NOT_CLEARABLE), None)
        if final.is_over() and final.result() != "cleared":
            _sharpen_contenders(decisions, cont, lost_at if lost_at is not None else n)
    except BaseException:
        cont.close()  # Ctrl-C or an error: the workers stop now
        raise
    cont.close(wait=True)  # done: idle workers end by themselves (no pipe closed under the exit's feet)
    for rr in reviews:
        for d in decisions:
            if d.round == rr.round:
                rr.costliest = _costlier(rr.costliest, d)
    lost_in = None
    if final.is_over() and final.result() != "cleared":
        if lost_at is None:
            lost_in = n if reviews and reviews[-1].open_hand == CLEARABLE else None
        elif lost_at > 1 and reviews[lost_at - 2].open_hand == CLEARABLE:
            lost_in = lost_at - 1
    def explained(ds: list[Decision]) -> None:
        explain(ds, catalog, final.players, cont, turn, lambda seat, own=False: who(seat, human, own, log.names),
                workers)

    explained([d for d in decisions if d.klass in ("mistake", "blunder")
               or (turn is not None and d.state is not None and len(d.state.moves) == turn.move and d.counted)])
    rv = Review(mission, log, final.players, final.result() or "in_play", reviews, lost_at, lost_in, samples,
                playouts, seed, 0.0, final.board.copy(), decisions, _seats(final.players, decisions, human, log.names),
                human=human, catalog=catalog, careful=careful)
    if turn is not None:
        rv.turned_by = next((d for d in decisions if d.state is not None and len(d.state.moves) == turn.move), None)
    rv.lost_by = lost_by(rv)
    if rv.lost_by is not None and not rv.lost_by.decision.reasons:  # the losing decision says why too
        explained([rv.lost_by.decision])
        rv.lost_by = lost_by(rv)
    rv.story = story(rv)
    rv.seconds = time.perf_counter() - t0
    return rv


def _with_forced(moments: list[tuple[GameState, Action]], judged: list[Decision], start_rate: float,
                 human: tuple[int, ...]) -> list[Decision]:
    """The round's decisions in the order they were made, the forced moves (one legal choice) among
    them: a forced move changes nothing, so its figures are those of the moment before it (the
    last decision's after it, else the round's start)."""
    out, judged_left, rate = [], list(judged), start_rate
    for state, action in moments:
        if len(state.legal_actions()) >= 2:
            d = judged_left.pop(0)
            rate = d.rate_played
        else:
            seat = state.current_player()
            words = describe(state, action)
            d = Decision(state.round, seat, seat in human, _kind(action), words, words, None, rate, rate, action,
                         state.board.copy(), state.catalog, action, state=state, forced=True)
        out.append(d)
    return out


def _mark_equal(decisions: list[Decision], cont: Continuations) -> None:
    """A decision the continuations call best is equal when the planner (the ladder's rung that
    draws no random numbers) clears the game after the move played and after every other choice
    tried (every card and selection; PLACES_TRIED placements spread over the legal ones): any
    choice would have done. (Once every choice loses, ``rate_best`` 0, a decision is equal anyway.)"""
    for d in decisions:
        if d.klass != "best" or d.state is None or d.played_action is None:
            continue
        others = [a for a in d.state.legal_actions() if a != d.played_action]
        if len(others) > PLACES_TRIED:
            step = -(-len(others) // PLACES_TRIED)
            others = others[::step]
        if all(cont.planner_clears([_after(d.state, a) for a in [d.played_action, *others]])):
            d.equal = True


def _round_moves(final: GameState) -> list[list[Action]]:
    """The moves of each finished round of the game, in order (its cards, selection, placements)."""
    out, at = [], 0
    for record in final.history:
        count = len(record.plays) + 1 + len(record.placements)
        out.append(list(final.moves[at:at + count]))
        at += count
    return out


def _round_starts(state: GameState, final: GameState) -> list[GameState]:
    """The moment each round of the game began (and the round to come, in a game still in play),
    from ``state``, the start of the log."""
    out, s = [], state.clone()
    for moves in _round_moves(final):
        out.append(s.clone())
        for action in moves:
            s.apply(action)
    if not final.is_over():
        out.append(s.clone())
    return out


@dataclass
class _Moment:
    """A decision being judged: the moment, the move played, the moment after it, and the search
    player's alternatives (the moments after each)."""

    state: GameState
    action: Action
    played: GameState
    alternatives: list[tuple[Action, GameState]] = field(default_factory=list)


def _after(state: GameState, action: Action) -> GameState:
    out = state.clone()
    out.apply(action)
    return out


def _judge_round(start: GameState, moments: list[tuple[GameState, Action]], cont: Continuations,
                 human: tuple[int, ...], screen: int | None = None,
                 settled: float = float("inf")) -> tuple[float, list[Decision]]:
    """A round's decisions judged, with the continuations of each step played at once over the
    workers: the round's start and every move played (screened), the search player's alternatives
    where the move played lost some continuation (screened), further where an alternative beat it,
    and again closer where the loss is to grade (module docstring, SCREEN). With ``screen`` the
    review's playouts and ``settled`` infinite, each decision is judged exactly as one at a time:
    the moves' rates on the review's continuations, the search player's first choice that does
    best (none once a move clears them all), a loss from REFINE_FROM measured on REFINE times as
    many, the rate before told where the loss is worth a word or was measured anyway."""
    full = cont.playouts
    screen = full if screen is None else screen
    judged = _screened(start, moments, cont, screen)

    def beaten(m: _Moment) -> bool:  # an alternative cleared a continuation the move played did not
        mine = cont.won(m.played, screen)
        return any(bool(np.any(cont.won(alt, screen) & ~mine)) for _, alt in m.alternatives)

    open_ = [m for m in judged if m.alternatives and (screen >= full or beaten(m))]
    cont.ensure([x for m in open_ for x in [m.played, *(alt for _, alt in m.alternatives)]], full)
    rates: dict[int, tuple[float, float, Action, GameState]] = {}
    for m in judged:
        upto = full if m in open_ else screen
        rate_played = cont.rate(m.played, upto)
        preferred, rate_best, after = m.action, rate_played, m.played
        for choice, alt in m.alternatives if m in open_ else ():
            if rate_best >= 1.0:  # nothing beats every continuation cleared
                break
            r = cont.rate(alt, full)
            if r > rate_best:
                preferred, rate_best, after = choice, r, alt
        rates[id(m)] = (rate_played, rate_best, preferred, after)
    refine = [m for m in judged if REFINE_FROM - 1e-9 <= rates[id(m)][1] - rates[id(m)][0] < settled]
    cont.ensure([x for m in refine for x in (m.played, rates[id(m)][3])], REFINE * full)
    for m in refine:  # a loss to grade: measured again, closer
        _, _, preferred, after = rates[id(m)]
        rate_played, rate_best = cont.rate(m.played, REFINE * full), cont.rate(after, REFINE * full)
        if rate_played >= rate_best:  # the move played did as well: it is the best
            preferred, rate_best = m.action, rate_played
        rates[id(m)] = (rate_played, rate_best, preferred, after)
    # the rate before a decision is told only where the decision cost something worth a word, or
    # where it is known at the review's depth already (the round's start, after a move judged)
    costly = [m for m in judged if rates[id(m)][1] - rates[id(m)][0] >= LOST_BY_MIN - 1e-9]
    cont.ensure([m.state for m in costly], full)
    out = []
    for m in judged:
        rate_played, rate_best, preferred, _ = rates[id(m)]
        before = cont.rate(m.state) if m in costly or cont.measured(m.state) >= full else None
        seat = m.state.current_player()
        out.append(Decision(m.state.round, seat, seat in human, _kind(m.action), describe(m.state, m.action),
                            describe(m.state, preferred), before, rate_played, rate_best, preferred,
                            m.state.board.copy(), m.state.catalog, m.action, state=m.state))
    return cont.rate(start), out


def _screened(start: GameState, moments: list[tuple[GameState, Action]], cont: Continuations,
              screen: int) -> list[_Moment]:
    """The round's decisions (moments with a choice), each move played screened on ``screen``
    continuations and, where it did not clear them all, with the search player's alternatives
    screened too (the round's start measured on the review's playouts)."""
    judged = [_Moment(s, a, _after(s, a)) for s, a in moments if len(s.legal_actions()) >= 2]
    cont.ensure([start], cont.playouts)
    cont.ensure([m.played for m in judged], screen)
    for m in judged:  # the search player's choices, where the move played did not clear every continuation
        if cont.rate(m.played, screen) < 1.0:
            m.alternatives = [(c, _after(m.state, c)) for c in cont.prefers(m.state) if c != m.action]
    cont.ensure([alt for m in judged for _, alt in m.alternatives], screen)
    return judged


def _judge_round_quick(start: GameState, moments: list[tuple[GameState, Action]], cont: Continuations,
                       human: tuple[int, ...]) -> tuple[float, list[Decision]]:
    """A round's decisions judged with sequential stopping (see SCREEN): the continuations of each
    step, for every decision still open, played at once over the workers."""
    full = cont.playouts
    screen = min(SCREEN, full)
    judged = _screened(start, moments, cont, screen)
    leads: dict[int, tuple[Action, GameState]] = {}
    for m in judged:  # the strongest alternative that clears a continuation the move played does not
        mine = cont.won(m.played, screen)
        beating = [(c, alt) for c, alt in m.alternatives if np.any(cont.won(alt, screen) & ~mine)]
        if beating:
            leads[id(m)] = max(beating, key=lambda ca: float(np.mean(cont.won(ca[1], screen))))  # the first on ties
    measured = {id(m): screen for m in judged}
    open_ = [m for m in judged if id(m) in leads]
    while open_:
        for m in open_:
            measured[id(m)] += STEP
        cont.ensure_each([(x, measured[id(m)]) for m in open_ for x in (m.played, leads[id(m)][1])])
        open_ = [m for m in open_ if not _settled(cont.won(leads[id(m)][1], measured[id(m)]),
                                                  cont.won(m.played, measured[id(m)]), full)]
    out = []
    for m in judged:
        seat = m.state.current_player()
        d = Decision(m.state.round, seat, seat in human, _kind(m.action), describe(m.state, m.action), "", None,
                     0.0, 0.0, None, m.state.board.copy(), m.state.catalog, m.action, state=m.state)
        lead = leads.get(id(m))
        d.open_end = None if lead is None else OpenEnd(m.state, m.played, lead[0], lead[1])
        _figures(d, m.state, m.played, cont, measured[id(m)])
        out.append(d)
    cont.ensure([m.state for m, d in zip(judged, out, strict=True) if d.cost >= LOST_BY_MIN - 1e-9], full)
    for m, d in zip(judged, out, strict=True):
        d.rate_before = cont.rate(m.state) if cont.measured(m.state) >= full else None
    return cont.rate(start), out


def _figures(d: Decision, before: GameState, played: GameState, cont: Continuations, n: int) -> None:
    """A decision's rates on the first n continuations: the move played's, and its alternative's
    where that cleared more; ``open_end`` cleared once they are the careful judgement's."""
    assert d.played_action is not None
    d.rate_played = cont.rate(played, n)
    d.best_action, d.rate_best = d.played_action, d.rate_played
    end = d.open_end
    if end is not None:
        if cont.rate(end.alternative, n) > d.rate_played:
            d.best_action, d.rate_best = end.choice, cont.rate(end.alternative, n)
        if _careful_depth(cont.won(end.alternative, n), cont.won(played, n), cont.playouts):
            d.open_end = None
    d.best = describe(before, d.best_action)


def _sharpen_contenders(decisions: list[Decision], cont: Continuations, last: int) -> None:
    """The quick judgement's figures where they name the decision that lost the game: the
    decisions that may be the costliest at or before round ``last`` (within CONTENDER of the
    costliest) measured as far as the careful judgement goes, until the costliest is."""
    deepest = REFINE * cont.playouts
    while True:
        candidates = [d for d in decisions if d.round <= last and d.cost >= LOST_BY_MIN - 1e-9]
        top = max((d.cost for d in candidates), default=0.0)
        short = [d for d in candidates if d.open_end is not None and d.cost >= top - CONTENDER]
        if not short:
            return
        ends = [d.open_end for d in short if d.open_end is not None]
        cont.ensure_each([(x, deepest) for e in ends for x in (e.played, e.alternative)])
        for d, e in zip(short, ends, strict=True):
            _figures(d, e.before, e.played, cont, deepest)
            d.open_end = None


def _careful_depth(best: np.ndarray, played: np.ndarray, full: int) -> bool:
    """Whether the careful judgement would measure no further than these continuations."""
    n = len(played)
    diff = best.astype(np.int64) - played.astype(np.int64)
    return n >= REFINE * full or (n >= full and diff[:full].mean() < REFINE_FROM - 1e-9)


def _settled(best: np.ndarray, played: np.ndarray, full: int) -> bool:
    """Whether a decision measured on the first n continuations (``best``, ``played``: which the
    alternative and the move played cleared) is settled: the careful judgement's figures reached,
    or its class predicted with probability SURE to be the class of the figures now, a class below
    LOST_BY_MIN (a decision that may have lost the game is measured as far as the careful one)."""
    n = len(played)
    if _careful_depth(best, played, full):
        return True  # the careful judgement stops here too
    diff = best.astype(np.int64) - played.astype(np.int64)  # a continuation won (+1) or lost (-1) by the alternative
    now = GROUP[classify(max(0.0, float(diff.mean())))]
    counts = np.array([np.sum(diff == -1), np.sum(diff == 0), np.sum(diff == 1)])
    # the continuations still to come, drawn from what the ones measured say (a Dirichlet posterior
    # on the three outcomes, Jeffreys' prior); seeded by the counts: the same answer for the same figures
    rng = np.random.default_rng([int(x) for x in counts] + [n, full])
    p = rng.dirichlet(counts + 0.5, PREDICTIONS)
    total = diff.sum()
    if n < full:
        first = total + _draw_sums(rng, p, full - n)
        stage_one = first / full < REFINE_FROM - 1e-9
    else:
        first = np.full(PREDICTIONS, diff[:full].sum())
        stage_one = np.zeros(PREDICTIONS, bool)
    rest = REFINE * full - max(n, full)
    final = np.where(stage_one, first / full, (np.maximum(total, first) + _draw_sums(rng, p, rest)) / (REFINE * full))
    same = sum(GROUP[classify(max(0.0, float(c)))] == now for c in final)
    return same >= SURE * PREDICTIONS


def _draw_sums(rng: np.random.Generator, p: np.ndarray, k: int) -> np.ndarray:
    """For each row of outcome probabilities (lost, even, won), the sum of k draws of -1, 0, +1."""
    if k <= 0:
        return np.zeros(len(p))
    counts = np.array([rng.multinomial(k, row) for row in p])
    return counts[:, 2] - counts[:, 0]


def _costlier(a: Decision | None, b: Decision | None) -> Decision | None:
    if b is None or b.cost <= 0:
        return a
    return b if a is None or b.cost > a.cost else a


def _seats(players: int, decisions: list[Decision], human: tuple[int, ...],
           names: dict | None = None) -> list[SeatSummary]:
    out = []
    for seat in range(players):
        mine = [d for d in decisions if d.seat == seat]
        classes = {c: sum(d.klass == c for d in mine) for c in CLASSES + UNCOUNTED}
        counted = [d for d in mine if d.counted]
        accuracy = float(np.mean([move_accuracy(d.cost) for d in counted])) if counted else None
        out.append(SeatSummary(seat, seat in human, sum(not d.forced for d in mine), classes, accuracy,
                               (names or {}).get(seat), len(counted)))
    return out


def _kind(action: Action) -> str:
    return {ActionKind.REVEAL: "card", ActionKind.SELECT: "selection", ActionKind.PLACE: "placement"}[action.kind]


def describe(state: GameState, action: Action) -> str:
    """An action in words, at the moment it is taken."""
    if action.kind == ActionKind.REVEAL:
        return str(action.card)
    if action.kind == ActionKind.SELECT:
        o = state.options[action.index]
        pieces = ", then ".join(map(str, o.pieces)) or "nothing (the piece is on the board)"
        return f"{(o.skill.json or '').replace('_', ' ')}: {pieces}" if o.skill else pieces
    assert action.card is not None
    placed = Placement(action.card, all_positions(state.catalog[action.card])[action.index])
    return f"{action.card} at {' '.join(placed.cell_names())}"


def _open_hands_and_turn(over: bool, cleared: bool, starts: list[GameState], catalog, players: int,
                         time_limit: float, moves: list[list[Action]]) -> tuple[dict[int, tuple[str, str]],
                                                                              DealTurn | None]:
    """The open-hand answers (``_open_hand_answers``) and, where a round's start was clearable and
    its end was not (the next round's start, or the game's end), the move of that round that lost
    the deal (``review_deal.find_turn``): a function of the game alone, for a worker too."""
    plans: dict = {}
    decided = _open_hand_answers(over, cleared, starts, catalog, players, time_limit, plans)
    if cleared:
        return decided, None
    n = len(moves)
    yes = max((r for r, (a, _) in decided.items() if a == CLEARABLE), default=0)
    no = min((r for r, (a, _) in decided.items() if a == NOT_CLEARABLE), default=n + 1)
    lost = yes if no == yes + 1 or (over and yes == n) else 0
    if not 1 <= lost <= n:
        return decided, None
    return decided, find_turn(starts[lost - 1], moves[lost - 1], sum(len(m) for m in moves[:lost - 1]),
                              plans.get(lost))


def _open_hand_answers(over: bool, cleared: bool, starts: list[GameState], catalog, players: int,
                       time_limit: float, plans: dict | None = None) -> dict[int, tuple[str, str]]:
    """The rounds the open-hand yardstick decides, by bisection over the monotone answers (module
    docstring): round -> (answer, how). A function of the game alone (every budget is counted in
    work), so the review may decide it on a worker while its continuations are played."""
    n = len(starts)
    if cleared:
        return {}
    decided: dict[int, tuple[str, str]] = {}

    def decide(r: int) -> str:
        mission, start = from_moment(starts[r - 1])
        answer = DealSolver(mission, catalog, players, time_limit).decide_state(start)
        decided[r] = (answer.result, f"{answer.how}, {answer.seconds:.1f} s")
        if plans is not None and answer.plan is not None:
            plans[r] = answer.plan  # a clear from the round's start
        return answer.result

    def between(lo: int, hi: int) -> None:  # lo clearable (or 0), hi not clearable (or n + 1)
        if hi - lo <= 1:
            return
        mid = (lo + hi) // 2
        answer = decide(mid)
        if answer == CLEARABLE:
            between(mid, hi)
        elif answer == NOT_CLEARABLE:
            between(lo, mid)
        else:
            between(lo, mid)
            between(mid, hi)

    if over:
        between(0, n + 1)  # the game was lost: after its last round it cannot be cleared
    elif decide(n) == CLEARABLE:  # still in play: nothing is known of where it goes
        pass
    else:
        between(0, n)
    return decided


def _open_hands(cleared: bool, reviews: list[RoundReview], decided: dict[int, tuple[str, str]]) -> None:
    """Each round's open-hand answer: decided, or implied by a decided one (module docstring)."""
    if cleared:
        for r in reviews:
            r.open_hand, r.how = CLEARABLE, "the game itself"
        return
    n = len(reviews)
    yes = max((r for r, (a, _) in decided.items() if a == CLEARABLE), default=0)
    no = min((r for r, (a, _) in decided.items() if a == NOT_CLEARABLE), default=n + 1)
    for rr in reviews:
        if rr.round in decided:
            rr.open_hand, rr.how = decided[rr.round]
        elif rr.round <= yes:
            rr.open_hand, rr.how = CLEARABLE, f"implied by round {yes}"
        elif rr.round >= no:
            rr.open_hand, rr.how = NOT_CLEARABLE, f"implied by round {no}"
