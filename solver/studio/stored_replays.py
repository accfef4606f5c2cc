"""The replays `rate` and `calibrate` made of the folder's games, kept so that the next job
replays only the games that are new (``io.replays``: each entry sealed, checked by its reader)."""

from __future__ import annotations

from collections.abc import Sequence

from solver.studio.database import Database

BATCH = 500  # keys per query: under SQLite's limit on bound parameters


class StoredReplays:
    def __init__(self, db: Database):
        self.db = db

    def get(self, keys: Sequence[str]) -> dict[str, str]:
        """The kept replays of these keys, as their sealed entries."""
        out: dict[str, str] = {}
        with self.db.reading() as db:
            for k in range(0, len(keys), BATCH):
                part = list(keys[k:k + BATCH])
                marks = ",".join("?" * len(part))
                out.update(db.execute(f"SELECT key, entry FROM replays WHERE key IN ({marks})", part).fetchall())
        return out

    def keep(self, entries: Sequence[tuple[str, str]]) -> None:
        """Keep replays (key, sealed entry), in one transaction."""
        with self.db.transaction() as db:
            db.executemany("INSERT OR REPLACE INTO replays (key, entry) VALUES (?, ?)", list(entries))
