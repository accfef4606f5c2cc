"""`/api/missions`: the bundled campaign and the missions in ``--dir``; open one, save one."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import APIRouter

from solver.app.documents import Doc
from solver.core.errors import InputError
from solver.io.catalog import is_catalog_text
from solver.io.difficulty import campaign_listing, file_key, find_campaign, listed_figures
from solver.io.missionfile import mission_fit
from solver.io.paths import bundled_mission
from solver.io.safefiles import TargetExists, TooLarge, UnsafeTarget, read_plain_file, read_regular, write_file
from solver.studio.context import Ctx, StudioContext
from solver.studio.errors import StudioError
from solver.studio.models import SaveRequest
from solver.studio.responses import ERRORS, MissionFile, MissionRow, Saved

router = APIRouter(prefix="/api/missions", tags=["missions"], responses=ERRORS)
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,120}$")


def safe_file(directory: Path, name: str) -> Path:
    """DIR/name for a plain file name ending in .toml (no folder, no '..'); 400 otherwise."""
    if "/" in name or "\\" in name or ".." in name or not name.endswith(".toml") or not NAME.match(name):
        raise StudioError(400, f"{name[:60]!r} is not a mission file name",
                          "give a plain name ending in .toml, such as my_mission.toml (no folders)")
    return directory / name  # a link in its place is refused when written (safefiles), never followed


def inside(directory: Path, path: Path) -> bool:
    """Whether ``path`` (links followed) is a file of ``directory`` itself: a link to elsewhere is not."""
    return path.resolve().parent == directory.resolve()


def dir_missions(ctx: StudioContext) -> list[Doc]:
    """The folder's missions (a file is a mission or a catalog by what it holds: catalogs are
    listed by /api/catalogs), each with ``fits`` (and ``why`` not) for the catalog in use."""
    out = []
    for path in sorted(ctx.directory.glob("*.toml")):
        if path.name == "pieces.toml" or not inside(ctx.directory, path) or not path.is_file() \
                or path.stat().st_size > 1_000_000:
            continue
        try:
            text = read_plain_file(ctx.directory, path.name, 1_000_000).decode("utf-8", "replace")
        except OSError:
            continue
        if is_catalog_text(text):
            continue
        row: Doc = {"id": path.stem, "source": "dir", "file": path.name, "name": None, "mode": None, "valid": False,
                    "fits": False, "why": None}
        try:
            m, why = mission_fit(path, ctx.catalog, text)
            row.update({"name": m.name, "mode": m.mode, "players": list(m.player_counts()), "valid": True,
                        "fits": why is None, "why": why})
        except InputError as e:
            row["why"] = (f"line {e.line}: " if e.line else "") + e.problem
        out.append(row)
    return out


@router.get("", response_model=list[MissionRow])
def list_missions(ctx: Ctx) -> list[Doc]:
    """The bundled missions and the folder's, each with the figures of the campaign measured for the
    catalog in use (``campaign_source``: "bundled", the difficulty.json they come from, or null when
    none was measured for that catalog), as `kakapo list [DIR] --pieces FILE` gives them."""
    listed, _ = campaign_listing(ctx.catalog, None, (ctx.directory,))
    bundled = [{**row, "source": "bundled", "file": Path(row["file"]).name} for row in listed]
    own = dir_missions(ctx)
    campaign = find_campaign(ctx.catalog, ctx.directory, (), [file_key(ctx.directory / r["file"]) for r in own])
    for row in own:
        row.update(listed_figures(campaign, Path(row["file"]).stem, file_key(ctx.directory / row["file"]),
                                  row.get("players") or []))
    return bundled + own


@router.get("/{mission_id}", response_model=MissionFile)
def open_mission(mission_id: str, ctx: Ctx) -> Doc:
    if not NAME.match(mission_id) or ".." in mission_id:
        raise StudioError(404, f"no mission {mission_id[:60]!r}", "pick one from GET /api/missions")
    own = (ctx.directory / f"{mission_id}.toml").resolve()
    if inside(ctx.directory, own) and own.is_file():
        return {"id": mission_id, "source": "dir", "file": own.name, "text": _read(own)}
    found = bundled_mission(mission_id)
    if found is None:
        raise StudioError(404, f"no mission {mission_id!r}", "pick one from GET /api/missions")
    return {"id": mission_id, "source": "bundled", "file": found.name, "text": _read(found)}


def _read(path: Path) -> str:
    try:  # a regular file within the limit, checked before it is read (a FIFO is refused, never waited on)
        return read_regular(path, 1_000_000).decode("utf-8")
    except TooLarge:
        raise StudioError(413, f"{path.name} is over 1 MB", "no mission is that large") from None
    except (UnicodeDecodeError, OSError) as e:
        raise StudioError(422, f"cannot read {path.name} as UTF-8 text ({e})", "save it as UTF-8") from None


@router.post("", response_model=Saved)
def save_mission(body: SaveRequest, ctx: Ctx) -> Doc:
    """Writes DIR/file: whole or not at all, never through a link, never over a file unasked."""
    path = safe_file(ctx.directory, body.file)
    try:
        write_file(ctx.directory, path.name, body.text.encode("utf-8", "surrogatepass"), overwrite=body.overwrite,
                   scratch=ctx.store.folder / "tmp")
    except TargetExists:
        raise StudioError(409, f"{body.file} exists already", 'send "overwrite": true to replace it') from None
    except UnsafeTarget as e:
        raise StudioError(409, f"{body.file} was not written: {e.strerror}", "remove what is in the way, or "
                          "choose another name") from None
    except (OSError, UnicodeEncodeError) as e:
        raise StudioError(409, f"cannot write {body.file}: {getattr(e, 'strerror', None) or e}",
                          "check the folder's permissions") from None
    return {"file": path.name, "saved": True}
