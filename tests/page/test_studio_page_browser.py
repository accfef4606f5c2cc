"""The page as the table, in headless Chromium (Debian's, through Playwright): pieces drawn, a seat's
cards, tap-preview-confirm at phone size, the board telling the state, stale marks, field errors,
the draft after a reload, the share link, the cards gone changing a solve's answer, the review's
decisions equal to the command line's, labels, no sideways scrolling at 390 px, and axe-core."""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, urlparse

import pytest
from click.testing import CliRunner

from solver.cli import main
from tests.helpers.paths import ROOT
from tests.helpers.studio import api, no_sideways_scroll, open_page, serious_violations, wait_text, wait_until
from tests.helpers.tabs import moves_at_once

pytestmark = pytest.mark.slow


def seat_path(link: str) -> str:
    q = {k: v[0] for k, v in parse_qs(urlparse(link).query).items()}
    return f"/api/games/{q['game']}/seats/{q['seat']}?token={q['token']}"


def test_pieces_are_drawn_and_the_catalog_is_chosen_in_the_page(browser, served):
    url, folder = served
    catalog = (ROOT / "missions/pieces.toml").read_text(encoding="utf-8").replace('1 = "#"', '1 = "##"', 1)
    (folder / "copy.toml").write_text(catalog, encoding="utf-8")
    page = open_page(browser, url)
    page.click("[data-tool=piece]")
    page.wait_for_selector("#piece-menu [data-piece='red-1']")
    cli = {p["piece"]: p["cells"] for p in json.loads(CliRunner().invoke(main, ["pieces", "--json"]).stdout)}
    drawn = page.eval_on_selector_all("#piece-menu [data-piece]", "ps => ps.map(p => [p.dataset.piece, "
                                      "p.querySelectorAll('[data-shape-cell]').length])")
    assert dict(drawn) == cli and len(drawn) == 40
    page.wait_for_selector("#catalog option[value='copy.toml']", state="attached")
    page.select_option("#catalog", "copy.toml")
    wait_until(page, "document.querySelectorAll(\"#piece-menu [data-piece='red-1'] [data-shape-cell]\").length === 2")
    assert not page.errors


def test_a_seat_at_phone_size_taps_previews_and_confirms_a_placement(browser, served):
    url, _ = served
    # a known deal (b05, seed 1, game 2), in which seat 0 is asked where a piece goes: a secret
    # deal might end the game before that, and a browser test must never skip in CI
    doc = api(url, "/api/games", {"mission": "b05", "human": [0], "policy": "planner", "names": {"0": "Ann"},
                                  "seed": 1, "game": 2})
    link = doc["seats"][0]["url"]
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    sent = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.method == "POST" and "/seats/" in r.url
            and r.post_data else None)
    page.goto(link)
    page.wait_for_selector("#s-head h2")
    moves_at_once(page)
    for _ in range(60):  # answer with choice 1 until the question is where a piece goes
        state = api(url, seat_path(link))
        if state["result"] is not None:
            pytest.fail("the game ended before a placement was asked")
        if state["question"] and not state["thinking"]:
            page.wait_for_selector("[data-choice]:not([disabled])", timeout=60_000)
            cards = page.eval_on_selector_all("#s-hand [data-card]", "cs => cs.map(c => [c.dataset.card, "
                                              "!!c.querySelector('[data-piece] [data-shape-cell]')])")
            assert [c for c, _ in cards] == state["hand"] and all(drawn for _, drawn in cards)
            if state["question"]["kind"] == "place":
                break
            page.click("[data-choice='1']:not([disabled])")
        page.wait_for_timeout(300)
    q = state["question"]
    assert no_sideways_scroll(page)
    before = len(sent)
    cell = q["legal"][0][0]
    covering = [c for c in q["legal"] if cell in c]
    page.tap(f"#s-board [data-cell={cell}]")
    page.wait_for_selector("#s-board [data-preview]")
    first = sorted(page.eval_on_selector_all("#s-board [data-preview]", "cs => cs.map(c => c.dataset.cell)"))
    assert first in [sorted(c) for c in covering] and cell in first
    if len(covering) > 1:  # another placement: each tap on a cell it covers narrows the preview to it
        target = sorted(next(c for c in covering if sorted(c) != first))
        taps = 1
        while first != target:
            missed = next(c for c in target if c not in first)
            page.tap(f"#s-board [data-cell={missed}]")
            taps += 1
            page.wait_for_timeout(100)
            first = sorted(page.eval_on_selector_all("#s-board [data-preview]", "cs => cs.map(c => c.dataset.cell)"))
            assert cell in first and missed in first  # every cell tapped is covered
            assert taps <= len(target)  # at most the piece's number of cells
    assert len(sent) == before  # nothing sent before the confirm
    page.tap("[data-confirm]")
    page.wait_for_timeout(500)
    assert sorted(sent[-1]["cells"]) == first and sent[-1]["question"] == q["id"]
    game = seat_path(link).split("/seats/")[0].split("/api/games/")[1]
    assert not page.errors
    # the board tells the state: the last placement
    after = api(url, seat_path(link))
    wait_until(page, f"document.querySelectorAll('#s-board [data-last]').length === {len(after['last'])}")
    assert sorted(page.eval_on_selector_all("#s-board [data-last]", "cs => cs.map(c => c.dataset.cell)")) == \
        sorted(after["last"])
    assert game


