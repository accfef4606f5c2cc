"""`/api/validate` and `/api/solve`: a mission text checked at once, and solved in a worker process."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter

from solver.app.documents import Doc
from solver.app.inputs import excluded_pieces
from solver.app.solving import check_text, solve_text
from solver.core.errors import InputError
from solver.io.catalog import load_catalog
from solver.studio.context import Ctx
from solver.studio.errors import refused
from solver.studio.models import MissionText, SolveRequest
from solver.studio.responses import ERRORS, CheckDoc, SolveDoc

router = APIRouter(prefix="/api", tags=["checks"], responses=ERRORS)


@router.post("/validate", response_model=CheckDoc)
def validate(body: MissionText, ctx: Ctx) -> Doc:
    return check_text(body.text, ctx.catalog, body.name)


@router.post("/solve", response_model=SolveDoc)
async def solve(body: SolveRequest, ctx: Ctx) -> Doc:
    try:
        future = ctx.solver_pool().submit(solve_in_worker, body.text, ctx.pieces, body.name, body.players,
                                          body.count, body.time_limit, body.exclude)
        doc: Doc = await asyncio.wrap_future(future)
        return doc
    except InputError as e:
        raise refused(e) from None


def solve_in_worker(text: str, pieces: str | None, name: str | None, players: int | None, count: bool,
                    time_limit: float, exclude: list[str]) -> Doc:
    """In the solve worker: the `solve --json` document (InputError goes back to the request)."""
    return solve_text(text, load_catalog(pieces), name, players, count, time_limit, cap=100,
                      exclude=excluded_pieces(exclude))
