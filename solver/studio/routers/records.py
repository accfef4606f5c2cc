"""`/api/records`: a game played with the printed cards, recorded from its sheet (the game written
down trick by trick, as `kakapo record` reads it); it joins the folder's games with its names,
ready to review and rate. The sheet's ``mission:`` is a bundled id or a mission file of ``--dir``,
its ``pieces:`` a catalog of ``--dir`` (without it, the catalog in use), by their plain names."""

from __future__ import annotations

from fastapi import APIRouter

from solver.app.documents import Doc
from solver.app.sheets import Resolve, game_of_sheet_text, in_folder
from solver.core.errors import InputError
from solver.studio.context import Ctx, StudioContext
from solver.studio.errors import StudioError, refused
from solver.studio.models import RecordRequest
from solver.studio.responses import ERRORS, RecordDoc

router = APIRouter(prefix="/api", tags=["records"], responses=ERRORS)


def _resolver(ctx: StudioContext) -> Resolve:
    """A sheet's ``mission:`` and ``pieces:`` as the studio finds them (app/sheets.py, the same
    for the sheets dropped into ``games/``): a bundled id or a plain file name of ``--dir``."""
    return in_folder(ctx.directory, ctx.catalog)


@router.post("/records", response_model=RecordDoc)
def record_sheet(body: RecordRequest, ctx: Ctx) -> Doc:
    """The sheet checked against the rules (422 naming the line, the round, the person and the
    rule) and kept as a finished game of this folder: ``{"game": id, "log": JSON Lines}``."""
    try:
        recorded = game_of_sheet_text(body.sheet, "the sheet", _resolver(ctx))
    except InputError as e:  # the line apart too: the page marks it on the sheet
        raise StudioError(422, refused(e).message, e.fix, e.line) from None
    state = recorded.state
    game_id = ctx.table.add_record(recorded, state.mission, state.catalog)
    return {"game": game_id, "log": recorded.text, "rounds": state.rounds_played(), "result": state.result(),
            "names": list(recorded.names)}
