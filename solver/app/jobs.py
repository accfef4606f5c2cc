"""The long work as the studio runs it in its worker processes: one function per job kind of the
registry, each answering the document of the command of that name with --json, and telling its
progress as a fraction; and the warm-up that loads (or compiles) the kernels the jobs use."""

from __future__ import annotations

from solver.app.documents import Doc, Fraction, Shown
from solver.app.games import rate_texts, review_text
from solver.app.measuring import mission_job
from solver.app.registry import JOBS
from solver.io.catalog import Catalog
from solver.io.missionfile import load_mission
from solver.io.paths import bundled_mission


def run_job(request: Doc, catalog: Catalog, workers: int, progress: Fraction | None = None,
            shown: Shown | None = None) -> Doc:
    """A job's document; ``request`` as the studio's job model gives it (its ``kind`` one of
    ``registry.JOBS``); ``shown(piece)`` the pieces of the answer known before the whole (a
    review's decisions, as each is judged)."""
    kind = request["kind"]
    needs = JOBS[kind].needs
    if needs == "log":
        return review_text(request["text"], request.get("name") or "the log", progress=progress, workers=workers,
                           judged=shown)
    if needs == "games":
        return rate_texts(dict(zip(request["names"], request["texts"], strict=True)), workers, progress)
    return mission_job(kind, request["text"], catalog, request.get("name"), request.get("players"),
                       request["games"], request["seed"], request.get("policy"), workers, progress, request)


def warm_up(catalog: Catalog) -> None:
    """Load (or compile, the first time) the kernels the jobs use, on a small bundled mission."""
    from solver.analysis.simulate import play_games  # heavy: Numba
    from solver.puzzle.answer import answer  # heavy: OR-Tools

    m = load_mission(bundled_mission("b01") or "b01", catalog)
    for policy in ("heuristic", "planner", "greedy", "search"):
        play_games(m, catalog, 2, 2, 1, policy, "numba", 1, samples=2)
    answer(m, catalog, 2, [], None, 10.0)


