"""What the page holds and what it never leaks, in headless Chromium (Debian's, through Playwright):
off loopback the host's token lives in the tab's sessionStorage and every request's header, never in
the address bar or a cookie, and a browser without it sees a word on how to take a seat, not the
editor; a seat's token leaves the address bar too and a reload finds it; the links handed over come
with their QR code and a copy button; a seat handed to a bot and given back gets a new link; a share
link opens beside the unsaved draft, which is never lost; axe-core on the new panels.

The studio listens on 0.0.0.0 here, but the browser only ever connects to 127.0.0.1. Each test takes
a few seconds: none is marked slow, so the quick tier checks what the page holds too."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.studio import no_sideways_scroll, serious_violations, stop, wait_text, wait_until

pytestmark = pytest.mark.slow  # the full suite (CI runs it): a studio and a browser

HOST_LINK = re.compile(r"http://[^:/]+:(\d+)/\?token=([\w-]+)")


@pytest.fixture(scope="module")
def far(tmp_path_factory):
    """`kakapo studio --host 0.0.0.0`: (base on 127.0.0.1, host token, folder)."""
    folder = tmp_path_factory.mktemp("far")
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--host", "0.0.0.0", "--port", "0",
                             "--no-browser", "--dir", str(folder), "--workers", "2", "--bot-pace", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(folder))
    t0 = time.time()
    line = proc.stdout.readline()
    assert time.time() - t0 < 30, "the studio took too long to serve"
    m = HOST_LINK.search(line)
    assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
    yield f"http://127.0.0.1:{m.group(1)}/", m.group(2), folder
    stop(proc)


def call(base: str, path: str, body: dict | None = None, token: str | None = None, method: str | None = None):
    """The API as a script calls it (the host: ``Authorization: token T``); (status, document)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"token {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path.lstrip("/"), data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            status, text, kind = res.status, res.read().decode(), res.headers.get("content-type", "")
    except urllib.error.HTTPError as e:
        status, text, kind = e.code, e.read().decode(), e.headers.get("content-type", "")
    return status, (json.loads(text) if kind.startswith("application/json") else text)


def here(base: str, link: str) -> str:
    """A link the studio gave (it names the machine's address on the network), on 127.0.0.1."""
    return base + link.split("/", 3)[3]


def new_page(browser, width=1280, height=900):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    return context, page


def drawn_modules(path: str, n: int) -> list[str]:
    """The matrix an SVG path of the page's QR code draws (runs of dark modules), less its quiet zone."""
    grid = [["0"] * n for _ in range(n)]
    runs = re.findall(r"M(\d+) (\d+)h(\d+)v1h-(\d+)z", path)
    assert "".join(f"M{x} {y}h{w}v1h-{w2}z" for x, y, w, w2 in runs) == path
    for x, y, w, _ in runs:
        for i in range(int(w)):
            grid[int(y) - 4][int(x) - 4 + i] = "1"
    return ["".join(row) for row in grid]


def host_page(browser, base, token, width=1280, height=900):
    context, page = new_page(browser, width, height)
    page.sent = []
    page.on("request", lambda r: page.sent.append((r.url, r.headers.get("authorization")))
            if "/api/" in r.url else None)
    page.goto(f"{base}?token={token}")
    page.wait_for_selector("[data-cell=l12]")
    return context, page


def test_the_host_token_stays_out_of_the_address_bar_and_cookies_and_a_guest_sees_no_editor(browser, far):
    base, token, _ = far
    context, page = host_page(browser, base, token)
    assert "token" not in page.url and page.url == base
    assert context.cookies() == []
    assert page.evaluate("sessionStorage.getItem('kakapo-host-token')") == token
    page.wait_for_selector("#open option[value='b05']", state="attached")  # an /api call answered the host
    status, doc = call(base, "/api/status", token=token)
    assert status == 200 and doc["host"] is True and doc["link"] and doc["link"]["qr"]
    page.click("#tabs [data-tab=play]")
    page.wait_for_selector("#g-invite svg[data-qr]")
    qr = doc["link"]["qr"]
    assert page.get_attribute("#g-invite svg[data-qr]", "viewBox") == f"0 0 {len(qr) + 8} {len(qr) + 8}"
    assert drawn_modules(page.get_attribute("#g-invite svg[data-qr] path", "d"), len(qr)) == qr  # 4 white modules round
    assert "host" in page.get_attribute("#g-invite svg[data-qr]", "aria-label")
    assert page.text_content("#g-invite .linkurl") == doc["link"]["url"]
    assert page.is_visible("#g-invite [data-copy]")
    page.click("#g-invite [data-copy]")
    wait_text(page, "#g-invite [role=status]", "copied|selected")
    # a reload keeps the host (this tab's sessionStorage), still without a cookie
    page.reload()
    page.wait_for_selector("[data-cell=l12]")
    page.wait_for_selector("#open option[value='b05']", state="attached")
    assert context.cookies() == [] and "token" not in page.url
    api_calls = [(u, h) for u, h in page.sent if "/events" not in u]
    assert api_calls and all(h == f"token {token}" for _, h in api_calls), api_calls
    assert not page.errors
    # a browser without the token: a word on how to take a seat, nothing of the editor
    guest_context, guest = new_page(browser, 390, 844)
    guest.goto(base)
    guest.wait_for_selector("#nohost:not([hidden])")
    assert "Ask the host for your seat's link" in guest.text_content("#nohost")
    for hidden in ("#editor", "#tabs", "#open", "#play"):
        assert not guest.is_visible(hidden), hidden
    assert guest.locator("[data-cell]").count() == 0
    assert guest_context.cookies() == []
    assert no_sideways_scroll(guest)
    assert serious_violations(guest) == []
    assert not guest.errors


