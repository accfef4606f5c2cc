"""RULES.md, game part: one test (at least) per rule, each named after the rule it guards."""

import itertools

import pytest

from solver.core.cards import Card, Colour
from solver.core.codes import Skill
from solver.core.rules import Board, Placement
from solver.core.spec import GameSpec
from solver.game.engine import PolicyError, play_game
from solver.game.policies import HeuristicPolicy, RandomPolicy
from solver.game.rng import SplitMix64
from solver.game.state import GameState, Option, deal, decision_card, legal_cards, selection_options
from solver.io.missionfile import load_mission
from tests.helpers.missiontext import board_text, mission_text
from tests.helpers.paths import ROOT

C = Card.parse


@pytest.fixture(scope="module")
def b01(catalog):
    return load_mission(ROOT / "tests/missions/buddy/b01.toml", catalog)


@pytest.fixture(scope="module")
def p01(catalog):
    return load_mission(ROOT / "tests/missions/party/p01.toml", catalog)


def test_rule_buddy_setup_8_aside_16_each(b01, catalog):


    """RULES.md §5."""
    for seed in range(20):
        s = deal(b01, catalog, 2, seed)
        assert len(s.set_aside) == 8 and [len(h) for h in s.hands] == [16, 16]
        assert len(set(s.set_aside) | set(s.hands[0]) | set(s.hands[1])) == 40


def test_rule_party_four_players_deal_all(p01, catalog):


    """RULES.md §6."""
    s = deal(p01, catalog, 4, 7)
    assert [len(h) for h in s.hands] == [10] * 4 and not s.set_aside and not s.removed


def test_rule_party_three_players_remove_purple_1(p01, catalog):


    """RULES.md §7."""
    for seed in range(20):
        s = deal(p01, catalog, 3, seed)
        assert s.removed == (C("purple-1"),)
        assert [len(h) for h in s.hands] == [13] * 3
        assert all(C("purple-1") not in h for h in s.hands)


def test_rule_start_player_holds_purple_8(p01, b01, catalog):


    """RULES.md §8."""
    for seed in range(30):
        for m, n in ((p01, 3), (p01, 4), (b01, 2)):
            s = deal(m, catalog, n, seed)
            if C("purple-8") not in s.set_aside:
                assert C("purple-8") in s.hands[s.start_player]


def test_rule_buddy_random_start_when_purple_8_set_aside(b01, catalog):


    """RULES.md §8."""
    starts = set()
    for seed in range(400):
        s = deal(b01, catalog, 2, seed)
        if C("purple-8") in s.set_aside:
            starts.add(s.start_player)
    assert starts == {0, 1}


def test_rule_rounds_by_mode(b01, p01, catalog):


    """RULES.md §5, §6, §18."""
    assert (b01.rounds, p01.rounds) == (8, 10)
    g = play_game(b01, catalog, 2, 3, RandomPolicy(), log=True)
    assert g.result == "rounds_exhausted" and g.rounds_played == 8


def test_rule_wrong_player_count_is_an_input_error(b01, p01, catalog):
    from solver.core.errors import InputError

    with pytest.raises(InputError):
        deal(b01, catalog, 3, 1)
    with pytest.raises(InputError):
        deal(p01, catalog, 2, 1)


def test_rule_must_follow():


    """RULES.md §11."""
    hand = [C("red-2"), C("red-5"), C("blue-1")]
    assert legal_cards(hand, Colour.RED) == [C("red-2"), C("red-5")]
    assert legal_cards(hand, Colour.GREEN) == hand
    assert legal_cards(hand, None) == hand


def test_rule_engine_refuses_a_card_that_breaks_must_follow(b01, catalog):


    """RULES.md §11."""
    class Cheat(RandomPolicy):
        name = "cheat"

        def play_card(self, obs, legal, rng):
            others = [c for c in obs.hand if c not in legal]
            return others[0] if others else legal[0]

    with pytest.raises(PolicyError):
        for seed in range(20):
            play_game(b01, catalog, 2, seed, Cheat())


