"""The campaign's measured difficulty: the table shipped beside the bundled missions
(``difficulty.json``, measured with the bundled shapes) and those `kakapo campaign` writes for
another catalog (the same format, with that catalog's ``pieces_digest``).

Per mission and player count: the clear rate of every rung of the ladder on the same deals, the
open-hand ceiling and the shortfall. A row counts only while its mission file is the one that was
measured (the file's digest is kept with it), and only for the catalog it was measured with.

The rules every command and the studio follow, each once: where the campaign measured for a
catalog is found (``campaign_places``, ``find_campaign``); what a mission is compared with (the
other missions of that campaign, never itself: ``Campaign.others``, ``place_in_campaign``); and how
a placement is said (``placement_phrase``: the bundled missions, or the missions of your campaign).
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
from solver.io.missionfile import mission_files, mission_fit
from solver.io.packs import MissionFolder, looks_like_zip, read_pack
from solver.io.paths import MISSIONS, bundled_mission
from solver.io.safefiles import MAX_FILE_BYTES, read_regular

DIFFICULTY_FILE = MISSIONS / "difficulty.json"
PRECISION = 0.025  # a campaign row's shortfall known to +/- this (95 %) by default (`campaign --precision`)


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
    digest: str | None = None  # the digest of the mission file measured
    rung_games: dict[str, int] | None = None  # the deals behind each rung's rate, where not ``games``
    precision: float | None = None  # the half-width of the shortfall's 95 % interval (None: not written)

    def deals(self, label: str) -> int:
        """The deals behind a rung's rate (``rung_label``)."""
        return (self.rung_games or {}).get(label, self.games)


MAX_DOC = 50_000_000  # a `kakapo calibrate --json` document: far above any


