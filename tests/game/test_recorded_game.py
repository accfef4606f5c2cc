"""A game recorded with the printed cards, in the rules core: its hands are revealed as played (a
card revealed is held since the deal; the cards left complete the hands), and every refusal is an
``IllegalAction`` carrying its code and facts, the same checks a dealt game's state makes. No
module above the game's layer writes a state's hands."""

from __future__ import annotations

import ast
import json
import pickle

import pytest

from solver.core.board import parse_cell
from solver.core.cards import Card
from solver.game.actions import Action
from solver.game.engine import play_game
from solver.game.recorded import RecordedGame
from solver.game.roster import make_policy
from solver.game.state import REFUSALS, IllegalAction, deal
from solver.io.missionfile import load_mission
from solver.io.paths import MISSIONS, bundled_mission
from tests.helpers.paths import ROOT

C = Card.parse
SOLVER = ROOT / "solver"
ABOVE_GAME = ("openhand", "analysis", "view", "play", "app", "cli", "studio")


@pytest.fixture(scope="module")
def b05(catalog):
    return load_mission(bundled_mission("b05"), catalog)


def _cells(text: str) -> list[int]:
    return [parse_cell(c) for c in text.split()]


def refused(call, *args, **kwargs) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        call(*args, **kwargs)
    assert info.value.code in REFUSALS
    return info.value


def started(b05, catalog, cards, leader=0) -> RecordedGame:
    game = RecordedGame.start(b05, catalog, 2, leader)
    for card in cards:
        game.reveal(C(card))
    return game


# ---------------------------------------------------------------- one refusal per rule, with its facts
def test_must_follow_against_a_card_revealed_later(b05, catalog):
    game = started(b05, catalog, ["blue-2", "red-2", "blue-5"])
    e = refused(game.reveal, C("blue-3"))
    assert e.code == "must_follow" and e.facts == {"seat": 1, "card": C("red-2"), "led": C("blue-2").colour,
                                                   "held": C("blue-3"), "round": 1}
    assert game.gone() == [C("blue-2"), C("red-2"), C("blue-5")]  # the card refused is not taken


def test_must_follow_against_a_card_kept_to_the_end_is_caught_at_the_play(b05, catalog):
    game = RecordedGame.start(b05, catalog, 2, 0)
    game.keep(1, [C("blue-3")])
    game.reveal(C("blue-2"))
    e = refused(game.reveal, C("red-2"))
    assert e.code == "must_follow" and (e.facts["card"], e.facts["held"], e.facts["round"]) == (C("red-2"),
                                                                                                C("blue-3"), 1)


def test_the_holder_of_purple_8_led_round_one(b05, catalog):
    game = started(b05, catalog, ["blue-2"])
    e = refused(game.reveal, C("purple-8"))
    assert e.code == "not_leader" and e.facts == {"seat": 0, "leader": 1, "held": C("purple-8"), "round": 1}
    kept = RecordedGame.start(b05, catalog, 2)  # who led is not known yet: purple-8 kept says it
    kept.keep(1, [C("purple-8")])
    e = refused(kept.reveal, C("blue-2"), 0)
    assert e.code == "not_leader" and e.facts["leader"] == 1 and e.facts["held"] == C("purple-8")


def test_a_card_twice_and_a_card_out_of_the_game(b05, catalog, tmp_path):
    game = started(b05, catalog, ["blue-2", "blue-8"])
    e = refused(game.reveal, C("blue-2"))
    assert e.code == "card_gone" and e.facts == {"card": C("blue-2"), "seat": 0, "by": 0, "played_in": 1, "round": 1}
    e = refused(game.keep, 1, [C("blue-8")])
    assert e.code == "card_gone" and e.facts["round"] is None and e.facts["played_in"] == 1
    p02 = load_mission(MISSIONS / "party/p02.toml", catalog)
    e = refused(RecordedGame.start(p02, catalog, 3, 0).reveal, C("purple-1"))
    assert e.code == "card_removed" and e.facts["players"] == 3


def test_an_illegal_placement_names_the_rule(b05, catalog):
    game = started(b05, catalog, ["blue-2", "blue-8", "blue-6", "blue-3"])
    game.select((C("blue-8"),))
    e = refused(game.place, C("blue-8"), frozenset(_cells("b3 c2 c3 c4 c5")))
    assert e.code == "placement_illegal" and e.facts["rule"] == "it covers a bird cell" and e.facts["seat"] == 1
    e = refused(game.place, C("blue-8"), frozenset(_cells("a1 a2")))
    assert e.code == "not_its_shape"
    e = refused(game.place, C("blue-7"), frozenset(_cells("a2 b1 b2 b3 b4")))
    assert e.code == "wrong_piece" and e.facts["piece"] == C("blue-8")
    game.place(C("blue-8"), frozenset(_cells("a2 b1 b2 b3 b4")))
    assert game.state.round == 2