def test_rule_trump_beats_lead_and_highest_wins():


    """RULES.md §12."""
    plays = [(0, C("red-3")), (1, C("red-7")), (0, C("blue-1")), (1, C("green-8"))]
    assert decision_card(plays, Colour.PURPLE) == (1, C("red-7"))  # no trump: highest lead colour
    assert decision_card(plays, Colour.BLUE) == (0, C("blue-1"))  # a low trump beats the lead
    assert decision_card(plays, Colour.GREEN) == (1, C("green-8"))
    plays2 = [(0, C("yellow-2")), (1, C("purple-4")), (0, C("purple-6")), (1, C("yellow-8"))]
    assert decision_card(plays2, Colour.PURPLE) == (0, C("purple-6"))


def test_rule_trump_is_purple_then_last_decision_colour(b01, catalog):


    """RULES.md §12, §13."""
    g = play_game(b01, catalog, 2, 11, RandomPolicy(), log=True)
    rounds = g.events[1:-1]
    assert rounds[0]["trump"] == "purple"
    for prev, cur in itertools.pairwise(rounds):
        assert cur["trump"] == prev["decision"].split("-")[0]


def test_rule_in_charge_starts_next_round(b01, p01, catalog):


    """RULES.md §13."""
    for m, n in ((b01, 2), (p01, 3), (p01, 4)):
        rounds = play_game(m, catalog, n, 5, RandomPolicy(), log=True).events[1:-1]
        for prev, cur in itertools.pairwise(rounds):
            assert cur["start_player"] == prev["in_charge"] == cur["plays"][0]["player"]


def test_rule_buddy_play_order_start_other_start_other(b01, catalog):


    """RULES.md §10."""
    for e in play_game(b01, catalog, 2, 9, RandomPolicy(), log=True).events[1:-1]:
        s = e["start_player"]
        assert [p["player"] for p in e["plays"]] == [s, 1 - s, s, 1 - s]


def test_rule_party_clockwise_order(p01, catalog):


    """RULES.md §10."""
    for e in play_game(p01, catalog, 4, 9, RandomPolicy(), log=True).events[1:-1]:
        s = e["start_player"]
        assert [p["player"] for p in e["plays"]] == [(s + k) % 4 for k in range(4)]


def options(mission, board, plays, decision, skills=5):
    spec = GameSpec.of(mission, mission.default_players())
    return selection_options(spec, board, [(i % 2, C(c)) for i, c in enumerate(plays)], C(decision), skills)


def test_rule_double_scan_only_when_one_colour(b01, p01):


    """RULES.md §14."""
    board = Board.start(b01)
    same = options(b01, board, ["red-3", "red-7", "red-2", "red-5"], "red-7")
    assert Option(Skill.DOUBLE_SCAN, (C("red-7"), C("red-2"))) in same
    mixed = options(b01, board, ["red-3", "red-7", "blue-2", "red-5"], "red-7")
    assert not any(o.skill == Skill.DOUBLE_SCAN for o in mixed)
    party = options(p01, Board.start(p01), ["green-3", "green-1", "green-6"], "green-6", 3)
    assert [o.skill for o in party] == [Skill.NONE, Skill.DOUBLE_SCAN, Skill.DOUBLE_SCAN]


def test_rule_wild_colour_and_shift_change_buddy_only(b01, p01):


    """RULES.md §14."""
    opts = options(b01, Board.start(b01), ["red-3", "red-7", "blue-2", "red-5"], "red-7")
    wild = {o.pieces[0] for o in opts if o.skill == Skill.WILD_COLOR}
    shift = {o.pieces[0] for o in opts if o.skill == Skill.SHIFT_CHANGE}
    assert wild == {C("yellow-7"), C("green-7"), C("blue-7"), C("purple-7")}
    assert shift == {C("red-6"), C("red-8")}
    edge = options(b01, Board.start(b01), ["red-8", "red-1", "blue-2", "red-5"], "red-8")
    assert {o.pieces[0] for o in edge if o.skill == Skill.SHIFT_CHANGE} == {C("red-7")}  # no value 9
    party = options(p01, Board.start(p01), ["red-3", "blue-7", "red-5"], "red-5", 3)
    assert all(o.skill in (Skill.NONE, Skill.DOUBLE_SCAN) for o in party)


