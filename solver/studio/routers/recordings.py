"""`/api/recordings`: the Record tab's game, played with the printed cards and entered tap by tap
on one phone. The recording is kept in the folder's database from its first entry (a reload or a
restart goes on with it); every answer replays it by the rules and says what comes next
(``app/recordings.py``). Finished, it is recorded as a sheet and joins the folder's games with its names."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from fastapi import APIRouter

from solver.app import recordings
from solver.app.documents import Doc
from solver.app.recordings import RecordingRefused
from solver.app.sheets import NamedGame
from solver.core.rules import Mission
from solver.io.catalog import Catalog
from solver.studio.context import Ctx
from solver.studio.errors import StudioError
from solver.studio.models import RecordingEntry, RecordingRequest, RecordingUndo
from solver.studio.responses import ERRORS, Discarded, RecordDoc, RecordingDoc, RecordingRow
from solver.studio.stored_recordings import Finished

router = APIRouter(prefix="/api/recordings", tags=["recordings"], responses=ERRORS)
STATUS = {recordings.MISSING: 404, recordings.CONFLICT: 409, recordings.INVALID: 422, recordings.FULL: 429}
T = TypeVar("T")


def _answer(call: Callable[[], T]) -> T:
    """The use case's answer, or its refusal as the API's error document."""
    try:
        return call()
    except RecordingRefused as e:
        raise StudioError(STATUS[e.kind], e.message, e.fix, e.line, e.more) from None


@router.post("", response_model=RecordingDoc)
def start(body: RecordingRequest, ctx: Ctx) -> Doc:
    """A new recording: the mission (by id, bundled or in the folder), the catalog in use, the names
    in seat order and who leads round one."""
    found = ctx.folder.mission(body.mission)
    pieces_text = ctx.folder.text(ctx.catalog_file) if ctx.catalog_file else None
    return _answer(lambda: recordings.start(ctx.store.recordings, ctx.tapes, body.mission, found, catalog=ctx.catalog,
                                            catalog_file=ctx.catalog_file, pieces_text=pieces_text, names=body.names,
                                            leader=body.leader))


@router.get("", response_model=list[RecordingRow])
def listing(ctx: Ctx) -> list[Doc]:
    """The recordings, the last changed first: unfinished ones to go on with, finished with their game."""
    return recordings.listing(ctx.store.recordings)


@router.get("/{recording_id}", response_model=RecordingDoc)
def show(recording_id: str, ctx: Ctx) -> Doc:
    return _answer(lambda: recordings.show(ctx.store.recordings, ctx.tapes, recording_id))


@router.post("/{recording_id}/entries", response_model=RecordingDoc)
def add_entry(recording_id: str, body: RecordingEntry, ctx: Ctx) -> Doc:
    """One entry, checked by the rules: a card revealed, the pieces selected, a piece placed, or
    the cards a person still holds at the end. ``at``: how many entries the page saw (409 if the
    recording has another number: a double tap is not entered twice)."""
    return _answer(lambda: recordings.add_entry(ctx.store.recordings, ctx.tapes, recording_id, body.at, body.entry()))


@router.post("/{recording_id}/undo", response_model=RecordingDoc)
def undo(recording_id: str, body: RecordingUndo, ctx: Ctx) -> Doc:
    """Back to ``to`` entries (default one less): the last entry, or every entry from a round on."""
    return _answer(lambda: recordings.undo(ctx.store.recordings, ctx.tapes, recording_id, body.at, body.to))


@router.post("/{recording_id}/finish", response_model=RecordDoc)
def finish(recording_id: str, ctx: Ctx) -> Doc:
    """The whole game checked as its sheet (must-follow against the hands now known) and kept as a
    finished game of the folder; 422 naming the round, the person and the rule otherwise."""
    def save(game: NamedGame, mission: Mission, catalog: Catalog) -> str:
        try:  # one transaction: however many calls got this far at once, one saves the game
            return ctx.table.add_record(game, mission, catalog, recording=recording_id)
        except Finished as e:
            raise recordings.finished(e.game_id) from None

    return _answer(lambda: recordings.finish(ctx.store.recordings, ctx.tapes, recording_id, save))


@router.delete("/{recording_id}", response_model=Discarded)
def discard(recording_id: str, ctx: Ctx) -> Doc:
    """An unfinished recording thrown away (a finished one stays with its game)."""
    return _answer(lambda: recordings.discard(ctx.store.recordings, recording_id))
