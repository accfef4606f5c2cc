"""The review explains the card play: the exact model of a deal from the middle of a round
(openhand/midround.py) held to the deal solver and to every play of a trick; golden lost games whose
losing move lost the deal in the cards (a needed piece's only card spent, the lead given away, a
must-follow trap, a piece placed where the clear needed room, a double scan not taken), each with
the reason it must give; a reviewed game's decisions never fall back on the generic sentence
across the round in which its deal was lost; the continuations' reason counts what was played."""

from __future__ import annotations

import re

import pytest

from solver.analysis.review import _round_moves, describe, review_game
from solver.analysis.review_continuations import continuation_reason, continued
from solver.analysis.review_deal import deal_reason, find_turn
from solver.core.cards import Card
from solver.game.actions import ActionKind, Phase
from solver.game.resume import replay, start_of_log
from solver.game.state import decision_card, legal_cards
from solver.io.gamelog import read_log
from solver.openhand.deal import CLEARABLE, NOT_CLEARABLE, DealSolver, Work, from_moment
from solver.openhand.midround import MomentDeal
from tests.helpers.games import mission_of
from tests.helpers.golden import CARDS, game, moments, words

C = Card.parse


# ---------------------------------------------------------------- the exact model from any moment
def test_a_rounds_start_is_decided_as_the_deal_solver_decides_it(catalog):
    """From the start of a round the moment's model is the deal solver's model of that moment."""
    log, m, _, _ = game("p11-4-lead", catalog)
    for rnd in (8, 9):
        start = replay(log, m, catalog, rnd)
        mission, s = from_moment(start)
        direct = DealSolver(mission, catalog, log.players, 10.0).decide_state(s).result
        assert MomentDeal(start, Work(10.0)).clears()[0] == direct
    assert direct == NOT_CLEARABLE  # round 8 was clearable: the pair says something


def test_a_cleared_game_is_clearable_from_every_moment_of_its_last_round(catalog):
    """The game is the witness: mid-trick, selecting, and placing its last pieces (no round left)."""
    log = read_log(CARDS.parent / "b03-greedy-2.jsonl")
    m = mission_of(log.mission, catalog)
    final = replay(log, m, catalog)
    assert final.result() == "cleared"
    s = start_of_log(log, m, catalog)
    phases = set()
    for a in final.moves:
        if s.round == final.round:
            phases.add(s.phase)
            assert MomentDeal(s, Work(10.0)).clears()[0] == CLEARABLE, (s.phase, s.trick)
        s.apply(a)
    assert phases == {Phase.REVEAL, Phase.SELECT, Phase.PLACE}


@pytest.mark.parametrize("name,rnd", [("p11-4-lead", 8), ("b19-2-select", 7)])
def test_who_can_win_the_trick_is_every_play_of_it(catalog, name, rnd):
    """In the middle of a trick, the cards that some legal end of it lets win are the model's
    (``can(("wins", card, 0))``), and so with a seat free of its duty to follow."""
    for s in moments(name, catalog, rnd):
        if s.is_over() or s.phase != Phase.REVEAL:
            continue
        deal = MomentDeal(s, Work(20.0))
        held = [c for h in s.hands for c in h] + [c for _, c in s.trick]
        for free in (None, *range(s.players)):
            winners = set()
            order = s.spec.play_order(s.leader)[len(s.trick):]

            def play(i, trick, hands, free=free, order=order, winners=winners, trump=s.trump):
                if i == len(order):
                    winners.add(decision_card(trick, trump)[1])
                    return
                seat = order[i]
                lead = trick[0][1].colour if trick else None
                for c in hands[seat] if seat == free else legal_cards(hands[seat], lead):
                    play(i + 1, [*trick, (seat, c)], {**hands, seat: [x for x in hands[seat] if x != c]})

            play(0, list(s.trick), dict(enumerate(s.hands)))
            leave_out = () if free is None else (("follow", free),)
            assert {c for c in held if deal.can(("wins", c, 0), leave_out=leave_out)} == winners, (s.trick, free)


