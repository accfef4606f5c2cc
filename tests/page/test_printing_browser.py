"""Printing and packs in the studio's page, in headless Chromium: the Editor's Print buttons download
the mission's card and its blank game sheet (PDFs of what is in the editor), Download pack saves
the folder as one file, and Open a pack joins a pack to the folder, listing what was added, held
or refused, and the Open menu lists its missions at once."""

from __future__ import annotations

import zipfile

import pytest

from solver.io.packs import read_pack_bytes
from tests.helpers.packs import FAN, fan_folder
from tests.helpers.printed import pdf_text
from tests.helpers.studio import open_page, serious_violations, wait_text, wait_until

pytestmark = pytest.mark.slow


def downloaded(page, click: str, to):
    with page.expect_download() as info:
        page.click(click)
    info.value.save_as(str(to))
    return info.value.suggested_filename


def test_the_editors_mission_prints_and_the_folder_travels_as_a_pack(browser, served, tmp_path):
    url, folder = served
    page = open_page(browser, url)
    page.select_option("#open", "b05")
    wait_text(page, "#problems", "valid")
    page.select_option("#pr-paper", "letter")
    name = downloaded(page, "[data-print]", tmp_path / "card.pdf")
    assert name == "b05-card.pdf" and (tmp_path / "card.pdf").read_bytes().startswith(b"%PDF")
    text = " ".join(pdf_text(tmp_path / "card.pdf").split())
    assert "Short night" in text and "Fewest new pieces 3" in text
    wait_text(page, "[data-print-result]", "b05-card.pdf")
    assert page.input_value("#pr-players") == "2"
    name = downloaded(page, "[data-print-sheet]", tmp_path / "sheet.pdf")
    assert name == "b05-sheet.pdf" and "mission: b05" in pdf_text(tmp_path / "sheet.pdf")
    # a party mission: its table sizes to choose from
    page.select_option("#open", "p03")
    wait_until(page, "document.querySelectorAll('#pr-players option').length === 2")
    page.select_option("#pr-players", "3")
    downloaded(page, "[data-print-sheet]", tmp_path / "p03.pdf")
    assert "party, 3 players" in pdf_text(tmp_path / "p03.pdf")

    # a pack opened into the folder: its missions join the Open menu; the same pack again is held
    box = fan_folder(tmp_path)
    pack = tmp_path / "box.kakapo"
    with zipfile.ZipFile(pack, "w") as zf:
        for f in sorted(box.iterdir()):
            zf.writestr(f.name, f.read_bytes())
    page.set_input_files("[data-open-pack]", str(pack))
    wait_text(page, "[data-pack-result]", "5 file\\(s\\) added, 0 held already, 0 refused")
    added = page.eval_on_selector_all("[data-pack-state=added]", "els => els.map(e => e.dataset.packFile)")
    assert sorted(added) == sorted([*(f"{n}.toml" for n in FAN), "mine.toml", "difficulty.json"])
    wait_until(page, "!!document.querySelector('#open option[value=\"fan-b05\"]')")
    assert (folder / "fan-b05.toml").read_bytes() == (box / "fan-b05.toml").read_bytes()
    page.set_input_files("[data-open-pack]", str(pack))
    wait_text(page, "[data-pack-result]", "0 file\\(s\\) added, 5 held already, 0 refused")
    # and the folder downloads as a pack holding them
    name = downloaded(page, "[data-download-pack]", tmp_path / "folder.kakapo")
    assert name.endswith(".kakapo")
    got = read_pack_bytes((tmp_path / "folder.kakapo").read_bytes(), "folder.kakapo")
    assert {f"{n}.toml" for n in FAN} <= {f.name for f in got.missions}
    assert serious_violations(page) == [] and page.errors == []


def test_a_hostile_pack_is_refused_on_the_page_naming_the_member(browser, served, tmp_path):
    url, folder = served
    page = open_page(browser, url)
    evil = tmp_path / "evil.kakapo"
    with zipfile.ZipFile(evil, "w") as zf:
        zf.writestr("../evil.toml", "x")
    page.set_input_files("[data-open-pack]", str(evil))
    wait_text(page, "[data-pack-result]", r"evil.kakapo was not opened: member '\.\./evil.toml'")
    assert not (folder.parent / "evil.toml").exists()


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_print_panel_fits_the_page(browser, served, width, height, tmp_path):
    url, _ = served
    page = open_page(browser, url, width, height)
    panel = page.query_selector("#printing")
    panel.scroll_into_view_if_needed()
    box = panel.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1  # no sideways scrolling
    for hook in ("[data-print]", "[data-print-sheet]", "[data-download-pack]", "[data-open-pack]"):
        b = page.query_selector(hook).bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= width + 1, hook
    page.screenshot(path=str(tmp_path / f"printing-{width}.png"))
