"""One translator of the rules' refusals: a sheet (`kakapo record`, `POST /api/records`) and the
Record tab's taps refuse the same impossible game in the same sentence, naming the round, the
person and the rule (the sheet adds its line, the taps their entry), and every refusal code of
the rules core has its sentence."""

from __future__ import annotations

import pytest

from solver.app.refusals import SAID, said_key, sentence
from solver.app.sheets import beside, game_of_sheet_text
from solver.app.taps import Setup, replay_entries
from solver.core.board import parse_cell
from solver.core.cards import Card
from solver.core.errors import InputError
from solver.game.state import REFUSALS, IllegalAction
from solver.io.missionfile import load_mission
from solver.io.paths import bundled_mission

C = Card.parse
NAMES = ("Ann", "Ben")

# what was played (b05, Ann leads round 1), the sentence both say ({at}: a sheet's pointer to an
# earlier line), and the entry the taps refuse
GOLDEN = {
    "a must-follow breach": (
        "1. Ann blue-2, Ben red-2, Ann blue-5, Ben blue-3 / -",
        "round 1: Ben played red-2 but held blue-3: must follow blue", 4),
    "a wrong leader": (
        "1. Ann blue-2, Ben purple-8, Ann blue-5, Ben blue-3 / -",
        "round 1: Ben held purple-8 and leads round 1, not Ann", 2),
    "a card played twice": (
        "1. Ann blue-2, Ben blue-8, Ann blue-2, Ben blue-3 / -",
        "round 1: Ann played blue-2, which was played already in round 1{at}", 3),
    "an illegal placement": (
        "1. Ann blue-2, Ben blue-8, Ann blue-6, Ben blue-3 / blue-8 b3 c2 c3 c4 c5",
        "round 1: Ben cannot place blue-8 at c2 b3 c3 c4 c5: it covers a bird cell", 6),
    "a skill not allowed": (
        "1. Ann blue-2, Ben blue-8, Ann red-6, Ben blue-3 / blue-8 a2 b1 b2 b3 b4, blue-2 l12",
        "round 1: blue-8 wins the trick (Ben in charge): blue-8, blue-2 is the skill double scan, which needs "
        "the cards revealed all of one colour", 5),
}


def taps_of(round_line: str) -> list[dict]:
    """The round line as the Record tab's entries: the cards, the selection, the placements."""
    plays, placed = round_line.split(". ", 1)[1].split(" / ")
    entries: list[dict] = [{"card": p.split()[-1]} for p in plays.split(", ")]
    placements = [p.split() for p in placed.split(", ")] if placed != "-" else []
    entries.append({"pieces": [p[0] for p in placements]})
    return entries + [{"place": p[0], "cells": p[1:]} for p in placements]


@pytest.mark.parametrize("what", list(GOLDEN))
def test_a_sheet_and_the_taps_say_the_same_sentence(what, catalog, tmp_path):
    line, said, entry = GOLDEN[what]
    with pytest.raises(InputError) as sheet:
        game_of_sheet_text(f"mission: b05\nplayers: Ann, Ben\n{line}\n", "game.txt", beside(tmp_path))
    assert (sheet.value.line, sheet.value.problem) == (3, said.format(at=" (line 3)")), what
    mission = load_mission(bundled_mission("b05"), catalog)
    with pytest.raises(InputError) as taps:
        replay_entries(Setup("b05", None, NAMES, 0), taps_of(line), mission, catalog)
    assert taps.value.problem == f"entry {entry}: " + said.format(at=""), what
    assert taps.value.fix == sheet.value.fix and taps.value.fix


def test_the_cli_and_the_studio_say_the_sheets_sentence(tmp_path):
    from click.testing import CliRunner

    from solver.cli import main

    line, said, _ = GOLDEN["a must-follow breach"]
    path = tmp_path / "game.txt"
    path.write_text(f"mission: b05\nplayers: Ann, Ben\n{line}\n")
    res = CliRunner().invoke(main, ["record", str(path)])
    assert res.exit_code == 2 and f"game.txt, line 3: {said}" in res.output, res.output
    pytest.importorskip("fastapi")
    from starlette.testclient import TestClient

    from solver.studio.app import create_app

    studio = TestClient(create_app(tmp_path, None, 1, warm=False, think_inline=True, bot_pace=0))
    answer = studio.post("/api/records", json={"sheet": path.read_text()})
    assert answer.status_code == 422 and answer.json()["error"]["line"] == 3
    assert answer.json()["error"]["message"] == f"line 3: {said}"


