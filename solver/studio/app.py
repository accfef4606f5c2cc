"""The studio's application: its context (folder, catalog, database, table, job, solve and
thinking workers), the routers, the page, and one JSON error document for every refusal (never a
traceback)."""

from __future__ import annotations

import concurrent.futures
import contextlib
import threading
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException

from solver import __version__
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.runtime.workers import spawned_pool
from solver.studio.errors import StudioError
from solver.studio.jobs import JobManager
from solver.studio.routers import checks, games, jobs, missions
from solver.studio.security import Guard
from solver.studio.store import Store
from solver.studio.table import Table
from solver.studio.thinking import Thinkers

STATIC = resources.files("solver.studio") / "static"
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}


class StudioContext:
    """What every handler may use: the folder, the catalog, the database, the table, the job queue
    and the solve worker. ``think_inline``: the table's bots think in a thread of this process
    (the tests' quick studio) rather than in worker processes."""

    def __init__(self, directory: str | Path, pieces: str | None, workers: int, warm: bool = True,
                 think_inline: bool = False):
        self.directory = Path(directory).resolve()
        self.pieces = pieces
        self.catalog = load_catalog(pieces)
        self.workers = workers
        self.store = Store(self.directory, __version__)
        self.store.stop_unfinished_jobs()
        self.jobs = JobManager(pieces, workers, warm=warm, store=self.store)
        self.thinkers = Thinkers(min(2, max(1, workers)), inline=think_inline)
        self.table = Table(self.directory, self.store, self.thinkers)  # the games played here
        self.table.open()
        self.share_base: str | None = None  # the seats' links when it listens beyond this machine
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def solver_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = spawned_pool(1)
            return self._pool

    def mission_of_file(self, path: Path):
        return load_mission(path, self.catalog)

    def start_work(self) -> None:
        """The workers again, after ``stop_work`` (a server's lifespan may start more than once)."""
        self.jobs.restart()
        self.thinkers.reopen()
        self.table.resume()

    def stop_work(self) -> None:
        """End the jobs, the thinking and the solve worker (the database stays open)."""
        self.table.close()
        self.jobs.shutdown()
        self.thinkers.close()
        with self._pool_lock:
            if self._pool is not None:
                for p in list(getattr(self._pool, "_processes", {}).values()):
                    p.terminate()
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None

    def close(self) -> None:
        self.stop_work()
        self.store.close()


def create_app(directory: str | Path = ".", pieces: str | None = None, workers: int = 1,
               warm: bool = True, host_token: str | None = None, think_inline: bool = False) -> Guard:
    """The ASGI application (the security guard around FastAPI); ``.app.state.ctx`` its context.
    ``host_token``: the token every request needs but a seat's own (off loopback)."""
    ctx = StudioContext(directory, pieces, workers, warm, think_inline)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        ctx.start_work()
        yield
        ctx.stop_work()  # the jobs, the thinking and the solve worker end with the server

    api = FastAPI(title="kakapo studio", docs_url=None, redoc_url=None, openapi_url="/api/openapi.json",
                  lifespan=lifespan)
    api.state.ctx = ctx
    for r in (missions.router, checks.router, jobs.router, games.router):
        api.include_router(r)

    @api.exception_handler(StudioError)
    async def studio_error(_request: Request, e: StudioError):
        return JSONResponse({"error": {"message": e.message, "fix": e.fix}}, status_code=e.status)

    @api.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, e: RequestValidationError):
        first = e.errors()[0] if e.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        message = f"{where}: {first.get('msg', 'malformed request')}" if where else first.get("msg", "malformed")
        return JSONResponse({"error": {"message": message, "fix": "send the JSON body the API describes (SPEC)"}},
                            status_code=422)

    @api.exception_handler(HTTPException)
    async def http_error(_request: Request, e: HTTPException):
        fix = "see GET /api/missions and the SPEC's API" if e.status_code == 404 else ""
        return JSONResponse({"error": {"message": str(e.detail), "fix": fix}}, status_code=e.status_code)

    @api.exception_handler(Exception)
    async def unexpected(_request: Request, e: Exception):
        return JSONResponse({"error": {"message": f"internal error: {type(e).__name__}", "fix": "report it"}},
                            status_code=500)

    @api.get("/api/status")
    def status(request: Request) -> dict:
        doc: dict = {"kernels": ctx.jobs.kernels}
        if games.host_ok(request):  # where things are, for the host only
            doc.update({"dir": str(ctx.directory), "catalog": ctx.catalog.source, "state": str(ctx.store.path),
                        "notes": list(ctx.table.notes)})
        return doc

    @api.get("/", response_class=HTMLResponse)
    def page() -> Response:
        return _static("index.html")

    @api.get("/favicon.ico")
    def favicon() -> Response:
        return Response(status_code=204)

    @api.get("/static/{name}")
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
