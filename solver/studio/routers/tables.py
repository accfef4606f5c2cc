"""`/api/tables`: the folder's tables (the people who play, by their names) with their finished
games and results; their levels, checked predictions and what to play next come from the job
``calibrate`` (POST /api/jobs)."""

from __future__ import annotations

from fastapi import APIRouter

from solver.app.documents import Doc
from solver.app.tables import tables_listing
from solver.studio.context import Ctx
from solver.studio.responses import ERRORS, TableRow

router = APIRouter(prefix="/api", tags=["tables"], responses=ERRORS)


@router.get("/tables", response_model=list[TableRow])
def tables(ctx: Ctx) -> list[Doc]:
    """``[{"table", "names", "games", "cleared", "ids", "missions": [{"mission", "players", "games",
    "cleared"}]}]``, the tables with the most games first."""
    return tables_listing(ctx.table.listing())
