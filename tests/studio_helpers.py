"""What the studio's browser tests share: the studio started as a user starts it, headless
Chromium (Debian's) through Playwright, and small waits. In CI (CI=true) a missing browser or
Playwright is a failure, a skip only on a developer's machine."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_interrupts import children_of

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


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid``."""
    out, todo = set(), [pid]
    while todo:
        for c in children_of(todo.pop()):
            out.add(c)
            todo.append(c)
    return out


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
