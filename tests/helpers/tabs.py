"""The page's tabs driven as a person drives them: the Record tab's taps, the header's Catalog
menu, the Pieces tab's editor, and the seat's choice to see the others' moves at once."""

from __future__ import annotations

import time

from tests.helpers.studio import wait_until

RED_5_PIECE = "[data-edit-piece='red-5']"  # red-5 in the Pieces tab


def wait_entries(page, n, timeout=20):
    t0 = time.time()
    while time.time() - t0 < timeout:
        if page.get_attribute("#rc-game", "data-entries") == str(n):
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"the page did not reach entry {n}: {page.text_content('#rc-error')!r}")


def tap_placement(page, cells):
    """Tap the cells of the placement that the preview misses, as a person would, until the
    preview is that placement (each tap narrows the placements to those covering every cell
    tapped), then confirm; the taps it took: never more than the piece's cells."""
    want = sorted(cells)
    shown: list[str] = []
    taps = 0
    while sorted(shown) != want:
        cell = next(c for c in want if c not in shown)
        page.click(f"#rc-board [data-cell={cell}]")
        taps += 1
        shown = page.eval_on_selector_all("#rc-board [data-preview]", "cs => cs.map(c => c.dataset.cell)")
        tapped = page.eval_on_selector_all("#rc-board [data-tapped]", "cs => cs.map(c => c.dataset.cell)")
        assert set(tapped) <= set(shown) and cell in tapped, (tapped, shown)
        assert taps <= len(want), (want, shown)
    page.click("#rc-confirm")
    return taps


def use_catalog(page, file: str) -> None:
    """Choose it in the header's Catalog menu, and wait until the page has read it back."""
    with page.expect_response(lambda r: r.url.endswith("/api/pieces")):
        page.select_option("#catalog", file)


def pressed(page) -> list[str]:
    return sorted(page.eval_on_selector_all("#pc-grid [data-shape-toggle][aria-pressed=true]",
                                            "cs => cs.map(c => c.dataset.shapeToggle)"))


def open_pieces(page) -> None:
    page.click("[data-tab=pieces]")
    page.wait_for_selector(f"{RED_5_PIECE} [data-shape-cell]")
    wait_until(page, "document.querySelector('#pc-problems li.ok') !== null")


def moves_at_once(page):
    """The seat's choice to see the others' moves at once (its default shows one every 0.45 s, so
    that a person can follow them: minutes of waiting in a test), kept in the browser."""
    assert not page.is_checked("#s-atonce")
    page.check("#s-atonce")
    assert page.evaluate("localStorage.getItem('kakapo-moves-at-once')") == "1"

