"""A club pools its tables' games (the README's steps), through the command line and the page in
Chromium: the club's catalog (it breaks b09) beside each studio; one studio's tables record their
games (a sheet through `kakapo record`, dropped into games/, and sheets sent to the studio);
*Export games* there, *Import games* in the club's studio (what came in, what was held, what was
refused with its line); every game keeps its names, so each table stays itself; *Learn from every
table's games* rates every table, and `kakapo calibrate` on the club's folder says the same."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from solver.app.sheets import sheet_of
from solver.io.catalog import load_catalog
from solver.io.gamelog import parse_log
from tests.helpers.catalogs import other_catalog
from tests.helpers.journeys import BUDDY, campaign_for, cleared_game, kakapo, learn, window
from tests.helpers.studio import no_sideways_scroll, open_page, serious_violations, start_studio, stop, wait_text

pytestmark = pytest.mark.slow


def sheet(events: list[dict], names: list[str]) -> str:
    """The game written down as its table would, with the club's catalog beside it."""
    text = sheet_of(parse_log("".join(json.dumps(e) + "\n" for e in events), "game.jsonl"), names)
    return text.replace("pieces: pieces.toml", "pieces: club.toml")


def post(url: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(url.rstrip("/") + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as res:
        return json.loads(res.read())


def tables_listed(page) -> dict[str, str]:
    page.click("#tabs [data-tab=tables]")
    page.click("#tb-refresh")
    page.wait_for_timeout(300)
    return {t: page.text_content(f"[data-tablename='{t}']") for t in
            page.eval_on_selector_all("[data-tablename]", "ts => ts.map(t => t.dataset.tablename)")}


def test_a_club_pools_its_tables_games_and_learns_from_every_table(browser, tmp_path):
    thursday, club_dir = tmp_path / "thursday", tmp_path / "club"
    for d in (thursday, club_dir):
        (d / "games").mkdir(parents=True)
        other_catalog(d, "club.toml")
        campaign_for(d / "club.toml", d / "campaign")  # the README's step 3 for their pieces
    club = load_catalog(thursday / "club.toml")
    ann_ben = [cleared_game(club, "b05", 2), cleared_game(club, "b06", 2, cleared=False)]
    cat_dan = cleared_game(club, "b05", 2, "heuristic", seeds=range(60, 120))

    # 1. a table writes its game on a sheet and records it; the log joins the studio's games/
    (thursday / "ann-ben-1.txt").write_text(sheet(ann_ben[0], ["Ann", "Ben"]))
    res = kakapo("record", "ann-ben-1.txt", "--log", "games/ann-ben-1.jsonl", cwd=thursday)
    assert res.returncode == 0, res.stderr
    proc, url = start_studio(thursday)
    try:
        post(url, "/api/records", {"sheet": sheet(ann_ben[1], ["Ann", "Ben"])})
        post(url, "/api/records", {"sheet": sheet(cat_dan, ["Cat", "Dan"])})
        page = open_page(browser, url)
        t0 = time.time()
        while len(listed := tables_listed(page)) < 2 and time.time() - t0 < 30:  # the dropped log is read
            page.wait_for_timeout(1000)
        assert "2 game(s)" in listed["Ann, Ben"] and "1 game(s)" in listed["Cat, Dan"]
        # 2. Export games: the finished games as one file
        with page.expect_download() as got:
            page.click("[data-export-games]")
        pooled = tmp_path / "thursday-games.jsonl"
        got.value.save_as(pooled)
        setups = [e for e in map(json.loads, pooled.read_text().splitlines()) if e["event"] == "setup"]
        assert sorted(sorted(s["names"].values()) for s in setups) == [["Ann", "Ben"], ["Ann", "Ben"], ["Cat", "Dan"]]
        assert not page.errors
    finally:
        stop(proc)

    # 3. the club's studio, with a table of its own, imports the file
    proc, url = start_studio(club_dir)
    try:
        eve = cleared_game(club, "b06", 2, seeds=range(120, 200))
        post(url, "/api/records", {"sheet": sheet(eve, ["Eve", "Finn"])})
        page = open_page(browser, url, 390, 844)
        page.click("#tabs [data-tab=tables]")
        page.set_input_files("[data-import-games]", str(pooled))
        page.wait_for_selector("[data-came-in='3']")
        assert "3 game(s) came in, 0 held already, 0 refused" in page.text_content("#tb-poolmsg")
        listed = tables_listed(page)
        assert sorted(listed) == ["Ann, Ben", "Cat, Dan", "Eve, Finn"]  # the names came with the games
        assert "2 game(s)" in listed["Ann, Ben"]
        # the same file again: held, not taken twice; a game that breaks a rule: refused, with its line
        page.set_input_files("[data-import-games]", str(pooled))
        page.wait_for_selector("[data-held='3']")
        lines = pooled.read_text().splitlines()
        third = next(i for i, x in enumerate(lines) if json.loads(x)["event"] == "round")
        bad = json.loads(lines[third])
        bad["plays"][0]["card"] = bad["plays"][1]["card"]  # a card played twice
        broken = tmp_path / "broken.jsonl"
        broken.write_text("\n".join([*lines[:third], json.dumps(bad), *lines[third + 1:]]) + "\n")
        page.set_input_files("[data-import-games]", str(broken))
        page.wait_for_selector("[data-refused='1']")
        assert f"line {third + 1}" in page.text_content("[data-refused='1']")
        assert len(tables_listed(page)) == 3 and no_sideways_scroll(page) and serious_violations(page) == []

        # 4. Learn from every table's games: each table rated, in plain words, and sent on step by step
        learn(page)
        levels = page.eval_on_selector_all("[data-level]", "ls => ls.map(l => l.dataset.level)")
        assert sorted(levels) == ["Ann, Ben", "Cat, Dan", "Eve, Finn"]
        playable = [m for m in BUDDY if m != "b09"]
        cleared_by = {"Ann, Ben": {"b05"}, "Cat, Dan": {"b05"}, "Eve, Finn": {"b06"}}
        for table, cleared in cleared_by.items():
            nxt = page.eval_on_selector_all(f"[data-level='{table}'] [data-next]", "ns => ns.map(n => n.dataset.next)")
            assert nxt and set(nxt) <= window(cleared, playable), (table, nxt)
        wait_text(page, "#tb-check", "predicted from the same table's other games")
        assert page.locator("#tb-missions [data-mission]").count() == 2  # b05 and b06, as the tables found them
        assert not page.errors
    finally:
        stop(proc)

    # the command line reads the club's folder: the same tables, by the names their games give
    res = kakapo("calibrate", club_dir / "games", "--plays", 1, "--workers", 1, "--json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert sorted((", ".join(t["names"]), t["games"]) for t in doc["tables"]) == [
        ("Ann, Ben", 2), ("Cat, Dan", 1), ("Eve, Finn", 1)]
