"""Every kind of broken mission or catalog file: a clear message naming file and line, exit 2, no traceback."""

import pytest
from click.testing import CliRunner

from solver.cli import main
from tests.helpers.missiontext import board_text, mission_text

GOOD_BOARD = board_text({5: ".....r......", 6: "....bAy.....", 7: ".....g......"})


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result


def assert_input_error(result, path, *words, line=None):
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert str(path) in result.output
    if line is not None:
        assert f"line {line}" in result.output, result.output
    for w in words:
        assert w in result.output, result.output
    assert "fix:" in result.output


MISSION_CASES = {
    # id: (text, words expected, line expected)
    "board_too_few_rows": (mission_text("\n".join(["." * 12] * 11)), ["11 line(s)"], 4),
    "board_row_too_long": (mission_text(board_text({3: "." * 13})), ["row 3", "13 characters"], 7),
    "unknown_character": (mission_text(board_text({2: "...x........"})), ["'x'", "d2"], 6),
    "disconnected_bird": (mission_text(board_text({2: ".A..........", 4: ".A.........."})), ["not edge-connected"], 6),
    "mark_not_beside_bird": (mission_text(board_text({2: ".A..........", 9: "....r......."})),
                             ["does not share an edge"], 13),
    "clear_zero": (mission_text(GOOD_BOARD, clear="0"), ["clear is 0"], 3),
    "clear_word": (mission_text(GOOD_BOARD, clear='"most"'), ["clear is 'most'"], 3),
    "clear_too_big": (mission_text(GOOD_BOARD, clear="2"), ["only 1 bird"], 3),
    "bad_mode": (mission_text(GOOD_BOARD, mode="solo"), ["mode is 'solo'"], 2),
    "missing_name": ('mode = "buddy"\nclear = 1\nboard = """\n' + GOOD_BOARD + '\n"""\n', ["'name'"], None),
    "malformed_toml": ('name = "x\nmode = "buddy"\n', ["malformed TOML"], 1),
    "bad_rounds": (mission_text(GOOD_BOARD, extra="rounds = 0\n"), ["rounds is 0"], 18),
    "wrong_shape": (mission_text(GOOD_BOARD, extra='[[placed]]\npiece = "red-5"\ncells = ["a1", "b1", "c1", "d1"]\n'),
                    ["do not form the shape"], 18),
    "overlapping": (mission_text(GOOD_BOARD, extra='[[placed]]\npiece = "red-1"\ncells = ["a1"]\n'
                                 '[[placed]]\npiece = "blue-1"\ncells = ["a1"]\n'), ["overlaps"], 21),
    "repeated": (mission_text(GOOD_BOARD, extra='[[placed]]\npiece = "red-1"\ncells = ["a1"]\n'
                              '[[placed]]\npiece = "r1"\ncells = ["l12"]\n'), ["placed twice"], 21),
    "touching_own_colour": (mission_text(GOOD_BOARD, extra='[[placed]]\npiece = "red-1"\ncells = ["a1"]\n'
                                         '[[placed]]\npiece = "red-2"\ncells = ["b1", "c1"]\n'), ["shares an edge"],
                                         21),
    "on_bird": (mission_text(GOOD_BOARD, extra='[[placed]]\npiece = "red-1"\ncells = ["f6"]\n'), ["bird cell"], 18),
    "unknown_piece": (mission_text(GOOD_BOARD, extra='[[placed]]\npiece = "orange-3"\ncells = ["a1"]\n'),
                      ["unknown piece", "orange"], 18),
    "cell_off_board": (mission_text(GOOD_BOARD, extra='[[placed]]\npiece = "red-1"\ncells = ["m1"]\n'), ["'m1'"], 18),
    "placed_missing_cells": (mission_text(GOOD_BOARD, extra='[[placed]]\npiece = "red-1"\n'), ["needs keys"], 18),
}


@pytest.mark.parametrize("case", sorted(MISSION_CASES))
def test_broken_mission_file(case, write):
    text, words, line = MISSION_CASES[case]
    path = write(f"{case}.toml", text)
    before = path.read_text()
    for command in ("solve", "show"):
        assert_input_error(run(command, path), path, *words, line=line)
    assert path.read_text() == before  # nothing the user wrote is touched


def test_missing_file():
    assert_input_error(run("solve", "no/such/mission.toml"), "no/such/mission.toml", "not found")


def catalog_text(override: dict[str, str] | None = None, drop: tuple[str, int] | None = None) -> str:
    from solver.core.cards import Colour
    from solver.io.catalog import load_catalog

    base = load_catalog()
    lines = []
    for colour in Colour:
        lines.append(f"[{colour.long}]")
        for v in range(1, 9):
            if drop == (colour.long, v):
                continue
            shape = (override or {}).get(f"{colour.long}-{v}",
                                         base[next(c for c in base if str(c) == f"{colour.long}-{v}")].format())
            lines.append(f'{v} = "{shape}"')
        lines.append("")
    return "\n".join(lines)


CATALOG_CASES = {
    "missing_value": (catalog_text(drop=("green", 6)), ["[green] has no piece for value 6"], 21),
    "disconnected_shape": (catalog_text({"blue-7": "#.#"}), ["blue-7", "not one edge-connected"], 38),
    "bad_character": (catalog_text({"red-3": "#x#"}), ["red-3", "'x'"], 4),
    "extra_table": (catalog_text() + "[orange]\n1 = \"#\"\n", ["[orange]"], 50),
    "bad_key": (catalog_text() + "9 = \"#\"\n", ["key '9'"], 50),
    "malformed": ("[red\n1 = \"#\"\n", ["malformed TOML"], 1),
}


@pytest.mark.parametrize("case", sorted(CATALOG_CASES))
def test_broken_catalog(case, write):
    text, words, line = CATALOG_CASES[case]
    pieces = write(f"{case}-pieces.toml", text)
    mission = write("ok.toml", mission_text(GOOD_BOARD))
    assert_input_error(run("solve", mission, "--pieces", pieces), pieces, *words, line=line)


def test_good_catalog_round_trip(write):
    pieces = write("pieces.toml", catalog_text())
    mission = write("ok.toml", mission_text(GOOD_BOARD))
    assert run("solve", mission, "--pieces", pieces, "--json").exit_code == 0


def test_unknown_piece_in_exclude(write):
    mission = write("ok.toml", mission_text(GOOD_BOARD))
    result = run("solve", mission, "--exclude", "red-1,teal-4")
    assert result.exit_code == 2 and "teal" in result.output and "Traceback" not in result.output


def test_png_never_overwrites_the_mission(write):
    mission = write("ok.toml", mission_text(GOOD_BOARD))
    result = run("solve", mission, "--png", mission)
    assert result.exit_code == 2
    assert mission.read_text() == mission_text(GOOD_BOARD)
