"""`/api/recordings`: the Record tab's game, played with the printed cards and entered tap by tap
on one phone. The recording is kept in the folder's database from its first entry (a reload or a
restart goes on with it); every answer replays it by the rules (``app/recorder.py``) and says what
comes next. Finished, it is recorded as a sheet and joins the folder's games with its names."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from fastapi import APIRouter

from solver.app.documents import Doc
from solver.app.recorder import Setup, Tape, check_setup, extend, replay_entries, tape_doc
from solver.app.recording import record_text
from solver.core.errors import InputError
from solver.core.rules import Mission
from solver.io.catalog import Catalog, load_catalog
from solver.io.missionfile import load_mission
from solver.studio.context import Ctx, StudioContext
from solver.studio.errors import StudioError, refused
from solver.studio.models import RecordingEntry, RecordingRequest, RecordingUndo
from solver.studio.responses import ERRORS, Discarded, RecordDoc, RecordingDoc, RecordingRow
from solver.studio.stored_recordings import Finished

router = APIRouter(prefix="/api/recordings", tags=["recordings"], responses=ERRORS)
MAX_RECORDINGS = 200


def _inputs(stored: Doc) -> tuple[Setup, Mission, Catalog]:
    """The recording's setup, mission and catalog, as they were when it began (kept with it)."""
    s = stored["setup"]
    catalog = load_catalog(s["pieces"] or "the bundled pieces", s["pieces_text"]) if s.get("pieces_text") \
        else load_catalog()
    mission = load_mission(s["mission_file"], catalog, text=s["mission_text"], mission_id=s["mission"])
    return Setup.from_json(s), mission, catalog


def _stored(ctx: StudioContext, recording_id: str) -> Doc:
    found = ctx.store.recordings.recording(recording_id) if len(recording_id) <= 40 else None
    if found is None:
        raise StudioError(404, f"no recording {recording_id[:40]!r}", "start one in the Record tab")
    return found


MAX_TAPES = 16  # recordings kept replayed in memory


def _tape(ctx: StudioContext, stored: Doc, entries: list[Doc] | None = None) -> Tape:
    """The recording replayed: from the tape kept of its stored entries when ``entries`` only add
    to them (a tap replays one entry), else from its start."""
    entries = stored["entries"] if entries is None else entries
    with ctx.tapes_lock:
        kept = ctx.tapes.get(stored["id"])
    tape: Tape | None = None
    if kept is not None:
        key, base = kept
        n = base.entries
        if len(entries) >= n and json.dumps(entries[:n]) == key:
            tape = extend(base, entries[n:])
    if tape is None:
        setup, mission, catalog = _inputs(stored)
        tape = replay_entries(setup, entries, mission, catalog)
    with ctx.tapes_lock:
        if len(ctx.tapes) >= MAX_TAPES and stored["id"] not in ctx.tapes:
            ctx.tapes.pop(next(iter(ctx.tapes)))
        ctx.tapes[stored["id"]] = (json.dumps(entries), tape)
    return tape


def _doc(stored: Doc, tape: Tape) -> Doc:
    s = stored["setup"]
    return {"id": stored["id"], **tape_doc(tape), "sheet": tape.sheet(s["mission"], s["pieces"]),
            "game": stored["game"], "updated": stored["updated"]}


@router.post("", response_model=RecordingDoc)
def start(body: RecordingRequest, ctx: Ctx) -> Doc:
    """A new recording: the mission (by id, bundled or in the folder), the catalog in use, the names
    in seat order and who leads round one."""
    found = ctx.folder.mission(body.mission)
    pieces_text = ctx.folder.text(ctx.catalog_file) if ctx.catalog_file else None
    # only spaces are trimmed: a control or line-separator character at either end is refused too
    setup = Setup(body.mission, ctx.catalog_file, tuple(n.strip(" ") for n in body.names), body.leader)
    try:
        mission = load_mission(found["file"], ctx.catalog, text=found["text"], mission_id=found["id"])
        check_setup(setup, mission)
    except InputError as e:
        raise refused(e) from None
    if len(ctx.store.recordings.recordings()) >= MAX_RECORDINGS:
        raise StudioError(429, f"{MAX_RECORDINGS} recordings are kept already", "finish or discard one")
    stored: dict[str, Any] = {**setup.to_json(), "mission_file": found["file"], "mission_text": found["text"],
                              "pieces_text": pieces_text}
    recording_id = f"r{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
    ctx.store.recordings.add_recording(recording_id, stored)
    row = _stored(ctx, recording_id)
    return _doc(row, _tape(ctx, row))


