"""The Record tab in headless Chromium at phone width (390 px): a whole Buddy game, simulated and
entered by taps as a table would (the cards as revealed, the selection offered, the placement by
tapping the board and confirming, one undo on the way, the cards left at the end), is saved as
one of the folder's games and is the same game as its log; a reload in the middle goes on where
the table was."""

from __future__ import annotations

import json
import time

import pytest

from tests.studio_helpers import open_page
from tests.test_record import simulated
from tests.test_recordings_api import entries_of
from tests.test_studio_page_browser import no_sideways_scroll, serious_violations

pytestmark = pytest.mark.slow


def wait_entries(page, n, timeout=20):
    t0 = time.time()
    while time.time() - t0 < timeout:
        if page.get_attribute("#rc-game", "data-entries") == str(n):
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"the page did not reach entry {n}: {page.text_content('#rc-error')!r}")


def tap_placement(page, cells):
    """Tap the cells of the placement that the preview misses, as a person would, until the
    preview is that placement (each tap narrows the placements to those covering every cell
    tapped), then confirm; the taps it took: never more than the piece's cells."""
    want = sorted(cells)
    shown: list[str] = []
    taps = 0
    while sorted(shown) != want:
        cell = next(c for c in want if c not in shown)
        page.click(f"#rc-board [data-cell={cell}]")
        taps += 1
        shown = page.eval_on_selector_all("#rc-board [data-preview]", "cs => cs.map(c => c.dataset.cell)")
        tapped = page.eval_on_selector_all("#rc-board [data-tapped]", "cs => cs.map(c => c.dataset.cell)")
        assert set(tapped) <= set(shown) and cell in tapped, (tapped, shown)
        assert taps <= len(want), (want, shown)
    page.click("#rc-confirm")
    return taps


def test_a_whole_buddy_game_recorded_by_taps_at_phone_width(browser, served, catalog):
    url, _ = served
    _, events = simulated(catalog, "buddy/b05", 2, 5, "random")
    entries, left = entries_of(events)
    page = open_page(browser, url, width=390, height=844)
    page.click("#tabs [data-tab=record]")
    page.select_option("#rc-mission", "b05")
    page.fill("[data-name-seat='0']", "Ann")
    page.fill("[data-name-seat='1']", "Ben")
    page.select_option("#rc-leader", str(events[0]["start_player"]))
    page.click("#rc-start")
    page.wait_for_selector("#rc-game:not([hidden])")
    n = 0
    undone = False
    for k, entry in enumerate(entries):
        if k == 6 and not undone:  # a wrong card, then undo
            wrong = next(c for c in page.eval_on_selector_all("[data-rec-card]:not([disabled])",
                                                              "bs => bs.map(b => b.dataset.recCard)")
                         if c != entry.get("card"))
            if "card" in entry:
                page.click(f"[data-rec-card='{wrong}']")
                wait_entries(page, n + 1)
                page.click("#rc-undo")
                wait_entries(page, n)
                undone = True
        if k == 10:  # a reload in the middle: the tab goes on where the table was
            before = (page.text_content("#rc-turn"), page.text_content("#rc-trick"))
            page.reload()
            page.wait_for_selector("[data-cell=l12]")
            page.click("#tabs [data-tab=record]")
            page.wait_for_selector("#rc-game:not([hidden])")
            assert (page.text_content("#rc-turn"), page.text_content("#rc-trick")) == before
        if "card" in entry:
            assert "reveals a card" in page.text_content("#rc-turn")
            page.click(f"[data-rec-card='{entry['card']}']")
        elif "pieces" in entry:
            if k < 8:  # a selection offered, labelled, at phone width
                assert no_sideways_scroll(page) and serious_violations(page) == []
            texts = page.eval_on_selector_all("[data-option]", "bs => bs.map(b => b.textContent)")
            want = " then ".join(entry["pieces"]) if entry["pieces"] else "no piece"
            pick = next(i for i, t in enumerate(texts) if (t.split(": ")[-1] if ": " in t else t).startswith(want)
                        and (len(entry["pieces"]) != 1 or " then " not in t))
            page.click(f"[data-option='{pick}']")
        else:
            tap_placement(page, entry["cells"])
        n += 1
        wait_entries(page, n)
    assert undone
    for seat, cards in left.items():
        if not cards:
            continue
        assert ["Ann", "Ben"][seat] in page.text_content("#rc-turn")
        assert no_sideways_scroll(page) and serious_violations(page) == []
        for c in cards:
            page.click(f"[data-rec-card='{c}']")
        page.click("#rc-leftok")
        n += 1
        wait_entries(page, n)
    page.click("#rc-finish")
    page.wait_for_selector("#rc-review:not([hidden])")
    assert "Saved" in page.text_content("#rc-turn")
    sheet = page.text_content("#rc-sheet")
    assert sheet.startswith("mission: b05") and "players: Ann, Ben" in sheet
    games = json.loads(page.evaluate("fetch('/api/games').then(r => r.text())"))
    assert len(games) == 1 and games[0]["names"] == {"0": "Ann", "1": "Ben"}
    logged = page.evaluate(f"fetch('/api/games/{games[0]['id']}/log').then(r => r.text())")
    assert [json.loads(x) for x in logged.splitlines()][1:] == events[1:]
    assert not page.errors
