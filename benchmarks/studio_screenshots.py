"""Screenshots of the studio for the README (docs/studio-*.png), made by a script, not by hand:
a studio is started on an empty folder, a bundled mission opened, solved and its ladder run; the
table in front of you with cards gone; a game started from the Play tab, a seat's page mid-game
(desktop, and a phone with a placement previewed), and the review of a lost game on the board
(desktop and phone).

    python benchmarks/studio_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--mission", default="b12")
    args = ap.parse_args()
    out = Path(args.out)
    folder = Path(tempfile.mkdtemp())
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser",
                             "--dir", str(folder)], stdout=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+", proc.stdout.readline()).group(0)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(url)
            page.wait_for_selector("[data-cell=a1]")
            page.select_option("#open", args.mission)
            page.wait_for_selector("#problems li")
            page.click("#solve")
            page.wait_for_selector("#solution[data-status]", timeout=60000)
            page.select_option("#j-kind", "ladder")
            page.fill("#j-games", "40")
            page.click("#j-start")
            page.wait_for_selector("#j-state[data-state=done]", timeout=600000)
            page.screenshot(path=str(out / "studio-solve-ladder.png"), full_page=True)
            page.click("[data-tool=g]")
            page.click("[data-cell=a1]")
            page.wait_for_selector("#problems li.error")
            page.screenshot(path=str(out / "studio-error.png"), clip={"x": 0, "y": 0, "width": 1280, "height": 760})
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.goto(url)
            phone.wait_for_selector("[data-cell=a1]")
            phone.screenshot(path=str(out / "studio-phone.png"))
            # the table in front of you: the board mid-game, cards gone, the exact answer
            page.click("#undo")  # the mission again, without the error
            page.wait_for_selector("#problems[data-valid=true]")
            page.click("#tabs [data-tab=tablestate]")
            page.click("#t-from-editor")
            for card in ("red-3", "red-7", "blue-2", "red-1"):
                page.click(f"[data-gone='{card}']")
            page.click("#t-solve-btn")
            for _ in range(600):
                if page.text_content("#t-solve") not in ("", "solving…"):
                    break
                page.wait_for_timeout(100)
            print("table:", page.text_content("#t-solve"))
            page.screenshot(path=str(out / "studio-table.png"), full_page=True)
            # the Play tab: a game with a person and a bot, seat 0's page mid-game
            page.click("#tabs [data-tab=play]")
            page.select_option("#g-mission", "b08")
            page.select_option("#g-policy", "planner")
            page.click("#g-start")
            page.wait_for_selector("#g-links a[data-seat='0']")
            link = page.get_attribute("#g-links a[data-seat='0']", "href")
            seat = browser.new_page(viewport={"width": 1280, "height": 800})
            seat.goto(link)
            placing = False
            for _ in range(40):  # play choice 1 until the question is where a piece goes
                seat.wait_for_selector("[data-choice]:not([disabled]), #s-log", timeout=60000)
                if seat.query_selector("#s-log"):
                    break
                if seat.is_visible("[data-confirm]"):
                    placing = True
                    break
                seat.click("[data-choice='1']:not([disabled])")
                seat.wait_for_timeout(400)
            seat.check("#s-advice")
            seat.screenshot(path=str(out / "studio-seat.png"))
            seat_phone = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
            seat_phone.goto(link)
            seat_phone.wait_for_selector("[data-choice]:not([disabled]), #s-log", timeout=60000)
            if placing:  # a tap on the board: the placement previewed, waiting for the confirm
                first = seat_phone.eval_on_selector("[data-choice='1']", "b => b.textContent.split(' ')[0]")
                seat_phone.tap(f"#s-board [data-cell={first}]")
                seat_phone.wait_for_selector("#s-board [data-preview]")
            seat_phone.screenshot(path=str(out / "studio-seat-phone.png"), full_page=True)
            # the review of a lost game (greedy bots on b08, seed 1), a decision shown on the board
            log = folder / "lost.jsonl"
            subprocess.run([sys.executable, "-m", "solver.cli", "play", "b08", "--policy", "greedy", "--seed", "1",
                            "--log", str(log)], capture_output=True, check=False)
            page.click("#tabs [data-tab=review]")
            page.set_input_files("#r-file", str(log))
            page.click("#r-start")
            page.wait_for_selector("[data-decision]", timeout=300000)
            worst = page.query_selector("[data-class=blunder] button, [data-class=mistake] button")
            if worst:
                worst.click()
            page.screenshot(path=str(out / "studio-review.png"), full_page=True)
            review_phone = browser.new_page(viewport={"width": 390, "height": 844})
            review_phone.goto(url)
            review_phone.wait_for_selector("[data-cell=a1]")
            review_phone.click("#tabs [data-tab=review]")
            review_phone.set_input_files("#r-file", str(log))
            review_phone.click("#r-start")
            review_phone.wait_for_selector("[data-decision]", timeout=300000)
            review_phone.screenshot(path=str(out / "studio-review-phone.png"), full_page=False)
            browser.close()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
    time.sleep(0.1)
    print("\n".join(str(p) for p in sorted(out.glob("studio-*.png"))))


if __name__ == "__main__":
    main()
