"""Where the bundled data lives: next to the package in a source checkout (and an editable
install), inside it (``solver/missions``) in a wheel or any other non-editable install."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # solver/


def bundled_missions() -> Path:
    """The folder holding pieces.toml, buddy/ and party/."""
    for candidate in (_PACKAGE / "missions", _PACKAGE.parent / "missions"):
        if (candidate / "pieces.toml").is_file():
            return candidate
    return _PACKAGE.parent / "missions"  # not found: messages then name the expected place


MISSIONS = bundled_missions()
