"""The Record tab at phone width: a simulated 10-round Party game (p03, 4 players, heuristic
players) entered by taps in headless Chromium at 390 x 844 px, as a table would (each card as it
is revealed, the selection, the placement by tapping the cells the preview misses and confirming, each person's
cards left, then Check and save). Counts the taps and times each one in the page, from the tap
to the page drawn again (the studio's answer included for entries; a tap on the board only
previews, in the page); the median, p95 and worst per kind.

    python benchmarks/bench_record_tab.py [--games 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from solver.game.engine import play_game  # noqa: E402
from solver.game.roster import make_policy  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.io.paths import MISSIONS  # noqa: E402
from tests.helpers.games import entries_of  # noqa: E402
from tests.helpers.studio import ARGS, CHROMIUM, start_studio, stop  # noqa: E402

# a tap, then frames until the page shows entry N (or, for a board tap, until the preview is drawn)
TAP = """async ([sel, want]) => {
  const t0 = performance.now();
  document.querySelector(sel).dispatchEvent(new MouseEvent('click', { bubbles: true }));
  const game = document.getElementById('rc-game');
  while (want !== null && game.dataset.entries !== String(want)) await new Promise(r => requestAnimationFrame(r));
  if (want === null) await new Promise(r => requestAnimationFrame(r));
  return performance.now() - t0;
}"""
NAMES = ["Ann", "Ben", "Cat", "Dan"]


def record_one(page, events, times):
    entries, left = entries_of(events)
    page.click("#tabs [data-tab=record]")
    if page.is_visible("#rc-close"):
        page.click("#rc-close")
    page.select_option("#rc-mission", "p03")
    page.select_option("#rc-players", "4")
    for k in range(4):
        page.fill(f"[data-name-seat='{k}']", NAMES[k])
    page.select_option("#rc-leader", str(events[0]["start_player"]))
    page.click("#rc-start")
    page.wait_for_selector("#rc-game:not([hidden])")
    taps = 0
    n = 0

    def tap(sel, kind, want):
        nonlocal taps
        taps += 1
        times.setdefault(kind, []).append(page.evaluate(TAP, [sel, want]))

    for entry in entries:
        if "card" in entry:
            tap(f"[data-rec-card='{entry['card']}']", "card", n + 1)
        elif "pieces" in entry:
            rid = page.get_attribute("#rc-game", "data-recording")
            options = json.loads(page.evaluate(f"fetch('/api/recordings/{rid}').then(r => r.text())"))["options"]
            pick = next(i for i, o in enumerate(options) if o["pieces"] == entry["pieces"])
            tap(f"[data-option='{pick}']", "selection", n + 1)
        else:  # each tap on a cell of the piece that the preview misses narrows the placements
            want = sorted(entry["cells"])
            shown: list[str] = []
            while sorted(shown) != want:
                tap(f"#rc-board [data-cell={next(c for c in want if c not in shown)}]", "board", None)
                shown = page.eval_on_selector_all("#rc-board [data-preview]", "cs => cs.map(c => c.dataset.cell)")
            tap("#rc-confirm", "placement", n + 1)
        n += 1
    for _seat, cards in left.items():
        for c in cards:
            tap(f"[data-rec-card='{c}']", "left card", None)
        if cards:
            tap("#rc-leftok", "left", n + 1)
            n += 1
    t0 = time.perf_counter()
    page.click("#rc-finish")
    page.wait_for_selector("#rc-review:not([hidden])")
    times.setdefault("check and save", []).append(1000 * (time.perf_counter() - t0))
    return taps + 1, sum(1 for e in events if e.get("event") == "round")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    catalog = load_catalog()
    mission = load_mission(MISSIONS / "party/p03.toml", catalog)
    folder = Path(tempfile.mkdtemp())
    proc, url = start_studio(folder)
    times: dict[str, list[float]] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(url)
            page.wait_for_selector("[data-cell=l12]")
            seed, done = args.seed, 0
            while done < args.games:
                events = play_game(mission, catalog, 4, seed, make_policy("heuristic"), log=True).events
                seed += 1
                rounds = sum(1 for e in events if e.get("event") == "round")
                if rounds < 10:
                    continue  # a whole 10-round game
                taps, _ = record_one(page, events, times)
                print(f"game of seed {seed - 1}: {rounds} rounds, {taps} taps ({events[-1]['result']})")
                done += 1
            browser.close()
    finally:
        stop(proc)
    print(f"{platform.node()} {platform.processor() or platform.machine()}, Chromium headless, 390 x 844 px")
    print(f"{'tap':16} {'n':>5} {'median ms':>10} {'p95 ms':>8} {'worst ms':>9}")
    every = []
    for kind, ts in times.items():
        ts = sorted(ts)
        if kind != "check and save":
            every += ts
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        print(f"{kind:16} {len(ts):5d} {statistics.median(ts):10.1f} {p95:8.1f} {ts[-1]:9.1f}")
    every.sort()
    print(f"{'every tap':16} {len(every):5d} {statistics.median(every):10.1f} "
          f"{every[min(len(every) - 1, int(0.95 * len(every)))]:8.1f} {every[-1]:9.1f}")


if __name__ == "__main__":
    main()
