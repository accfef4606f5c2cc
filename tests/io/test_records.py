"""Records that travel (the setup line's format-2 keys, as docs/logs.md says): a log carries its
mission and catalog, so it reads the same anywhere; a MISSION or --pieces that differs is refused
naming both digests; older logs are read against a mission that is named, never silently."""

import hashlib
import json
import shutil

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.io.gamelog import read_log
from solver.io.paths import MISSIONS
from tests.helpers.paths import ROOT


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path, events):
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@pytest.fixture
def fan_log(tmp_path, monkeypatch):
    """A game of a fan mission (its own name, board and catalog path), its log moved alone into
    an empty folder, which becomes the working folder."""
    studio = tmp_path / "designer"
    studio.mkdir()
    text = (ROOT / "tests/missions/buddy/b04.toml").read_text(encoding="utf-8")
    mission = studio / "kea_ridge.toml"
    mission.write_text("# a fan mission\n" + text.replace("name =", "name = \"Kea ridge\"\n# was:", 1),
                       encoding="utf-8")
    pieces = studio / "my_pieces.toml"
    shutil.copy(MISSIONS / "pieces.toml", pieces)
    log = studio / "kea.jsonl"
    res = run("play", mission, "--pieces", pieces, "--seed", 4, "--log", log)
    assert res.exit_code in (0, 1), res.output
    friend = tmp_path / "friend"
    friend.mkdir()
    shutil.move(log, friend / "kea.jsonl")
    shutil.rmtree(studio)  # nothing of the designer's folder is left
    monkeypatch.chdir(friend)
    return friend / "kea.jsonl", text


def test_a_log_carries_its_mission_and_catalog(fan_log):
    log, _ = fan_log
    setup = lines(log)[0]
    assert setup["format"] == 2 and setup["mission"] == "kea_ridge" and setup["human"] == []
    assert "Kea ridge" in setup["mission_text"] and setup["mission_digest"] == digest(setup["mission_text"])
    assert setup["pieces_digest"] == digest(setup["pieces_text"])
    parsed = read_log(log)
    assert parsed.format == 2 and parsed.mission_digest == setup["mission_digest"]


def test_a_fan_log_alone_is_reviewed_continued_and_solved(fan_log):
    log, _ = fan_log
    events = lines(log)
    rounds = len(events) - 2
    res = run("review", log.name, "--json", "--samples", 1, "--playouts", 2, "--time-limit", 2)
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["mission"] == "kea_ridge" and len(doc["rounds"]) == rounds
    res = run("play", "--from", log.name, "--round", 2, "--log", "again.jsonl")
    assert res.exit_code in (0, 1), res.output
    again = lines(log.parent / "again.jsonl")
    assert again[0]["mission_text"] == events[0]["mission_text"]  # the continued game still carries it
    assert again[1] == events[1]  # round 1 kept as logged
    res = run("solve", "--from", log.name, "--round", 2, "--json")
    assert res.exit_code in (0, 1), res.output
    assert json.loads(res.stdout)["mission"] == "kea_ridge"


def test_a_mission_or_catalog_other_than_the_logs_is_refused_naming_both_digests(fan_log, tmp_path):
    log, text = fan_log
    logged = lines(log)[0]
    other = tmp_path / "kea_ridge.toml"
    other.write_text(text, encoding="utf-8")  # the mission before the designer renamed it
    for args in (["review", log.name, "--mission", other], ["play", other, "--from", log.name],
                 ["solve", other, "--from", log.name, "--round", 1]):
        res = run(*args)
        assert res.exit_code == 2, res.output
        assert logged["mission_digest"] in res.output and digest(text) in res.output
        assert "Traceback" not in res.output
    pieces = tmp_path / "pieces.toml"
    pieces.write_text((MISSIONS / "pieces.toml").read_text(encoding="utf-8").replace('1 = "#"', '1 = "#"  # mine', 1),
                      encoding="utf-8")
    res = run("solve", "--from", log.name, "--round", 1, "--pieces", pieces)
    assert res.exit_code == 2 and logged["pieces_digest"] in res.output
    # the same texts are welcome
    same = tmp_path / "same.toml"
    same.write_text(logged["mission_text"], encoding="utf-8")
    assert run("solve", same, "--from", log.name, "--round", 1).exit_code in (0, 1)


