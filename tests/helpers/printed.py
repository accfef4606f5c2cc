"""Printed pages read back as a person and a program would read them, by poppler's tools
(poppler-utils; CI installs them, so there a missing one fails)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

IN_CI = os.environ.get("CI") == "true"


def poppler(tool: str) -> str:
    """A poppler tool (poppler-utils); CI installs them, so there a missing one fails."""
    found = shutil.which(tool)
    if found is None:
        if IN_CI:
            pytest.fail(f"{tool} is missing: CI installs poppler-utils (.ci/run)")
        pytest.skip(f"{tool} (poppler-utils) is not installed")
    return found


def pdf_text(pdf: Path, layout: bool = True) -> str:
    args = [poppler("pdftotext"), *(["-layout"] if layout else []), str(pdf), "-"]
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=60).stdout

