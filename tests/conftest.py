import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.io.catalog import load_catalog  # noqa: E402

# The files whose tests run longest (a test of half a minute or more from a fresh clone), handed out
# first: pytest-xdist gives tests to its workers in collection order, and a long test started last
# kept one core busy while the other had nothing left to do. A file stays whole (module fixtures).
LONG_FIRST = ("analysis/test_cluster.py", "runtime/test_numba_cache.py", "page/test_studio_table_browser.py",
              "analysis/test_review.py", "openhand/test_witness.py", "analysis/test_cluster_faults.py",
              "game/test_search.py", "game/test_hidden_info.py", "game/test_engines.py", "analysis/test_generate.py",
              "game/test_resume.py", "page/test_studio_browser.py", "analysis/test_rate.py",
              "analysis/test_difficulty.py", "page/test_studio_page_browser.py")  # paths under tests/


def under_tests(path: Path) -> str:
    """``path`` as LONG_FIRST names it (relative to tests/; "" for a file elsewhere)."""
    try:
        return path.relative_to(ROOT / "tests").as_posix()
    except ValueError:
        return ""


def pytest_collection_modifyitems(session, config, items):
    rank = {path: i for i, path in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(under_tests(item.path), len(LONG_FIRST)))  # stable: in-file order kept


@pytest.fixture(scope="session")
def catalog():
    return load_catalog()


@pytest.fixture
def write(tmp_path):
    """Write a text file into a temp folder and return its path."""

    def _write(name: str, text: str) -> Path:
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return p

    return _write


@pytest.fixture
def load(write, catalog):
    """Mission text -> Mission (through the real parser)."""
    from solver.io.missionfile import load_mission

    counter = iter(range(10**6))

    def _load(text: str, name: str | None = None):
        return load_mission(write(name or f"m{next(counter)}.toml", text), catalog)

    return _load


# ---------------------------------------------------------------- the studio in a browser
@pytest.fixture(scope="session")
def chromium():
    """Headless Chromium (Debian's) through Playwright (tests/helpers/studio.py), one per test process."""
    from tests.helpers.studio import ARGS, CHROMIUM, need_browser

    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def browser(chromium):
    """The test's browser: its pages live in contexts of their own, closed after the test."""
    yield chromium
    for context in list(chromium.contexts):
        context.close()


@pytest.fixture
def served(tmp_path):
    """`kakapo studio` on a free port serving tmp_path: (url, folder)."""
    from tests.helpers.studio import start_studio, stop

    proc, url = start_studio(tmp_path)
    yield url, tmp_path
    stop(proc)
