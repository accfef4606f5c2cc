"""The jobs' history as the store keeps it: each job's kind, state, progress, result or error,
what it is about, and its token's hash (whoever started it may follow it after a restart)."""

from __future__ import annotations

import json
from typing import Any

from solver.app.documents import Doc
from solver.studio.database import Database, now


class StoredJobs:
    def __init__(self, db: Database):
        self.db = db

    def add(self, job_id: str, kind: str, token_hash_: str, about: str) -> None:
        with self.db.transaction() as db:
            db.execute("INSERT INTO jobs (id, kind, state, created, token_hash, about) VALUES (?,?,?,?,?,?)",
                       (job_id, kind, "queued", now(), token_hash_, about))

    def end(self, job_id: str, state: str, result: Doc | None, error: str | None) -> None:
        with self.db.transaction() as db:
            db.execute("UPDATE jobs SET state = ?, progress = ?, ended = ?, result = ?, error = ? WHERE id = ?",
                       (state, 1.0 if state == "done" else 0.0, now(),
                        None if result is None else json.dumps(result), error, job_id))

    def set_state(self, job_id: str, state: str) -> None:
        with self.db.transaction() as db:
            db.execute("UPDATE jobs SET state = ? WHERE id = ?", (state, job_id))

    def all(self) -> list[Doc]:
        """Every job, newest first: by the second it was started, then in the order they were written
        (SQLite's rowid: jobs started within one second keep their order, earlier runs' too)."""
        return self._rows("ORDER BY created DESC, rowid DESC")

    def get(self, job_id: str) -> Doc | None:
        found = self._rows("WHERE id = ?", (job_id,))
        return found[0] if found else None

    def _rows(self, where: str, args: tuple[Any, ...] = ()) -> list[Doc]:
        with self.db.reading() as db:
            rows = db.execute("SELECT id, kind, state, progress, created, ended, error, about, token_hash, "
                              f"result FROM jobs {where}", args).fetchall()
        out = []
        for i, kind, state, progress, created, ended, error, about, th, result in rows:
            try:
                doc = None if result is None else json.loads(result)
            except (ValueError, RecursionError):
                doc, error = None, error or "its stored result is damaged"
            out.append({"id": i, "kind": kind, "state": state, "progress": progress, "created": created,
                        "ended": ended, "error": error, "about": about, "token_hash": th, "result": doc})
        return out

    def stop_unfinished(self) -> None:
        """Jobs a studio left queued or running when it stopped: failed, and said why."""
        with self.db.transaction() as db:
            db.execute("UPDATE jobs SET state = 'failed', error = 'the studio stopped before it ended', ended = ? "
                       "WHERE state IN ('queued', 'running')", (now(),))
