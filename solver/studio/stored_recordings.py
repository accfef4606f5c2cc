"""The Record tab's recordings as the store keeps them: each one's setup (the mission and catalog
texts, the names, who leads), its entries so far, and the game it became once finished."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from solver.app.documents import Doc
from solver.studio.database import Database, json_or, now


class Finished(Exception):
    """The recording was finished already (by another call): its game's id."""

    def __init__(self, game_id: str | None):
        super().__init__(game_id)
        self.game_id = game_id


def finish_recording(db: sqlite3.Connection, recording_id: str, game_id: str) -> None:
    """Within the transaction that keeps its game: the recording marked finished with it, once
    (Finished, naming the game, when another call finished it first)."""
    taken = db.execute("UPDATE recordings SET game_id = ?, updated = ? WHERE id = ? AND game_id IS NULL",
                       (game_id, now(), recording_id)).rowcount
    if taken != 1:
        row = db.execute("SELECT game_id FROM recordings WHERE id = ?", (recording_id,)).fetchone()
        raise Finished(row[0] if row else None)


class StoredRecordings:
    """The recordings, by the names the Record tab's use cases ask them by."""

    def __init__(self, db: Database):
        self.db = db

    def add_recording(self, recording_id: str, setup: Doc) -> None:
        with self.db.transaction() as db:
            db.execute("INSERT INTO recordings (id, created, updated, setup, entries) VALUES (?,?,?,?,'[]')",
                       (recording_id, now(), now(), json.dumps(setup)))

    def recording(self, recording_id: str) -> Doc | None:
        """``{"id", "created", "updated", "setup", "entries", "game"}``, or None."""
        with self.db.reading() as db:
            row = db.execute("SELECT id, created, updated, setup, entries, game_id FROM recordings WHERE id = ?",
                             (recording_id,)).fetchone()
        return None if row is None else self._recording_row(row)

    def recordings(self) -> list[Doc]:
        """Every recording, the last changed first."""
        with self.db.reading() as db:
            rows = db.execute("SELECT id, created, updated, setup, entries, game_id FROM recordings "
                              "ORDER BY updated DESC, id").fetchall()
        return [self._recording_row(r) for r in rows]

    @staticmethod
    def _recording_row(row: tuple[Any, ...]) -> Doc:
        i, created, updated, setup, entries, game = row
        return {"id": i, "created": created, "updated": updated, "setup": json_or(setup, {}),
                "entries": json_or(entries, []), "game": game}

    def set_entries(self, recording_id: str, entries: list[Doc], expected: int) -> bool:
        """The recording's entries, written only if it still has ``expected`` of them and is not
        finished (two phones, or a double tap, cannot both add the same entry); False if not."""
        with self.db.transaction() as db:
            row = db.execute("SELECT entries, game_id FROM recordings WHERE id = ?", (recording_id,)).fetchone()
            if row is None or row[1] is not None or len(json_or(row[0], [])) != expected:
                return False
            db.execute("UPDATE recordings SET entries = ?, updated = ? WHERE id = ?",
                       (json.dumps(entries), now(), recording_id))
            return True

    def drop_recording(self, recording_id: str) -> None:
        with self.db.transaction() as db:
            db.execute("DELETE FROM recordings WHERE id = ? AND game_id IS NULL", (recording_id,))
