"""`/api/games/export` and `/api/games/import`: the folder's finished games as one JSON Lines file,
and such a file from another studio taken in (app/pooling.py), so that a club pools its tables'
games. Only finished games go out, never a token; every game coming in is replayed by the rules."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import PlainTextResponse, Response

from solver.app.documents import Doc
from solver.app.pooling import export_text, import_pool, same_game
from solver.app.sheets import in_folder
from solver.app.tables import finished_games
from solver.core.errors import InputError
from solver.studio.context import Ctx, HostAuthority, StudioContext
from solver.studio.errors import StudioError, refused
from solver.studio.models import PoolRequest
from solver.studio.responses import ERRORS, LOGS, PoolImported

router = APIRouter(prefix="/api/games", tags=["games"], responses=ERRORS)


def _finished_logs(ctx: StudioContext) -> list[tuple[str, str]]:
    out = []
    for g in finished_games(ctx.table.listing()):
        text, _ = ctx.table.log_of(g["id"])
        if text:
            out.append((g["id"], text))
    return out


def _host(host: bool) -> None:
    if not host:
        raise StudioError(403, "the folder's games are the host's to export or import", "")


@router.get("/export", response_class=Response, responses=LOGS)
def export(ctx: Ctx, host: HostAuthority, names: bool = True) -> PlainTextResponse:
    """Every finished game of the folder, its log, one after another (``names=false``: without the
    people's names); no unfinished game, no token."""
    _host(host)
    text = export_text([log for _, log in _finished_logs(ctx)], names)
    return PlainTextResponse(text, media_type="application/x-ndjson",
                             headers={"Content-Disposition": 'attachment; filename="kakapo-games.jsonl"',
                                      "Cache-Control": "no-store"})


async def _pooled(request: Request) -> PoolRequest:
    """The file: the body itself (the JSON Lines file, as export gives it), or ``{"text", "name"?}``."""
    raw = await request.body()
    try:
        doc = json.loads(raw) if request.headers.get("content-type", "").startswith("application/json") else None
        if isinstance(doc, dict):
            return PoolRequest.model_validate(doc)
        return PoolRequest(text=raw.decode("utf-8"))
    except RecursionError:
        raise StudioError(422, "not a file of games: values nested deeper than any game's log",
                          'send the file GET /api/games/export wrote, or {"text": FILE}') from None
    except (ValueError, UnicodeDecodeError) as e:
        raise StudioError(422, f"not a file of games: {str(e)[:200]}",
                          'send the file GET /api/games/export wrote, or {"text": FILE}') from None


Pooled = Annotated[PoolRequest, Depends(_pooled)]


@router.post("/import", response_model=PoolImported)
def import_games(ctx: Ctx, host: HostAuthority, body: Pooled) -> Doc:
    """A pooled file's games joined to the folder's (finished, with their names): ``{"imported":
    [ids], "held": n, "refused": [{"game", "line", "message", "fix"}]}``; 422 when it is not one.
    The body is the file itself, or ``{"text": FILE, "name"?}``."""
    _host(host)
    held = {key for _, log in _finished_logs(ctx) if (key := same_game(log)) is not None}
    try:
        pooled = import_pool(body.text, body.name or "the file", held, in_folder(ctx.directory, ctx.catalog))
    except InputError as e:
        raise refused(e) from None
    ids = [ctx.table.add_record(r, r.state.mission, r.state.catalog) for r in pooled.games]
    return {"imported": ids, "held": pooled.held, "refused": pooled.refused}