def test_an_edited_log_is_refused(fan_log):
    log, _ = fan_log
    events = lines(log)
    events[0]["mission_text"] = events[0]["mission_text"].replace("clear = 1", "clear = 2")
    assert events[0]["mission_text"] != lines(log)[0]["mission_text"]
    write_lines(log, events)
    res = run("solve", "--from", log.name, "--round", 1)
    assert res.exit_code == 2 and "line 1" in res.output and "edited" in res.output


def old_format(events):
    setup = {k: v for k, v in events[0].items()
             if k not in ("format", "mission_text", "mission_digest", "pieces_text", "pieces_digest",
                          "pieces_text_digest", "human")}
    return [setup, *events[1:]]


def test_an_older_log_of_a_bundled_mission_says_which_file_it_used(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("play", "b05", "--seed", 3, "--log", "g.jsonl").exit_code in (0, 1)
    write_lines(tmp_path / "old.jsonl", old_format(lines(tmp_path / "g.jsonl")))
    res = CliRunner().invoke(main, ["solve", "--from", "old.jsonl", "--round", "2"])
    assert res.exit_code in (0, 1)
    assert "does not record its mission" in res.stderr and "b05.toml" in res.stderr


def test_an_older_log_read_against_another_mission_stops_at_the_first_illegal_move(tmp_path, monkeypatch, catalog):
    """As after the campaign's renumbering: an old log's id now names another mission. Even with
    the same rounds and skills, the replay stops at a move the rules do not allow there."""
    monkeypatch.chdir(tmp_path)
    fan = tmp_path / "fan.toml"
    fan.write_text((ROOT / "tests/missions/buddy/b04.toml").read_text(encoding="utf-8"), encoding="utf-8")
    assert run("play", fan, "--seed", 2, "--policy", "greedy", "--log", "g.jsonl").exit_code in (0, 1)
    events = old_format(lines(tmp_path / "g.jsonl"))
    # the same settings, the birds elsewhere: the logged placements are not legal on it
    moved = tmp_path / "fan2.toml"
    text = fan.read_text(encoding="utf-8")
    board = text[text.index('board = """') + 11: text.index('"""', text.index('board = """') + 11)].strip("\n")
    rows = board.splitlines()
    flipped = "\n".join(r[::-1] for r in rows[::-1])
    moved.write_text(text.replace(board, flipped), encoding="utf-8")
    events[0]["mission"] = "fan2"
    write_lines(tmp_path / "old.jsonl", events)
    res = CliRunner().invoke(main, ["solve", str(moved), "--from", "old.jsonl", "--round", str(len(events) - 1)])
    assert res.exit_code == 2, res.output
    assert "round " in res.stderr and "line " in res.stderr and "Traceback" not in res.output


def test_an_older_log_of_an_unknown_mission_needs_the_mission(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    fan = tmp_path / "fan.toml"
    fan.write_text((ROOT / "tests/missions/buddy/b04.toml").read_text(encoding="utf-8"), encoding="utf-8")
    assert run("play", fan, "--seed", 2, "--log", "g.jsonl").exit_code in (0, 1)
    write_lines(tmp_path / "old.jsonl", old_format(lines(tmp_path / "g.jsonl")))
    fan.unlink()
    res = run("review", "old.jsonl")
    assert res.exit_code == 2 and "does not record its mission" in res.output and "--mission" in res.output


def test_a_human_game_records_its_human_seats(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["play", "b01", "--human", "1", "--log", "h.jsonl"], input="\n" * 200)
    assert res.exit_code in (0, 1, 130), res.output
    setup = lines(tmp_path / "h.jsonl")[0]
    assert setup["human"] == [1] and setup["format"] == 2
    assert "contains the whole deal" in res.output
