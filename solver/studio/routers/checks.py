"""`/api/validate` and `/api/solve`: a mission text checked at once, and solved in a worker process."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request

from solver.app.solving import check_text, solve_text
from solver.core.errors import InputError
from solver.io.catalog import load_catalog
from solver.studio.errors import StudioError
from solver.studio.models import MissionText, SolveRequest

router = APIRouter(prefix="/api", tags=["checks"])


@router.post("/validate")
def validate(body: MissionText, request: Request) -> dict:
    return check_text(body.text, request.app.state.ctx.catalog, body.name)


@router.post("/solve")
async def solve(body: SolveRequest, request: Request) -> dict:
    ctx = request.app.state.ctx
    try:
        future = ctx.solver_pool().submit(solve_in_worker, body.text, ctx.pieces, body.name, body.players,
                                          body.count, body.time_limit)
        return await asyncio.wrap_future(future)
    except InputError as e:
        raise StudioError(422, e.problem, e.fix) from None


def solve_in_worker(text: str, pieces: str | None, name: str | None, players: int | None, count: bool,
                    time_limit: float) -> dict:
    """In the solve worker: the `solve --json` document (InputError goes back to the request)."""
    return solve_text(text, load_catalog(pieces), name, players, count, time_limit, cap=100)