# ---------------------------------------------------------------- golden games lost in the cards
# (game, round, the move that lost it in words, the reason's words, the piece's cells, a card named and where)
GOLDEN = [
    ("p09-3-spent", 7, "red-1",
     ["player 1 led red-1 in round 7", "red-1, which every clear needed, can no longer be won",
      "it cannot win this trick: player 2 must follow red"], ["h3"], ("red-1", 1, "played")),
    ("p11-4-lead", 8, "green-1",
     ["player 1 led green-1 in round 8", "red-5, which every clear needed, can no longer be won",
      "in player 2's hand", "could win round 9 only if player 0 or player 2 had the lead, and neither leads again: "
      "only player 3 can",
      "round 9, player 2's red-5 winning the trick"], ["f11", "f12", "g12", "h12"], ("red-5", 2, "hand")),
    ("p10-3-follow", 4, "red-6",
     ["player 2 led red-6 in round 4", "red-1, which every clear needed, can no longer be won",
      "in player 0's hand and could win a round from 5 to 9 only if player 0 did not have to follow red"], ["a8"],
     ("red-1", 0, "hand")),
    ("p15-4-placed", 8, "red-3 at c1 c2 c3",
     ["player 3 placed red-3 at c1 c2 c3 in round 8", "no longer scan enough birds with it there",
      "the clear found before it put red-3 at "], None, None),
    ("b19-2-select", 7, "blue-6",
     ["player 0 selected blue-6 in round 7", "blue-2, which every clear needed, can no longer be won",
      "player 1 revealed blue-2 in this round, so only this round's selection could take it",
      "no card a skill could turn into it is left in a hand", "with a double scan"], ["e5", "e6"],
     ("blue-2", 1, "played")),
]


@pytest.mark.parametrize("name,rnd,played,said,cells,card", GOLDEN, ids=[g[0] for g in GOLDEN])
def test_the_move_that_lost_the_deal_and_what_no_order_of_play_can_do_after_it(catalog, name, rnd, played, said,
                                                                                cells, card):
    ms = moments(name, catalog, rnd)
    _, _, final, _ = game(name, catalog)
    first = len(ms[0].moves)
    turn = find_turn(ms[0], _round_moves(final)[rnd - 1], first)
    assert turn is not None and turn.round == rnd
    before = ms[turn.move - first]
    assert describe(before, turn.action) == played
    # the move is the one that turned it: before it the deal could be cleared, after it not
    assert MomentDeal(before, Work(20.0)).clears()[0] == CLEARABLE
    after = ms[turn.move - first + 1]
    assert after.is_over() or MomentDeal(after, Work(20.0)).clears()[0] == NOT_CLEARABLE
    reason = deal_reason(turn, words, played)
    assert reason is not None and reason["kind"] == "deal"
    for phrase in said:
        assert phrase in reason["text"], (phrase, reason["text"])
    if cells is not None:
        assert reason["cells"] == cells and reason["pieces"][0]["cells"] == cells
    else:  # a placement: where the clear before it put the piece, the deal could still be cleared
        assert turn.instead and reason["cells"] == turn.instead and f"at {' '.join(turn.instead)}" in reason["text"]
        there = next(a for a in before.legal_actions() if describe(before, a).endswith(" ".join(turn.instead)))
        elsewhere = before.clone()
        elsewhere.apply(there)
        assert elsewhere.result() == "cleared" or MomentDeal(elsewhere, Work(20.0)).clears()[0] == CLEARABLE
    if card is not None:
        named = {c["card"]: (c["seat"], c["where"]) for c in reason["cards"]}
        assert named[card[0]] == card[1:]


@pytest.mark.slow
@pytest.mark.parametrize("name,rnd,played", [("p11-4-lead", 8, "green-1"), ("p09-3-spent", 7, "red-1")])
def test_a_review_says_the_deal_was_lost_in_the_cards_and_never_falls_back_across_the_loss(catalog, name, rnd,
                                                                                            played):
    log, m, _, _ = game(name, catalog)
    doc = review_game(log, m, catalog, 10.0, samples=1, playouts=6).to_json()
    verdicts = [r["open_hand"] for r in doc["rounds"]] + [NOT_CLEARABLE]
    turned = {r for r in range(1, len(doc["rounds"]) + 1)
              if (verdicts[r - 1], verdicts[r]) == (CLEARABLE, NOT_CLEARABLE)}
    assert turned == {rnd}
    lost = [d for d in doc["decisions"] if any(r["kind"] == "deal" for r in d.get("reasons", []))]
    assert [(d["round"], d["played"]) for d in lost] == [(rnd, played)]
    turn = doc["open_hand_lost_by"]
    assert (turn["round"], turn["kind"], turn["played"]) == (rnd, "card", played)
    said = "that move" if (doc["lost_by"]["round"], doc["lost_by"]["played"]) == (rnd, played) else \
        f"player {turn['seat']} led {played} in round {rnd}"
    assert f"with every hand open the deal stayed winnable until {said}." in doc["summary"]
    for d in doc["decisions"]:
        if d.get("reasons") and d["round"] in turned:
            assert all(r["kind"] != "chance" for r in d["reasons"]), d
    lb = doc["lost_by"]
    assert lb is not None and lb["reasons"][0]["kind"] != "chance" and lb["reasons"][0]["text"] in lb["why"]
    if (lb["round"], lb["played"]) == (rnd, played):
        assert lb["reasons"][0]["kind"] == "deal"


