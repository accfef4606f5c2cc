"""`/api/missions`: the bundled campaign and the missions in ``--dir``; open one, save one."""

from __future__ import annotations

from fastapi import APIRouter

from solver.app.documents import Doc
from solver.studio.context import Ctx
from solver.studio.folder import mission_file_name
from solver.studio.models import SaveRequest
from solver.studio.responses import ERRORS, MissionFile, MissionRow, Saved

router = APIRouter(prefix="/api/missions", tags=["missions"], responses=ERRORS)


@router.get("", response_model=list[MissionRow])
def list_missions(ctx: Ctx) -> list[Doc]:
    """The bundled missions and the folder's, each with the figures of the campaign measured for the
    catalog in use (``campaign_source``: "bundled", the difficulty.json they come from, or null when
    none was measured for that catalog), as `kakapo list [DIR] --pieces FILE` gives them."""
    return ctx.folder.missions(ctx.catalog)


@router.get("/{mission_id}", response_model=MissionFile)
def open_mission(mission_id: str, ctx: Ctx) -> Doc:
    return ctx.folder.mission(mission_id)


@router.post("", response_model=Saved)
def save_mission(body: SaveRequest, ctx: Ctx) -> Doc:
    """Writes DIR/file: whole or not at all, never through a link, never over a file unasked."""
    path = ctx.folder.write(mission_file_name(body.file), body.text, body.overwrite, "overwrite")
    return {"file": path.name, "saved": True}
