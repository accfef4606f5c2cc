"""`/api/print` and `/api/packs`: the mission in the editor printed for the table (its card, or a
blank game sheet: a PDF), the folder as a pack to share, and a pack joined to the folder (its
missions, catalogs and campaign; nothing overwritten)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response

from solver.app.documents import Doc
from solver.app.packs import make_pack, open_pack_into
from solver.app.printed import print_text
from solver.core.errors import InputError
from solver.io.catalog import load_catalog
from solver.studio.context import Ctx, HostAuthority
from solver.studio.errors import StudioError, refused
from solver.studio.models import PrintRequest
from solver.studio.responses import ERRORS, PACK, PDF, PackOpened

router = APIRouter(prefix="/api", tags=["printing"], responses=ERRORS)
SAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{SAFE_NAME.sub("_", name)[:80] or "kakapo"}"',
            "Cache-Control": "no-store"}


@router.post("/print", response_class=Response, responses=PDF)
async def print_mission(body: PrintRequest, ctx: Ctx) -> Response:
    """The mission's card to set up the board, or with ``"sheet": true`` a blank game sheet for
    ``players`` laid out as `kakapo record` reads it (application/pdf); 422 for a mission that
    does not read, or a table size its mode is not played by."""
    try:  # in the solve worker: the fewest pieces are solved, and the drawing keeps to one process
        future = ctx.solver_pool().submit(print_in_worker, body.text, ctx.pieces, body.name, body.paper, body.sheet,
                                          body.players)
        pdf: bytes = await asyncio.wrap_future(future)
    except InputError as e:
        raise refused(e) from None
    stem = Path(body.name or "mission.toml").stem or "mission"
    return Response(pdf, media_type="application/pdf",
                    headers=_attachment(f"{stem}-{'sheet' if body.sheet else 'card'}.pdf"))


def print_in_worker(text: str, pieces: str | None, name: str | None, paper: str, sheet: bool,
                    players: int | None) -> bytes:
    return print_text(text, load_catalog(pieces), name, paper, sheet, players)


def _host(host: bool) -> None:
    if not host:
        raise StudioError(403, "the folder's packs are the host's to download or open", "")


@router.get("/packs/folder", response_class=Response, responses=PACK)
def folder_pack(ctx: Ctx, host: HostAuthority) -> Response:
    """The folder as a pack: its missions, the catalogs they were made with, its campaign and a
    README (application/zip); 422 naming a mission that does not read."""
    _host(host)
    try:
        packed = make_pack(ctx.directory)
    except InputError as e:
        raise StudioError(422, f"{Path(e.path).name}: " + (f"line {e.line}: " if e.line else "") + e.problem,
                          e.fix or "fix it, or move it out of the folder") from None
    return Response(packed.data, media_type="application/zip",
                    headers=_attachment(f"{ctx.directory.name or 'folder'}.kakapo"))


@router.post("/packs", response_model=PackOpened,
             openapi_extra={"requestBody": {"required": True, "content": {"application/zip": {
                 "schema": {"type": "string", "format": "binary"}}}}})
async def open_pack(request: Request, ctx: Ctx, host: HostAuthority) -> Doc:
    """A pack (the body: the file's bytes) joined to the folder: each mission, catalog and campaign
    written under its own name when the folder has none, ``held`` when the folder has the same
    file, ``refused`` when it has another file of that name (never overwritten) or a mission does
    not read. A hostile pack (a member outside the folder, a link, sizes past the limits) is 422
    naming the member, and nothing is written."""
    _host(host)
    data = await request.body()
    try:
        return open_pack_into(data, "the pack", ctx.directory, ctx.store.folder / "tmp")
    except InputError as e:
        raise refused(e) from None
