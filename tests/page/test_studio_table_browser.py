"""The studio's table in a real browser (headless Chromium, Debian's, driven by Playwright): a game
started from the Play tab and played to its end by clicks on the seat's page; two people in two
browser contexts; a reload mid-game; the review of a known log on the board. And a studio killed
mid-game (SIGKILL) and started again continues the game from its record."""

from __future__ import annotations

import json
import signal

import pytest
from click.testing import CliRunner

from solver.cli import main
from tests.helpers.referee import referee
from tests.helpers.studio import api, open_page, start_studio, stop, wait_text
from tests.helpers.tabs import moves_at_once

pytestmark = pytest.mark.slow

READY = "[data-choice]:not([disabled]), #s-log"


def settled(url: str, seat_path: str, timeout: float = 120) -> dict:
    """The seat's document once the bots have played on to a person's turn or the end (the bots
    play in the background, paced: between two of their moves none thinks), and, on this seat's
    turn, once its question is prepared."""
    import time

    t0 = time.time()
    while True:
        doc = api(url, seat_path)
        to_act = doc.get("to_act")
        person = to_act is not None and not next(p for p in doc["players"] if p["seat"] == to_act)["bot"]
        ready = to_act != doc["seat"] or doc["question"] is not None  # this seat's choices prepared
        if doc["result"] is not None or (person and not doc["thinking"] and ready) or time.time() - t0 > timeout:
            return doc
        time.sleep(0.05)


def seat_page(browser, link, width=1280, height=900):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(link)
    page.wait_for_selector("#s-head h2")
    moves_at_once(page)
    return page


def answer_once(page, by_cells: bool = False) -> bool:
    """Answer the question on the page (choice 1, or a placement by clicking its cells); False
    once the game is over."""
    page.wait_for_selector(READY, timeout=120_000)  # a loaded machine: the bots think in the background
    if page.query_selector("#s-log"):
        return False
    placing = page.is_visible("[data-confirm]")
    if by_cells and placing:  # tap a cell of the last placement offered, then confirm what it previews
        q = api(page.url.split("?")[0], page_seat_path(page))["question"]
        page.click(f"#s-board [data-cell={q['placements'][-1][0]}]")
        page.wait_for_selector("[data-confirm]:not([disabled])")
        page.click("[data-confirm]")
    else:
        page.click("[data-choice='1']:not([disabled])")
    page.wait_for_timeout(50)
    return True


def page_seat_path(page) -> str:
    """The API path of the seat a page shows (its own link's game, seat and token: the page keeps
    the token in its tab's sessionStorage and takes it out of the address bar)."""
    from urllib.parse import parse_qs, urlparse

    q = {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}
    token = q.get("token") or page.evaluate(f"sessionStorage.getItem('kakapo-seat:{q['game']}:{q['seat']}')")
    return f"/api/games/{q['game']}/seats/{q['seat']}?token={token}"


def test_a_buddy_game_started_from_the_play_tab_and_played_to_its_end_by_clicks(browser, served):
    url, _ = served
    host = open_page(browser, url)
    host.click("#tabs [data-tab=play]")
    host.select_option("#g-mission", "b05")
    host.select_option("#g-players", "2")
    host.select_option("#g-policy", "planner")
    host.click("#g-start")
    host.wait_for_selector("#g-links a[data-seat='0']")
    link = host.get_attribute("#g-links a[data-seat='0']", "href")
    page = seat_page(browser, link)
    answers = 0
    while answer_once(page, by_cells=answers % 2 == 1):
        answers += 1
        assert answers < 80
    assert answers >= 2
    wait_text(page, "#s-result", "Cleared|Not cleared")
    game_id = link.split("game=")[1].split("&")[0]
    log = api(url, f"/api/games/{game_id}/log")
    events = [json.loads(line) for line in log.splitlines()]
    from solver.io.catalog import load_catalog
    from solver.io.missionfile import load_mission
    from solver.io.paths import bundled_mission

    catalog = load_catalog()
    assert referee(events, load_mission(bundled_mission("b05"), catalog), catalog) == events[-1]["result"]
    assert events[0]["human"] == [0] and sum(1 for e in events[1:-1] for p in e["plays"] if p["player"] == 0) >= 1
    assert not page.errors and not host.errors


