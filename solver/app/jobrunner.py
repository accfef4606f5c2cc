"""The long work as the studio runs it in its worker processes: a job run by its kind's runner
(``registry.JOBS``: each answers the document of the command of that name with --json, telling its
progress as a fraction); and the warm-up that loads (or compiles) the kernels the jobs use."""

from __future__ import annotations

import os
from concurrent.futures import as_completed

from solver.app.documents import Doc, Fraction, Shown
from solver.app.registry import JOBS
from solver.game.planner import planner_library
from solver.game.state import deal
from solver.io.catalog import Catalog
from solver.io.missionfile import load_mission
from solver.io.paths import bundled_mission
from solver.io.replays import Replays
from solver.runtime.workers import process_pool, stop_pool


def run_job(request: Doc, catalog: Catalog, workers: int, progress: Fraction | None = None,
            shown: Shown | None = None, replays: Replays | None = None) -> Doc:
    """A job's document: its kind's runner (``registry.JOBS``) on ``request`` as the studio's job
    model gives it; ``shown(piece)`` the pieces of the answer known before the whole (a review's
    decisions, as each is judged); ``replays``: where the rate and calibrate jobs keep the games'
    replays (the studio's database), so that the next job replays only the new games."""
    return JOBS[request["kind"]].run(request, catalog, workers, progress or (lambda _f: None), shown, replays)


# what the jobs compile, in parts that compile side by side (the longest first): the engine's kernel
# (every one-step player; the planner's first library needs the cover search), the search player's,
# and the open-hand search of the ceiling
WARM_PARTS = ("search", "engine", "ceiling")


def _warm_part(part: str, catalog: Catalog) -> str:
    from solver.analysis.simulate import play_games  # heavy: Numba

    m = load_mission(bundled_mission("b01") or "b01", catalog)
    if part == "engine":
        play_games(m, catalog, 2, 2, 1, "planner", "numba", 1)
    elif part == "search":
        play_games(m, catalog, 2, 2, 1, "search", "numba", 1, samples=2)
    else:  # the open-hand search, which the ceiling runs on the deals no player cleared
        from solver.game.arrays import build_arrays  # heavy: Numba
        from solver.openhand.witness import witness_moves  # heavy: Numba

        witness_moves(deal(m, catalog, 2, 1), build_arrays(m, catalog, planner_library(m, catalog)), 1, 10)
    return part


def warm_up(catalog: Catalog, progress: Fraction | None = None, workers: int | None = None) -> None:
    """Load (or compile, the first time) the kernels the jobs use, on a small bundled mission: the
    parts in worker processes at once (a kernel is compiled by one process at a time, so a job
    that starts meanwhile waits for it rather than compiling it again: runtime/jit.py), the
    solver's first answer here meanwhile. ``progress``: the fraction of the steps done (the answer,
then each part)."""
    from solver.puzzle.answer import answer  # heavy: OR-Tools

    workers = max(1, min(len(WARM_PARTS), workers or os.cpu_count() or 1))
    pool = process_pool(workers)
    try:
        parts = [pool.submit(_warm_part, part, catalog) for part in WARM_PARTS]
        steps = len(parts) + 1
        answer(load_mission(bundled_mission("b01") or "b01", catalog), catalog, 2, [], None, 10.0)
        if progress is not None:
            progress(1 / steps)
        for done, part in enumerate(as_completed(parts), 2):
            part.result()
            if progress is not None:
                progress(done / steps)
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown()