def test_a_seat_link_leaves_the_address_bar_and_a_reload_still_shows_the_seat(browser, far):
    base, token, _ = far
    status, doc = call(base, "/api/games", {"mission": "b05", "human": [0], "policy": "planner", "names": {"0": "Ann"},
                                            "seed": 1, "game": 2}, token=token)
    assert status == 200, doc
    seat = doc["seats"][0]
    assert seat["qr"] and all(set(row) <= {"0", "1"} for row in seat["qr"])
    context, page = new_page(browser, 390, 844)
    page.goto(here(base, seat["url"]))
    page.wait_for_selector("#s-head h2")
    assert page.url == f"{base}?game={doc['id']}&seat=0"
    assert page.evaluate(f"sessionStorage.getItem('kakapo-seat:{doc['id']}:0')") == seat["token"]
    assert context.cookies() == []
    assert "Ann" in page.text_content("#s-head")
    assert page.locator("#s-log, #s-review").count() == 0  # the log only once the game has ended
    page.reload()
    page.wait_for_selector("#s-head h2")
    assert "Ann" in page.text_content("#s-head") and page.url == f"{base}?game={doc['id']}&seat=0"
    assert context.cookies() == [] and not page.errors
    # the same address in another tab (no token kept there) says what is missing
    other = context.new_page()
    other.goto(f"{base}?game={doc['id']}&seat=0")
    wait_text(other, "#s-prompt", "token")
    assert other.locator("[data-cell]").count() == 0


def test_a_seat_handed_to_a_bot_and_given_back_gets_a_new_link_with_its_code(browser, far):
    base, token, _ = far
    status, doc = call(base, "/api/games", {"mission": "b05", "human": [0, 1], "policy": "greedy",
                                            "names": {"0": "Ann", "1": "Bob"}}, token=token)
    assert status == 200, doc
    game = doc["id"]
    _, page = host_page(browser, base, token)
    page.click("#tabs [data-tab=play]")
    row = f"#g-list [data-game='{game}']"
    page.wait_for_selector(f"{row} [data-hand='0']")
    assert page.locator(f"{row} [data-hand]").count() == 2  # each person's seat
    options = page.eval_on_selector(f"{row} [data-hand-policy='0']", "s => [...s.options].map(o => o.value)")
    assert options == page.eval_on_selector("#g-policy", "s => [...s.options].map(o => o.value)")
    page.select_option(f"{row} [data-hand-policy='0']", "greedy")
    page.click(f"{row} [data-hand='0']")
    page.wait_for_selector(f"{row} [data-give-back='0']")
    listed = {g["id"]: g for g in call(base, "/api/games", token=token)[1]}[game]
    seat0 = next(s for s in listed["seats"] if s["seat"] == 0)
    assert seat0["bot"] and seat0["handed"] and seat0["policy"] == "greedy"
    page.click(f"{row} [data-give-back='0']")
    page.wait_for_selector(f"{row} [data-new-link] svg[data-qr]")
    assert page.is_visible(f"{row} [data-new-link] [data-copy]")
    new_link = page.get_attribute(f"{row} [data-new-link] a[data-seat='0']", "href")
    assert "token=" in new_link
    kept = page.evaluate("JSON.parse(localStorage.getItem('kakapo-games'))")[game]
    assert {s["seat"]: s["url"] for s in kept}[0] == new_link
    listed = {g["id"]: g for g in call(base, "/api/games", token=token)[1]}[game]
    assert not next(s for s in listed["seats"] if s["seat"] == 0)["bot"]
    assert page.locator(f"{row} [data-hand='0']").count() == 1  # a person's again: may be handed again
    assert no_sideways_scroll(page)
    assert serious_violations(page) == []
    # the new link opens the seat
    _, seat_page = new_page(browser, 390, 844)
    seat_page.goto(here(base, new_link))
    seat_page.wait_for_selector("#s-head h2")
    assert "Ann" in seat_page.text_content("#s-head") and "token" not in seat_page.url
    assert not page.errors and not seat_page.errors


