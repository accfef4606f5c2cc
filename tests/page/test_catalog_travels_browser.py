"""A catalog travels, in headless Chromium: a mission shared while another catalog is in use
carries it in the link; opened where the bundled catalog is in use, the page says the mission was
made with another catalog and offers it (from the folder, or saved into it from the link); a
table's saved state carries its catalog likewise and waits until that catalog is in use."""

from __future__ import annotations

import json

import pytest

from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.io.paths import bundled_mission
from tests.helpers.catalogs import made_with, other_catalog
from tests.helpers.studio import open_page, serious_violations, wait_text, wait_until
from tests.helpers.tabs import use_catalog

pytestmark = pytest.mark.slow


def test_a_shared_mission_brings_its_catalog_and_the_page_offers_it(browser, served):
    url, folder = served
    mine = load_catalog(other_catalog(folder))
    page = open_page(browser, url)
    page.wait_for_selector("#catalog option[value='mine.toml']", state="attached")
    use_catalog(page, "mine.toml")
    page.select_option("#open", "b01")
    wait_text(page, "#problems", "valid")
    page.click("[data-share]")
    wait_until(page, "document.getElementById('share-url').dataset.shareUrl !== undefined")
    link = page.get_attribute("[data-share-url]", "data-share-url")
    assert "#mission=" in link and "&pieces=" in link
    assert f'pieces_digest = "{mine.digest}"' in page.input_value("#toml")  # what travels says what it was made with
    use_catalog(page, "")

    other = open_page(browser, link)
    wait_text(other, "#made-with", f"made with another catalog \\(digest {mine.digest}\\)")
    assert other.is_visible("[data-use-catalog='mine.toml']")
    assert other.get_attribute("#problems", "data-valid") == "false"  # not read with the bundled shapes
    assert serious_violations(other) == []
    other.click("[data-use-catalog='mine.toml']")
    wait_text(other, "#made-with [data-catalog-switched]", "The studio now uses mine.toml for everything")
    wait_text(other, "#problems", "valid: no errors")
    assert other.input_value("#catalog") == "mine.toml"

    # the catalog's file gone from the folder: the link's own copy is offered, saved and used
    (folder / "mine.toml").unlink()
    use_catalog(other, "")
    third = open_page(browser, link)
    third.wait_for_selector("[data-use-catalog=carried]")
    third.click("[data-use-catalog=carried]")
    wait_text(third, "#problems", "valid: no errors")
    saved = folder / f"shared-{mine.digest[:8]}.toml"
    assert load_catalog(saved).digest == mine.digest and third.input_value("#catalog") == saved.name
    assert not page.errors and not other.errors and not third.errors


def test_a_saved_table_made_with_another_catalog_waits_for_it(browser, served):
    url, folder = served
    elsewhere = folder / "elsewhere"
    elsewhere.mkdir()
    mine_path = other_catalog(elsewhere)  # not in the studio's folder: the saved table carries it
    mine = load_catalog(mine_path)
    state = elsewhere / "table.json"
    state.write_text(json.dumps({"format": "kakapo-table-1", "mission": made_with(elsewhere, mine.digest).read_text(),
                                 "pieces_text": mine_path.read_text(), "placed": [], "gone": ["red-1"], "rounds": 5,
                                 "skills": 2, "trump": "purple", "players": 2}))
    page = open_page(browser, url)
    page.click("#tabs [data-tab=tablestate]")
    page.set_input_files("#t-file", str(state))
    wait_text(page, "#t-made-with", "made with another catalog")
    wait_text(page, "#t-filemsg", "not loaded yet")
    page.click("#t-made-with [data-use-catalog=carried]")
    wait_text(page, "#t-filemsg", "loaded table.json")
    wait_text(page, "#t-made-with [data-catalog-switched]", "The studio now uses shared-")
    assert page.input_value("#t-rounds") == "5" and "1 card(s) gone" in page.text_content("#t-gonecount")
    assert (folder / f"shared-{mine.digest[:8]}.toml").exists()
    assert not page.errors


BLANK = "[...document.querySelectorAll('#board [data-cell]')].every(c => c.getAttribute('fill') === '#fafafa')"


def test_the_page_shows_one_mission_at_a_time(browser, served):
    """A mission that does not fit the catalog in use, or a share link made with a catalog not in
    use, never shows beside the board and fields of the mission open before; the link's error
    advises the catalog it carries, and taking it says that the whole studio now uses it."""
    url, folder = served
    other_catalog(folder)  # red-5 drawn otherwise: b09's placed red-5 does not fit it
    page = open_page(browser, url)
    page.wait_for_selector("#catalog option[value='mine.toml']", state="attached")
    use_catalog(page, "mine.toml")
    page.select_option("#open", "b01")
    wait_text(page, "#problems", "valid")
    page.click("[data-share]")
    wait_until(page, "document.getElementById('share-url').dataset.shareUrl !== undefined")
    link = page.get_attribute("[data-share-url]", "data-share-url")
    b05 = load_mission(bundled_mission("b05"), load_catalog()).name
    page.select_option("#open", "b05")
    wait_until(page, f"document.getElementById('f-name').value === {json.dumps(b05)}")
    assert not page.evaluate(BLANK)  # b05 drawn: its birds
    page.select_option("#open", "b09")  # does not fit these pieces
    wait_text(page, "#problems", "red-5")
    page.wait_for_selector("[data-unshown]", state="visible")  # as soon as the check has answered
    assert page.is_visible("[data-unshown]") and page.evaluate(BLANK) and page.input_value("#f-name") == ""
    assert page.is_disabled("#f-clear") and "b09" in page.input_value("#filename")
    page.select_option("#open", "b05")  # a mission that reads is drawn again
    wait_until(page, f"document.getElementById('f-name').value === {json.dumps(b05)}")
    assert not page.is_visible("[data-unshown]") and not page.evaluate(BLANK) and not page.is_disabled("#f-clear")

    use_catalog(page, "")  # the bundled catalog; the link carries mine.toml
    page.evaluate(f"location.hash = {json.dumps(link.split('#', 1)[1])}")
    wait_text(page, "#made-with", "made with another catalog")
    page.wait_for_selector("[data-unshown]", state="visible")
    assert page.is_visible("[data-unshown]") and page.evaluate(BLANK) and page.input_value("#f-name") == ""
    errors = page.text_content("#problems")
    assert "the notice beside the board offers it" in errors and "remove the pieces_digest line" not in errors
    page.click("[data-use-catalog='mine.toml']")
    wait_text(page, "#made-with [data-catalog-switched]", "The studio now uses mine.toml for everything")
    wait_text(page, "#problems", "valid: no errors")
    assert not page.is_visible("[data-unshown]") and not page.evaluate(BLANK) and page.input_value("#f-name")
    assert not page.errors