def test_the_board_marks_scanned_birds_and_the_editor_is_never_stale_or_silent(browser, served, tmp_path):
    url, _ = served
    page = open_page(browser, url)
    page.select_option("#open", "b05")
    wait_text(page, "#problems", "valid")
    page.click("#solve")
    wait_text(page, "[data-result=solve]", "solvable")
    solution = page.text_content("[data-result=solve]")
    # place the solution's pieces: the mission is then cleared, and its birds marked scanned
    page.click("[data-tool=erase]")
    page.click("[data-cell=a1]")  # any change: the answer is for the previous version
    page.wait_for_selector("[data-result=solve][data-stale]")
    assert "for the previous version" in page.text_content("[data-result=solve]")
    page.select_option("#open", "b03")  # another mission: the old answer is gone
    wait_text(page, "#toml", "b03")
    assert page.text_content("[data-result=solve]") == ""
    # a field value that is not allowed: said beside the field, the text keeps the last valid value
    def clear_line():
        return [line for line in page.input_value("#toml").splitlines() if line.startswith("clear")]

    valid = clear_line()
    for bad in ("two", "0"):
        page.get_by_label("Clear", exact=True).fill(bad)
        page.dispatch_event("#f-clear", "change")
        page.wait_for_selector("[data-field-error=clear]:not([hidden])")
        assert clear_line() == valid  # the text keeps the last valid value
    page.get_by_label("Clear", exact=True).fill("1")
    page.dispatch_event("#f-clear", "change")
    page.wait_for_selector("[data-field-error=clear][hidden]", state="attached")
    # scanned: a board whose pre-placed pieces scan bird A
    text = (ROOT / "tests/missions/buddy/b01.toml").read_text(encoding="utf-8")
    cli = json.loads(CliRunner().invoke(main, ["solve", str(ROOT / "tests/missions/buddy/b01.toml"), "--json"]).stdout)
    placed = "".join(f'\n[[placed]]\npiece = "{p["piece"]}"\ncells = {json.dumps(p["cells"])}\n'
                     for p in cli["placements"])
    page.fill("#toml", text.replace('clear = 1', 'clear = "all"') + placed)
    page.dispatch_event("#toml", "input")
    page.wait_for_selector("#board [data-scanned]", timeout=20_000)
    scanned = page.eval_on_selector_all("#board [data-scanned]", "cs => cs.map(c => c.dataset.cell)")
    assert scanned and solution
    assert not page.errors


def test_a_draft_survives_a_reload_and_a_share_link_opens_the_same_mission(browser, served):
    url, _ = served
    context = browser.new_context()
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("[data-cell=l12]")
    page.click("[data-tool=bird]")
    page.click("[data-cell=f6]")
    page.click("[data-tool=r]")
    page.click("[data-cell=f7]")
    wait_text(page, "#toml", "A")
    drawn = page.input_value("#toml")
    page.reload()
    page.wait_for_selector("[data-draft=restore]")
    page.click("[data-draft=restore]")
    wait_until(page, "document.getElementById('toml').value.includes('.....r......')")
    assert page.input_value("#toml") == drawn
    page.click("[data-share]")
    wait_until(page, "document.getElementById('share-url').dataset.shareUrl !== undefined")
    link = page.get_attribute("[data-share-url]", "data-share-url")
    assert link.startswith(url) and "#mission=" in link and "token" not in link
    other = browser.new_context().new_page()  # any browser: the mission travels in the link itself
    other.goto(link)
    wait_until(other, "document.getElementById('toml').value.includes('.....r......')")
    assert other.input_value("#toml") == drawn
    assert not page.errors