def test_the_host_downloads_a_finished_games_log_through_a_button(browser, far):
    base, token, _ = far
    status, doc = call(base, "/api/games", {"mission": "b01", "human": [], "policy": "greedy", "players": 2},
                       token=token)
    assert status == 200, doc
    t0 = time.time()
    while True:  # the bots play it in the background
        row = {g["id"]: g for g in call(base, "/api/games", token=token)[1]}[doc["id"]]
        if row["result"] is not None:
            break
        assert time.time() - t0 < 120, row
        time.sleep(0.2)
    context, page = host_page(browser, base, token)
    page.click("#tabs [data-tab=play]")
    button = f"#g-list [data-game='{doc['id']}'] [data-log]"
    page.wait_for_selector(button)
    assert page.locator("#g-list a[href^='/api/']").count() == 0  # no link could carry the header
    with page.expect_download() as got:
        page.click(button)
    text = Path(got.value.path()).read_text(encoding="utf-8")
    assert text.startswith('{"event": "setup"') and got.value.suggested_filename == f"{doc['id']}.jsonl"
    assert context.cookies() == [] and not page.errors


def test_the_links_of_a_game_started_in_the_page_come_with_their_codes(browser, far):
    base, token, _ = far
    _, page = host_page(browser, base, token, 390, 844)
    page.click("#tabs [data-tab=play]")
    page.select_option("#g-mission", "p03")
    page.select_option("#g-players", "3")
    page.check("#g-seats input[value='1']")
    page.fill("#g-names input[data-seat='0']", "Ann")
    page.click("#g-start")
    page.wait_for_selector("#g-links a[data-seat='1']")
    assert page.locator("#g-links svg[data-qr]").count() == 2
    assert page.locator("#g-links [data-copy]").count() == 2
    labels = page.eval_on_selector_all("#g-links svg[data-qr]", "ss => ss.map(s => s.getAttribute('aria-label'))")
    assert "seat 0" in labels[0] and "seat 1" in labels[1]
    assert no_sideways_scroll(page)
    assert serious_violations(page) == []
    assert not page.errors


def share_link(url: str, text: str) -> str:
    return url + "#mission=" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def test_a_share_link_opens_beside_the_draft_which_is_never_lost(browser, served):
    url, _ = served
    context, page = new_page(browser)
    page.goto(url)
    page.wait_for_selector("[data-cell=l12]")
    page.click("[data-tool=bird]")
    page.click("[data-cell=f6]")
    page.click("[data-tool=r]")
    page.click("[data-cell=f7]")
    wait_text(page, "#toml", "A")
    drawn = page.input_value("#toml")
    wait_until(page, "(JSON.parse(localStorage.getItem('kakapo-draft')) || {}).text === "
               "document.getElementById('toml').value")
    shared = (ROOT / "tests/missions/buddy/b01.toml").read_text(encoding="utf-8")
    other = context.new_page()  # the same browser: the same localStorage
    other.errors = []
    other.on("pageerror", lambda e: other.errors.append(str(e)))
    other.goto(share_link(url, shared))
    other.wait_for_selector("#draft [data-draft=restore]")
    assert other.input_value("#toml") == shared
    assert other.evaluate("JSON.parse(localStorage.getItem('kakapo-draft')).text") == drawn  # untouched
    # an edit of the shared mission: the old draft is set aside, still offered
    other.click("[data-tool=bird]")
    other.click("[data-cell=a1]")
    wait_until(other, "(JSON.parse(localStorage.getItem('kakapo-draft')) || {}).text === "
               "document.getElementById('toml').value")
    edited = other.input_value("#toml")
    assert edited != shared
    kept = other.evaluate("JSON.parse(localStorage.getItem('kakapo-drafts-kept'))")
    assert [k["text"] for k in kept] == [drawn]
    assert other.locator("#draft [data-draft=restore]").count() == 1
    assert serious_violations(other) == []
    other.click("#draft [data-draft=restore]")
    wait_until(other, f"document.getElementById('toml').value === {json.dumps(drawn)}")
    # and the edited shared mission is offered in its turn: nothing drawn is lost
    other.wait_for_selector("#draft [data-draft=restore]")
    kept = other.evaluate("JSON.parse(localStorage.getItem('kakapo-drafts-kept'))")
    assert [k["text"] for k in kept] == [edited]
    other.click("#draft [data-draft=discard]")
    other.wait_for_selector("#draft", state="hidden")
    assert other.evaluate("JSON.parse(localStorage.getItem('kakapo-drafts-kept'))") == []
    assert other.evaluate("JSON.parse(localStorage.getItem('kakapo-draft')).text") == drawn
    assert not page.errors and not other.errors