def test_rule_no_skill_without_counters(b01):


    """RULES.md §14."""
    opts = options(b01, Board.start(b01), ["red-3", "red-7", "red-2", "red-5"], "red-7", skills=0)
    assert opts == [Option(Skill.NONE, (C("red-7"),))]


def test_rule_used_piece_not_selectable_and_nothing_placed(b01):


    """RULES.md §15."""
    board = Board.start(b01)
    board.place(Placement.parse("red-7", ["a1", "a2", "b2", "c2", "c3"]))
    opts = options(b01, board, ["red-3", "red-7", "blue-2", "red-5"], "red-7")
    assert opts[0] == Option(Skill.NONE, ())  # nothing placed without a skill
    assert all(C("red-7") not in o.pieces for o in opts)
    assert Option(Skill.WILD_COLOR, (C("blue-7"),)) in opts  # a skill can still give an unused piece


def test_rule_preplaced_pieces_never_selected_again(catalog):


    """RULES.md §9."""
    m = load_mission(ROOT / "tests/missions/buddy/b04.toml", catalog)
    for seed in range(15):
        for e in play_game(m, catalog, 2, seed, RandomPolicy(), log=True).events[1:-1]:
            assert not {"blue-5", "red-6"} & set(e["pieces"])


def test_rule_skill_counters_spent_one_per_use(b01, catalog):


    """RULES.md §14."""
    for seed in range(10):
        g = play_game(b01, catalog, 2, seed, RandomPolicy(), log=True)
        left = b01.skills
        for e in g.events[1:-1]:
            left -= 1 if e["skill"] else 0
            assert e["skills_left"] == left >= 0


def crowded_mission(write, catalog):
    """A giant bird leaves only a 2 x 2 corner: pieces of 5 cells fit nowhere."""
    rows = {r: "AAAAAAAAAAAA" for r in range(1, 13)}
    rows[11] = "AAAAAAAAAA.."
    rows[12] = "AAAAAAAAAA.."
    path = write("crowded.toml", mission_text(board_text(rows)))
    return load_mission(path, catalog)


def test_rule_unplaceable_piece_fails_at_once(write, catalog):


    """RULES.md §17."""
    m = crowded_mission(write, catalog)
    results = {play_game(m, catalog, 2, s, RandomPolicy()).result for s in range(30)}
    assert results == {"unplaceable"}


def test_play_says_in_one_line_why_a_game_was_lost(write, catalog, tmp_path):
    from click.testing import CliRunner

    from solver.cli import main

    crowded_mission(write, catalog)  # written as crowded.toml beside the test's other files
    path = next(tmp_path.rglob("crowded.toml"))
    res = CliRunner().invoke(main, ["play", str(path), "--policy", "random"])
    last = res.output.strip().splitlines()[-1]
    assert res.exit_code == 1 and last.startswith("failed in round 1: ") and "fits nowhere on the board" in last
    assert "0 of the 1 bird(s) needed scanned; not scanned: A" in last
    res = CliRunner().invoke(main, ["play", str(ROOT / "missions/buddy/b20.toml"), "--policy", "random"])
    last = res.output.strip().splitlines()[-1]
    rounds = load_mission(ROOT / "missions/buddy/b20.toml", catalog).rounds
    assert res.exit_code == 1 and last.startswith(f"failed: the rounds ran out after {rounds} round(s) with ")
    assert "bird(s) needed scanned" in last and "not scanned: " in last


def scripted_state(mission, catalog, hands, start=0, skills=5):
    spec = GameSpec.of(mission, 2)
    return GameState(spec, mission, catalog, [sorted(map(C, h)) for h in hands], [], start,
                     [SplitMix64(1), SplitMix64(2)], Board.start(mission), skills,
                     dealt=[sorted(map(C, h)) for h in hands])


