"""The campaign's measured difficulty, shipped beside the bundled missions (``difficulty.json``).

Per bundled mission and player count: the clear rate of every rung of the ladder on the same
deals, the open-hand ceiling and the shortfall, as `kakapo ladder` measures them with the
default catalog. `validate` places a fan mission among the campaign with it, and `list` shows
each mission's difficulty, without playing the campaign again. benchmarks/campaign_order.py
writes the file. A row counts only while its mission file is the one that was measured (the
file's digest is kept with it), and only for the catalog it was measured with.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from solver.core.errors import InputError
from solver.core.spec import MODE_RULES
from solver.io.catalog import load_catalog
from solver.io.missionfile import mission_fit
from solver.io.packs import MissionFolder, looks_like_zip, read_pack
from solver.io.paths import MISSIONS, bundled_mission
from solver.io.safefiles import read_regular

DIFFICULTY_FILE = MISSIONS / "difficulty.json"


@dataclass(frozen=True)
class MeasuredRow:
    """One bundled mission at one player count, as the ladder measured it."""

    mission: str
    mode: str
    players: int
    games: int
    seed: int
    rates: dict[str, float]  # rung label (``ladder.rung_label``) -> clear rate
    ceiling_rate: float
    undecided: int
    shortfall: float
    min_pieces: int | None = None  # fewest new pieces that clear it at this table (None: not measured)
    digest: str = ""  # the mission file's digest (``data_digest``) when it was measured


MAX_TOML = 1_000_000  # a mission file (io/tomlfile.py)
MAX_DOC = 50_000_000  # a difficulty.json or a `kakapo calibrate --json` document: far above any


def file_digest(path: str | Path) -> str:
    return data_digest(read_regular(path, MAX_TOML))


def data_digest(data: bytes) -> str:
    """A mission file's digest, as ``difficulty.json`` keeps it with each row."""
    return hashlib.sha256(data).hexdigest()[:16]


def campaign_difficulty(catalog_key: tuple | None = None, default_key: tuple | None = None,
                        path: Path = DIFFICULTY_FILE) -> dict[tuple[str, int], MeasuredRow]:
    """(mission id, players) -> MeasuredRow for the bundled missions whose file is the one measured.
    Empty when the file is missing or damaged, or when ``catalog_key`` (the catalog in use) is
    not ``default_key`` (the one the campaign was measured with)."""
    if catalog_key is not None and catalog_key != default_key:
        return {}
    return read_table(path)


def read_table(path: Path, pieces_digest: str | None = None, folder: Path | None = None
               ) -> dict[tuple[str, int], MeasuredRow]:
    """The rows of a ``difficulty.json`` whose mission file is still the one measured (a mission of
    ``folder`` by its id, else a bundled one); with ``pieces_digest``, only a table measured for
    that catalog (else {})."""
    try:
        text = read_regular(path, MAX_DOC).decode("utf-8")
    except (OSError, UnicodeDecodeError, InputError):
        return {}

    def mission_bytes(mission_id: str) -> bytes | None:
        own = None if folder is None else folder / f"{mission_id}.toml"
        file = own if own is not None and own.is_file() else bundled_mission(mission_id)
        return None if file is None else read_regular(file, MAX_TOML)

    return table_of(text, pieces_digest, mission_bytes)


def folder_table(folder: MissionFolder, pieces_digest: str | None) -> dict[tuple[str, int], MeasuredRow]:
    """The rows of a folder's or a pack's ``difficulty.json`` (read with it) whose mission is still
    the one measured (one of its own files, else a bundled one)."""
    if folder.difficulty is None:
        return {}

    def mission_bytes(mission_id: str) -> bytes | None:
        own = folder.file(f"{mission_id}.toml")
        if own is not None:
            return own.data
        file = bundled_mission(mission_id)
        return None if file is None else read_regular(file, MAX_TOML)

    return table_of(folder.difficulty.text, pieces_digest, mission_bytes)


def table_of(text: str, pieces_digest: str | None, mission_bytes: Callable[[str], bytes | None]
             ) -> dict[tuple[str, int], MeasuredRow]:
    """The rows of a ``difficulty.json`` text whose mission (its bytes by id: ``mission_bytes``) is
    still the one measured; with ``pieces_digest``, only a table measured for that catalog."""
    try:
        doc = json.loads(text)
        rows = doc["rows"]
        if pieces_digest is not None and doc.get("pieces_digest") != pieces_digest:
            return {}
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return {}
    out: dict[tuple[str, int], MeasuredRow] = {}
    for r in rows if isinstance(rows, list) else ():
        try:
            data = mission_bytes(str(r["mission"]))
            if data is None or data_digest(data) != r["digest"]:
                continue  # the mission changed since it was measured
            row = MeasuredRow(str(r["mission"]), str(r["mode"]), int(r["players"]), int(r["games"]), int(r["seed"]),
                              {str(k): float(v) for k, v in r["rates"].items()}, float(r["ceiling_rate"]),
                              int(r["undecided"]), float(r["shortfall"]),
                              None if r.get("min_pieces") is None else int(r["min_pieces"]), str(r["digest"]))
        except (KeyError, TypeError, ValueError, AttributeError, OSError):
            continue
        out[(row.mission, row.players)] = row
    return out