def test_the_cards_gone_change_the_answer_and_the_chance_runs(browser, served):
    url, _ = served
    page = open_page(browser, url)
    page.select_option("#open", "b05")
    wait_text(page, "#problems", "valid")
    page.click("#tabs [data-tab=tablestate]")
    page.click("#t-from-editor")
    page.click("#t-solve-btn")
    wait_text(page, "[data-result=table-solve]", "can still be cleared")
    cli = json.loads(CliRunner().invoke(main, ["solve", "b05", "--json"]).stdout)
    used = [p["piece"] for p in cli["placements"]]
    gone = []
    for _ in range(12):  # take away the pieces of every answer found, until none is left
        res = json.loads(CliRunner().invoke(main, ["solve", "b05", "--exclude", ",".join(used), "--json"]).stdout)
        if res["status"] != "solvable":
            break
        used += [p["piece"] for p in res["placements"]]
    for card in used:
        page.click(f"[data-gone='{card}']")
        gone.append(card)
    assert page.get_attribute(f"[data-gone='{gone[0]}']", "aria-pressed") == "true"
    page.click("#t-solve-btn")
    expected = json.loads(CliRunner().invoke(main, ["solve", "b05", "--exclude", ",".join(gone), "--json"]).stdout)
    wait_text(page, "[data-result=table-solve]", "cannot be cleared" if expected["status"] == "unsolvable"
              else "can still be cleared")
    for card in gone:
        page.click(f"[data-gone='{card}']")  # back: none gone
    page.fill("#t-games", "4")
    page.click("#t-chance-btn")
    wait_text(page, "[data-result=chance]", "clears", timeout=180)
    # my hand, tapped: a hand that cannot be held is refused saying why; a whole one is mine in every deal
    mine = ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6", "red-7", "red-8", "yellow-1", "yellow-2",
            "yellow-3", "yellow-4", "yellow-5", "yellow-6", "yellow-7", "yellow-8"]
    page.click(f"[data-hand='{mine[0]}']")
    page.click("#t-chance-btn")
    wait_text(page, "#tc-state", "not started: .*each hand holds 16")
    for card in mine[1:]:
        page.click(f"[data-hand='{card}']")
    assert "16 card(s) in my hand" in page.text_content("#t-handcount")
    page.click("#t-chance-btn")
    wait_text(page, "[data-result=chance]", "clears", timeout=180)
    assert not page.errors


def test_the_review_shows_the_clis_decisions_and_accuracies(browser, served, tmp_path):
    url, _ = served
    log = tmp_path / "lost.jsonl"
    CliRunner().invoke(main, ["play", "b08", "--policy", "greedy", "--seed", "1", "--log", str(log)])
    cli = json.loads(CliRunner().invoke(main, ["review", str(log), "--json"]).stdout)
    page = open_page(browser, url, 390, 844)
    page.click("#tabs [data-tab=review]")
    page.get_by_label("Game log").set_input_files(str(log))
    page.get_by_role("button", name="Review", exact=True).click()
    page.wait_for_selector("[data-decision]", timeout=180_000)  # only the finished review's (the stream: data-judged)
    classes = page.eval_on_selector_all("[data-decision]", "ds => ds.map(d => d.dataset.class)")
    assert classes == [d["class"] for d in cli["decisions"]]
    shown = {int(e[0]): e[1] for e in page.eval_on_selector_all(
        "[data-accuracy]", "as => as.map(a => [a.dataset.seat, a.dataset.accuracy])")}
    assert shown == {s["seat"]: "" if s["accuracy"] is None else str(s["accuracy"]).removesuffix(".0")
                     for s in cli["seats"]}
    if cli["lost_by"]:
        # The page starts the sentence with a capital letter.
        assert cli["lost_by"]["why"].lower() in page.text_content("#r-lostby").lower()
    marks = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    for i, d in enumerate(cli["decisions"]):
        if d["class"] in marks:
            assert f"{d['played']}{marks[d['class']]}" in page.text_content(f"[data-decision='{i}']")
            page.click(f"[data-decision='{i}'] button")
            page.wait_for_selector("#r-board [data-cell]")
            assert f"Round {d['round']}" in page.text_content("#r-round")
            # why, in words and on the board: the reasons the exact puzzle gives
            assert d["reasons"] and d["reasons"][0]["text"] in page.text_content("#r-round")
            cells = {c for r in d["reasons"] for c in r["cells"]}
            drawn = page.eval_on_selector_all("#r-board [data-reason]", "cs => cs.map(c => c.dataset.cell)")
            assert set(drawn) == cells
            break
    assert no_sideways_scroll(page)
    assert not page.errors


def test_labels_phone_width_and_accessibility(browser, served):
    url, _ = served
    page = open_page(browser, url, 390, 844)
    for name in ("Mission file", "Clear", "Rounds"):
        assert page.get_by_label(name, exact=True).count() == 1, name
    assert page.get_by_role("button", name="Solve", exact=True).count() == 1
    assert page.get_by_role("tab", name="Review").count() == 1
    assert no_sideways_scroll(page)
    assert serious_violations(page) == []
    page.click("#tabs [data-tab=review]")
    assert page.get_by_role("button", name="Review", exact=True).count() == 1
    assert no_sideways_scroll(page)
    assert serious_violations(page) == []
    # the keyboard alone: open a mission, solve it
    page.click("#tabs [data-tab=editor]")
    page.focus("#open")
    page.select_option("#open", "b05")
    wait_text(page, "#problems", "valid")
    page.get_by_role("button", name="Solve", exact=True).focus()
    page.keyboard.press("Enter")
    wait_text(page, "[data-result=solve]", "solvable")
    doc = api(url, "/api/games", {"mission": "b05", "human": [0], "policy": "planner"})
    seat = browser.new_page(viewport={"width": 390, "height": 844})
    seat.goto(doc["seats"][0]["url"])
    seat.wait_for_selector("#s-head h2")
    seat.wait_for_timeout(1000)
    assert no_sideways_scroll(seat)
    assert serious_violations(seat) == []
    time.sleep(0)
