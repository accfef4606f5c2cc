"""The Record tab in headless Chromium at phone width (390 px): a whole Buddy game, simulated and
entered by taps as a table would (the cards as revealed, the selection offered, the placement by
tapping the board and confirming, one undo on the way, the cards left at the end), is saved as
one of the folder's games and is the same game as its log; a reload in the middle goes on where
the table was."""

from __future__ import annotations

import json

import pytest

from tests.helpers.games import entries_of, simulated
from tests.helpers.studio import no_sideways_scroll, open_page, serious_violations
from tests.helpers.tabs import tap_placement, wait_entries

pytestmark = pytest.mark.slow


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
