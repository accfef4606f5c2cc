"""The Pieces tab in headless Chromium (Debian's, through Playwright): the 40 pieces drawn as the
catalog has them, red-5 redrawn cell by cell (by mouse and by keyboard), the server's check drawn
on the piece as it changes, undo (the button and Ctrl+Z), Save catalog into the folder (replacing
only after a confirm) and the header's Catalog menu listing it without a reload; no sideways
scrolling at 390 px, and axe-core."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.io.catalog import load_catalog
from tests.helpers.studio import no_sideways_scroll, open_page, serious_violations, wait_text, wait_until
from tests.helpers.tabs import RED_5_PIECE, open_pieces, pressed

pytestmark = pytest.mark.slow

def test_a_piece_is_redrawn_checked_undone_and_the_catalog_saved(browser, served):
    url, folder = served
    page = open_page(browser, url)
    asked = []
    page.on("dialog", lambda d: asked.append(d.message))
    page.click("[data-tool=bird]")
    page.click("[data-cell=f6]")  # a mission edit, which Ctrl+Z in the Pieces tab must leave alone
    wait_text(page, "#toml", "A")
    mission = page.input_value("#toml")
    open_pieces(page)
    cli = {p["piece"]: p["cells"] for p in json.loads(CliRunner().invoke(main, ["pieces", "--json"]).stdout)}
    drawn = page.eval_on_selector_all("[data-edit-piece]", "ps => ps.map(p => [p.dataset.editPiece, "
                                      "p.querySelectorAll('[data-shape-cell]').length])")
    assert dict(drawn) == cli and len(drawn) == 40
    assert page.locator("[data-piece-error]").count() == 0

    page.click(RED_5_PIECE)
    assert page.get_attribute(RED_5_PIECE, "aria-pressed") == "true"
    assert pressed(page) == ["0,0", "0,1", "0,2", "1,0"]  # ###/#..
    page.click("[data-shape-toggle='0,1']")  # #.#/#..: two parts
    assert page.get_attribute("[data-shape-toggle='0,1']", "aria-pressed") == "false"
    page.wait_for_selector(f"{RED_5_PIECE}[data-piece-error]")
    assert "not one edge-connected" in page.get_attribute(RED_5_PIECE, "data-piece-error")
    assert "error" in page.text_content(RED_5_PIECE)
    wait_text(page, "#pc-error", "red-5: .*not one edge-connected")
    assert page.locator("[data-piece-error]").count() == 1

    page.click("[data-shape-toggle='0,1']")  # mended
    wait_until(page, "!document.querySelector(\"[data-edit-piece='red-5']\").hasAttribute('data-piece-error')")
    assert page.is_hidden("#pc-error")
    page.click("[data-shape-toggle='0,3']")  # ####/#...
    assert pressed(page) == ["0,0", "0,1", "0,2", "0,3", "1,0"]
    page.click("#pc-undo")  # the button undoes the last change
    assert pressed(page) == ["0,0", "0,1", "0,2", "1,0"]
    page.keyboard.press("Control+z")  # and Ctrl+Z the one before: two parts again
    assert pressed(page) == ["0,0", "0,2", "1,0"]
    page.wait_for_selector(f"{RED_5_PIECE}[data-piece-error]")
    page.keyboard.press("Control+z")
    assert pressed(page) == ["0,0", "0,1", "0,2", "1,0"]
    wait_until(page, "document.querySelectorAll('[data-piece-error]').length === 0")
    assert page.is_disabled("#pc-undo")
    page.keyboard.press("Control+z")  # nothing left to undo here: the mission is not touched either
    assert page.input_value("#toml") == mission

    # by keyboard: the cells are buttons, the arrow keys move between them
    page.focus("[data-shape-toggle='1,0']")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # ###/#../#..
    assert pressed(page) == ["0,0", "0,1", "0,2", "1,0", "2,0"]
    wait_until(page, "document.querySelector('#pc-problems li.ok') !== null")

    assert page.locator("#catalog option[value='mine.toml']").count() == 0
    page.fill("#pc-file", "mine.toml")
    page.click("text=Save catalog")
    wait_text(page, "#pc-state", "saved as mine.toml")
    page.wait_for_selector("#catalog option[value='mine.toml']", state="attached")  # no reload
    assert load_catalog(folder / "mine.toml")[next(c for c in load_catalog() if str(c) == "red-5")].format() \
        == "###/#../#.."
    assert not asked

    # again under the same name: replaced only after a confirm
    page.click("[data-shape-toggle='2,0']")
    page.click("text=Save catalog")
    wait_text(page, "#pc-state", "saved as mine.toml")
    assert len(asked) == 1 and "mine.toml" in asked[0] and "Replace" in asked[0]
    saved = load_catalog(folder / "mine.toml")
    assert saved[next(c for c in saved if str(c) == "red-5")].format() == "###/#.."
    assert serious_violations(page) == []
    assert not page.errors


def test_a_broken_catalog_of_the_folder_opens_to_be_mended_at_phone_width(browser, served):
    url, folder = served
    text = load_catalog().text.replace('5 = "###/#.."', '5 = "#.#/#.."')
    (folder / "broken.toml").write_text(text, encoding="utf-8")
    page = open_page(browser, url, width=390, height=844)
    page.click("[data-tab=pieces]")
    page.wait_for_selector("#pc-source option[value='broken.toml']", state="attached")
    page.select_option("#pc-source", "broken.toml")
    wait_text(page, "#pc-state", "from broken.toml .*does not load")
    page.wait_for_selector(f"{RED_5_PIECE}[data-piece-error]")
    page.click(RED_5_PIECE)
    assert pressed(page) == ["0,0", "0,2", "1,0"]
    page.click("[data-shape-toggle='0,1']")
    wait_until(page, "document.querySelectorAll('[data-piece-error]').length === 0")
    assert page.input_value("#pc-file") == "broken.toml"
    assert no_sideways_scroll(page)
    assert serious_violations(page) == []
    assert not page.errors