# ---------------------------------------------------------------- what the continuations show
def test_a_continuation_told_by_its_moves_is_the_game_it_was(catalog):
    """``continued`` reads the pieces placed, the tricks' winners and the birds scanned off the
    moves alone: the same as the game the rules played."""
    _, _, final, s = game("p11-4-lead", catalog)
    for a in final.moves[:23]:
        s.apply(a)
    told = continued(s, final.moves[23:], final.result() == "cleared")
    assert told.pieces == {p.card: p for r in final.history[s.round - 1:] for p in r.placements if r.round >= s.round}
    assert told.tricks == {(r.round, r.in_charge) for r in final.history if r.round >= s.round}
    assert told.birds == set(final.board.scanned()) and told.cleared is False


class Played:
    """Continuations as the review keeps them (``measured``, ``won``, ``paths``), here games the
    heuristic player plays from each moment on the Python engine."""

    def __init__(self, games: dict):
        self.games = games  # moves from the deal -> [(moves, cleared)]

    def measured(self, state):
        return len(self.games[tuple(state.moves)])

    def won(self, state, n):
        return [c for _, c in self.games[tuple(state.moves)][:n]]

    def paths(self, state, n):
        return [m for m, _ in self.games[tuple(state.moves)][:n]]


def test_the_continuations_reason_counts_what_the_continuations_did(catalog):
    """A piece, trick or bird the reason names is had as often as it says, after either move."""
    from solver.game.policies import HeuristicPolicy
    from solver.game.rng import SplitMix64

    _, _, final, s = game("p11-4-lead", catalog)
    at = next(i for i, a in enumerate(final.moves) if a.card == C("blue-8") and a.kind == ActionKind.PLACE)
    for a in final.moves[:at]:  # round 7: blue-8 to place (its placement cost the game the clear)
        s.apply(a)
    # the placement played, and where the review's careful table put it instead
    options = [final.moves[at], next(a for a in s.legal_actions() if describe(s, a) == "blue-8 at f11 e12 f12 g12 h12")]
    games = {}
    for a in options:
        after = s.clone()
        after.apply(a)
        runs = []
        for seed in range(12):
            g = after.clone()
            g.seat_rngs = [SplitMix64(seed * 7 + k) for k in range(g.players)]
            policy = HeuristicPolicy()
            while not g.is_over():
                seat = g.current_player()
                g.apply(policy.act(g.observation(seat), g.seat_rngs[seat]))
            runs.append((g.moves[len(after.moves):], g.result() == "cleared"))
        games[tuple(after.moves)] = runs
    rates = {a: sum(c for _, c in games[(*s.moves, a)]) for a in options}
    best, worst = max(options, key=rates.get), min(options, key=rates.get)
    assert rates[best] > rates[worst]
    reason = continuation_reason(Played(games), s, worst, best, "worst", "best", words)
    assert reason is not None and reason["kind"] == "continuations"
    told = {}
    for a in (worst, best):
        after = s.clone()
        after.apply(a)
        told[a] = [continued(after, m, c) for m, c in games[tuple(after.moves)]]
    if reason.get("pieces"):
        p = C(reason["pieces"][0]["piece"])
        counts = [sum(p in t.pieces for t in told[a]) for a in (worst, best)]
    elif reason["bird"] is not None:
        counts = [sum(reason["bird"] in t.birds for t in told[a]) for a in (worst, best)]
    else:
        seat, rnd = map(int, re.search(r"player (\d) wins the trick of round (\d+)", reason["text"]).groups())
        counts = [sum((rnd, seat) in t.tricks for t in told[a]) for a in (worst, best)]
    assert f" in {counts[0]} of 12 continuations" in reason["text"] and f"against {counts[1]} of 12 " in reason["text"]
    assert counts[1] - counts[0] >= 3
    assert reason["text"].startswith("after it, ")  # a placement: said once, in the decision


def test_with_nothing_narrower_proven_the_reason_says_what_the_clear_before_did():
    from solver.analysis.review_deal import DealTurn, Won
    from solver.core.codes import Skill
    from solver.game.actions import Action

    turn = DealTurn(40, 8, 1, Action.reveal(C("green-1")), led=True,
                    clear_before=[(C("red-5"), Won(9, 2, C("red-5"), Skill.NONE), ["f11", "f12"]),
                                  (C("purple-6"), Won(8, 0, C("yellow-6"), Skill.WILD_COLOR), ["c4", "d5"])])
    reason = deal_reason(turn, words, "green-1")
    assert reason is not None and reason["kind"] == "deal"
    assert reason["text"] == (
        "after player 1 led green-1 in round 8, no order of play of the cards left clears the deal; the clear found "
        "before it took red-5 in round 9 (player 2's red-5 winning the trick) and purple-6 in round 8 (player 0's "
        "yellow-6 winning the trick, with wild colour)")
    assert reason["cells"] == ["c4", "d5", "f11", "f12"]
    assert [p["piece"] for p in reason["pieces"]] == ["red-5", "purple-6"]
