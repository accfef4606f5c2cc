"""Which files of ``--dir/games/`` the store has taken in (each once): the old records, the logs
and sheets dropped there, with the game each became or why it was not imported."""

from __future__ import annotations

import sqlite3

from solver.app.documents import Doc
from solver.studio.database import Database, now


def note_imported(db: sqlite3.Connection, file: str, game_id: str) -> None:
    """Within the transaction that keeps its game: the file noted as imported."""
    db.execute("INSERT OR REPLACE INTO imports VALUES (?,?,?,?)", (file, game_id, now(), "imported"))


class StoredImports:
    def __init__(self, db: Database):
        self.db = db

    def outcome(self, file: str) -> str | None:
        with self.db.reading() as db:
            row = db.execute("SELECT outcome FROM imports WHERE file = ?", (file,)).fetchone()
        return row[0] if row else None

    def note(self, file: str, game_id: str | None, outcome: str) -> None:
        with self.db.transaction() as db:
            db.execute("INSERT OR REPLACE INTO imports VALUES (?,?,?,?)", (file, game_id, now(), outcome))

    def problems(self) -> list[Doc]:
        with self.db.reading() as db:
            rows = db.execute("SELECT file, game_id, outcome FROM imports WHERE outcome != 'imported'")
            return [{"file": f, "id": g, "problem": o} for f, g, o in rows]
