"""Continuing a game (docs/logs.md, "Continuing a game"): `play --from LOG --round R` and
`solve --from LOG --round R`."""

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.game.resume import board_mission, replay
from solver.io.catalog import load_catalog
from solver.io.gamelog import read_log
from solver.io.missionfile import load_mission
from solver.io.missionwrite import mission_toml
from solver.openhand.deal import CLEARABLE, DealSolver, from_moment
from tests.helpers.games import lines, mission_of, write_lines
from tests.helpers.referee import referee


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


GAMES = [("b05", 2, "random", 3), ("b11", 2, "greedy", 1), ("p11", 3, "heuristic", 2),
         pytest.param("p16", 4, "planner", 0, marks=pytest.mark.slow),
         pytest.param("b16", 2, "planner", 5, marks=pytest.mark.slow), ("b05", 2, "planner", 4),
         ("p01", 4, "random", 7)]


@pytest.mark.parametrize("mission,players,policy,game", GAMES)
def test_play_from_any_round_repeats_the_original(tmp_path, mission, players, policy, game, catalog):
    original = tmp_path / "original.jsonl"
    res = run("play", mission, "--players", players, "--policy", policy, "--seed", 11, "--game", game, "--log",
              original)
    assert res.exit_code in (0, 1), res.output
    events = lines(original)
    assert events[0]["seed"] == 11 and events[0]["game"] == game and events[0]["policy"] == policy
    played = len(events) - 2
    for r in sorted({1, 2, (played + 1) // 2, played}):
        again = tmp_path / f"from{r}.jsonl"
        res = run("play", "--from", original, "--round", r, "--policy", policy, "--seed", 11, "--game", game,
                  "--log", again)
        assert res.exit_code in (0, 1), res.output
        assert f"-- round {r} on" in res.output
        assert lines(again) == events, f"from round {r}"
    assert referee(events, mission_of(mission, catalog), catalog) == events[-1]["result"]


def test_seed_game_and_policy_default_to_the_logs(tmp_path):
    original = tmp_path / "g.jsonl"
    run("play", "b08", "--policy", "random", "--seed", 4, "--game", 9, "--log", original)
    again = tmp_path / "g2.jsonl"
    res = run("play", "--from", original, "--round", 2, "--log", again)
    assert res.exit_code in (0, 1), res.output
    assert lines(again) == lines(original)


def test_a_log_without_its_end_goes_on_from_its_last_round(tmp_path, catalog):
    original = tmp_path / "g.jsonl"
    run("play", "b15", "--policy", "heuristic", "--seed", 2, "--log", original)
    events = lines(original)
    assert len(events) >= 5
    cut = write_lines(tmp_path / "cut.jsonl", events[:3])  # setup and two rounds: a game still in play
    again = tmp_path / "again.jsonl"
    res = run("play", "--from", cut, "--log", again)
    assert res.exit_code in (0, 1), res.output
    assert "-- round 3 on" in res.output and lines(again) == events


@pytest.mark.parametrize("policy", ["heuristic", "greedy", "random", "planner"])
def test_another_policy_plays_on_legally(tmp_path, policy, catalog):
    original = tmp_path / "g.jsonl"
    run("play", "p12", "--players", 3, "--policy", "greedy", "--seed", 5, "--log", original)
    events = lines(original)
    again = tmp_path / "again.jsonl"
    res = run("play", "--from", original, "--round", 3, "--policy", policy, "--log", again)
    assert res.exit_code in (0, 1), res.output
    new = lines(again)
    assert new[1:3] == events[1:3]  # the logged rounds stay as they were
    assert new[0]["policy"] == policy
    referee(new, mission_of("p12", catalog), catalog)


@pytest.mark.slow
def test_open_hand_from_a_moment_is_the_ceiling_from_there(tmp_path, catalog):
    """The open-hand team continues from round R with the deal solver's plan from that moment; on a deal
    the ceiling calls clearable, a moment on the original plan's path is clearable too, and the plan clears."""
    m = mission_of("b10", catalog)
    original = tmp_path / "g.jsonl"
    res = run("play", "b10", "--policy", "open-hand", "--seed", 1, "--game", 0, "--log", original)
    events = lines(original)
    assert "open hands: clearable" in res.output and events[-1]["result"] == "cleared"
    again = tmp_path / "again.jsonl"
    res = run("play", "--from", original, "--round", 2, "--policy", "open-hand", "--log", again)
    assert res.exit_code == 0 and "open hands: clearable" in res.output, res.output
    new = lines(again)
    assert new[1] == events[1] and new[-1]["result"] == "cleared"
    referee(new, m, catalog)
    state = replay(read_log(original), m, catalog, 2)
    mission, start = from_moment(state)
    answer = DealSolver(mission, catalog, 2).decide_state(start)
    assert answer.result == CLEARABLE


@pytest.mark.parametrize("mission,players,rnd", [("b05", 2, 3), ("b20", 2, 4), ("p15", 4, 2), ("p18", 3, 5)])
def test_solve_from_equals_solve_on_the_mission_file_of_that_board(tmp_path, mission, players, rnd, catalog):
    log = tmp_path / "g.jsonl"
    run("play", mission, "--players", players, "--policy", "heuristic", "--seed", 3, "--log", log)
    if len(lines(log)) - 2 < rnd - 1:
        pytest.skip("the game ended before that round")
    got = run("solve", "--from", log, "--round", rnd, "--json")
    assert got.exit_code in (0, 1), got.output
    doc = json.loads(got.output)
    state = replay(read_log(log), mission_of(mission, catalog), catalog, rnd)
    board = board_mission(state)
    assert doc["round"] == rnd and doc["rounds_left"] == board.rounds and doc["skills_left"] == board.skills
    file = tmp_path / f"{mission}.toml"
    file.write_text(mission_toml(board), encoding="utf-8")
    same = json.loads(run("solve", file, "--players", players, "--json").output)
    for key in ("status", "pieces_used", "optimal", "placements", "scanned", "players"):
        assert doc[key] == same[key], key
    assert len(load_mission(file, catalog).placed) == len(state.board.pieces)


def test_a_log_of_an_entered_game_needs_only_the_moves(tmp_path):
    """A log written by hand: the setup and, per round, the cards, the skill and the placements."""
    original = tmp_path / "g.jsonl"
    run("play", "b02", "--policy", "heuristic", "--seed", 8, "--log", original)
    events = lines(original)
    keep = ("event", "round", "plays", "skill", "placements")
    bare = [events[0]] + [{k: e[k] for k in keep} for e in events[1:-1]]
    entered = write_lines(tmp_path / "entered.jsonl", bare)
    again = tmp_path / "again.jsonl"
    res = run("play", "--from", entered, "--round", 2, "--policy", "heuristic", "--log", again)
    assert res.exit_code in (0, 1), res.output
    assert lines(again) == events


# ---------------------------------------------------------------- logs that cannot be continued
@pytest.fixture
def game(tmp_path):
    log = tmp_path / "g.jsonl"
    run("play", "b05", "--policy", "heuristic", "--seed", 3, "--log", log)
    return log, lines(log)


def bad(res, *words):
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    for w in words:
        assert w in res.output, (w, res.output)


def test_another_mission(game):
    log, _ = game
    bad(run("play", "b06", "--from", log), "is not the one the game", "digest")  # the log carries b05
    bad(run("solve", "b06", "--from", log, "--round", 2), "is not the one the game", "digest")


def test_an_edited_log_names_the_line(game, tmp_path):
    _log, events = game
    edited = [dict(e) for e in events]
    plays = [dict(p) for p in edited[2]["plays"]]
    plays[0]["card"], plays[1]["card"] = plays[1]["card"], plays[0]["card"]  # another order than the rules allow
    edited[2] = {**edited[2], "plays": plays}
    res = run("play", "--from", write_lines(tmp_path / "e.jsonl", edited), "--round", 4)
    bad(res, "line 3", "round 2")
    moved = [dict(e) for e in events]
    cells = moved[1]["placements"][0]["cells"]
    moved[1] = {**moved[1], "placements": [{"piece": moved[1]["placements"][0]["piece"], "cells": cells[:-1]}]}
    bad(run("play", "--from", write_lines(tmp_path / "m.jsonl", moved)), "line 2", "shape")
    lied = [dict(e) for e in events]
    lied[1] = {**lied[1], "skills_left": lied[1]["skills_left"] + 1}
    bad(run("solve", "--from", write_lines(tmp_path / "l.jsonl", lied), "--round", 3), "line 2", "skill counter")


def test_a_truncated_log(game, tmp_path):
    log, events = game
    text = log.read_text(encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[: len(text) - 40], encoding="utf-8")
    bad(run("play", "--from", cut), f"line {len(events)}", "cut short")
    bad(run("play", "--from", write_lines(tmp_path / "e.jsonl", [])), "empty")
    bad(run("play", "--from", write_lines(tmp_path / "r.jsonl", events[1:])), "line 1", "setup")


def test_rounds_out_of_reach_and_a_finished_game(game):
    log, events = game
    played = len(events) - 2
    bad(run("play", "--from", log, "--round", played + 2), f"rounds 1..{played}")
    bad(run("play", "--from", log), "the game is over", "--round")


def test_usage_mistakes(game, tmp_path):
    log, _ = game
    bad(run("play"), "MISSION")
    bad(run("play", "b05", "--round", 2), "--round goes with --from")
    bad(run("play", "--from", tmp_path / "missing.jsonl"), "not found")
    bad(run("play", "--from", log, "--players", 3), "2 players, not 3")
    res = run("solve", "--from", tmp_path / "missing.jsonl", "--json")
    bad(res)
    assert json.loads(res.stdout)["error"]["file"].endswith("missing.jsonl")


def test_hostile_logs(tmp_path):
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100000 + "\n", encoding="utf-8")
    bad(run("play", "--from", deep), "line 1")
    big = tmp_path / "big.jsonl"
    big.write_text("{}\n" * 600000, encoding="utf-8")
    bad(run("play", "--from", big), "bytes")
    odd = write_lines(tmp_path / "odd.jsonl", [{"event": "setup", "mission": "b05", "players": 2, "hands": "x"}])
    bad(run("play", "--from", odd), "line 1", "hands")
    ids = write_lines(tmp_path / "id.jsonl", [{"event": "setup", "mission": "../../etc/x", "players": 2,
                                                "hands": [[], []], "start_player": 0}])
    bad(run("play", "--from", ids), "not a bundled mission")


def test_log_reader_keeps_nothing_it_cannot_check(tmp_path):
    load_catalog()
    log = write_lines(tmp_path / "g.jsonl", [{"event": "setup", "mission": "b05", "players": 2, "hands": [[], []],
                                              "start_player": 0}, {"event": "round", "round": 2, "plays": [],
                                                                   "placements": []}])
    bad(run("play", "--from", log), "line 2", "round 2 follows round 0")
