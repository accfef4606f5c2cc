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


def bundled_mission(mission_id: str) -> Path | None:
    """The bundled mission file with this id (``b01``, ``p15``), or None."""
    if not mission_id or "/" in mission_id or "\\" in mission_id or mission_id.startswith("."):
        return None
    for folder in ("buddy", "party"):
        p = MISSIONS / folder / f"{mission_id}.toml"
        if p.is_file():
            return p
    return None


def mission_path(arg: str | Path) -> Path:
    """What a MISSION argument names: a file, else a bundled mission's id (the file is then checked
    and reported missing by the reader)."""
    p = Path(arg)
    if p.exists():
        return p
    return bundled_mission(str(arg)) or p
