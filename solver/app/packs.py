"""Folders of missions and packs, for every command that takes them: the missions of a folder, a
pack or a mission inside a pack (``PACK/ID``) read with the catalog they were made with (one
door: ``mission_sources``); a folder made into a pack (`kakapo pack`), a pack written out
(`kakapo unpack`), and a pack's files joined to the studio's folder (`POST /api/packs`).

Nothing is ever written over: an existing file is refused unless the user forces it (`unpack
--force`); the studio never overwrites (a file with the same bytes is "held", one with other
bytes "refused").
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from solver import __version__
from solver.app.documents import Doc
from solver.core.errors import InputError
from solver.core.rules import Mission
from solver.io.catalog import Catalog, load_catalog
from solver.io.difficulty import MeasuredRow, data_digest, find_campaign, folder_table
from solver.io.missionfile import catalog_beside, declared_pieces, load_mission
from solver.io.packs import (
    DIFFICULTY,
    README,
    FolderFile,
    MissionFolder,
    looks_like_zip,
    pack_bytes,
    pack_member,
    read_folder,
    read_missions_folder,
    read_pack,
    read_pack_bytes,
)
from solver.io.paths import bundled_mission, mission_path
from solver.io.safefiles import MAX_FILE_BYTES, TargetExists, UnsafeTarget, read_regular, write_file


@dataclass(frozen=True)
class MissionSource:
    """A mission as a command got it: the mission, the catalog it is read with, its file's bytes
    (what a campaign measured), the folder or pack it came from (its ``difficulty.json``), and
    the name a game sheet gives it (``mission:``)."""

    mission: Mission
    catalog: Catalog
    data: bytes
    folder: MissionFolder | None
    bundled: bool
    file_name: str  # the mission file's plain name (m03.toml)

    @property
    def sheet_name(self) -> str:
        return self.mission.id if self.bundled else self.file_name


# ---------------------------------------------------------------- reading missions of folders and packs
def folder_catalog(folder: MissionFolder, declared: str | None, pieces: str | None) -> Catalog:
    """The catalog a mission of ``folder`` is read with: ``--pieces``, else the folder's catalog
    whose digest the mission declares (``pieces_digest``), else the bundled one (which the
    mission then refuses, naming the digest it wants)."""
    if pieces is not None:
        return load_catalog(pieces)
    bundled = load_catalog()
    if declared is None or declared == bundled.digest:
        return bundled
    for f in folder.catalogs:
        try:
            found = load_catalog(f.label, text=f.text)
        except InputError:
            continue
        if found.digest == declared:
            return found
    return bundled


def folder_sources(folder: MissionFolder, pieces: str | None = None) -> list[MissionSource]:
    """Every mission of a folder or pack, read with its catalog (InputError naming the file and
    line of the first that does not read)."""
    if not folder.missions:
        raise InputError(folder.where, "no missions in it (no .toml file that is not a catalog)",
                         "give a folder or pack of missions")
    out = []
    for f in folder.missions:
        catalog = folder_catalog(folder, declared_pieces(f.text), pieces)
        m = load_mission(f.label, catalog, text=f.text, mission_id=f.stem)
        out.append(MissionSource(m, catalog, f.data, folder, False, f.name))
    return out


def pack_mission_source(pack: Path, ref: str, pieces: str | None) -> MissionSource:
    folder = read_pack(pack)
    f = folder.mission(ref)
    if f is None:
        raise InputError(f"{pack}/{ref}", "no such mission in the pack",
                         f"give one of: {', '.join(f'{pack}/{x.stem}' for x in folder.missions) or '(none)'}")
    catalog = folder_catalog(folder, declared_pieces(f.text), pieces)
    m = load_mission(f.label, catalog, text=f.text, mission_id=f.stem)
    return MissionSource(m, catalog, f.data, folder, False, f.name)


def mission_sources(arg: str, pieces: str | None = None) -> list[MissionSource]:
    """What a MISSION argument names, as missions with their catalogs: a bundled id, a mission
    file, a folder of missions, a pack (every mission in it) or ``PACK/ID`` (one of them)."""
    inside = pack_member(arg)
    if inside is not None:
        return [pack_mission_source(inside[0], inside[1], pieces)]
    p = Path(arg)
    if p.is_dir() or looks_like_zip(p):
        return folder_sources(read_missions_folder(p), pieces)
    path = mission_path(arg)
    catalog = load_catalog(pieces) if pieces is not None else catalog_beside(path)
    m = load_mission(path, catalog)
    found = bundled_mission(m.id)
    bundled = found is not None and path.resolve() == found.resolve()
    folder = None if bundled else read_folder(path.parent if str(path.parent) else Path("."))
    return [MissionSource(m, catalog, read_regular(path, MAX_FILE_BYTES), folder, bundled, path.name)]


def one_mission(arg: str, pieces: str | None) -> tuple[Catalog, Mission] | None:
    """A single-mission command's MISSION when it is a pack (of one mission) or ``PACK/ID``; None
    when it is neither (a file or a bundled id, read as before)."""
    inside = pack_member(arg)
    if inside is None and not looks_like_zip(Path(arg)):
        return None
    found = mission_sources(arg, pieces)
    if len(found) > 1:
        raise InputError(arg, f"the pack holds {len(found)} missions: this command takes one",
                         f"name one, e.g. {arg}/{found[0].mission.id}")
    return found[0].catalog, found[0].mission


def validate_inputs(files: list[str] | tuple[str, ...], pieces: str | None) -> tuple[Catalog, list[Path | FolderFile]]:
    """`validate FILE...`: the files, a folder or a pack standing for its missions (``PACK/ID``
    for one of them); the catalog: ``--pieces``, else the one the missions of a single folder or
    pack were made with (found in it), else the bundled one."""
    entries: list[Path | FolderFile] = []
    folders: list[MissionFolder] = []
    for arg in files:
        inside = pack_member(arg)
        p = Path(arg)
        if inside is not None:
            folder = read_pack(inside[0])
            found = folder.mission(inside[1])
            if found is None:
                raise InputError(arg, "no such mission in the pack", "give one of: " + ", ".join(
                    f"{inside[0]}/{x.stem}" for x in folder.missions))
            entries.append(found)
        elif p.is_dir() or looks_like_zip(p):
            folder = read_missions_folder(p)
            if not folder.missions:
                raise InputError(arg, "no missions in it (no .toml file that is not a catalog)",
                                 "give a folder or pack of missions")
            entries.extend(folder.missions)
        else:
            entries.append(mission_path(arg))
            continue
        folders.append(folder)
    if pieces is not None or len(folders) != 1:
        return load_catalog(pieces), entries
    declared = {declared_pieces(e.text) for e in entries if isinstance(e, FolderFile)}
    if len(declared) != 1:
        return load_catalog(), entries
    return folder_catalog(folders[0], declared.pop(), None), entries


def pack_campaign_inputs(directory: str | None, pieces: str | None) -> tuple[Catalog, bytes, list[FolderFile]] | None:
    """`campaign PACK`: the catalog (``--pieces``, else the one the pack's missions were made with),
    its file's bytes, and the pack's missions; None when ``directory`` is no pack."""
    if directory is None or not looks_like_zip(Path(directory)):
        return None
    folder = read_pack(directory)
    if not folder.missions:
        raise InputError(directory, "no missions in the pack", "give a pack of missions")
    if pieces is not None:
        return load_catalog(pieces), read_regular(pieces, MAX_FILE_BYTES), folder.missions
    declared = {declared_pieces(f.text) for f in folder.missions}
    catalog = folder_catalog(folder, declared.pop(), None) if len(declared) == 1 else load_catalog()
    own = next((f for f in folder.catalogs if f.label == catalog.source), None)
    return catalog, own.data if own is not None else read_regular(catalog.source, MAX_FILE_BYTES), folder.missions


# ---------------------------------------------------------------- the campaign a mission was measured in
def campaign_place(src: MissionSource) -> tuple[dict[int, str], str | None]:
    """Where the mission falls in the campaign measured for its catalog, per player count, in words
    ("between b06 and b08"), and where those figures come from: the folder's or pack's own
    ``difficulty.json`` first, then the campaign measured for the catalog; ({}, None) when the
    mission (as its file is now) was measured in neither."""
    m = src.mission
    tables: list[tuple[dict[tuple[str, int], MeasuredRow], str | None]] = []
    if src.folder is not None and src.folder.difficulty is not None:
        tables.append((folder_table(src.folder, src.catalog.digest), src.folder.difficulty.label))
    digest = data_digest(src.data)
    near = None if src.folder is None else Path(src.folder.where)
    found = find_campaign(src.catalog, near, (), [(m.id, digest)])
    tables.append((found.rows, found.source))
    for table, where in tables:
        mine = {p: r for (mid, p), r in table.items() if mid == m.id and r.digest == digest}
        if not mine:
            continue
        out = {}
        for p, row in sorted(mine.items()):
            others = sorted((r.shortfall, mid) for (mid, pp), r in table.items()
                            if pp == p and mid != m.id and r.mode == m.mode)
            out[p] = between(row.shortfall, [(mid, v) for v, mid in others])
        return out, where
    return {}, None


def between(value: float, others: list[tuple[str, float]]) -> str:
    """A difficulty among others' (higher: harder), in words."""
    easier = [mid for mid, v in sorted(others, key=lambda x: (x[1], x[0])) if v < value]
    harder = [mid for mid, v in sorted(others, key=lambda x: (x[1], x[0])) if v >= value]
    if easier and harder:
        low, high = sorted((easier[-1], harder[0]))
        return f"between {low} and {high}"
    if harder:
        return f"easier than {harder[0]}, the easiest"
    if easier:
        return f"harder than {easier[-1]}, the hardest"
    return "the only mission measured"


# ---------------------------------------------------------------- writing files
def write_output(path: Path, data: bytes, overwrite: bool) -> Path:
    """``path`` written whole, never through a link and never over a file unless ``overwrite``
    (TargetExists, UnsafeTarget or OSError otherwise), through a private scratch folder beside it."""
    folder = path.parent if str(path.parent) else Path(".")
    scratch = Path(tempfile.mkdtemp(prefix=".kakapo-", dir=folder))
    try:
        return write_file(folder, path.name, data, scratch=scratch, overwrite=overwrite)
    finally:
        with contextlib.suppress(OSError):
            os.rmdir(scratch)


def refuse_existing(path: Path, option: str) -> None:
    """An output that exists already: exit 2 before any work, unless --force."""
    if path.exists() or path.is_symlink():
        raise InputError(str(path), f"{option}: the file exists already", "choose another name, or add --force to "
                         "replace it")


def output_error(path: Path, e: OSError) -> InputError:
    if isinstance(e, TargetExists):
        return InputError(str(path), "the file exists already", "choose another name, or add --force to replace it")
    if isinstance(e, UnsafeTarget):
        return InputError(str(path), f"not written: {e.strerror}", "remove what is in the way, or choose another name")
    return InputError(str(path), f"cannot write: {e.strerror or e}", "choose a path in a folder you can write to")


# ---------------------------------------------------------------- making a pack
@dataclass
class Packed:
    """A pack made of a folder: its bytes and what it holds."""

    data: bytes
    missions: list[str]
    catalogs: list[str]
    campaign: str | None  # where its difficulty.json came from, if it has one
    notes: list[str] = field(default_factory=list)

    def summary(self) -> Doc:
        return {"missions": self.missions, "catalogs": self.catalogs, "campaign": self.campaign, "notes": self.notes,
                "bytes": len(self.data)}


def make_pack(directory: str | Path, pieces: str | None = None, name: str | None = None) -> Packed:
    """The pack of a folder: its missions (each read with its catalog: one that does not read is
    an InputError, a pack is for sharing), the catalogs they were made with (the folder's, and
    ``pieces``), the campaign measured for them (the folder's ``difficulty.json``, else the one
    measured for the catalog) and a README saying what it holds and how to use it."""
    folder = read_folder(directory)
    extra: list[FolderFile] = []
    if pieces is not None:
        load_catalog(pieces)  # a broken catalog is said now, naming its line
        path = Path(pieces)
        if folder.file(path.name) is None:
            extra.append(FolderFile(path.name, read_regular(path, MAX_FILE_BYTES), str(path)))
    whole = MissionFolder(folder.where, False, tuple(sorted([*folder.files, *extra], key=lambda f: f.name)),
                          folder.difficulty, None)
    sources = folder_sources(whole, None)
    used = {s.catalog.digest for s in sources}
    catalogs = [f for f in whole.catalogs if _digest_of(f) in used]
    notes = [f"{f.name}: a catalog no mission of the folder was made with, left out" for f in whole.catalogs
             if f not in catalogs]
    campaign = None
    difficulty = whole.difficulty
    if difficulty is None:
        for src in sources:
            found = find_campaign(src.catalog, Path(directory), (), [(s.mission.id, data_digest(s.data))
                                                                       for s in sources])
            table, where = found.rows, found.source
            if where is not None and where != "bundled" and Path(where).is_file() \
                    and any(mid in {s.mission.id for s in sources} for mid, _ in table):
                difficulty = FolderFile(DIFFICULTY, read_regular(where, MAX_FILE_BYTES), where)
                break
    if difficulty is not None:  # kept when it measures some of these missions, as they are, for their catalog
        carried = MissionFolder(whole.where, False, whole.files, difficulty)
        ids = {s.mission.id for s in sources}
        if any(mid in ids for digest in used for mid, _ in folder_table(carried, digest)):
            campaign = difficulty.label
        else:
            notes.append(f"{difficulty.label}: measures none of these missions as they are now, left out")
            difficulty = None
    title = name or Path(directory).resolve().name
    readme = FolderFile(README, readme_text(title, sources, catalogs, difficulty).encode(), README)
    members = [*whole.missions, *catalogs, readme]
    if difficulty is not None:
        members.append(FolderFile(DIFFICULTY, difficulty.data, DIFFICULTY))
    return Packed(pack_bytes(members), [s.file_name for s in sources], [f.name for f in catalogs], campaign, notes)


def _digest_of(f: FolderFile) -> str | None:
    try:
        return load_catalog(f.label, text=f.text).digest
    except InputError:
        return None


def readme_text(title: str, sources: list[MissionSource], catalogs: list[FolderFile],
                difficulty: FolderFile | None) -> str:
    lines = [f"# {title}: a pack of kakapo missions", "",
             f"Made with kakapo {__version__}: {len(sources)} mission(s)"
             + (", the catalog of pieces they were made with" if catalogs else " for the bundled pieces")
             + (" and the campaign measured for it (difficulty.json)." if difficulty is not None else "."), "",
             "## Missions", ""]
    for s in sources:
        m = s.mission
        lines.append(f"- {s.file_name}: {m.name} ({m.mode}, {' or '.join(str(p) for p in m.player_counts())} "
                     f"players, {m.rounds} rounds)")
    if catalogs:
        lines += ["", "## Pieces", ""]
        lines += [f"- {f.name} (digest {_digest_of(f)})" for f in catalogs]
    first = sources[0].mission.id if sources else "ID"
    lines += ["", "## Using it", "",
              "Every command that takes a folder of missions takes the pack itself:", "",
              "    kakapo validate PACK.kakapo", "    kakapo print PACK.kakapo --pdf cards.pdf",
              f"    kakapo print PACK.kakapo/{first} --sheet --players 2 --pdf sheet.pdf",
              f"    kakapo ladder PACK.kakapo/{first}", "    kakapo campaign PACK.kakapo --out measured/",
              "    kakapo unpack PACK.kakapo --out my_missions/", "",
              "In the studio (kakapo studio --dir DIR): Missions, Open a pack.", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- unpacking
def unpack(pack: str | Path, out_dir: str | Path, force: bool = False) -> list[str]:
    """The pack's files written into ``out_dir`` (created if missing), nothing outside it, none
    over an existing file unless ``force`` (InputError before anything is written)."""
    folder = read_pack(pack)
    members = [*folder.files, *(x for x in (folder.difficulty, folder.readme) if x is not None)]
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(str(out), "--out names a file, not a folder", "give a folder (it is created if missing)")
    if not force:
        taken = [f.name for f in members if (out / f.name).exists() or (out / f.name).is_symlink()]
        if taken:
            raise InputError(str(out), f"{', '.join(taken[:5])}{' ...' if len(taken) > 5 else ''} exist(s) already "
                             "in the folder: nothing was written", "unpack into another folder, or add --force to "
                             "replace them")
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".kakapo-", dir=out))
    written = []
    try:
        for f in members:
            try:
                write_file(out, f.name, f.data, scratch=scratch, overwrite=force)
            except OSError as e:
                raise output_error(out / f.name, e) from None
            written.append(f.name)
    finally:
        with contextlib.suppress(OSError):
            os.rmdir(scratch)
    return written