def measured_for(catalog, near: tuple[Path, ...] = ()) -> tuple[dict[tuple[str, int], MeasuredRow], str | None]:
    """The campaign measured for ``catalog`` and where it was found: the shipped table for the
    bundled shapes ("bundled"); for another catalog, the first ``difficulty.json`` measured for it
    (`kakapo campaign`) in the folders ``near`` or the catalog file's own folder (or the pack it
    was read from). ({}, None) when none was: nothing is then compared with figures of other
    shapes."""
    if catalog.key == load_catalog().key:
        return read_table(DIFFICULTY_FILE), "bundled"
    places = list(near)
    if catalog.source and Path(catalog.source).is_file():
        places.append(Path(catalog.source).resolve().parent)
    elif catalog.source and looks_like_zip(Path(catalog.source).parent):  # a catalog read from a pack
        places.append(Path(catalog.source).parent)
    for folder in places:
        if looks_like_zip(folder):
            try:
                table = folder_table(read_pack(folder), catalog.digest)
            except InputError:
                continue
            where = f"{folder}/difficulty.json"
        else:
            table = read_table(folder / "difficulty.json", catalog.digest, folder)
            where = str(folder / "difficulty.json")
        if table:
            return table, where
    return {}, None


def no_campaign_text(catalog) -> str:
    """What is said where no campaign was measured for the catalog in use."""
    source = catalog.source or "FILE"
    return (f"no campaign measured for this catalog: kakapo campaign --pieces {source} --out DIR (then keep "
            "DIR/difficulty.json beside the catalog)")


def campaign_listing(catalog) -> list[dict]:
    """`kakapo list`: every bundled mission in campaign order with its name, mode, player counts,
    fewest pieces and shortfall per player count from the campaign measured for ``catalog``
    (``measured_for``; None where it has no row for the file as it is now, and for every mission
    when none was measured for that catalog), and whether it fits ``catalog``
    (``fits``; ``why`` not: a pre-placed piece whose cells are not its shape there)."""
    measured, _ = measured_for(catalog)
    out = []
    for folder in ("buddy", "party"):
        for path in sorted((MISSIONS / folder).glob("*.toml")):
            m, why = mission_fit(path, catalog)
            players = list(MODE_RULES[m.mode].players)
            rows = {p: measured.get((m.id, p)) for p in players}
            out.append({"id": m.id, "name": m.name, "mode": m.mode, "players": players,
                        "min_pieces": {str(p): r.min_pieces if r else None for p, r in rows.items()},
                        "shortfall": {str(p): round(r.shortfall, 4) if r else None for p, r in rows.items()},
                        "fits": why is None, "why": why, "file": str(path)})
    return out


# ---------------------------------------------------------------- what tables observed
OBSERVED_MIN_GAMES = 5  # a mission's observed difficulty is shown once it rests on this many games ...
OBSERVED_MIN_TABLES = 2  # ... from this many tables


def read_observed(path: str | Path) -> dict[tuple[str, int], dict]:
    """The missions' observed difficulty from a `kakapo calibrate --json` document: by (mission,
    players), the games and tables it rests on, the share cleared, the fitted (learned) rate and
    what the ladder expected; only the rows resting on OBSERVED_MIN_GAMES games from
    OBSERVED_MIN_TABLES tables (fewer say little)."""
    p = Path(path)
    try:
        doc = json.loads(read_regular(p, MAX_DOC))
        rows = doc["missions"]
        out = {}
        for r in rows:
            if int(r["games"]) >= OBSERVED_MIN_GAMES and int(r["tables"]) >= OBSERVED_MIN_TABLES:
                out[(str(r["mission"]), int(r["players"]))] = {
                    k: r[k] for k in ("games", "tables", "observed", "learned", "expected")}
        return out
    except OSError as e:
        raise InputError(str(path), f"cannot read it ({e.strerror})", "give the file kakapo calibrate --json wrote") \
            from None
    except (ValueError, KeyError, TypeError, RecursionError):
        raise InputError(str(path), "not a kakapo calibrate --json document (its \"missions\" rows are missing or "
                         "broken)", "write one with: kakapo calibrate TABLE... --json > observed.json") from None
