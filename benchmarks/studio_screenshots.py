"""Screenshots of the studio for the README (docs/studio-*.png), made by a script, not by hand:
a studio is started on an empty folder, a bundled mission opened, solved and its ladder run.

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
            browser.close()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
    time.sleep(0.1)
    print("\n".join(str(p) for p in sorted(out.glob("studio-*.png"))))


if __name__ == "__main__":
    main()
