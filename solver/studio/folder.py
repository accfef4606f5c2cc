"""The studio's folder (``--dir``) as every router finds and keeps files in it: a mission by its id
(a plain file name of the folder, else a bundled mission), the folder's missions and piece
catalogs (one scan tells them apart by what they hold: ``io/packs.scan_folder``), and each file
read and written safely (no link followed, nothing over ``MAX_FILE_BYTES`` read, never half a
file written, nothing overwritten unasked). Its refusals are the API's (``StudioError``)."""

from __future__ import annotations

import re
from pathlib import Path

from solver.app.documents import Doc
from solver.core.errors import InputError
from solver.io.catalog import Catalog, load_catalog
from solver.io.difficulty import campaign_listing, file_key, find_campaign, listed_figures
from solver.io.missionfile import mission_fit
from solver.io.packs import FolderFile, scan_folder
from solver.io.paths import bundled_mission
from solver.io.safefiles import (
    MAX_FILE_BYTES,
    TargetExists,
    TooLarge,
    UnsafeTarget,
    megabytes,
    read_plain_file,
    read_regular,
    write_file,
)
from solver.studio.errors import StudioError

MISSION_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,120}$")
CATALOG_NAME = "pieces.toml"  # a catalog's usual name: never listed as a mission, even when it does not load


def _control(name: str) -> bool:
    return any(ord(ch) < 32 or ord(ch) == 127 for ch in name)


def mission_file_name(name: str) -> str:
    """A plain file name for a mission ending in .toml (no folder, no '..'); 400 otherwise."""
    if "/" in name or "\\" in name or ".." in name or not name.endswith(".toml") or not MISSION_NAME.match(name):
        raise StudioError(400, f"{name[:60]!r} is not a mission file name",
                          "give a plain name ending in .toml, such as my_mission.toml (no folders)")
    return name


def catalog_file_name(name: str) -> str:
    """A plain file name ending in .toml (no folder, no hidden file, no control character); 400
    otherwise."""
    if "/" in name or "\\" in name or name.startswith(".") or not name.endswith(".toml") or _control(name):
        raise StudioError(400, f"{name[:60]!r} is not a catalog file name", "give a plain name ending in .toml")
    return name


def load_problem(e: InputError) -> str:
    """Why a file of the folder does not load, as its listing says it."""
    return (f"line {e.line}: " if e.line else "") + e.problem


GAMES = "games"  # the folder's games: the logs the studio writes, and those dropped there to take in


