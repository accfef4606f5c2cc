"""Games recorded elsewhere, in the page (headless Chromium): a sheet and a log dropped into the
folder's games/ are listed, and Rate this table rates one table, chosen by the names of its people."""

from __future__ import annotations

import json

import pytest

from tests.helpers.games import sheet_lines, simulated
from tests.helpers.studio import open_page

pytestmark = pytest.mark.slow


def test_rate_this_table_takes_one_table_by_its_names(browser, served, catalog):
    url, folder = served
    games = folder / "games"
    games.mkdir(exist_ok=True)
    (games / "thursday.txt").write_text("\n".join(sheet_lines(catalog)) + "\n")
    text, _ = simulated(catalog, "party/p02", 3, 4)
    (games / "elsewhere.jsonl").write_text(text)
    page = open_page(browser, url)
    page.click("#tabs [data-tab=play]")
    for _ in range(60):  # the studio imports what was dropped in the background: the menu is read again on focus
        page.evaluate("document.getElementById('rt-table').blur()")
        page.focus("#rt-table")
        page.wait_for_timeout(500)
        if page.evaluate("[...document.querySelectorAll('#rt-table option')]"
                         ".some(o => o.dataset.table === 'Ann, Ben')"):
            break
    labels = page.eval_on_selector_all("#rt-table option", "os => os.map(o => o.textContent)")
    assert "Ann, Ben (1 game)" in labels and "unnamed (1 game)" in labels
    page.select_option("#rt-table", label="Ann, Ben (1 game)")
    with page.expect_request(lambda r: r.url.endswith("/api/jobs") and r.method == "POST") as asked:
        page.click("#rt-rate")
    body = json.loads(asked.value.post_data)
    assert body["kind"] == "rate" and len(body["logs"]) == 1
    assert not page.errors
