"""What the studio's handlers work with: the folder, the catalog, the database, the table, the job
queue, the solve and thinking workers (``StudioContext``), and the typed dependencies that hand
them to a handler (``Ctx``, ``HostAuthority``, ``SeatGame``), so that no handler reaches into the
request for them."""

from __future__ import annotations

import concurrent.futures
import threading
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request
from fastapi import Path as PathParam

from solver import __version__
from solver.app.recordings import TapeCache
from solver.app.sheets import in_folder
from solver.io.catalog import Catalog, load_catalog
from solver.play.thinker import warm_up
from solver.runtime.cachedir import kernels_cached
from solver.runtime.workers import spawned_pool
from solver.studio.errors import StudioError
from solver.studio.folder import Folder
from solver.studio.jobqueue import JobManager
from solver.studio.live import LiveGame
from solver.studio.seats import SeatRefused
from solver.studio.store import Store
from solver.studio.table import Table
from solver.studio.thinking import Thinkers
from solver.studio.turns import BOT_PACE


class StudioContext:
    """What every handler may use: the folder, the catalog, the database, the table, the job queue
    and the solve worker. ``think_inline``: the table's bots think in a thread of this process
    (the tests' quick studio) rather than in worker processes."""

    def __init__(self, directory: str | Path, pieces: str | None, workers: int, warm: bool = True,
                 think_inline: bool = False, bot_pace: float = BOT_PACE):
        self.directory = Path(directory).resolve()
        self.pieces = pieces
        self.catalog = load_catalog(pieces)
        self.workers = workers
        self.warm = warm  # the kernels compiled and the thinking workers started ahead (the server; not the tests)
        self.store = Store(self.directory, __version__)
        self.folder = Folder(self.directory, self.store.folder / "tmp")  # its files, read and written safely
        self.store.jobs.stop_unfinished()
        self.jobs = JobManager(pieces, workers, warm=warm, store=self.store)
        self.thinkers = Thinkers(min(2, max(1, workers)), inline=think_inline)
        self.table = Table(self.folder, self.store, self.thinkers, bot_pace)  # the games played here
        self.table.sheet_resolver = lambda: in_folder(self.directory, self.catalog)  # as POST /api/records
        self.table.open()
        self.share_base: str | None = None  # the seats' links when it listens beyond this machine
        self.host_link: str | None = None  # the host's own link then (with its token), for other devices
        self.catalog_file: str | None = None  # the folder's catalog chosen in the page (None: --pieces or bundled)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        self.tapes = TapeCache()  # the Record tab's recordings as last replayed: a new entry replays only itself

    def solver_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                self._pool = spawned_pool(1)
            return self._pool

    def use_catalog(self, catalog: Catalog, file: str | None, path: str | None) -> None:
        """From now on, missions are read, solved, rated and played with this catalog."""
        self.catalog, self.catalog_file, self.pieces = catalog, file, path

    def start_work(self) -> None:
        """The workers again, after ``stop_work`` (a server's lifespan may start more than once);
        the thinking workers started at once where the kernels are compiled already."""
        self.jobs.restart()
        self.thinkers.reopen()
        if self.warm and not self.thinkers.inline and kernels_cached():
            self.table.on_first_game = lambda: self.thinkers.warm(warm_up)  # started with the first game
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


# ---------------------------------------------------------------- the handlers' dependencies
def context(request: Request) -> StudioContext:
    ctx: StudioContext = request.app.state.ctx
    return ctx


def host_authority(request: Request) -> bool:
    """Whether the request carries the host's authority (always on loopback; off loopback, the host
    token: security.Guard decides and says so in the request's state)."""
    return bool(request.scope.get("state", {}).get("host", True))


Ctx = Annotated[StudioContext, Depends(context)]
HostAuthority = Annotated[bool, Depends(host_authority)]


SeatNumber = Annotated[int, PathParam(ge=0, le=3, description="a seat of the table, from 0")]


def seat_game(game_id: str, seat: SeatNumber, ctx: Ctx, token: str | None = None) -> LiveGame:
    """The game of a seat's request, if ``token`` is that seat's: 404 for no such game, 403 otherwise."""
    try:
        live = ctx.table.seats.game(game_id, seat, token)
    except SeatRefused as e:
        raise StudioError(403, str(e), e.fix) from None
    if live is None:
        raise StudioError(404, f"no game {game_id[:40]!r}", "see GET /api/games")
    return live


SeatGame = Annotated[LiveGame, Depends(seat_game)]
