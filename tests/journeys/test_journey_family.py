"""A family's evenings (the README's steps), through the command line and the page in Chromium at
phone width: their own pieces (a catalog that breaks b09), games recorded in the Record tab in few
taps and one played in the Play tab with their names; the Tables tab keeps their names, says how
they play in plain words and sends them on to the next missions after the furthest they cleared,
never to the hardest; `kakapo calibrate` on the folder's games says the same."""

from __future__ import annotations

import json
import time
import urllib.parse
import urllib.request

import pytest

from solver.io.catalog import load_catalog
from tests.helpers.catalogs import other_catalog
from tests.helpers.journeys import BUDDY, campaign_for, cleared_game, kakapo, learn, record_in_the_tab, window
from tests.helpers.studio import no_sideways_scroll, open_page, serious_violations, start_studio, stop, wait_text

pytestmark = pytest.mark.slow

NAMES = ["Mia", "Leo"]


def call(url: str, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(url.rstrip("/") + path, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as res:
        return json.loads(res.read())


def play_through_links(url: str, links: list[str]) -> None:
    """Each person answers on their own link (the best choice, as a careful table would) until
    the game ends."""
    seats = {}
    for link in links:
        q = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)
        seats[int(q["seat"][0])] = (q["game"][0], q["token"][0])
    deadline = time.monotonic() + 600  # the bots think in worker processes: slow on a loaded machine
    while time.monotonic() < deadline:
        answered = False
        for seat, (game, token) in seats.items():
            path = f"/api/games/{game}/seats/{seat}?token={token}"
            doc = call(url, path)
            if doc["result"] is not None:
                return
            if doc["question"] is not None and not doc["thinking"]:
                answered = True
                try:
                    call(url, path, {"choice": 1, "question": doc["question"]["id"]})
                except urllib.error.HTTPError as e:
                    if e.code != 409:  # asked again meanwhile: the next look answers it
                        raise
        if not answered:
            time.sleep(0.05)  # a bot's turn: look again in a moment
    raise AssertionError("the game did not end")


def test_a_family_records_and_plays_its_evenings_and_is_sent_on_step_by_step(browser, tmp_path):
    folder = tmp_path / "family"
    folder.mkdir()
    ours = load_catalog(other_catalog(folder, "ours.toml"))  # red-5 as their box has it: b09 does not fit
    campaign_for(folder / "ours.toml", folder / "campaign")  # the README's step 3 for their pieces
    listed = {r["id"]: r for r in json.loads(kakapo("list", "--pieces", folder / "ours.toml", "--json").stdout)[
        "missions"]}
    assert listed["b09"]["fits"] is False and "red-5" in listed["b09"]["why"]

    # 1. the studio on their folder, their pieces chosen in the Catalog menu, on a phone
    proc, url = start_studio(folder)
    try:
        page = open_page(browser, url, 390, 844)
        with page.expect_response(lambda r: r.url.endswith("/api/pieces")):
            page.select_option("#catalog", "ours.toml")
        page.click("#tabs [data-tab=record]")
        page.wait_for_selector("#rc-mission option[value=b09][disabled]", state="attached")
        # a mission their pieces do not fit: greyed, and why is written where a phone shows it
        assert page.is_visible("#rc-nofit [data-nofit=b09]") and "red-5" in page.text_content("[data-nofit=b09]")
        assert not page.is_visible("#undo")  # one Undo in this tab: its own
        assert no_sideways_scroll(page) and serious_violations(page) == []

        # 2. two evenings recorded with the cards, in few taps
        taps = []
        for mission in ("b01", "b02"):
            events = cleared_game(ours, mission, 2)
            taps += record_in_the_tab(page, events, mission, NAMES)
            said = page.text_content("#rc-turn")
            assert "Saved: cleared" in said and "Mia, Leo's" in said and "Tables tab" in said
        assert all(t <= cells for t, cells in taps)  # never more taps than the piece's cells

        # a third evening played in the Play tab, each on their own link with their name
        page.click("#tabs [data-tab=play]")
        page.select_option("#g-mission", "b03")
        page.check("#g-seat-1")
        page.fill("#g-names input[data-seat='0']", "Mia")
        page.fill("#g-names input[data-seat='1']", "Leo")
        page.click("#g-start")
        page.wait_for_selector("#g-links a[data-seat='1']")
        links = page.eval_on_selector_all("#g-links a[data-seat]", "as => as.map(a => a.href)")
        play_through_links(url, links)
        games = call(url, "/api/games")
        assert len(games) == 3 and all(g["names"] == {"0": "Mia", "1": "Leo"} for g in games)
        cleared = {g["mission"] for g in games if g["result"] == "cleared"}
        assert {"b01", "b02"} <= cleared

        # 3. the Tables tab keeps their names, says how they play in plain words, and what next
        page.click("#tabs [data-tab=tables]")
        page.wait_for_selector("[data-tablename='Mia, Leo']")
        assert page.locator("[data-tablename]").count() == 1
        assert "3 game(s)" in page.text_content("[data-tablename='Mia, Leo']")
        learn(page)
        level = page.text_content("[data-level='Mia, Leo']")
        assert "Plays" in level and "the cards dealt" in level
        assert not any(w in level for w in ("rung", "logit", "Brier"))
        suggested = page.eval_on_selector_all("[data-level='Mia, Leo'] [data-next]",
                                              "ns => ns.map(n => n.dataset.next)")
        playable = [m for m in BUDDY if m != "b09"]
        assert suggested and set(suggested) <= window(cleared, playable), (suggested, cleared)
        assert "b20" not in suggested and "b09" not in suggested
        furthest = max(cleared, key=playable.index)
        intro = page.text_content("[data-level='Mia, Leo'] [data-next-intro]")
        assert f"after {furthest}, the furthest it cleared" in intro
        for text in page.eval_on_selector_all("[data-too-few]", "ns => ns.map(n => n.textContent)"):
            assert "too few games to say yet" in text and "%" not in text
        wait_text(page, "#tb-check", "predicted from the same table's other games")
        assert no_sideways_scroll(page) and serious_violations(page) == []
        assert not page.errors
    finally:
        stop(proc)

    # the command line reads the same games from the folder, grouped by the same names
    res = kakapo("calibrate", folder / "games", "--plays", 1, "--workers", 1, "--json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert [(t["names"], t["games"]) for t in doc["tables"]] == [(NAMES, 3)]
    nxt = {e["mission"] for e in doc["tables"][0]["next"]}
    assert nxt and nxt <= window(cleared, playable) and "b09" not in nxt
