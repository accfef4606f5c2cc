"""The ladder in plain words, in a real browser (`GET /api/jobs`, as
docs/studio.md says): a job's result says what it means, the page lists the studio's jobs after a reload
(data-job, data-state) and shows a finished one's result; the ladder's curve writes each rung's
value and gives its interval on hover, tap or the keyboard, readable at phone width; the campaign
line says one thing. Headless Chromium (Debian's) through Playwright; in CI these must run."""

from __future__ import annotations

import time

import pytest

from solver.studio.jobqueue import result_words
from tests.helpers.studio import open_page, wait_text

pytestmark = pytest.mark.slow  # a studio and a job in its worker: a few seconds

# a ladder's document as `kakapo ladder --json` writes it (made up: the chart draws what it is given)
LADDER = {
    "mission": "b07", "players": 2, "games": 40, "seed": 1,
    "rungs": [{"policy": p, "samples": s, "games": 40, "cleared": c, "clearable": 38, "clear_rate": c / 40,
               "ci95": [max(0.0, c / 40 - 0.12), min(1.0, c / 40 + 0.08)]}
              for p, s, c in [("greedy", None, 2), ("heuristic", None, 20), ("planner", None, 30), ("search", 2, 31),
                              ("search", 4, 33), ("search", 8, 34), ("search", 16, 36), ("search", 32, 40),
                              ("search", 64, 40)]],
    "ceiling": {"clearable": 38, "undecided": 0, "clear_rate": 0.95},
    "difficulty": {"name": "shortfall", "value": 0.213,
                   "campaign": {"harder_than": 6, "of": 19, "between": ["b06", "b08"], "source": None},
                   "campaign_text": "between b06 and b08 (harder than 6 of 19 bundled missions)"},
}

DRAW = """async (job) => {
  const { showResult } = await import("/static/results.js");
  const box = document.getElementById("j-result");
  showResult(box, job, document.getElementById("curve"));
  document.getElementById("curve").scrollIntoView();
  return box.textContent;
}"""


def test_a_job_listed_after_a_reload_and_its_result_in_plain_words(browser, served):
    url, _ = served
    page = open_page(browser, url)
    page.select_option("#open", "b05")
    wait_text(page, "#problems", "valid")
    page.select_option("#j-kind", "simulate")
    assert "many games" in page.text_content("#j-kind-about")  # the job explained beside its menu
    page.fill("#j-games", "12")
    page.click("#j-start")
    t0 = time.time()
    while page.get_attribute("#j-state", "data-state") not in ("done", "failed", "cancelled"):
        assert time.time() - t0 < 120, page.text_content("#j-state")
        page.wait_for_timeout(100)
    assert page.get_attribute("#j-state", "data-state") == "done", page.text_content("#j-state")
    said = page.text_content("#j-result [data-meaning=simulate]")
    assert said.startswith("What it means: a table playing like heuristic") and "of 12" not in said
    assert page.get_attribute("#j-result a.glossary-link", "href") == "/glossary#clear-rate"
    page.reload()
    page.wait_for_selector("[data-cell=l12]")
    page.wait_for_selector("#jh-list [data-job][data-state=done]")
    jobs = page.query_selector_all("#jh-list [data-job]")
    assert len(jobs) == 1 and "simulate of Short night" in jobs[0].text_content()
    page.focus("#jh-list [data-job] button")  # keyboard: the list's buttons
    page.keyboard.press("Enter")
    wait_text(page, "#jh-result", "What it means: a table playing like heuristic")
    assert "clears" in page.text_content("#jh-result .figure")
    # a running job: listed as running after a reload, followed, and cancelled from the list
    page.select_option("#open", "b05")
    wait_text(page, "#problems", "valid")
    page.select_option("#j-kind", "simulate")
    page.fill("#j-games", "50000")
    page.click("#j-start")
    wait_text(page, "#j-state", "running")
    page.reload()
    page.wait_for_selector("[data-cell=l12]")
    running = page.wait_for_selector("#jh-list [data-job][data-state=running]")
    listed = [li.get_attribute("data-job") for li in page.query_selector_all("#jh-list [data-job]")]
    assert len(listed) == 2 and listed[0] == running.get_attribute("data-job")  # newest first
    running.query_selector("button").click()
    wait_text(page, "#jh-state", "running")
    page.click("#jh-cancel")
    page.wait_for_selector("#jh-list [data-job][data-state=cancelled]")
    wait_text(page, "#jh-state", "cancelled")
    # the policies explained where they are chosen, with the glossary a click away
    page.click("[data-tab=play]")
    page.select_option("#g-policy", "greedy")
    assert "weakest" in page.text_content("#g-policy-about")
    assert page.get_attribute("#g-policy-words", "href").startswith("/glossary#")
    assert page.errors == []
    glossary = browser.new_page()
    glossary.goto(url + "glossary")
    assert glossary.text_content("#shortfall") == "shortfall" and "open hands" in glossary.text_content("dl")


@pytest.mark.parametrize("width", [390, 1280])
def test_the_curve_writes_each_value_and_its_interval(browser, served, width):
    url, _ = served
    page = open_page(browser, url, width=width, height=800)
    # a finished ladder job as GET /api/jobs/ID answers it: its result and its words (the server's)
    text = page.evaluate(DRAW, {"kind": "ladder", "result": LADDER, "words": result_words("ladder", LADDER)})
    # the campaign line says one thing
    assert "between" not in text
    assert "in the campaign: harder than 6 of the 19 other bundled missions for 2 players, just after b06" in text
    assert "loses about 21 in 100 of the deals that can be won" in text and "95 %" in text
    points = page.query_selector_all("#ladder-curve g.point")
    assert len(points) == 9
    values = [p.query_selector("text.value").text_content().replace(" ", "") for p in points]
    assert values == ["5%", "50%", "75%", "78%", "83%", "85%", "90%", "100%", "100%"]  # "100%" at phone width
    title = points[6].query_selector("title").text_content()
    assert title == "search-16: wins 90 % of 40 deals (95 % interval 78 % to 98 %)"
    points[1].query_selector("circle").click()  # a tap says the point's interval under the curve
    assert page.text_content(".curvepoint") == "heuristic: wins 50 % of 40 deals (95 % interval 38 % to 58 %)"
    points[2].focus()  # and so does the keyboard
    assert page.text_content(".curvepoint").startswith("planner: wins 75 %")
    # readable: inside the page, the words no smaller than 9 px on screen, no two of them overlapping
    svg = page.query_selector("#ladder-curve").bounding_box()
    assert svg["x"] >= 0 and svg["x"] + svg["width"] <= width
    boxes = page.eval_on_selector_all("#ladder-curve g.point text.value", """els => els.map(e => {
        const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, r.height]; })""")
    assert min(b[4] for b in boxes) >= 9, boxes
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    names = page.eval_on_selector_all("#ladder-curve g.point text:not(.value)",
                                      "els => els.map(e => e.getBBox().height)")
    assert min(names) * svg["width"] / float(page.get_attribute("#ladder-curve", "viewBox").split()[2]) >= 9
    assert page.errors == []
