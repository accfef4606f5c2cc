"""`kakapo print`: a mission as a card to set up the board, and a blank game sheet. The PDF is read
back as a person and a program would read it: its pages and paper (pdfinfo), its text
(pdftotext: real text, no two words on top of each other), a page rendered (pdftoppm: the birds
drawn to the scale the card states), and a printed sheet filled in with a game played by the
engine, following the printed lines, recorded by `kakapo record` unchanged."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from solver.app.sheets import beside, game_of_sheet_text, sheet_of
from solver.cli import main
from solver.game.engine import play_game
from solver.game.roster import make_policy
from solver.io.gamelog import parse_log
from solver.io.missionfile import load_mission
from solver.io.paths import MISSIONS, mission_path
from solver.io.sheet import cells_text, parse_sheet
from tests.helpers.printed import pdf_text, poppler

IN_CI = os.environ.get("CI") == "true"
PAGE_POINTS = {"a4": (595, 842), "letter": (612, 792)}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def pdf_info(pdf: Path) -> dict[str, str]:
    out = subprocess.run([poppler("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True, timeout=60).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


def words(pdf: Path) -> list[tuple[int, float, float, float, float, str]]:
    """Every word with its page and box (pdftotext -bbox)."""
    out = subprocess.run([poppler("pdftotext"), "-bbox", str(pdf), "-"], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    found, page = [], 0
    for line in out.splitlines():
        if "<page " in line:
            page += 1
        m = re.search(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<', line)
        if m:
            found.append((page, *(float(m.group(k)) for k in range(1, 5)), m.group(5)))
    return found


def overlapping(boxes) -> list[tuple[str, str]]:
    """Pairs of words on one page whose boxes overlap by more than a fifth of the smaller one."""
    out = []
    for i, (p, x0, y0, x1, y1, w) in enumerate(boxes):
        for q, a0, b0, a1, b1, v in boxes[i + 1:]:
            if p != q:
                continue
            dx, dy = min(x1, a1) - max(x0, a0), min(y1, b1) - max(y0, b0)
            if dx > 0 and dy > 0 and dx * dy > 0.2 * min((x1 - x0) * (y1 - y0), (a1 - a0) * (b1 - b0)):
                out.append((w, v))
    return out


@pytest.mark.parametrize("paper,per_page", [("a4", 1), ("letter", 2), ("a4", 4), ("letter", 4)])
def test_cards_are_pages_of_real_text_with_nothing_on_top_of_anything(paper, per_page, catalog, tmp_path):
    pdf = tmp_path / "cards.pdf"
    missions = ["b07", "p03", "b16", "p15", "b01"]
    res = run("print", *missions, "--paper", paper, "--per-page", per_page, "--pdf", pdf, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    pages = -(-len(missions) // per_page)
    assert doc["pages"] == pages and [m["id"] for m in doc["missions"]] == missions
    info = pdf_info(pdf)
    assert int(info["Pages"]) == pages
    w, h = (float(x) for x in re.findall(r"[\d.]+", info["Page size"])[:2])
    assert (round(w), round(h)) == PAGE_POINTS[paper]
    text = " ".join(pdf_text(pdf).split())
    for mid in missions:
        m = load_mission(mission_path(mid), catalog)
        assert m.name in text and f"{mid} · {m.mode}" in text
        assert " ".join(m.story.split()[:4]) in text
    for label in ("Mode", "Rounds", "To clear", "Fewest new pieces", "Difficulty", "Placed", "To scale: a cell is"):
        assert label in text
    # the figures the card states are those of `solve` and of the campaign
    b07 = next(m for m in doc["missions"] if m["id"] == "b07")
    solved = json.loads(run("solve", "b07", "--json").output)
    assert b07["fewest"] == str(solved["pieces_used"]) and b07["difficulty"].startswith("between b")
    assert "purple-6 g2 h2 g3 h3" in text  # b07's pre-placed piece, by its cells
    boxes = words(pdf)
    assert len(boxes) > 60 * len(missions)  # the board's names, the card's words
    assert not overlapping(boxes), overlapping(boxes)[:5]


def test_a_rendered_card_shows_the_birds_to_the_scale_it_states(catalog, tmp_path):
    pdf = tmp_path / "p15.pdf"
    assert run("print", "p15", "--pdf", pdf).exit_code == 0
    cell = float(re.search(r"a cell is ([\d.]+) mm", pdf_text(pdf)).group(1))
    dpi = 100
    subprocess.run([poppler("pdftoppm"), "-r", str(dpi), "-png", "-singlefile", str(pdf), str(tmp_path / "page")],
                   check=True, timeout=60)
    from PIL import Image

    pixels = np.asarray(Image.open(tmp_path / "page.png").convert("RGB")).astype(int)

    def near(colour: str, tolerance: int) -> int:
        want = np.array([int(colour[k:k + 2], 16) for k in (1, 3, 5)])
        return int((np.abs(pixels - want).max(axis=2) < tolerance).sum())

    dark = near("#444444", 12)
    m = load_mission(mission_path("p15"), catalog)
    bird_cells = sum(len(b.cells) for b in m.birds)
    drawn = dark * (25.4 / dpi) ** 2  # mm² of bird grey on the page
    expected = bird_cells * cell ** 2
    assert 0.8 * expected < drawn < 1.05 * expected, (drawn, expected)  # white outlines take a little
    assert near("#8e44ad", 20) > 0  # p15's purple side is drawn in its colour


def test_an_existing_pdf_is_kept_without_force(tmp_path):
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(b"mine")
    res = run("print", "b01", "--pdf", pdf)
    assert res.exit_code == 2 and "exists already" in res.output and "--force" in res.output
    assert pdf.read_bytes() == b"mine"
    assert run("print", "b01", "--pdf", pdf, "--force").exit_code == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    for bad in (["--per-page", "3"], ["--paper", "a3"], ["--players", "2"], ["--sheet", "--per-page", "2"]):
        assert run("print", "b01", "--pdf", tmp_path / "x.pdf", *bad).exit_code == 2, bad
    assert not (tmp_path / "x.pdf").exists()
    assert run("print", "b01", "--pdf", tmp_path / "x.png").exit_code == 2


def test_the_same_missions_print_the_same_bytes(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    assert run("print", "b05", "--pdf", a).exit_code == 0 and run("print", "b05", "--pdf", b).exit_code == 0
    assert a.read_bytes() == b.read_bytes()


def fill_in(printed: str, game: str, names: list[str]) -> str:
    """The printed sheet's lines (pdftotext), filled in by hand with a game: each blank line of
    the print gets what a person writes there, every printed word kept where it was."""
    played = parse_sheet(game, "game.txt")
    alias = {f"player {k + 1}": n for k, n in enumerate(names)}
    out = []
    for line in printed.splitlines():
        stripped = line.strip()
        if stripped.startswith("players:"):
            assert stripped.count(",") == len(names) - 1  # a blank for each person
            line = "players: " + ", ".join(names)
        elif m := re.match(r"^(\d+)\.\s*([ ,]*)/\s*$", stripped):
            number = int(m.group(1))
            if number > len(played.rounds):
                continue  # rounds never played stay blank, and are left out when typed up
            r = played.rounds[number - 1]
            assert m.group(2).count(",") == len(r.plays) - 1  # a box for each play of the round
            plays = ", ".join(f"{alias[w]} {c}" for w, c in r.plays)
            placed = ", ".join(f"{p} {cells_text(c)}" if c is not None else f"{p} -" for p, c in r.placements) or "-"
            line = f"{number}. {plays} / {placed}"
        elif stripped.startswith("left:"):
            assert stripped.count(";") == len(names) - 1
            left = "; ".join(f"{alias[w]} {' '.join(str(c) for c in cards)}"
                             for w, cards in (played.left or {}).items() if cards)
            line = f"left: {left}"
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name,players", [("buddy/b05", 2), ("party/p02", 3)])
def test_a_printed_sheet_filled_in_with_a_game_records_unchanged(name, players, catalog, tmp_path):
    mid = name.split("/")[1]
    pdf = tmp_path / "sheet.pdf"
    res = run("print", mid, "--sheet", "--players", players, "--pdf", pdf, "--json")
    assert res.exit_code == 0, res.output
    printed = pdf_text(pdf)
    assert f"mission: {mid}" in printed and "pieces:" not in printed  # the bundled catalog: no pieces: line
    m = load_mission(MISSIONS / f"{name}.toml", catalog)
    numbered = [ln for ln in printed.splitlines() if re.match(r"^\s*\d+\.", ln)]
    assert len(numbered) == m.rounds  # a line for every round the mission has
    events = play_game(m, catalog, players, 5, make_policy("heuristic"), log=True).events
    game = sheet_of(parse_log("".join(json.dumps(e) + "\n" for e in events), "game.jsonl"))
    names = ["Ann", "Ben", "Cleo", "Dev"][:players]
    filled = fill_in(printed, game, names)
    (tmp_path / "typed.txt").write_text(filled)
    rec = game_of_sheet_text(filled, "typed.txt", beside(tmp_path))
    assert rec.events[1:] == events[1:]  # the same game, move by move
    assert rec.names == tuple(names)
    cli = run("record", tmp_path / "typed.txt", "--json")
    assert cli.exit_code == 0, cli.output


def test_a_fan_missions_sheet_names_its_file_and_catalog(tmp_path):
    from tests.helpers.packs import fan_folder

    d = fan_folder(tmp_path)
    pdf = tmp_path / "sheet.pdf"
    res = run("print", d / "fan-b05.toml", "--sheet", "--pdf", pdf)
    assert res.exit_code == 0, res.output
    text = pdf_text(pdf)
    assert "mission: fan-b05.toml" in text and "pieces: mine.toml" in text