class Script(RandomPolicy):
    """Plays the first legal card, picks the option with the given skill, places first legal."""

    name = "script"

    def __init__(self, skill):
        self.skill = skill

    def play_card(self, obs, legal, rng):
        return legal[-1] if obs.seat == 0 else legal[0]

    def select(self, obs, options, rng):
        return next((k for k, o in enumerate(options) if o.skill == self.skill), 0)

    def place(self, obs, piece, legal, rng):
        return 0


def test_rule_clear_check_after_all_placements(write, catalog):
    """RULES.md §17, §18: purple-1 completes bird B's scan, then purple-8 fits nowhere: the mission fails anyway."""
    rows = {r: "AAAAAAAAAAAA" for r in range(1, 13)}
    rows[10] = "AAAAAAAAA..."
    rows[11] = "AAAAAAAAA.B."
    rows[12] = "AAAAAAAAA..."
    pre = "".join(f'[[placed]]\npiece = "{p}"\ncells = ["{c}"]\n'
                  for p, c in (("red-1", "k10"), ("blue-1", "j11"), ("green-1", "l11")))
    m = load_mission(write("pocket.toml", mission_text(board_text(rows), clear=1, extra=pre)), catalog)
    hands = [["purple-8", "purple-2"] + [f"red-{v}" for v in range(1, 8)] + [f"yellow-{v}" for v in range(1, 8)],
             ["purple-1", "purple-3"] + [f"green-{v}" for v in range(1, 8)] + [f"blue-{v}" for v in range(1, 8)]]
    state = scripted_state(m, catalog, hands)

    class Order(Script):
        def play_card(self, obs, legal, rng):
            want = {0: ["purple-8", "purple-2"], 1: ["purple-1", "purple-3"]}[obs.seat]
            return next(c for c in legal if str(c) in want)

        def select(self, obs, options, rng):
            return next(k for k, o in enumerate(options) if o.pieces == (C("purple-1"), C("purple-8")))

        def place(self, obs, piece, legal, rng):
            return next(i for i, p in enumerate(legal) if p.cell_names() == ["k12"])

    g = play_game(m, catalog, 2, 0, Order(Skill.DOUBLE_SCAN), log=True, state=state)
    r1 = g.events[1]
    assert r1["pieces"] == ["purple-1", "purple-8"] and r1["placements"] == [{"piece": "purple-1", "cells": ["k12"]}]
    assert r1["scanned"] == ["B"]
    assert g.result == "unplaceable" and g.rounds_played == 1


def test_rule_game_ends_when_cleared(catalog):


    """RULES.md §18."""
    m = load_mission(ROOT / "tests/missions/buddy/b01.toml", catalog)
    for seed in range(10):
        g = play_game(m, catalog, 2, seed, HeuristicPolicy(), log=True)
        if g.result == "cleared":
            assert len(g.events[-2]["scanned"]) >= m.clear
            assert all(len(e["scanned"]) < m.clear for e in g.events[1:-2])


def test_rule_skill_counters_by_mode(write, catalog):
    """RULES.md §4: 5 counters in Buddy, 3 in Party, unless the mission says otherwise."""
    from tests.helpers.missiontext import board_text as bt

    board = bt({5: ".....A......"})
    assert load_mission(write("a.toml", mission_text(board)), catalog).skills == 5
    assert load_mission(write("b.toml", mission_text(board, mode="party")), catalog).skills == 3
    assert load_mission(write("c.toml", mission_text(board, extra="skills = 1\n")), catalog).skills == 1


def test_rule_scan_stays_complete(catalog):
    """RULES.md §22: once scanned, a bird stays scanned for the rest of the game."""
    m = load_mission(ROOT / "tests/missions/party/p02.toml", catalog)
    seen_partial = False
    for seed in range(30):
        rounds = play_game(m, catalog, 4, seed, HeuristicPolicy(), log=True).events[1:-1]
        for prev, cur in itertools.pairwise(rounds):
            assert set(prev["scanned"]) <= set(cur["scanned"])
            seen_partial |= 0 < len(prev["scanned"]) < len(m.birds)
    assert seen_partial  # some game had one bird scanned before the other
