"""`kakapo review` of a logged game, and the same for the studio (a log given as text, as a job)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.app.documents import Doc, Fraction, Said, Shown
from solver.app.inputs import LoggedGame, logged_text
from solver.io.catalog import Catalog
from solver.io.replays import Replays

if TYPE_CHECKING:  # heavy at run time: Numba, OR-Tools
    from solver.analysis.review_types import Review


def review(lg: LoggedGame, time_limit: float, samples: int | None = None, playouts: int | None = None, *, seed: int = 1,
           progress: Said | None = None, workers: int = 1, careful: bool = False,
           judged: Shown | None = None) -> Review:
    """`kakapo review` of a logged game (``analysis.review.Review``); ``judged(decision's JSON)``
    as each decision is judged (without its boards: the page lists it while the rest is judged)."""
    from solver.analysis.review import REVIEW_PLAYOUTS, REVIEW_SAMPLES, review_game  # heavy: Numba, OR-Tools

    tell = None if judged is None else (lambda d: judged(brief_decision(d.to_json())))
    return review_game(lg.log, lg.mission, lg.catalog, time_limit,
                       samples=REVIEW_SAMPLES if samples is None else samples,
                       playouts=REVIEW_PLAYOUTS if playouts is None else playouts, seed=seed, progress=progress,
                       workers=workers, careful=careful, judged=tell)


BOARD_KEYS = ("pieces", "best_cells", "played_cells")


def brief_decision(doc: Doc) -> Doc:
    """A judged decision as streamed before the review ends: its words and figures, no boards."""
    return {k: v for k, v in doc.items() if k not in BOARD_KEYS}


def review_text(text: str, name: str = "the log", time_limit: float = 10.0, progress: Fraction | None = None,
                workers: int = 1, judged: Shown | None = None) -> Doc:
    """The studio's review: `kakapo review --json` of a log's text (format 2 logs carry their
    mission; an older one is read with the bundled mission it names); ``progress(fraction)``,
    ``judged(decision)`` as in ``review``."""
    lg = logged_text(text, name)
    tell = progress or (lambda _f: None)
    steps = [0]

    def said(_text: str) -> None:  # one line per round, then one per open-hand verdict
        steps[0] += 1
        tell(min(0.99, steps[0] / (2 * len(lg.log.rounds_logged) + 2)))

    return review(lg, time_limit, progress=said, workers=workers, judged=judged).to_json()


# each job answers the document of the command of its name with --json (``registry.JOBS``); its
# request as the studio's job model gives it; ``progress(fraction)``
def review_job(request: Doc, catalog: Catalog, workers: int, progress: Fraction, shown: Shown | None = None,
               replays: Replays | None = None) -> Doc:
    """`kakapo review --json` of the log in the request's ``text``; ``shown(decision)`` as each is
    judged."""
    return review_text(request["text"], request.get("name") or "the log", progress=progress, workers=workers,
                       judged=shown)