# ---------------------------------------------------------------- a pack joining the studio's folder
def open_pack_into(data: bytes, name: str, directory: Path, scratch: Path) -> Doc:
    """A pack's missions, catalogs and campaign joined to ``directory``: ``{"missions", "catalogs"}``
    written (new names), ``"held"`` (the same bytes are there already), ``"refused"`` ({"file",
    "why"}: another file has that name, nothing is overwritten; or a mission that does not read
    with its catalog). InputError when the pack itself is refused."""
    folder = read_pack_bytes(data, name)
    doc: Doc = {"missions": [], "catalogs": [], "campaign": None, "held": [], "refused": []}
    readable = set()
    for f in folder.missions:
        try:
            catalog = folder_catalog(folder, declared_pieces(f.text), None)
            load_mission(f.label, catalog, text=f.text, mission_id=f.stem)
            readable.add(f.name)
        except InputError as e:
            doc["refused"].append({"file": f.name, "why": (f"line {e.line}: " if e.line else "") + e.problem})
    wanted = [f for f in folder.files if f.name in readable or f in folder.catalogs]
    if folder.difficulty is not None:
        wanted.append(folder.difficulty)
    for f in wanted:
        target = directory / f.name
        if target.is_symlink() or (target.exists() and not target.is_file()):
            doc["refused"].append({"file": f.name, "why": "something other than a plain file has that name in the "
                                   "folder"})
            continue
        if target.exists():
            try:
                same = read_regular(target, len(f.data) + 1, follow_links=False) == f.data
            except OSError:
                same = False
            if same:
                doc["held"].append(f.name)
            else:
                doc["refused"].append({"file": f.name, "why": "the folder has another file of that name: nothing "
                                       "was overwritten (rename one of them)"})
            continue
        try:
            write_file(directory, f.name, f.data, scratch=scratch, overwrite=False)
        except OSError as e:
            doc["refused"].append({"file": f.name, "why": output_error(target, e).problem})
            continue
        if f.name == DIFFICULTY:
            doc["campaign"] = f.name
        elif f in folder.catalogs:
            doc["catalogs"].append(f.name)
        else:
            doc["missions"].append(f.name)
    return doc


def pack_listing(folder: MissionFolder) -> Doc:
    """What a pack holds, in a line per file (for `kakapo unpack --json` and the page)."""
    return {"missions": [f.name for f in folder.missions], "catalogs": [f.name for f in folder.catalogs],
            "campaign": None if folder.difficulty is None else DIFFICULTY,
            "readme": None if folder.readme is None else README}

