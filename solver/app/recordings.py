"""The studio's recordings (its Record tab): a game played with the printed cards, entered tap by
tap (``app/taps.py``) and kept in the folder's database from its first entry, so that a reload or
a restart goes on with it. One use case per request: start, list, show, add an entry, undo,
finish (the whole game checked as its sheet, ``app/sheets.py``, and saved as one of the folder's
games with its names) and discard. The store keeps the SQL (``RecordingStore``); the tapes last
replayed are kept in memory (``TapeCache``), so that a tap replays only itself.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from solver.app.documents import Doc
from solver.app.sheets import NamedGame, game_of_sheet_text
from solver.app.taps import Setup, Tape, check_setup, extend, replay_entries, tape_doc
from solver.core.errors import InputError, KakapoError
from solver.core.rules import Mission
from solver.io.catalog import Catalog, load_catalog
from solver.io.missionfile import load_mission

MAX_RECORDINGS = 200
MAX_TAPES = 16  # recordings kept replayed in memory
MAX_ID = 40  # the longest recording id looked up

# what a refusal is, for a front end to answer with (the studio: 404, 409, 422, 429)
MISSING, CONFLICT, INVALID, FULL = "missing", "conflict", "invalid", "full"

Save = Callable[[NamedGame, Mission, Catalog], str]  # a finished game kept in the folder: its id


class RecordingRefused(KakapoError):
    """A request the recordings refuse: ``kind`` (MISSING, CONFLICT, INVALID, FULL), what and how to
    go on, the sheet's line where one is meant, and more keys of the answer (the game a conflict is about)."""

    def __init__(self, kind: str, message: str, fix: str = "", line: int | None = None,
                 more: dict[str, Any] | None = None):
        super().__init__(message)
        self.kind, self.message, self.fix, self.line, self.more = kind, message, fix, line, more or {}


def _invalid(e: InputError) -> RecordingRefused:
    """An entry, a setup or a stored input the rules or the formats refuse, its line in the message."""
    return RecordingRefused(INVALID, f"line {e.line}: {e.problem}" if e.line else e.problem, e.fix)


def finished(game_id: str | None) -> RecordingRefused:
    """The refusal of a recording finished already (by another call), naming its game."""
    return RecordingRefused(CONFLICT, "this recording is finished: its game is saved", "review its game",
                            more={"game": game_id})


class RecordingStore(Protocol):
    """Where the recordings are kept (the studio's database)."""

    def add_recording(self, recording_id: str, setup: Doc) -> None: ...

    def recording(self, recording_id: str) -> Doc | None: ...

    def recordings(self) -> list[Doc]: ...

    def set_entries(self, recording_id: str, entries: list[Doc], expected: int) -> bool: ...

    def drop_recording(self, recording_id: str) -> None: ...


class TapeCache:
    """The recordings as last replayed (id -> their entries as stored, the tape), the most recent
    ``MAX_TAPES``: a new entry replays only itself."""

    def __init__(self) -> None:
        self._tapes: dict[str, tuple[str, Tape]] = {}
        self._lock = threading.Lock()

    def get(self, recording_id: str) -> tuple[str, Tape] | None:
        with self._lock:
            return self._tapes.get(recording_id)

    def put(self, recording_id: str, key: str, tape: Tape) -> None:
        with self._lock:
            if len(self._tapes) >= MAX_TAPES and recording_id not in self._tapes:
                self._tapes.pop(next(iter(self._tapes)))
            self._tapes[recording_id] = (key, tape)


# ---------------------------------------------------------------- the use cases
def start(store: RecordingStore, tapes: TapeCache, ref: str, mission: Doc, *, catalog: Catalog,
          catalog_file: str | None, pieces_text: str | None, names: list[str], leader: int) -> Doc:
    """A new recording: the mission ``ref`` names (``mission``: its ``id``, ``file`` and ``text``,
    bundled or in the folder), the catalog in use (``catalog_file`` of the folder and its text, or
    None), the names in seat order and who leads round one."""
    # only spaces are trimmed: a control or line-separator character at either end is refused too
    setup = Setup(ref, catalog_file, tuple(n.strip(" ") for n in names), leader)
    try:
        check_setup(setup, load_mission(mission["file"], catalog, text=mission["text"], mission_id=mission["id"]))
    except InputError as e:
        raise _invalid(e) from None
    if len(store.recordings()) >= MAX_RECORDINGS:
        raise RecordingRefused(FULL, f"{MAX_RECORDINGS} recordings are kept already", "finish or discard one")
    kept: Doc = {**setup.to_json(), "mission_file": mission["file"], "mission_text": mission["text"],
                 "pieces_text": pieces_text}
    recording_id = f"r{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
    store.add_recording(recording_id, kept)
    row = _stored(store, recording_id)
    return _doc(row, _tape(tapes, row))


def listing(store: RecordingStore) -> list[Doc]:
    """The recordings, the last changed first: unfinished ones to go on with, finished with their game."""
    return [{"id": r["id"], "mission": r["setup"].get("mission"), "names": r["setup"].get("names", []),
             "entries": len(r["entries"]), "game": r["game"], "updated": r["updated"]} for r in store.recordings()]


def show(store: RecordingStore, tapes: TapeCache, recording_id: str) -> Doc:
    stored = _stored(store, recording_id)
    try:
        return _doc(stored, _tape(tapes, stored))
    except InputError as e:  # stored entries that no longer replay: the page offers to undo them
        raise _invalid(e) from None