def test_two_people_in_two_browser_contexts_and_a_reload_mid_game(browser, served):
    url, _ = served
    doc = api(url, "/api/games", {"mission": "p03", "players": 3, "human": [0, 2], "policy": "heuristic",
                                  "seed": 4, "game": 1})
    links = {s["seat"]: s["url"] for s in doc["seats"]}
    pages = {}
    for seat, link in links.items():
        context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone each
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e, p=page: p.errors.append(str(e)))
        page.goto(link)
        page.wait_for_selector("#s-head h2")
        moves_at_once(page)
        pages[seat] = page
    reloaded = False
    over = False
    for _ in range(200):
        if over:
            break
        for seat, page in pages.items():
            state = settled(url, f"/api/games/{doc['id']}/seats/{seat}?token={link_token(links[seat])}")
            if state["result"] is not None:
                over = True
                break
            if state["question"] is None:
                continue
            page.wait_for_selector("[data-choice]:not([disabled])", timeout=60_000)
            hand = page.eval_on_selector_all("#s-hand [data-card]", "bs => bs.map(b => b.dataset.card)")
            assert hand == state["hand"]  # its own hand, nothing else
            if not reloaded and state["round"] >= 2:
                page.reload()
                page.wait_for_selector("[data-choice]:not([disabled])", timeout=60_000)
                assert page.is_checked("#s-atonce")  # the choice kept
                assert page.text_content("#s-prompt") == state["question"]["prompt"]  # where it was
                assert page.locator("#s-moves li").count() == len(state["moves"])
                reloaded = True
            page.click("[data-choice='1']:not([disabled])")
            page.wait_for_timeout(100)
    assert over and reloaded
    for page in pages.values():
        page.wait_for_selector("#s-log", timeout=60_000)
        assert not page.errors


def link_token(link: str) -> str:
    return link.split("token=")[1]


def test_the_review_page_shows_the_round_a_known_log_was_lost_in(browser, served, tmp_path):
    url, _ = served
    log = tmp_path / "lost.jsonl"
    res = CliRunner().invoke(main, ["play", "b08", "--policy", "greedy", "--seed", "1", "--log", str(log)])
    assert res.exit_code == 1  # greedy loses this deal
    cli = json.loads(CliRunner().invoke(main, ["review", str(log), "--json"]).stdout)
    assert cli["lost_in"] is not None
    page = open_page(browser, url)
    page.click("#tabs [data-tab=review]")
    page.set_input_files("#r-file", str(log))
    page.click("#r-start")
    page.wait_for_selector("#r-board svg", timeout=180_000)
    assert f"lost in round {cli['lost_in']}" in page.text_content("#r-summary")
    active = page.get_attribute("#r-rounds button.active", "data-round")
    assert active == str(cli["lost_in"]) and "lostround" in page.get_attribute("#r-rounds button.active", "class")
    assert page.locator("#review-chart rect[data-round]").count() == len(cli["rounds"])
    assert page.text_content("#r-round").startswith(f"Round {cli['lost_in']}:")
    costliest = next(r["costliest"] for r in cli["rounds"] if r["round"] == cli["lost_in"])
    if costliest and costliest.get("alternative_cells"):
        assert page.locator("#r-board rect.alternative").count() == len(costliest["alternative_cells"])
    assert not page.errors


def test_a_studio_killed_mid_game_continues_the_game_when_started_again(tmp_path):
    proc, url = start_studio(tmp_path)
    try:
        doc = api(url, "/api/games", {"mission": "b05", "human": [0], "policy": "planner", "seed": 2, "game": 0})
        seat = f"/api/games/{doc['id']}/seats/0?token={doc['seats'][0]['token']}"
        first = settled(url, seat)
        api(url, seat, {"choice": len(first["question"]["choices"]), "question": first["question"]["id"]})
        after = settled(url, seat)
        assert after["question"] is not None
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    proc, url2 = start_studio(tmp_path)
    try:
        listed = {g["id"]: g for g in api(url2, "/api/games")}
        assert listed[doc["id"]]["result"] is None  # unfinished, and listed
        again = settled(url2, seat)
        assert again == after  # the same link, the same moment
        while again["result"] is None:
            api(url2, seat, {"choice": 1, "question": again["question"]["id"]})
            again = settled(url2, seat)
        assert api(url2, f"/api/games/{doc['id']}/log").startswith('{"event": "setup"')
    finally:
        stop(proc)


