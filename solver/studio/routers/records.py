"""`/api/records`: a game played with the printed cards, recorded from its sheet (the game written
down trick by trick, as `kakapo record` reads it); it joins the folder's games with its names,
ready to review and rate. The sheet's ``mission:`` is a bundled id or a mission file of ``--dir``,
its ``pieces:`` a catalog of ``--dir`` (without it, the catalog in use)."""

from __future__ import annotations

from fastapi import APIRouter

from solver.app.documents import Doc
from solver.app.recording import Resolve, record_text
from solver.core.errors import InputError
from solver.core.rules import Mission
from solver.io.catalog import Catalog
from solver.io.missionfile import load_mission
from solver.io.sheet import Sheet
from solver.studio.context import Ctx, StudioContext
from solver.studio.errors import StudioError, refused
from solver.studio.models import RecordRequest
from solver.studio.responses import ERRORS, RecordDoc
from solver.studio.routers.catalogs import catalog_name, read_dir_catalog
from solver.studio.routers.missions import open_mission

router = APIRouter(prefix="/api", tags=["records"], responses=ERRORS)


def _resolver(ctx: StudioContext) -> Resolve:
    def resolve(sheet: Sheet) -> tuple[Catalog, Mission]:
        ref = sheet.mission.removesuffix(".toml")
        try:
            found = open_mission(ref, ctx)
        except StudioError as e:
            raise sheet.error(f"mission: {sheet.mission[:60]!r}: {e.message}", "give a bundled id (kakapo list) or "
                              "the name of a mission file in the studio's folder", sheet.lines["mission"]) from None
        if sheet.pieces:
            try:
                catalog = read_dir_catalog(ctx, catalog_name(sheet.pieces))
            except StudioError as e:
                raise sheet.error(f"pieces: {e.message}", "give a catalog file of the studio's folder",
                                  sheet.lines["pieces"]) from None
        else:
            catalog = ctx.catalog
        return catalog, load_mission(found["file"], catalog, text=found["text"], mission_id=found["id"])

    return resolve


@router.post("/records", response_model=RecordDoc)
def record_sheet(body: RecordRequest, ctx: Ctx) -> Doc:
    """The sheet checked against the rules (422 naming the line, the round, the person and the
    rule) and kept as a finished game of this folder: ``{"game": id, "log": JSON Lines}``."""
    try:
        recorded = record_text(body.sheet, "the sheet", _resolver(ctx))
    except InputError as e:  # the line apart too: the page marks it on the sheet
        raise StudioError(422, refused(e).message, e.fix, e.line) from None
    state = recorded.state
    game_id = ctx.table.add_record(recorded, state.mission, state.catalog)
    return {"game": game_id, "log": recorded.text, "rounds": state.rounds_played(), "result": state.result(),
            "names": list(recorded.names)}
