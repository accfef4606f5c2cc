"""The cardboard game recorded: a sheet (the game written down as it is played) checked against the
rules and turned into a log, and any log written back as a sheet. Logs of simulated games in every
mode, skills used, written as sheets and recorded back are the same game; impossible sheets name
the line, the round, the person and the rule; every command that reads a log reads a sheet."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from solver.app.sheets import beside, game_of_sheet_file, game_of_sheet_text, sheet_of
from solver.cli import main
from solver.core.spec import GameSpec
from solver.io.gamelog import parse_log
from solver.io.missionfile import load_mission
from solver.io.paths import MISSIONS
from solver.io.sheet import is_sheet_text, parse_sheet
from tests.helpers.games import ROWS, sheet_lines, simulated


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("name,players", ROWS)
def test_simulated_games_written_as_sheets_record_back_as_the_same_game(name, players, catalog, tmp_path):
    skills = set()
    for seed in range(12):  # a random player uses every skill the mode has
        text, events = simulated(catalog, name, players, seed, "random" if seed % 2 else "heuristic")
        sheet = sheet_of(parse_log(text, "game.jsonl"))
        assert is_sheet_text(sheet) and not is_sheet_text(text)
        rec = game_of_sheet_text(sheet, "game.txt", beside(tmp_path))
        assert rec.events[1:] == events[1:], (name, seed)
        for key in ("hands", "set_aside", "removed", "start_player", "mission", "players", "mission_text"):
            assert rec.events[0][key] == events[0][key], key
        assert rec.events[0]["source"] == "recorded" and rec.events[0]["names"] == {
            str(k): f"player {k + 1}" for k in range(players)}
        skills |= {e["skill"] for e in events[1:] if e["event"] == "round"}
    wanted = {s.json for s in GameSpec.of(load_mission(MISSIONS / f"{name}.toml", catalog), players).skill_kinds}
    assert skills - {None} == wanted, skills  # every skill of the mode, read from the pieces placed


def test_the_cli_records_a_sheet_and_writes_the_sheet_of_a_log(catalog, tmp_path):
    text, events = simulated(catalog, "buddy/b05", 2, 3)
    (tmp_path / "game.jsonl").write_text(text)
    res = run("record", "--sheet-of", tmp_path / "game.jsonl")
    assert res.exit_code == 0, res.output
    sheet = res.stdout.replace("player 1", "Ann").replace("player 2", "Ben")
    (tmp_path / "game.txt").write_text(sheet)
    res = run("record", tmp_path / "game.txt", "--log", tmp_path / "out.jsonl", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc == {"log": str(tmp_path / "out.jsonl"), "rounds": len(events) - 2, "result": events[-1]["result"],
                   "names": ["Ann", "Ben"]}
    log = parse_log((tmp_path / "out.jsonl").read_text(), "out")
    assert log.names == {0: "Ann", 1: "Ben"} and log.source == "recorded" and log.human == (0, 1)
    # and the sheet of the recorded log is the sheet (a sheet is read wherever a log is)
    assert run("record", "--sheet-of", tmp_path / "game.txt").stdout == sheet
    assert run("record", "--sheet-of", tmp_path / "out.jsonl").stdout == sheet


def test_commands_that_read_a_log_read_a_sheet(catalog, tmp_path):
    text, _ = simulated(catalog, "party/p02", 3, 5)
    (tmp_path / "game.jsonl").write_text(text)
    (tmp_path / "game.txt").write_text(sheet_of(parse_log(text, "game.jsonl")))
    for args in (["solve", "--from", "{}", "--round", 3, "--json"],
                 ["play", "--from", "{}", "--round", 2, "--policy", "heuristic", "--seed", 1]):
        a = run(*[tmp_path / "game.jsonl" if x == "{}" else x for x in args])
        b = run(*[tmp_path / "game.txt" if x == "{}" else x for x in args])
        assert a.exit_code == b.exit_code and a.exit_code in (0, 1), (a.output, b.output)
        def same(out):  # the timing and the file named aside
            return re.sub(r'"seconds": [0-9.]+|game\.(txt|jsonl)', "", out)

        assert same(a.stdout) == same(b.stdout)


def refused(lines, tmp_path) -> str:
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n")
    res = run("record", path, "--json")
    assert res.exit_code == 2, res.output
    err = json.loads(res.stdout)["error"]
    return f"line {err['line']}: {err['message']}"


def test_must_follow_is_checked_against_the_hands_known_at_the_end(catalog, tmp_path):
    for seed in range(20):
        lines = sheet_lines(catalog, seed=seed)
        left_at = next(i for i, x in enumerate(lines) if x.startswith("left:"))
        left = dict(part.strip().split(" ", 1) for part in lines[left_at][5:].split(";"))
        for i, line in enumerate(lines):
            m = re.match(r"^(\d+)\. (.*) / ", line)
            if not m:
                continue
            plays = [p.split() for p in m.group(2).split(", ")]
            lead = plays[0][1].split("-")[0]
            for k, (who, card) in enumerate(plays[1:], start=1):
                other = [c for c in left.get(who, "").split() if not c.startswith(lead)]
                if card.startswith(lead) and other:
                    plays[k][1] = other[0]
                    lines[i] = line.replace(f"{who} {card}", f"{who} {other[0]}", 1)
                    lines[left_at] = lines[left_at].replace(other[0], card)
                    said = refused(lines, tmp_path)
                    assert said == f"line {i + 1}: round {m.group(1)}: {who} played {other[0]} but held {card}: " \
                                   f"must follow {lead}", said
                    return
    pytest.fail("no game offered a play to change")


def test_impossible_sheets_name_the_line_round_person_and_rule(catalog, tmp_path):
    lines = sheet_lines(catalog)
    first = next(i for i, x in enumerate(lines) if x.startswith("1. "))
    plays, placed = lines[first][3:].split(" / ")
    a, b, *rest = plays.split(", ")
    swapped = list(lines)
    swapped[first] = "1. " + ", ".join([b, a, *rest]) + " / " + placed
    assert "round 1:" in refused(swapped, tmp_path)
    # the cells of a piece that are not its shape
    _, *cells = placed.split(", ")[0].split()
    if placed != "-":
        bent = list(lines)
        bent[first] = lines[first].replace(" ".join(cells), " ".join([*cells[:-1], "l12"]), 1)
        said = refused(bent, tmp_path)
        assert f"line {first + 1}: round 1: " in said and ("not its shape" in said or "cannot place" in said), said
    # a card played twice; a name not at the table; no cards left for a game that ended early
    card = a.split()[-1]
    twice = list(lines)
    twice[first + 1] = twice[first + 1].replace(twice[first + 1].split(", ")[0].split()[-1], card, 1)
    said = refused(twice, tmp_path)
    assert f"line {first + 2}: round 2: " in said and f"played {card}, which was played already in round 1 " \
        f"(line {first + 1})" in said, said
    stranger = [x.replace("Ann ", "Zoe ", 1) if x.startswith("1. ") else x for x in lines]
    assert "'Zoe' is not at the table (players: Ann, Ben)" in refused(stranger, tmp_path)
    early = [x for x in lines if not x.startswith("left:")]
    said = refused(early[: first + 2], tmp_path)
    assert "cards still in hand" in said, said
    res = run("record", tmp_path / "bad.txt", "--json")
    assert "left:" in json.loads(res.stdout)["error"]["fix"]


def test_a_sheet_reads_names_with_comments_and_any_case(catalog, tmp_path):
    lines = sheet_lines(catalog)
    text = "# Thursday at Cleo's\n" + "\n".join(x.replace("Ben ", "ben ") + "  # ok" if x[:1].isdigit() else x
                                                 for x in lines) + "\n"
    sheet = parse_sheet(text, "s")
    assert sheet.names == ("Ann", "Ben") and sheet.mission == "b05"
    assert game_of_sheet_text(text, "s", beside(tmp_path)).names == ("Ann", "Ben")
    path = tmp_path / "g.txt"
    path.write_text(text)
    assert game_of_sheet_file(path).state.rounds_played() == len(sheet.rounds)


def test_the_review_of_a_recorded_game_uses_the_names(catalog, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("\n".join(sheet_lines(catalog)) + "\n")
    res = run("review", path, "--samples", 0, "--time-limit", 2, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert [s["name"] for s in doc["seats"]] == ["Ann", "Ben"] and doc["human"] == [0, 1]
    text = run("review", path, "--samples", 0, "--time-limit", 2).stdout
    assert "Ann" in text and "Ben (a person)" in text and "player 0" not in text
