"""The studio's application: the routers around its context (``context``), the page, and one JSON
error document for every refusal (never a traceback)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException

from solver.app.documents import Doc
from solver.studio.context import HostAuthority, StudioContext
from solver.studio.database import StoreBusy
from solver.studio.errors import StudioError
from solver.studio.links import qr_rows
from solver.studio.responses import ERRORS, Status
from solver.studio.routers import (
    catalogs,
    checks,
    games,
    jobs,
    missions,
    pool,
    printing,
    recordings,
    records,
    rules,
    tables,
)
from solver.studio.security import Guard
from solver.studio.turns import BOT_PACE

STATIC = resources.files("solver.studio") / "static"
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}


def create_app(directory: str | Path = ".", pieces: str | None = None, workers: int = 1,
               warm: bool = True, host_token: str | None = None, think_inline: bool = False,
               bot_pace: float = BOT_PACE) -> Guard:
    """The ASGI application (the security guard around FastAPI); ``.app.state.ctx`` its context.
    ``host_token``: the token every request needs but a seat's own (off loopback). ``bot_pace``:
    the least time between a bot's move and the move before it, at a table of people."""
    ctx = StudioContext(directory, pieces, workers, warm, think_inline, bot_pace)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        ctx.start_work()
        yield
        ctx.stop_work()  # the jobs, the thinking and the solve worker end with the server

    api = FastAPI(title="kakapo studio", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json",
                  lifespan=lifespan)
    api.state.ctx = ctx
    for r in (missions.router, catalogs.router, checks.router, jobs.router, pool.router, games.router,
              records.router, recordings.router, tables.router, rules.router, rules.pages, printing.router):
        api.include_router(r)

    @api.exception_handler(StudioError)
    async def studio_error(_request: Request, e: StudioError) -> JSONResponse:
        error: dict[str, object] = {**e.more, "message": e.message, "fix": e.fix}
        if e.line is not None:
            error["line"] = e.line
        return JSONResponse({"error": error}, status_code=e.status)

    @api.exception_handler(StoreBusy)
    async def busy(_request: Request, _e: StoreBusy) -> JSONResponse:
        return JSONResponse({"error": {"message": "another program holds the studio's database locked: nothing was "
                                                  "changed", "fix": "close the program that holds "
                                                  ".kakapo/studio.sqlite3 open, then try again"}},
                            status_code=503, headers={"Retry-After": "2"})

    @api.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0] if e.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        message = f"{where}: {first.get('msg', 'malformed request')}" if where else first.get("msg", "malformed")
        return JSONResponse({"error": {"message": message, "fix": "send the JSON body the API describes "
                                                                  "(GET /api/openapi.json)"}}, status_code=422)

    @api.exception_handler(HTTPException)
    async def http_error(_request: Request, e: HTTPException) -> JSONResponse:
        if e.status_code == 400 and "parsing the body" in str(e.detail):  # FastAPI's words for a body it cannot read
            return JSONResponse({"error": {"message": "the request's body is not JSON the studio reads (malformed, "
                                                      "or nested deeper than any request needs)",
                                           "fix": "send the JSON body the API describes (GET /api/openapi.json)"}},
                                status_code=400)
        fix = "see GET /api/openapi.json for what the studio answers" if e.status_code == 404 else ""
        return JSONResponse({"error": {"message": str(e.detail), "fix": fix}}, status_code=e.status_code)

    @api.exception_handler(RecursionError)
    async def too_deep(_request: Request, _e: RecursionError) -> JSONResponse:
        # what a request or a file it names holds is nested deeper than anything the studio reads
        return JSONResponse({"error": {"message": "what was sent is nested deeper than anything the studio reads",
                                       "fix": "send the JSON body the API describes (GET /api/openapi.json)"}},
                            status_code=422)

    @api.exception_handler(Exception)
    async def unexpected(_request: Request, e: Exception) -> JSONResponse:
        return JSONResponse({"error": {"message": f"internal error: {type(e).__name__}", "fix": "report it"}},
                            status_code=500)

    @api.get("/api/status", response_model=Status, responses=ERRORS)
    def status(host: HostAuthority) -> Doc:
        doc: Doc = {"kernels": ctx.jobs.kernels, "kernels_progress": round(ctx.jobs.kernels_progress(), 3),
                    "host": host, "link": None}
        if host:  # where things are, and the host's own link to open on another device, for the host only
            doc.update({"dir": str(ctx.directory), "catalog": ctx.catalog.source, "state": str(ctx.store.path),
                        "notes": list(ctx.table.notes)})
            if ctx.host_link is not None:
                doc["link"] = {"url": ctx.host_link, "qr": qr_rows(ctx.host_link)}
        return doc

    @api.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page() -> Response:
        res = _static("index.html")  # the host's link (/?token=T) opens it: its address is never cached
        res.headers["Cache-Control"] = "no-store"
        return res

    @api.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    @api.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> Response:
        return _static(name)

    guard = Guard(api, host_token=host_token)
    guard.state = api.state  # so that tests and the server reach the context through the guard
    return guard


def _static(name: str) -> Response:
    suffix = Path(name).suffix
    if "/" in name or "\\" in name or name.startswith(".") or suffix not in TYPES:
        raise StudioError(404, f"no file {name[:40]!r}", "")
    item = STATIC / name
    if not item.is_file():
        raise StudioError(404, f"no file {name[:40]!r}", "")
    return Response(item.read_bytes(), media_type=TYPES[suffix],
                    headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
                             "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                                        "style-src 'self'; script-src 'self'; object-src 'none'; "
                                                        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"})
