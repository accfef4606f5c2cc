"""The Tables tab in headless Chromium at phone width: the folder's tables listed by who played,
and what their games teach (each table's level and what to play next, the predictions checked in a
reliability diagram, the missions as the tables found them), readable at 390 px, labelled."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.helpers.games import sheet_lines, simulated
from tests.helpers.studio import no_sideways_scroll, open_page, serious_violations, wait_text

pytestmark = pytest.mark.slow


def post(url, path, body):
    req = urllib.request.Request(url.rstrip("/") + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req).read())


def test_the_tables_tab_lists_tables_and_draws_what_they_teach(browser, served, catalog):
    url, _ = served
    sheet = "\n".join(sheet_lines(catalog)) + "\n"
    post(url, "/api/records", {"sheet": sheet})
    post(url, "/api/records", {"sheet": sheet.replace("Ann", "Cat").replace("Ben", "Dan")})
    text, _ = simulated(catalog, "party/p02", 3, 4)
    post(url, "/api/games/import", {"text": text})
    page = open_page(browser, url, 390, 844)
    page.click("#tabs [data-tab=tables]")
    page.wait_for_selector("[data-tablename='Ann, Ben']")
    tables = page.eval_on_selector_all("[data-tablename]", "ts => ts.map(t => t.dataset.tablename)")
    assert sorted(tables) == ["Ann, Ben", "Cat, Dan", "unnamed"]
    page.click("#tb-calibrate")
    page.wait_for_selector("[data-reliability] [data-bin]", timeout=300_000)
    levels = page.eval_on_selector_all("[data-level]", "ls => ls.map(l => l.textContent)")
    assert len(levels) == 3 and all("Plays like" in x or "Plays most like" in x for x in levels)
    # each table's level beyond its rung, in the server's terms
    beyond = page.eval_on_selector_all("[data-level] [data-beyond]", "bs => bs.map(b => b.dataset.beyond)")
    assert len(beyond) == 3 and set(beyond) <= {"more", "fewer", "as"}
    assert all("the cards dealt" in x for x in levels)
    assert page.locator("[data-next]").count() >= 3
    # a suggestion whose interval is too wide says so, never a figure it cannot back
    for text in page.eval_on_selector_all("[data-too-few]", "ns => ns.map(n => n.textContent)"):
        assert "too few games to say yet" in text and "%" not in text
    wait_text(page, "#tb-check", r"off by \d\.\d{2} on average \(the Brier score")
    games = sum(int(g) for g in page.eval_on_selector_all("[data-bin]", "bs => bs.map(b => b.dataset.games)"))
    assert games == 3
    assert page.locator("#tb-missions [data-mission]").count() == 2  # b05 (two tables), p02
    wide = page.evaluate("[...document.querySelectorAll('#tables *')].filter(e => e.getBoundingClientRect().right > "
                         "window.innerWidth + 1).map(e => e.id || e.tagName).slice(0, 5)")
    assert no_sideways_scroll(page) and serious_violations(page) == [], wide
    assert not page.errors