class Folder:
    """The folder the studio serves; ``scratch``: where a file is written whole before it takes
    its name (the studio's private folder)."""

    def __init__(self, directory: Path, scratch: Path):
        self.directory = directory
        self.scratch = scratch
        self.games = directory / GAMES

    # ------------------------------------------------------------ what the folder holds
    def scan(self) -> tuple[list[FolderFile], list[FolderFile]]:
        """The folder's missions and its catalogs, by what each file holds (links left out)."""
        found = scan_folder(self.directory)
        return [f for f in found.missions if f.name != CATALOG_NAME], found.catalogs

    def missions(self, catalog: Catalog) -> list[Doc]:
        """The bundled missions and the folder's, each with the figures of the campaign measured for
        ``catalog`` (``campaign_source``: "bundled", the difficulty.json they come from, or null
        when none was measured for it), as `kakapo list [DIR] --pieces FILE` gives them; each of
        the folder's with ``fits`` (and ``why`` not) for ``catalog``."""
        listed, _ = campaign_listing(catalog, None, (self.directory,))
        bundled = [{**row, "source": "bundled", "file": Path(row["file"]).name} for row in listed]
        own = [self._mission_row(f, catalog) for f in self.scan()[0]]
        keys = [file_key(self.directory / r["file"]) for r in own]
        campaign = find_campaign(catalog, self.directory, (), keys)
        for row, key in zip(own, keys, strict=True):
            row.update(listed_figures(campaign, Path(row["file"]).stem, key, row.get("players") or []))
        return bundled + own

    def _mission_row(self, file: FolderFile, catalog: Catalog) -> Doc:
        row: Doc = {"id": file.stem, "source": "dir", "file": file.name, "name": None, "mode": None, "valid": False,
                    "fits": False, "why": None}
        try:
            m, why = mission_fit(self.directory / file.name, catalog, file.text)
            row.update({"name": m.name, "mode": m.mode, "players": list(m.player_counts()), "valid": True,
                        "fits": why is None, "why": why})
        except InputError as e:
            row["why"] = load_problem(e)
        return row

    def catalogs(self, current: str | None) -> list[Doc]:
        """The bundled catalog and every catalog of the folder (one that does not load is listed
        with the reason); ``current``: the file of the one in use (None: the bundled one)."""
        out: list[Doc] = [{"file": None, "name": "the bundled catalog", "valid": True, "error": None,
                           "current": current is None, "digest": load_catalog().digest}]
        for file in self.scan()[1]:
            row: Doc = {"file": file.name, "name": file.stem, "valid": True, "error": None,
                        "current": current == file.name, "digest": None}
            try:
                row["digest"] = load_catalog(catalog_file_name(file.name), file.text).digest
            except InputError as e:
                row.update({"valid": False, "error": load_problem(e)})
            except StudioError as e:
                row.update({"valid": False, "error": e.message})
            out.append(row)
        return out

    # ------------------------------------------------------------ one file
    def mission(self, mission_id: str) -> Doc:
        """``{"id", "source", "file", "text"}``: the folder's ``ID.toml``, else the bundled mission of
        that id; 404 for neither, 413 or 422 for a file that cannot be read as text."""
        if not MISSION_NAME.match(mission_id) or ".." in mission_id:
            raise StudioError(404, f"no mission {mission_id[:60]!r}", "pick one from GET /api/missions")
        own = (self.directory / f"{mission_id}.toml").resolve()
        if own.parent == self.directory.resolve() and own.is_file():  # a link to elsewhere is not the folder's
            return {"id": mission_id, "source": "dir", "file": own.name, "text": _mission_text(own)}
        found = bundled_mission(mission_id)
        if found is None:
            raise StudioError(404, f"no mission {mission_id!r}", "pick one from GET /api/missions")
        return {"id": mission_id, "source": "bundled", "file": found.name, "text": _mission_text(found)}

    def text(self, name: str) -> str:
        """The text of a file of the folder by its plain name, read without following a link."""
        try:
            data = read_plain_file(self.directory, catalog_file_name(name), MAX_FILE_BYTES)
        except FileNotFoundError:
            raise StudioError(404, f"no file {name[:60]!r} in the folder", "see GET /api/catalogs") from None
        except (UnsafeTarget, OSError) as e:
            raise StudioError(409, f"{name[:60]} cannot be read: {getattr(e, 'strerror', None) or e}", "") from None
        return data.decode("utf-8", "replace")

    def catalog(self, name: str) -> Catalog:
        """A catalog of the folder by its plain file name, read without following a link;
        InputError or StudioError when it is not one."""
        return load_catalog(name, self.text(name))

    def write(self, name: str, text: str, overwrite: bool, asked: str) -> Path:
        """``text`` written as the folder's ``name``: whole or not at all, never through a link,
        never over a file unless ``overwrite`` (409 then, saying to send ``asked``: true)."""
        try:
            return write_file(self.directory, name, text.encode("utf-8", "surrogatepass"), overwrite=overwrite,
                              scratch=self.scratch)
        except TargetExists:
            raise StudioError(409, f"{name} exists already", f'send "{asked}": true to replace it') from None
        except UnsafeTarget as e:
            raise StudioError(409, f"{name} was not written: {e.strerror}", "remove what is in the way, or "
                              "choose another name") from None
        except (OSError, UnicodeEncodeError) as e:
            raise StudioError(409, f"cannot write {name}: {getattr(e, 'strerror', None) or e}",
                              "check the folder's permissions") from None


    # ------------------------------------------------------------ games/
    def game_file(self, name: str, limit: int) -> bytes:
        """The bytes of ``games/name``, a plain file (no link) of at most ``limit`` bytes; UnsafeTarget,
        FileNotFoundError or OSError otherwise."""
        return read_plain_file(self.games, name, limit)

    def write_game_log(self, game_id: str, text: str) -> None:
        """A finished game's log as ``games/ID.jsonl``, readable by its owner only (it shows every
        hand), replaced whole; OSError when it cannot be written."""
        self.games.mkdir(exist_ok=True)
        write_file(self.games, f"{game_id}.jsonl", text.encode(), overwrite=True, mode=0o600, scratch=self.scratch)


def _mission_text(path: Path) -> str:
    try:  # a regular file within the limit, checked before it is read (a FIFO is refused, never waited on)
        return read_regular(path, MAX_FILE_BYTES).decode("utf-8")
    except TooLarge:
        raise StudioError(413, f"{path.name} is over {megabytes(MAX_FILE_BYTES)}", "no mission is that large") \
            from None
    except (UnicodeDecodeError, OSError) as e:
        raise StudioError(422, f"cannot read {path.name} as UTF-8 text ({e})", "save it as UTF-8") from None
