"""A mission file's independent mistakes are reported together, each with its line (`kakapo validate`)."""

import json

from click.testing import CliRunner

from solver.cli import main
from tests.helpers.missiontext import board_text, mission_text


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_validate_reports_two_board_mistakes_with_their_lines(write):
    board = board_text({4: ".....x......", 6: ".....A......", 8: ".........."})
    path = write("two.toml", mission_text(board))
    res = run("validate", path, "--games", 0, "--json")
    assert res.exit_code == 2
    errors = json.loads(res.stdout)["files"][0]["errors"]
    assert len(errors) == 2
    for e in errors:
        assert {"file", "line", "message", "fix"} <= set(e) <= {"file", "line", "message", "fix", "cells"}
        assert e["file"] == str(path) and e["fix"]
    assert errors[0]["cells"] == ["f4"] and len(errors[1]["cells"]) == 12  # the cells each mistake concerns
    text = path.read_text().splitlines()
    assert "x" in text[errors[0]["line"] - 1] and len(text[errors[1]["line"] - 1].strip()) == 10
    words = run("validate", path, "--games", 0)
    assert words.output.count("error:") == 2 and "Traceback" not in words.output


def test_mistakes_in_different_parts_of_the_file(write):
    extra = ('rounds = 0\n\n[[placed]]\npiece = "red-99"\ncells = ["a1"]\n\n'
             '[[placed]]\npiece = "blue-1"\ncells = []\n')
    path = write("many.toml", mission_text(board_text({6: ".....A......"}), clear="7", extra=extra).replace(
        'mode = "buddy"', 'mode = "buddy"\nstory = 3'))
    res = run("validate", path, "--games", 0, "--json")
    messages = [e["message"] for e in json.loads(res.stdout)["files"][0]["errors"]]
    assert any("story" in m for m in messages) and any("rounds" in m for m in messages)
    assert any("clear" in m for m in messages)
    # the [[placed]] blocks are checked once the rest is sound; each reports on its own
    fixed = path.read_text().replace("story = 3\n", "").replace("rounds = 0\n", "").replace("clear = 7", "clear = 1")
    path.write_text(fixed)
    messages = [e["message"] for e in json.loads(run("validate", path, "--games", 0, "--json").stdout)
                ["files"][0]["errors"]]
    assert len(messages) == 2 and "unknown piece" in messages[0] and "cells is empty" in messages[1]


def test_a_board_without_birds_is_an_input_error(write):
    path = write("empty.toml", mission_text(board_text(), clear='"all"'))
    res = run("solve", path, "--json")
    assert res.exit_code == 2 and "no birds" in json.loads(res.stdout)["error"]["message"]