def test_the_host_page_deals_in_secret_names_people_keeps_its_links_and_forgets_them(browser, served):
    url, _ = served
    host_context = browser.new_context(viewport={"width": 1280, "height": 900})
    host = host_context.new_page()
    host.errors = []
    host.on("pageerror", lambda e: host.errors.append(str(e)))
    host.goto(url)
    host.click("#tabs [data-tab=play]")
    assert not host.is_visible("#g-seed") and host.input_value("#g-seed") == ""  # nothing pre-filled
    assert "secret" in host.text_content("#g-dealmsg")
    host.check("#g-known")
    assert host.is_visible("#g-seed") and "anyone who knows this seed" in host.text_content("#g-dealmsg")
    host.uncheck("#g-known")
    host.select_option("#g-mission", "p03")
    host.select_option("#g-players", "3")
    host.check("#g-seats input[value='1']")
    host.fill("#g-names input[data-seat='0']", "Ann")
    host.fill("#g-names input[data-seat='1']", "Bob")
    host.select_option("#g-policy", "planner")
    host.click("#g-start")
    host.wait_for_selector("#g-links a[data-seat='1']")
    assert "secret deal" in host.text_content("#g-msg")
    stored = host.evaluate("JSON.parse(localStorage.getItem('kakapo-games'))")
    (game_id, seats), = stored.items()
    assert [s["seat"] for s in seats] == [0, 1]
    link = host.get_attribute("#g-links a[data-seat='0']", "href")
    bob_link = host.get_attribute("#g-links a[data-seat='1']", "href")
    bob = f"/api/games/{game_id}/seats/1?token={link_token(bob_link)}"
    # a seat's page, in its own browser, keeps nothing, names the people and labels the bot
    seat_context = browser.new_context(viewport={"width": 390, "height": 844})
    page = seat_context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    sent = []
    page.on("request", lambda r: sent.append(r.post_data) if r.method == "POST" and "/seats/" in r.url else None)
    page.goto(link)
    page.wait_for_selector("#s-head h2")
    head = page.text_content("#s-head")
    assert "Ann" in head and "Bob" in head and "(bot, planner)" in head
    assert page.evaluate("Object.keys(localStorage).length") == 0
    for _ in range(60):  # answer until seat 0's question is answered once by Enter, once by a tap
        page.wait_for_selector("[data-choice]:not([disabled]), #s-log, #s-prompt", timeout=60_000)
        state = api(url, f"/api/games/{game_id}/seats/0?token={link_token(link)}")
        if state["result"] is not None or len(sent) >= 2:
            break
        if state["question"] is None or state["thinking"]:
            other = api(url, bob)
            if other["question"] is not None and not other["thinking"]:  # Bob answers through the API
                api(url, bob, {"choice": 1, "question": other["question"]["id"]})
            page.wait_for_timeout(200)
            continue
        page.wait_for_selector("[data-choice]:not([disabled])", timeout=60_000)
        if not sent:
            page.locator("body").focus()
            page.keyboard.press("Enter")
        else:
            page.click("[data-choice='1']:not([disabled])")
        page.wait_for_timeout(300)
        while api(url, f"/api/games/{game_id}/seats/0?token={link_token(link)}")["thinking"]:
            page.wait_for_timeout(100)
        page.wait_for_timeout(300)
    answers = [json.loads(d) for d in sent if d]
    assert len(answers) >= 2 and all(isinstance(a.get("question"), int) for a in answers)  # always tied
    # the host forgets the links: gone from its storage and its list
    host.click("#tabs [data-tab=play]")
    host.wait_for_selector("#g-list li button")
    host.click("#g-list li button")
    host.wait_for_timeout(300)
    assert host.evaluate("localStorage.getItem('kakapo-games')") == "{}"
    assert host.locator("#g-list a[href*='token=']").count() == 0
    assert not host.errors and not page.errors