def add_entry(store: RecordingStore, tapes: TapeCache, recording_id: str, at: int, entry: Doc | None) -> Doc:
    """One entry, checked by the rules: a card revealed, the pieces selected, a piece placed, or
    the cards a person still holds at the end. ``at``: how many entries the page saw (a conflict if
    the recording has another number: a double tap is not entered twice)."""
    if entry is None:
        raise RecordingRefused(INVALID, "an entry is one of: card; pieces; place with cells; seat with left",
                               "send one entry at a time")
    return _change(store, tapes, recording_id, at, lambda entries: [*entries, entry])


def undo(store: RecordingStore, tapes: TapeCache, recording_id: str, at: int, to: int | None) -> Doc:
    """Back to ``to`` entries (None: one less): the last entry, or every entry from a round on."""
    def back(entries: list[Doc]) -> list[Doc]:
        keep = len(entries) - 1 if to is None else to
        if not 0 <= keep < len(entries):
            raise RecordingRefused(INVALID, "nothing to undo" if not entries else f"no entry {keep} to go back to")
        return entries[:keep]

    return _change(store, tapes, recording_id, at, back)


def finish(store: RecordingStore, tapes: TapeCache, recording_id: str, save: Save) -> Doc:
    """The whole game checked as its sheet (must follow against the hands now known) and kept by
    ``save`` as a finished game of the folder (``save`` refuses with ``finished`` when another call
    saved it first); INVALID naming the round, the person and the rule otherwise."""
    stored = _stored(store, recording_id)
    if stored["game"] is not None:
        raise finished(stored["game"])
    try:
        tape = _tape(tapes, stored)
    except InputError as e:
        raise _invalid(e) from None
    phase = tape.phase()
    if phase != "done":
        raise RecordingRefused(INVALID, "the game is not over yet" if phase != "left" else
                               "the cards each person still holds are not all entered", "go on with the recording")
    s = stored["setup"]
    sheet = tape.sheet(s["mission"], s["pieces"])
    _setup, mission, catalog = _inputs(stored)
    try:
        game = game_of_sheet_text(sheet, "the recording", lambda _sheet: (catalog, mission))
    except InputError as e:
        raise RecordingRefused(INVALID, e.problem, e.fix, e.line) from None
    game_id = save(game, mission, catalog)  # one transaction: however many calls got this far, one saves it
    return {"game": game_id, "log": game.text, "rounds": game.state.rounds_played(), "result": game.state.result(),
            "names": list(game.names)}


def discard(store: RecordingStore, recording_id: str) -> Doc:
    """An unfinished recording thrown away (a finished one stays with its game)."""
    stored = _stored(store, recording_id)
    if stored["game"] is not None:
        raise RecordingRefused(CONFLICT, "a finished recording stays with its game")
    store.drop_recording(recording_id)
    return {"id": recording_id, "discarded": True}


# ---------------------------------------------------------------- replaying
def _inputs(stored: Doc) -> tuple[Setup, Mission, Catalog]:
    """The recording's setup, mission and catalog, as they were when it began (kept with it)."""
    s = stored["setup"]
    catalog = load_catalog(s["pieces"] or "the bundled pieces", s["pieces_text"]) if s.get("pieces_text") \
        else load_catalog()
    mission = load_mission(s["mission_file"], catalog, text=s["mission_text"], mission_id=s["mission"])
    return Setup.from_json(s), mission, catalog


def _stored(store: RecordingStore, recording_id: str) -> Doc:
    found = store.recording(recording_id) if len(recording_id) <= MAX_ID else None
    if found is None:
        raise RecordingRefused(MISSING, f"no recording {recording_id[:MAX_ID]!r}", "start one in the Record tab")
    return found


def _tape(tapes: TapeCache, stored: Doc, entries: list[Doc] | None = None) -> Tape:
    """The recording replayed: from the tape kept of its stored entries when ``entries`` only add
    to them (a tap replays one entry), else from its start."""
    entries = stored["entries"] if entries is None else entries
    kept = tapes.get(stored["id"])
    tape: Tape | None = None
    if kept is not None:
        key, base = kept
        n = base.entries
        if len(entries) >= n and json.dumps(entries[:n]) == key:
            tape = extend(base, entries[n:])
    if tape is None:
        setup, mission, catalog = _inputs(stored)
        tape = replay_entries(setup, entries, mission, catalog)
    tapes.put(stored["id"], json.dumps(entries), tape)
    return tape


def _doc(stored: Doc, tape: Tape) -> Doc:
    s = stored["setup"]
    return {"id": stored["id"], **tape_doc(tape), "sheet": tape.sheet(s["mission"], s["pieces"]),
            "game": stored["game"], "updated": stored["updated"]}


def _change(store: RecordingStore, tapes: TapeCache, recording_id: str, at: int,
            change: Callable[[list[Doc]], list[Doc]]) -> Doc:
    stored = _stored(store, recording_id)
    if stored["game"] is not None:
        raise RecordingRefused(CONFLICT, "this recording is finished", "review its game, or start another recording")
    entries = list(stored["entries"])
    if at != len(entries):
        raise RecordingRefused(CONFLICT, f"the recording has {len(entries)} entries, not {at}: it changed meanwhile",
                               "look again and enter the next one")
    entries = change(entries)
    try:
        tape = _tape(tapes, stored, entries)
    except InputError as e:
        raise RecordingRefused(INVALID, e.problem, e.fix) from None
    if not store.set_entries(recording_id, entries, at):
        raise RecordingRefused(CONFLICT, "the recording changed meanwhile", "look again and enter the next one")
    return _doc(_stored(store, recording_id), tape)
