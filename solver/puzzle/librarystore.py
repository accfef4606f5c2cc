"""The planner's solution library on disk: built once per mission and catalog, then read by every
later run, report task and worker (``planner.planner_library`` asks here first).

A file under ``cache_root()/libraries`` is named after a digest of what determines the library:
the mission's content (not its id, name or story), the catalog's shapes, and the sources of the
code that builds it. It is never trusted: a file that cannot be read, says it is for another
key, or holds a solution that breaks a rule or does not clear the mission is ignored, and the
library is built again and the file written again. Writes go to a temporary file that replaces
the old one, so a reader never sees half a file.

The bundled missions' libraries also ship with kakapo (``missions/libraries/KEY.json.gz``, read
when the cache has none, trusted no more than the cache): a fresh install does not spend seconds
a mission building them. ``python -m solver.analysis.libraries`` writes them again after a change
to the code that builds them (a test says when).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import tempfile
from pathlib import Path

from solver.core.errors import KakapoError
from solver.core.rules import Mission, Placement, check_placements
from solver.io.paths import bundled_missions
from solver.puzzle.solution import Solution
from solver.runtime.cachedir import PACKAGE, cache_root

FORMAT = 1
# every file whose code decides what the library holds
SOURCES = ("core", "puzzle/library.py", "puzzle/coversearch.py", "puzzle/cpsat.py", "runtime/bits.py",
           "game/weights.py", "game/planner.py")


def _code_stamp() -> str:
    h = hashlib.sha256()
    for name in SOURCES:
        p = PACKAGE / name
        for f in sorted(p.glob("*.py")) if p.is_dir() else [p]:
            h.update(f.relative_to(PACKAGE).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


CODE_STAMP = _code_stamp()


PLANNER = "planner"  # the planner's library (its smallest solutions); the deal solver's is "deal-N" (N players)


def library_key(mission: Mission, catalog, kind: str = PLANNER) -> str:
    content = (mission.mode, mission.clear, mission.clear_all, mission.rounds, mission.skills, mission.birds,
               mission.marks, mission.placed)
    h = hashlib.sha256(repr((FORMAT, CODE_STAMP, kind, content, catalog.key)).encode())
    return h.hexdigest()[:32]


def library_path(mission: Mission, catalog, kind: str = PLANNER) -> Path:
    return cache_root() / "libraries" / f"{library_key(mission, catalog, kind)}.json"


def shipped_path(mission: Mission, catalog, kind: str = PLANNER) -> Path:
    return bundled_missions() / "libraries" / f"{library_key(mission, catalog, kind)}.json.gz"


def load(mission: Mission, catalog, kind: str = PLANNER) -> tuple[Solution, ...] | None:
    """The stored library (the cache's, else the one shipped), or None when there is none that can be trusted."""
    found = _read(library_path(mission, catalog, kind), mission, catalog, kind)
    if found is None:
        found = _read(shipped_path(mission, catalog, kind), mission, catalog, kind)
    return found


def _read(path: Path, mission: Mission, catalog, kind: str) -> tuple[Solution, ...] | None:
    try:
        if not path.is_file():
            return None
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        doc = json.loads(raw.decode("utf-8"))
        if doc.get("key") != library_key(mission, catalog, kind):
            return None  # another mission's or another code's file under this name
        sols = []
        for entry in doc["solutions"]:
            placements = tuple(Placement.parse(p["piece"], p["cells"]) for p in entry)
            _, scanned = check_placements(mission, catalog, placements)
            if len(scanned) < mission.clear:
                return None
            cards = 0
            for p in placements:
                cards |= 1 << p.card.index
            sols.append(Solution(placements, cards))
        return tuple(sols)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError, KakapoError):
        return None


def _document(mission: Mission, catalog, solutions, kind: str) -> dict:
    return {"key": library_key(mission, catalog, kind), "mission": mission.id, "kind": kind,
            "solutions": [[p.to_json() for p in s.placements] for s in solutions]}


def document(mission: Mission, catalog, solutions, kind: str = PLANNER) -> dict:
    """The library as the cache keeps it: what a cluster's workers are given (``install``)."""
    return _document(mission, catalog, solutions, kind)


_INSTALLED: set[str] = set()  # the libraries this process has installed or found in its cache


def install(mission: Mission, catalog, doc: dict, kind: str = PLANNER) -> None:
    """Keep a library another process built (``document``) in this machine's cache, unless a good
    one is there already; a document for another key is ignored. Read as any file of the cache is:
    checked solution by solution before it is used."""
    key = library_key(mission, catalog, kind)
    if key in _INSTALLED or not isinstance(doc, dict) or doc.get("key") != key:
        return
    _INSTALLED.add(key)
    if _read(library_path(mission, catalog, kind), mission, catalog, kind) is None:
        _write(library_path(mission, catalog, kind), doc)


def save(mission: Mission, catalog, solutions, kind: str = PLANNER) -> None:
    """Write the library; a cache that cannot be written only costs a rebuild next time."""
    _write(library_path(mission, catalog, kind), _document(mission, catalog, solutions, kind))


def _write(path: Path, doc: dict) -> None:
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(doc, f)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def write_shipped(mission: Mission, catalog, solutions, kind: str = PLANNER) -> Path:
    """Write a library to ship (analysis/libraries.py): compressed, the same bytes for the same library."""
    path = shipped_path(mission, catalog, kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(_document(mission, catalog, solutions, kind), separators=(",", ":"))
    path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    return path
