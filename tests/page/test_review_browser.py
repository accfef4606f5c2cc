"""The Review tab shows why in the cards, in headless Chromium: the losing decision of a game lost in
the cards circles the cards its reason names (each with who held it) and outlines the pieces
where the clear would have put them, as the review's exact model of the deal says."""

from __future__ import annotations

import pytest

from solver.analysis.review import _round_moves, describe
from solver.analysis.review_deal import deal_reason, find_turn
from tests.helpers.golden import CARDS, game, moments, words
from tests.helpers.studio import open_page

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_losing_decision_circles_the_cards_and_pieces_its_reason_names(browser, served, catalog, width, height):
    url, _ = served
    _, _, final, _ = game("p11-4-lead", catalog)
    ms = moments("p11-4-lead", catalog, 8)
    turn = find_turn(ms[0], _round_moves(final)[7], len(ms[0].moves))
    assert turn is not None
    played = describe(ms[turn.move - len(ms[0].moves)], turn.action)
    reason = deal_reason(turn, words, played)
    assert reason is not None
    page = open_page(browser, url, width, height)
    page.click("#tabs [data-tab=review]")
    page.get_by_label("Game log").set_input_files(str(CARDS / "p11-4-lead.jsonl"))
    page.get_by_role("button", name="Review", exact=True).click()
    page.wait_for_selector("[data-decision]", timeout=180_000)
    shown = page.eval_on_selector_all("[data-decision]", "ds => ds.map(d => [d.dataset.decision, d.textContent])")
    index = next(i for i, text in shown if f"round {turn.round}," in text and f"revealed {played}" in text)
    page.click(f"[data-decision='{index}'] button")
    page.wait_for_selector("#r-reason-cards [data-reason-card]")
    assert reason["text"] in page.text_content("#r-round")
    cards = page.eval_on_selector_all("#r-reason-cards [data-reason-card]",
                                      "cs => cs.map(c => [c.dataset.reasonCard, c.dataset.seat, c.dataset.where, "
                                      "c.textContent])")
    assert [(c, s, w) for c, s, w, _ in cards] == [(c["card"], str(c["seat"]), c["where"]) for c in reason["cards"]]
    assert all(c["held"] in text for c, (_, _, _, text) in zip(reason["cards"], cards, strict=True))
    drawn = {p: n for p, n in page.eval_on_selector_all(
        "#r-board [data-reason-piece]", "gs => gs.map(g => [g.dataset.reasonPiece, g.children.length])")}
    assert drawn == {p["piece"]: len(p["cells"]) for p in reason["pieces"]}
    circled = page.eval_on_selector_all("#r-board [data-reason]", "cs => cs.map(c => c.dataset.cell)")
    assert set(circled) == set(reason["cells"])
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    # another round shows no cards of a reason
    page.click(f"#r-rounds [data-round='{turn.round - 1}']")
    assert page.eval_on_selector_all("#r-reason-cards [data-reason-card]", "cs => cs.length") == 0
    assert not page.errors