def file_digest(path: str | Path) -> str:
    return data_digest(read_regular(path, MAX_FILE_BYTES))


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
    ``folder`` by its id, else of the missions' folder the file names, else a bundled one); with
    ``pieces_digest``, only a table measured for that catalog (else {})."""
    try:
        text = read_regular(path, MAX_TABLE_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return {}

    def mission_bytes(mission_id: str, measured_in: Path | None) -> bytes | None:
        own = [f / f"{mission_id}.toml" for f in (folder, measured_in) if f is not None and "/" not in mission_id]
        file = next((f for f in own if f.is_file()), None) or bundled_mission(mission_id)
        return None if file is None else read_regular(file, MAX_FILE_BYTES)

    return table_of(text, pieces_digest, mission_bytes)


def folder_table(folder: MissionFolder, pieces_digest: str | None) -> dict[tuple[str, int], MeasuredRow]:
    """The rows of a folder's or a pack's ``difficulty.json`` (read with it) whose mission is still
    the one measured (one of its own files, else a bundled one)."""
    if folder.difficulty is None:
        return {}

    def mission_bytes(mission_id: str, measured_in: Path | None) -> bytes | None:
        own = folder.file(f"{mission_id}.toml")
        if own is not None:
            return own.data
        file = bundled_mission(mission_id)
        return None if file is None else read_regular(file, MAX_FILE_BYTES)

    return table_of(folder.difficulty.text, pieces_digest, mission_bytes)


def table_of(text: str, pieces_digest: str | None, mission_bytes: Callable[[str, Path | None], bytes | None]
             ) -> dict[tuple[str, int], MeasuredRow]:
    """The rows of a ``difficulty.json`` text whose mission (its bytes by id and the missions'
    folder the file names: ``mission_bytes``) is still the one measured; with ``pieces_digest``,
    only a table measured for that catalog."""
    try:
        doc = json.loads(text)
        rows = doc["rows"]
        if pieces_digest is not None and doc.get("pieces_digest") != pieces_digest:
            return {}
        measured_in = Path(doc["missions"]) if isinstance(doc.get("missions"), str) else None
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return {}
    out: dict[tuple[str, int], MeasuredRow] = {}
    for r in rows if isinstance(rows, list) else ():
        try:
            mid = str(r["mission"])
            data = mission_bytes(mid, measured_in)
            if data is None or data_digest(data) != r["digest"]:
                continue  # the mission changed since it was measured
            row = MeasuredRow(mid, str(r["mode"]), int(r["players"]), int(r["games"]), int(r["seed"]),
                              {str(k): float(v) for k, v in r["rates"].items()}, float(r["ceiling_rate"]),
                              int(r["undecided"]), float(r["shortfall"]),
                              None if r.get("min_pieces") is None else int(r["min_pieces"]), str(r["digest"]),
                              {str(k): int(v) for k, v in (r.get("rung_games") or {}).items()},
                              None if r.get("precision") is None else float(r["precision"]))
        except (KeyError, TypeError, ValueError, AttributeError, OSError):
            continue
        out[(row.mission, row.players)] = row
    return out


# ---------------------------------------------------------------- the campaign measured for a catalog
MAX_TABLE_BYTES = 8_000_000  # a difficulty.json of thousands of missions; larger is no file kakapo wrote
CAMPAIGN_FOLDER = "campaign"  # the folder beside a catalog the bundled campaign is measured into (README)


@dataclass(frozen=True)
class Campaign:
    """The campaign measured for one catalog and where it was found: ``source`` is "bundled" (the
    table shipped beside the bundled missions, for the bundled shapes only), the path of the
    ``difficulty.json`` `kakapo campaign` wrote for that catalog, or None when none was measured
    for it (nothing is then compared with figures of other shapes)."""

    rows: dict[tuple[str, int], MeasuredRow]
    source: str | None

    def others(self, mission_id: str, mode: str, players: int, rung: str | None = None) -> list[tuple[str, float]]:
        """The missions a mission is compared with: every other mission of this campaign of the same
        mode and table, never the mission itself; by their shortfall (or, with ``rung``, that
        rung's clear rate where it was measured)."""
        out = []
        for (mid, n), row in sorted(self.rows.items()):
            if mid == mission_id or n != players or row.mode != mode:
                continue
            value = row.shortfall if rung is None else row.rates.get(rung)
            if value is not None:
                out.append((mid, value))
        return out

    def row(self, mission_id: str, players: int, mission_digest: str | None = None) -> MeasuredRow | None:
        """The mission's own measured row at that table; with ``mission_digest``, only while the
        mission measured had that text (a log's mission may be an edited copy)."""
        row = self.rows.get((mission_id, players))
        if row is None or mission_digest is None:
            return row
        return row if row.digest == mission_digest else None


def is_bundled_catalog(catalog) -> bool:
    return catalog.key == load_catalog().key


def campaign_places(catalog, missions_folder: Path | None = None, near: tuple[Path, ...] = ()) -> list[Path]:
    """Where the campaign measured for a catalog is looked for, in this order: the missions' folder,
    the catalog file's folder and a ``campaign/`` folder beside it, then the folders ``near`` (where
    a table's games lie) and a ``campaign/`` folder in each."""
    places: list[Path] = []
    if missions_folder is not None:
        places.append(missions_folder)
    source = Path(catalog.source) if getattr(catalog, "source", "") else None
    if source is not None and source.is_file():
        places += [source.resolve().parent, source.resolve().parent / CAMPAIGN_FOLDER]
    elif source is not None and looks_like_zip(source.parent):  # a catalog read from a pack: the pack's campaign
        places.append(source.parent)
    for folder in near:
        places += [folder, folder / CAMPAIGN_FOLDER]
    out: list[Path] = []
    for folder in places:
        if folder.resolve() not in out:
            out.append(folder.resolve())
    return out


def games_places(paths) -> tuple[Path, ...]:
    """Where a table's games lie, for ``campaign_places``'s ``near``: each game file's folder and the
    folder above it (games kept in a ``games/`` folder of the box)."""
    out: list[Path] = []
    for path in paths:
        folder = Path(path).resolve().parent
        for f in (folder, folder.parent):
            if f not in out:
                out.append(f)
    return tuple(out)


Wanted = str | tuple[str, str]  # a mission by its id, or by its id and its file's digest


def mission_key(m) -> Wanted:
    """A mission as ``find_campaign`` wants it: its id and its text's digest (the digest a campaign
    keeps of the file it measured), or its id alone when it has no text."""
    return (m.id, hashlib.sha256(m.source.encode("utf-8")).hexdigest()[:16]) if m.source else m.id


def file_key(path: Path) -> Wanted:
    """A mission file as ``find_campaign`` wants it (its id and digest; its id when unreadable)."""
    try:
        return (path.stem, file_digest(path)) if path.stat().st_size <= MAX_FILE_BYTES else path.stem
    except OSError:
        return path.stem


def _holds(campaign: Campaign, wanted: list[Wanted]) -> bool:
    """Whether the campaign measured one of the missions ``wanted`` (the same file, where its digest is given)."""
    rows = campaign.rows.values()
    return any((r.mission == w) if isinstance(w, str) else (r.mission, r.digest) == w for w in wanted for r in rows)


def campaigns_for(catalog, missions_folder: Path | None = None, near: tuple[Path, ...] = ()) -> list[Campaign]:
    """Every campaign measured for ``catalog`` in ``campaign_places`` (in that order), the shipped
    table last for the bundled shapes."""
    found: list[Campaign] = []
    for folder in campaign_places(catalog, missions_folder, near):
        file = folder / "difficulty.json"
        if looks_like_zip(folder):  # a pack: the difficulty.json it carries
            try:
                table = folder_table(read_pack(folder), catalog.digest)
            except InputError:
                continue
        elif file.resolve() == DIFFICULTY_FILE.resolve():
            continue  # the shipped table: the bundled shapes' only, below
        else:
            table = read_table(file, catalog.digest, folder)
        if table:
            found.append(Campaign(table, str(file)))
    if is_bundled_catalog(catalog):
        found.append(Campaign(read_table(DIFFICULTY_FILE), "bundled"))
    return found


def find_campaign(catalog, missions_folder: Path | None = None, near: tuple[Path, ...] = (),
                  wanted: tuple[Wanted, ...] | list[Wanted] = ()) -> Campaign:
    """The campaign measured for ``catalog`` (``campaign_places``, in order): the first that
    measured one of the missions ``wanted`` (ids, or ids and digests: the same files), else the
    first found; for the bundled shapes the shipped table comes last. Campaign({}, None) when none
    was measured for that catalog."""
    found = campaigns_for(catalog, missions_folder, near)
    wanted = list(wanted)
    for campaign in found:
        if _holds(campaign, wanted):
            return campaign
    return found[0] if found else Campaign({}, None)


def no_campaign_text(catalog) -> str:
    """What is said where no campaign was measured for the catalog in use."""
    source = Path(catalog.source) if getattr(catalog, "source", "") else None
    if source is not None and source.is_file():
        file, out = str(source), str(source.parent / CAMPAIGN_FOLDER)
    else:
        file, out = "FILE", "DIR"
    return (f"no campaign measured for this catalog (digest {catalog.digest}): measure it with kakapo campaign "
            f"--pieces {file} --out {out} (the bundled missions) or kakapo campaign MISSIONS_DIR --pieces {file} "
            "(your missions); figures of other shapes are never compared")


# ---------------------------------------------------------------- a mission among the others
def place_by_difficulty(value: float, others: list[tuple[str, float]]) -> dict:
    """Where a difficulty figure falls among other missions' (higher = harder)."""
    ranked = sorted(others, key=lambda x: (x[1], x[0]))
    easier = [mid for mid, r in ranked if r < value]
    harder = [mid for mid, r in ranked if r >= value]
    return {"harder_than": len(easier), "of": len(ranked),
            "between": [easier[-1] if easier else None, harder[0] if harder else None]}


def place_in_campaign(campaign: Campaign, value: float, mission_id: str, mode: str, players: int,
                      rung: str | None = None) -> dict | None:
    """Where a mission's figure falls among the other missions measured with the same catalog
    (``Campaign.others``: never itself): its shortfall, or with ``rung`` that rung's clear rate
    (a higher rate is easier). ``{"harder_than", "of", "between", "source"}``; None when no
    campaign was measured for the catalog."""
    if campaign.source is None:
        return None
    others = campaign.others(mission_id, mode, players, rung)
    if rung is None:
        entry = place_by_difficulty(value, others)
    else:
        entry = place_by_difficulty(-value, [(mid, -r) for mid, r in others])
    return {**entry, "source": campaign.source}


def campaign_group(source: str | None) -> str:
    """The missions a placement counts, in words."""
    return "bundled missions" if source in (None, "bundled") else "of your campaign's missions"


def campaign_line(entry: dict) -> str:
    """A ladder's placement as one line: "in the campaign: ..." (the bundled one) or "in your
    campaign: ..." (measured for another catalog)."""
    mine = entry.get("source") not in (None, "bundled")
    return f"in {'your' if mine else 'the'} campaign: {placement_phrase(entry)}"


def placement_phrase(entry: dict) -> str:
    """A placement in words: "between b07 and b08 (harder than 7 of 19 bundled missions)", or past
    either end; the missions of your campaign are named so, with the file they were measured in."""
    easier, harder = entry["between"]
    group = campaign_group(entry.get("source"))
    where_from = "" if entry.get("source") in (None, "bundled") else f", measured in {entry['source']}"
    if easier and harder:
        low, high = sorted((easier, harder))  # in campaign order, even where two neighbours measure the other way
        where = f"between {low} and {high}"
    elif harder:
        where = f"easier than {harder}, the easiest"
    elif easier:
        where = f"harder than {easier}, the hardest"
    else:
        campaign = "your campaign" if where_from else "the bundled campaign"
        return f"no other mission of this mode and table in {campaign} to compare with{where_from}"
    return f"{where} (harder than {entry['harder_than']} of {entry['of']} {group}{where_from})"


def campaign_listing(catalog, folder: Path | None = None, near: tuple[Path, ...] = ()) -> tuple[list[dict], Campaign]:
    """`kakapo list [DIR]`: every mission of ``folder`` (a folder or a pack; the bundled ones in
    campaign order when None) with its name, mode, player counts, and the fewest pieces and
    shortfall per player count from the campaign measured for ``catalog`` (``find_campaign``; None
    where it has no row for the file as it is now, and for every mission when none was measured
    for that catalog), and whether it fits ``catalog`` (``fits``; ``why`` not: a pre-placed piece
    whose cells are not its shape there, or what is wrong with a file that does not read). And
    that campaign."""
    entries: list[tuple[str, str, Wanted, str | None]] = []  # (file as shown, id, key, text read already)
    if folder is not None and looks_like_zip(folder):
        for f in read_pack(folder).missions:
            entries.append((f.label, f.stem, (f.stem, data_digest(f.data)), f.text))
    else:
        paths = [p for mode in ("buddy", "party") for p in sorted((MISSIONS / mode).glob("*.toml"))] \
            if folder is None else mission_files(folder)
        entries = [(str(p), p.stem, file_key(p), None) for p in paths]
    campaign = find_campaign(catalog, folder, near, [key for _, _, key, _ in entries])
    out: list[dict] = []
    for shown, stem, key, text in entries:
        try:
            m, why = mission_fit(shown, catalog, text=text)
        except InputError as e:
            out.append({"id": stem, "name": None, "mode": None, "players": [], "min_pieces": {}, "shortfall": {},
                        "fits": False, "why": (f"line {e.line}: " if e.line else "") + e.problem, "file": shown,
                        "campaign_source": campaign.source})
            continue
        players = list(MODE_RULES[m.mode].players)
        out.append({"id": m.id, "name": m.name, "mode": m.mode, "players": players,
                    **listed_figures(campaign, stem, key, players), "fits": why is None, "why": why, "file": shown})
    return out, campaign


def listed_figures(campaign: Campaign, mission_id: str, key: Wanted, players: list[int]) -> dict:
    """A listed mission file's figures from ``campaign`` (``key``: the file's, ``file_key``): the
    fewest pieces and the shortfall per player count (None where it measured none, or measured
    another file of that id), and where they come from (``campaign_source``)."""
    digest = key[1] if isinstance(key, tuple) else ""
    rows = {p: campaign.row(mission_id, p, digest) for p in players}
    return {"min_pieces": {str(p): r.min_pieces if r else None for p, r in rows.items()},
            "shortfall": {str(p): round(r.shortfall, 4) if r else None for p, r in rows.items()},
            "campaign_source": campaign.source}


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
