"""The review explains: the reasons of a costly move from the exact puzzle before and after it, on
crafted boards (a side blocked by the piece just placed, a bird walled in, the last piece of a
colour used elsewhere); classes that mean something (random play on an easy deal is not perfect
play; once the deal is lost every decision is equal; forced moves are marked)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.analysis.review_reasons import Puzzle, reasons
from solver.cli import main
from solver.core.board import parse_cell
from solver.core.cards import Card
from solver.core.codes import Skill
from solver.core.rules import Board, Placement
from solver.core.spec import GameSpec
from solver.game.actions import Action
from solver.game.rng import SplitMix64
from solver.game.state import GameState, Option, Phase, position_of
from tests.helpers.missiontext import board_text, mission_text

C = Card.parse


def placing(mission, catalog, piece: str, hands: list[list[str]]) -> GameState:
    """A Buddy game at the moment ``piece`` (selected, no skill counter left) is to be placed, the
    hands holding ``hands`` (the pieces still within reach)."""
    spec = GameSpec.of(mission, 2)
    held = [sorted(C(c) for c in h) for h in hands]
    s = GameState(spec, mission, catalog, held, [], 0, [SplitMix64(0), SplitMix64(1)], Board.start(mission), 0,
                  dealt=held)
    s.phase, s.options, s.option, s.in_charge, s.decision = Phase.PLACE, [Option(Skill.NONE, (C(piece),))], 0, 0, \
        C(piece)
    s.trick = [(0, C(piece))]
    return s


def place(s: GameState, piece: str, cells: str) -> Action:
    p = Placement(C(piece), frozenset(parse_cell(c) for c in cells.split()))
    return Action.place(C(piece), position_of(p, s.catalog))


def why(s, action, catalog):
    return reasons(Puzzle(catalog, 2), s, action, 0.0, 1.0, "the better move")


MONOS = ["blue-1", "green-1", "yellow-1", "purple-1"]


def test_a_side_blocked_by_the_piece_just_placed(load, catalog):
    m = load(mission_text(board_text({6: ".....rA....."}), extra="rounds = 4\nskills = 0\n"))
    s = placing(m, catalog, "red-2", [[*MONOS, "red-3"], ["red-5"]])
    # far away: nothing changes for bird A; next to its red side: no red piece may touch it any more
    far = why(s, place(s, "red-2", "a1 b1"), catalog)
    assert all(r["bird"] is None for r in far)
    r, *_ = why(s, place(s, "red-2", "d6 e6"), catalog)
    assert r["kind"] == "side_uncoverable" and r["bird"] == "A" and r["cells"] == ["f6"]
    assert "its red side at f6" in r["text"] and "red-2, placed at d6 e6, is in the way" in r["text"]


def test_a_bird_walled_in(load, catalog):
    placed = '\n[[placed]]\npiece = "red-1"\ncells = ["f5"]\n\n[[placed]]\npiece = "blue-1"\ncells = ["f7"]\n'
    m = load(mission_text(board_text({6: "......A....."}), extra="rounds = 4\nskills = 0\n" + placed))
    # dominoes within reach, no single-cell piece: f6, between two pieces and the bird, takes a
    # piece through e6 only
    s = placing(m, catalog, "green-2", [["blue-2", "yellow-2"], ["red-2", "purple-2"]])
    assert all(r["bird"] is None for r in why(s, place(s, "green-2", "a1 b1"), catalog))
    rs = why(s, place(s, "green-2", "d6 e6"), catalog)
    assert [r["kind"] for r in rs] == ["cell_uncoverable", "too_few_birds"]
    assert rs[0]["bird"] == "A" and rs[0]["cells"] == ["f6"]
    assert "green-2, placed at d6 e6, is in the way" in rs[0]["text"]


def test_the_last_piece_of_a_colour_used_elsewhere(load, catalog):
    m = load(mission_text(board_text({6: ".....pA....."}), extra="rounds = 4\nskills = 0\n"))
    s = placing(m, catalog, "purple-2", [MONOS[:3], ["red-2"]])  # no other purple piece within reach
    r, *_ = why(s, place(s, "purple-2", "a1 b1"), catalog)
    assert r["kind"] == "side_uncoverable" and r["bird"] == "A" and r["cells"] == ["f6"]
    assert "purple-2 is already on the board" in r["text"] and "in the way" not in r["text"]
    # with another purple piece still in a hand, the same move made nothing impossible
    s = placing(m, catalog, "purple-2", [[*MONOS[:3], "purple-3"], ["red-2"]])
    assert why(s, place(s, "purple-2", "a1 b1"), catalog)[0]["kind"] != "side_uncoverable"


def review(tmp_path, *args):  # a logged game's review, as the command line gives it
    log = tmp_path / "game.jsonl"
    r = CliRunner().invoke(main, ["play", *map(str, args), "--log", str(log)])
    assert r.exit_code in (0, 1), r.output
    res = CliRunner().invoke(main, ["review", str(log), "--json", "--samples", "2", "--playouts", "6"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


@pytest.mark.slow
def test_random_play_on_an_easy_deal_does_not_read_as_perfect_play(catalog):
    """A family that chooses its cards at random (and places its pieces sensibly) on an easy deal:
    most choices did not matter, and are not counted as perfect play."""
    from solver.analysis.review import review_game
    from solver.game.engine import play_game
    from solver.game.policies import HeuristicPolicy
    from solver.io.gamelog import parse_log
    from solver.io.missionfile import load_mission
    from solver.io.paths import MISSIONS

    class RandomCards(HeuristicPolicy):
        def play_card(self, obs, legal, rng):
            return legal[rng.below(len(legal))]

    m = load_mission(MISSIONS / "buddy/b01.toml", catalog)
    game = next(g for g in (play_game(m, catalog, 2, seed, RandomCards(), log=True) for seed in range(20))
                if g.events[-1]["result"] == "cleared")
    log = parse_log("".join(json.dumps(e) + "\n" for e in game.events), "family.jsonl")
    doc = review_game(log, m, catalog, 10.0, samples=2, playouts=6).to_json()
    classes = [d["class"] for d in doc["decisions"]]
    assert classes.count("equal") >= len(classes) // 2, classes
    for s in doc["seats"]:
        assert s["counted"] < s["decisions"]  # some choices did not matter: they are not counted
        assert s["classes"]["equal"] + s["classes"]["forced"] > 0


@pytest.mark.slow
def test_a_lost_games_later_decisions_are_equal_and_forced_moves_marked(tmp_path):
    doc = review(tmp_path, "b08", "--policy", "greedy", "--seed", "1")
    assert doc["result"] != "cleared" and doc["lost_at"] is not None
    later = [d for d in doc["decisions"] if d["round"] >= doc["lost_at"]]
    assert later and all(d["class"] in ("equal", "forced") for d in later)
    assert any(d["class"] == "forced" for d in doc["decisions"])
    assert all(d["class"] != "best" for d in doc["decisions"] if d["rate_best"] == 0)
    lb = doc["lost_by"]
    assert lb is not None and lb["reasons"] and lb["reasons"][0]["text"] in lb["why"]
    assert lb["why"] not in doc["summary"] and f"round {lb['round']}" in doc["summary"]
