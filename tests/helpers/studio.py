"""What the studio's browser tests share: the studio started as a user starts it (and asked over
HTTP), headless Chromium (Debian's) through Playwright, small waits, and what a page must hold at any
width (no sideways scroll, no serious accessibility violation). In CI (CI=true) a missing browser,
Playwright or axe is a failure, a skip only on a developer's machine."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

IN_CI = os.environ.get("CI") == "true"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def need_browser():
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if IN_CI:
            pytest.fail("playwright is not installed: CI must run the browser tests")
        pytest.skip("playwright is not installed")
    if CHROMIUM is None:
        if IN_CI:
            pytest.fail("chromium is not installed: CI must run the browser tests")
        pytest.skip("chromium is not installed")


def start_studio(folder: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser",
                             "--dir", str(folder), "--workers", "2", "--bot-pace", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(folder))
    t0 = time.time()
    line = proc.stdout.readline()
    # 10x the measured start (about 3 s on a quiet machine, benchmarks/RESULTS.md): a hang, not a slow machine
    assert time.time() - t0 < 30, "the studio took too long to serve"
    m = re.match(r"^kakapo studio: (http://127\.0\.0\.1:\d+/)$", line.strip())
    assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc, m.group(1)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=8)
        except subprocess.TimeoutExpired:
            proc.kill()


def open_page(browser, url, width=1280, height=900):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.goto(url)
    page.wait_for_selector("[data-cell=l12]")
    return page


def wait_text(page, selector, pattern, timeout=30):
    def read():
        return page.input_value(selector) if selector == "#toml" else page.text_content(selector) or ""

    t0 = time.time()
    while time.time() - t0 < timeout:
        text = read()
        if re.search(pattern, text):
            return text
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector}: {pattern!r} not seen; it says {read()!r}")


def api(url: str, path: str, body: dict | None = None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path.lstrip("/"), data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as res:
        text = res.read().decode()
        kind = res.headers.get("content-type", "")
    return json.loads(text) if kind.startswith("application/json") else text


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def serious_violations(page) -> list[str]:
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        if IN_CI:
            pytest.fail("axe-playwright-python is not installed: CI must check the page's accessibility")
        pytest.skip("axe-playwright-python is not installed")
    results = Axe().run(page)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in results.response["violations"]
            if v["impact"] in ("critical", "serious")]


def wait_until(page, js: str, timeout: float = 30) -> None:
    """Until ``js`` (an expression) is true on the page (polled: the page's CSP forbids eval)."""
    t0 = time.time()
    while not page.evaluate(js):
        assert time.time() - t0 < timeout, f"not seen: {js}"
        page.wait_for_timeout(100)
