"""Where the tests find the project: the checkout, and the test data beside the tests."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout (tests/helpers/ is two floors down)
TESTS = ROOT / "tests"
GOLDEN = TESTS / "golden"  # answers checked by hand, compared byte for byte