def test_a_skill_the_rules_do_not_allow_now(b05, catalog):
    game = started(b05, catalog, ["blue-2", "blue-8", "red-6", "blue-3"])
    e = refused(game.select, (C("blue-8"), C("blue-2")))
    assert e.code == "skill_not_allowed" and (e.facts["skill"], e.facts["why"]) == ("double_scan", "colours_differ")
    e = refused(game.select, (C("green-3"),))
    assert e.code == "wrong_selection" and e.facts["decision"] == C("blue-8")
    p02 = load_mission(MISSIONS / "party/p02.toml", catalog)
    party = RecordedGame.start(p02, catalog, 3, 0)
    for card in ("blue-2", "blue-8", "blue-3"):
        party.reveal(C(card))
    e = refused(party.select, (C("red-8"),))
    assert e.code == "skill_not_allowed" and (e.facts["skill"], e.facts["why"]) == ("wild_color", "not_in_mode")


def test_out_of_turn_and_after_the_end(b05, catalog):
    game = started(b05, catalog, ["blue-2", "blue-8", "blue-6", "blue-3"])
    e = refused(game.reveal, C("red-2"))
    assert e.code == "wrong_phase" and (e.facts["action"], e.facts["phase"]) == ("reveal", "select")
    e = refused(RecordedGame.start(b05, catalog, 2, 0).select, (C("blue-8"),))
    assert e.code == "wrong_phase" and e.facts["phase"] == "reveal"
    sheet = RecordedGame.start(b05, catalog, 2)
    sheet.reveal(C("blue-2"), 0)
    e = refused(sheet.reveal, C("blue-3"), 0)
    assert e.code == "not_your_turn" and (e.facts["seat"], e.facts["leader"]) == (0, 1)


# ---------------------------------------------------------------- the hands as dealt
def test_a_simulated_game_revealed_as_played_has_the_hands_as_dealt(catalog):
    m = load_mission(MISSIONS / "party/p02.toml", catalog)
    events = play_game(m, catalog, 3, 4, make_policy("random"), log=True).events
    setup = events[0]
    game = RecordedGame.start(m, catalog, 3, setup["start_player"])
    for e in events[1:]:
        if e["event"] != "round":
            continue
        for p in e["plays"]:
            game.reveal(C(p["card"]))
        game.select(tuple(C(c) for c in e["pieces"]))
        for pl in e["placements"]:
            game.place(C(pl["piece"]), frozenset(_cells(" ".join(pl["cells"]))))
    assert game.state.result() == events[-1]["result"]
    e = refused(game.finish)  # the cards left are not known yet
    assert e.code == "hand_count" and e.facts["round"] is None
    for seat, hand in enumerate(setup["hands"]):
        left = [C(c) for c in hand if C(c) not in game.revealed(seat)]
        if left[1:]:
            assert refused(game.keep, seat, left[1:]).code == "hand_count"  # once over, the whole hand
        if left:
            game.keep(seat, left)
    state = game.finish()
    assert [[str(c) for c in h] for h in state.dealt] == setup["hands"]
    assert [str(c) for c in state.set_aside] == setup["set_aside"]


# ---------------------------------------------------------------- a dealt game refuses alike
def test_a_dealt_games_refusals_carry_their_code_and_keep_their_words(b05, catalog):
    s = deal(b05, catalog, 2, 3)
    seat = s.current_player()
    other = s.hands[1 - seat][0]
    e = refused(s.apply, Action.reveal(other))
    assert e.code == "not_in_hand" and str(e) == f"player {seat} cannot reveal {other}: not in the hand"
    again = pickle.loads(pickle.dumps(e))
    assert (again.code, again.facts, str(again)) == (e.code, e.facts, str(e))
    json.dumps({k: str(v) for k, v in e.facts.items()})  # facts are plain values


# ---------------------------------------------------------------- nobody above game/ writes the hands
MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "__setitem__"}


def writes_to_hands(source: str) -> list[int]:
    """The lines of ``source`` that assign to, delete from or mutate an attribute ``hands`` (or an
    item of it)."""

    def is_hands(node: ast.AST) -> bool:
        while isinstance(node, ast.Subscript):
            node = node.value
        return isinstance(node, ast.Attribute) and node.attr in ("hands", "dealt")

    lines = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = [node.target] if not isinstance(node, ast.Delete) else list(node.targets)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            targets = [node.func.value]
        flat = [t for target in targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
        lines += [node.lineno for t in flat if is_hands(t)]
    return sorted(lines)


def test_no_module_above_the_game_writes_a_states_hands():
    # the walk sees each way a hand is written (what the Record tab once did)
    assert writes_to_hands("s.hands[seat] = sorted([*s.hands[seat], card])\n") == [1]
    assert writes_to_hands("state.hands[1].remove(c)\nx.dealt = []\na.hands, b = 1, 2\n") == [1, 2, 3]
    assert writes_to_hands("hands = [list(h) for h in state.hands]\nstate.hold(0, [c])\n") == []
    found = {}
    for layer in ABOVE_GAME:
        for path in sorted((SOLVER / layer).rglob("*.py")):
            lines = writes_to_hands(path.read_text(encoding="utf-8"))
            if lines:
                found[str(path.relative_to(SOLVER))] = lines
    assert found == {}, f"hands written above game/ (only game/recorded.py reveals them): {found}"
