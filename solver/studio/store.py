"""The studio's state: what its database (``database.py``: one SQLite file in a private folder of
``--dir``) keeps, by concern, each part one class: the table's games (``stored_games``), their
seats and hand-overs (``stored_seats``), the jobs' history (``stored_jobs``), the Record tab's
recordings (``stored_recordings``), the files of ``games/`` taken in (``stored_imports``) and
the replays `rate` and `calibrate` made of the games (``stored_replays``).
Every seat or job token is kept only as its SHA-256 hash, compared in constant time; a copied
file is never read as a game."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from solver.studio.database import Database
from solver.studio.stored_games import StoredGames
from solver.studio.stored_imports import StoredImports
from solver.studio.stored_jobs import StoredJobs
from solver.studio.stored_recordings import StoredRecordings
from solver.studio.stored_replays import StoredReplays
from solver.studio.stored_seats import StoredSeats


def token_hash(token: str) -> str:
    """A seat or job token as stored: its SHA-256 (tokens are 144 random bits, so no salt is needed)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, stored: str | None) -> bool:
    if not token or not stored:
        return False
    return hmac.compare_digest(token_hash(token), stored)


class Store(Database):
    """The database of a folder and what it keeps, part by part."""

    def __init__(self, directory: Path, version: str):
        super().__init__(directory)
        self.games = StoredGames(self, version)
        self.seats = StoredSeats(self)
        self.jobs = StoredJobs(self)
        self.recordings = StoredRecordings(self)
        self.imports = StoredImports(self)
        self.replays = StoredReplays(self)