@router.get("", response_model=list[RecordingRow])
def listing(ctx: Ctx) -> list[Doc]:
    """The recordings, the last changed first: unfinished ones to go on with, finished with their game."""
    return [{"id": r["id"], "mission": r["setup"].get("mission"), "names": r["setup"].get("names", []),
             "entries": len(r["entries"]), "game": r["game"], "updated": r["updated"]}
            for r in ctx.store.recordings.recordings()]


@router.get("/{recording_id}", response_model=RecordingDoc)
def show(recording_id: str, ctx: Ctx) -> Doc:
    stored = _stored(ctx, recording_id)
    try:
        return _doc(stored, _tape(ctx, stored))
    except InputError as e:  # stored entries that no longer replay: the page offers to undo them
        raise refused(e) from None


def _change(ctx: StudioContext, recording_id: str, at: int, change: Any) -> Doc:
    stored = _stored(ctx, recording_id)
    if stored["game"] is not None:
        raise StudioError(409, "this recording is finished", "review its game, or start another recording")
    entries = list(stored["entries"])
    if at != len(entries):
        raise StudioError(409, f"the recording has {len(entries)} entries, not {at}: it changed meanwhile",
                          "look again and enter the next one")
    entries = change(entries)
    try:
        tape = _tape(ctx, stored, entries)
    except InputError as e:
        raise StudioError(422, e.problem, e.fix) from None
    if not ctx.store.recordings.set_entries(recording_id, entries, at):
        raise StudioError(409, "the recording changed meanwhile", "look again and enter the next one")
    return _doc(_stored(ctx, recording_id), tape)


@router.post("/{recording_id}/entries", response_model=RecordingDoc)
def add_entry(recording_id: str, body: RecordingEntry, ctx: Ctx) -> Doc:
    """One entry, checked by the rules: a card revealed, the pieces selected, a piece placed, or
    the cards a person still holds at the end. ``at``: how many entries the page saw (409 if the
    recording has another number: a double tap is not entered twice)."""
    entry = body.entry()
    if entry is None:
        raise StudioError(422, "an entry is one of: card; pieces; place with cells; seat with left",
                          "send one entry at a time")
    return _change(ctx, recording_id, body.at, lambda entries: [*entries, entry])


@router.post("/{recording_id}/undo", response_model=RecordingDoc)
def undo(recording_id: str, body: RecordingUndo, ctx: Ctx) -> Doc:
    """Back to ``to`` entries (default one less): the last entry, or every entry from a round on."""
    def back(entries: list[Doc]) -> list[Doc]:
        keep = len(entries) - 1 if body.to is None else body.to
        if not 0 <= keep < len(entries):
            raise StudioError(422, "nothing to undo" if not entries else f"no entry {keep} to go back to", "")
        return entries[:keep]

    return _change(ctx, recording_id, body.at, back)


@router.post("/{recording_id}/finish", response_model=RecordDoc)
def finish(recording_id: str, ctx: Ctx) -> Doc:
    """The whole game checked as its sheet (must-follow against the hands now known) and kept as a
    finished game of the folder; 422 naming the round, the person and the rule otherwise."""
    stored = _stored(ctx, recording_id)
    if stored["game"] is not None:
        raise _finished(stored["game"])
    try:
        tape = _tape(ctx, stored)
    except InputError as e:
        raise refused(e) from None
    phase = tape.phase()
    if phase != "done":
        raise StudioError(422, "the game is not over yet" if phase != "left" else
                          "the cards each person still holds are not all entered", "go on with the recording")
    s = stored["setup"]
    sheet = tape.sheet(s["mission"], s["pieces"])
    _setup, mission, catalog = _inputs(stored)
    try:
        recorded = record_text(sheet, "the recording", lambda _sheet: (catalog, mission))
    except InputError as e:
        raise StudioError(422, e.problem, e.fix, e.line) from None
    try:  # one transaction: however many calls got this far at once, one saves the game
        game_id = ctx.table.add_record(recorded, mission, catalog, recording=recording_id)
    except Finished as e:
        raise _finished(e.game_id) from None
    return {"game": game_id, "log": recorded.text, "rounds": recorded.state.rounds_played(),
            "result": recorded.state.result(), "names": list(recorded.names)}


def _finished(game_id: str | None) -> StudioError:
    """The 409 of a recording finished already (by another call), naming its game."""
    return StudioError(409, "this recording is finished: its game is saved", "review its game",
                       more={"game": game_id})


@router.delete("/{recording_id}", response_model=Discarded)
def discard(recording_id: str, ctx: Ctx) -> Doc:
    """An unfinished recording thrown away (a finished one stays with its game)."""
    stored = _stored(ctx, recording_id)
    if stored["game"] is not None:
        raise StudioError(409, "a finished recording stays with its game", "")
    ctx.store.recordings.drop_recording(recording_id)
    return {"id": recording_id, "discarded": True}