# facts as the core gives them, one refusal per code
FACTS: dict[str, dict] = {
    "wrong_phase": {"action": "reveal", "card": C("red-2"), "phase": "select", "seat": 1, "piece": None, "round": 2},
    "game_over": {"result": "rounds_exhausted", "rounds": 8},
    "not_in_hand": {"seat": 0, "card": C("red-2"), "round": 3},
    "must_follow": {"seat": 0, "card": C("red-2"), "led": C("blue-1").colour, "held": C("blue-4"), "round": 2},
    "no_option": {"option": 9, "options": 2, "seat": 1, "round": 1},
    "wrong_selection": {"pieces": (C("green-3"),), "decision": C("blue-8"), "seat": 1, "round": 1,
                        "offered": ((None, (C("blue-8"),)),)},
    "skill_not_allowed": {"pieces": (C("red-8"),), "decision": C("blue-8"), "seat": 1, "round": 1, "offered": (),
                          "skill": "wild_color", "why": "not_in_mode", "mode": "party"},
    "wrong_piece": {"card": C("blue-7"), "piece": C("blue-8"), "seat": 1, "round": 1},
    "no_position": {"piece": C("blue-8"), "position": 999, "seat": 1, "round": 1},
    "not_its_shape": {"piece": C("blue-8"), "cells": frozenset([parse_cell("a1")]), "shape": "##", "seat": 1,
                      "round": 1},
    "placement_illegal": {"piece": C("blue-8"), "cells": frozenset([parse_cell("a1")]), "rule": "it covers a bird cell",
                          "seat": 1, "round": 1},
    "must_place": {"piece": C("blue-8"), "places": 3, "seat": 1, "round": 4},
    "not_leader": {"seat": 0, "leader": 1, "held": None, "round": 3},
    "not_your_turn": {"seat": 0, "leader": 1, "round": 3},
    "card_removed": {"card": C("purple-1"), "seat": 0, "players": 3, "round": 1},
    "card_gone": {"card": C("red-2"), "seat": 0, "by": 1, "played_in": 1, "round": 2},
    "hand_count": {"seat": 1, "played": 7, "held": 2, "hand_size": 16, "players": 2, "mode": "buddy", "round": None},
}


# the other sentences of a code, by what its facts say
VARIANTS: list[tuple[str, dict]] = [
    ("not_leader", {"seat": 0, "leader": 1, "held": C("purple-8"), "round": 1}),
    ("not_leader", {"seat": 0, "leader": 1, "held": None, "round": 1}),
    ("card_gone", {"card": C("red-2"), "seat": 0, "by": 1, "played_in": 1, "round": None}),
    ("card_gone", {"card": C("red-2"), "seat": 0, "kept_by": 0, "round": None}),
    ("card_gone", {"card": C("red-2"), "seat": 0, "kept_by": 1, "round": None}),
    ("card_gone", {"card": C("red-2"), "seat": 0, "kept_by": 1, "round": 4}),
    ("wrong_phase", {"action": "select", "card": None, "phase": "reveal", "seat": 0, "piece": None, "round": 2}),
    ("wrong_phase", {"action": "select", "card": None, "phase": "place", "seat": 1, "piece": C("red-3"), "round": 2}),
    ("wrong_phase", {"action": "place", "card": C("red-3"), "phase": "reveal", "seat": 0, "piece": None, "round": 2}),
    ("wrong_phase", {"action": "place", "card": C("red-3"), "phase": "select", "seat": 1, "piece": None, "round": 2}),
]


def test_every_refusal_code_has_its_sentence():
    assert set(FACTS) == set(REFUSALS)
    cases = list(FACTS.items()) + VARIANTS
    assert {said_key(code, facts) for code, facts in cases} == set(SAID)  # every sentence is reached
    for code, facts in cases:
        e = IllegalAction(code, "the engine's words", **facts)
        problem, fix = sentence(e, NAMES)
        assert "the engine's words" not in problem and "{" not in problem + fix and fix, code
        if "round" in facts:
            assert problem.startswith(f"round {facts['round']}: " if facts["round"] is not None else "left: "), problem
        if "seat" in facts and code not in ("no_position", "not_its_shape", "card_removed"):
            assert NAMES[facts["seat"]] in problem, (code, problem)
    said = sentence(IllegalAction("skill_not_allowed", "", **FACTS["skill_not_allowed"]), NAMES)[0]
    assert said == "round 1: blue-8 wins the trick (Ben in charge): red-8 is the skill wild color, which a party " \
                   "game does not have", said
