"""The libraries shipped with kakapo: the planner's and the deal solver's for every bundled mission
and table size, so that a fresh install does not build them (puzzle/librarystore.py reads them).

``python -m solver.analysis.libraries`` builds them (minutes, once) and writes the missing ones to
``missions/libraries``, removing those that the code no longer reads; run it after a change to the
code that builds libraries (tests/puzzle/test_librarystore.py says when).
"""

from __future__ import annotations

import sys
from pathlib import Path

from solver.core.rules import Mission
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.io.paths import bundled_missions
from solver.puzzle import librarystore


def wanted(catalog=None) -> list[tuple[Mission, str]]:
    """(mission, kind) of every library to ship: the planner's, and the deal solver's per table size."""
    catalog = catalog or load_catalog()
    out: list[tuple[Mission, str]] = []
    for path in sorted(bundled_missions().glob("*/*.toml")):
        mission = load_mission(path, catalog)
        out.append((mission, librarystore.PLANNER))
        out += [(mission, f"deal-{n}") for n in mission.player_counts()]
    return out


def ship(say=print) -> list[Path]:
    """Build what is missing (through the code that uses them) and write it; remove stale files."""
    from solver.game.planner import planner_library  # heavy: Numba and OR-Tools, only to build
    from solver.openhand.deal import DealSolver  # heavy: Numba and OR-Tools, only to build

    catalog = load_catalog()
    written = []
    for mission, kind in wanted(catalog):
        target = librarystore.shipped_path(mission, catalog, kind)
        if not target.is_file():
            if kind == librarystore.PLANNER:
                planner_library(mission, catalog)
            else:
                DealSolver(mission, catalog, int(kind.split("-")[1])).library  # noqa: B018  (builds and stores it)
            sols = librarystore.load(mission, catalog, kind)
            if sols is None:  # not stored: a puzzle not proven within its budget is never stored
                say(f"{mission.id} {kind}: not stored, not shipped")
                continue
            librarystore.write_shipped(mission, catalog, sols, kind)
            say(f"{mission.id} {kind}: {len(sols)} solutions")
        written.append(target)
    folder = bundled_missions() / "libraries"
    for old in sorted(set(folder.glob("*.json.gz")) - set(written)):
        old.unlink()
        say(f"removed {old.name} (for code or missions as they were)")
    return written


if __name__ == "__main__":
    sys.exit(0 if ship() else 1)
