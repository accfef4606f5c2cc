"""The studio's database: one SQLite file (WAL mode) in a private folder of ``--dir``,
``DIR/.kakapo/studio.sqlite3`` (the folder 0700, the files 0600: they hold every hand and the seat
tokens' hashes), its schema and its transactions; what it keeps is the store's (``store.py``).

One studio at a time serves a folder: ``FolderLock`` (an exclusive lock on ``DIR/.kakapo/lock``,
which names the studio holding it) refuses a second one, naming the first.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from solver.core.errors import InputError
from solver.io.safefiles import private_folder

SCHEMA_VERSION = 2
STATE_FOLDER = ".kakapo"
DATABASE = "studio.sqlite3"
SIDE_FILES = ("", "-wal", "-shm", "-journal")  # the database and the files SQLite keeps beside it
BUSY_SECONDS = 2.0  # how long a write waits for another program's lock before the answer is a 503

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, created TEXT NOT NULL, mission TEXT NOT NULL, name TEXT NOT NULL,
    mission_text TEXT NOT NULL, pieces_text TEXT NOT NULL, players INTEGER NOT NULL, humans TEXT NOT NULL,
    names TEXT NOT NULL, policy TEXT NOT NULL, samples INTEGER, seed INTEGER NOT NULL, game INTEGER NOT NULL,
    known_deal INTEGER NOT NULL, streams TEXT, round INTEGER NOT NULL DEFAULT 1, result TEXT, ended TEXT,
    log TEXT, version TEXT NOT NULL, broken TEXT);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, token_hash TEXT NOT NULL,
    play_forced INTEGER, PRIMARY KEY (game_id, seat));
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL, seat INTEGER NOT NULL, action INTEGER NOT NULL,
    by TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, n));
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, state TEXT NOT NULL, progress REAL NOT NULL DEFAULT 0,
    created TEXT NOT NULL, ended TEXT, error TEXT, result TEXT, token_hash TEXT NOT NULL, about TEXT);
CREATE TABLE IF NOT EXISTS imports (file TEXT PRIMARY KEY, game_id TEXT, at TEXT NOT NULL, outcome TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS handovers (
    game_id TEXT NOT NULL REFERENCES games(id), k INTEGER NOT NULL, move INTEGER NOT NULL, seat INTEGER NOT NULL,
    to_bot INTEGER NOT NULL, policy TEXT, samples INTEGER, at TEXT NOT NULL, PRIMARY KEY (game_id, k));
CREATE TABLE IF NOT EXISTS retired_links (
    game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, token_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, token_hash));
CREATE TABLE IF NOT EXISTS recordings (
    id TEXT PRIMARY KEY, created TEXT NOT NULL, updated TEXT NOT NULL, setup TEXT NOT NULL,
    entries TEXT NOT NULL, game_id TEXT);
CREATE TABLE IF NOT EXISTS replays (key TEXT PRIMARY KEY, entry TEXT NOT NULL);
"""
MIGRATIONS = {2: ["ALTER TABLE games ADD COLUMN broken TEXT"]}  # to schema N from N - 1


def _is_busy(e: sqlite3.Error) -> bool:
    text = str(e).lower()
    return "locked" in text or "busy" in text


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


def state_folder(directory: Path) -> Path:
    return private_folder(directory / STATE_FOLDER)


def json_or(text: str | None, default: Any) -> Any:
    """A column's JSON, or ``default`` when it is null or no longer reads."""
    if text is None:
        return default
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return default


class Busy(Exception):
    """Another studio serves this folder (its address, as it wrote it)."""


class FolderLock:
    """One studio per folder: an exclusive lock held while the studio serves."""

    def __init__(self, directory: Path):
        self.path = state_folder(directory) / "lock"
        self._fd: int | None = None

    def acquire(self, url: str) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            held = os.read(fd, 4096).decode("utf-8", "replace").strip()
            os.close(fd)
            raise Busy(held or "another kakapo studio") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{url} (pid {os.getpid()})".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, 0)
            os.close(self._fd)
            self._fd = None


class StoreBusy(Exception):
    """Another program holds the database locked (the answer is a 503; nothing was written)."""


class Database:
    """The database: one connection for writes (one transaction at a time) and one for reads, so
    that a write waiting for another program's lock never holds a seat's view behind it.

    Its files are made only inside the private folder, never through a link: a link (or anything
    but a plain file) in the place of the database or of its ``-wal``, ``-shm`` and ``-journal``
    files is an input error naming it, as is a file that is not a SQLite database (kept as it is).
    """

    def __init__(self, directory: Path):
        self.folder = state_folder(directory)
        self.path = self.folder / DATABASE
        self._prepare_files()
        self._lock = threading.RLock()  # the writer's
        self._read_lock = threading.Lock()
        self._db: sqlite3.Connection = self._connect()
        self._read: sqlite3.Connection = self._connect()
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            problem = self._db.execute("PRAGMA quick_check(1)").fetchone()
            if problem is None or problem[0] != "ok":
                raise sqlite3.DatabaseError(f"its check says: {problem[0] if problem else 'nothing'}")
            self._schema()
        except (sqlite3.DatabaseError, StoreBusy) as e:
            self.close()
            if isinstance(e, StoreBusy) or (isinstance(e, sqlite3.OperationalError) and _is_busy(e)):
                raise InputError(str(self.path), "another program holds the studio's database locked",
                                 "close that program (an SQLite browser, a backup tool) and start the studio "
                                 "again") from None
            raise InputError(str(self.path), f"this is not a SQLite database, or it is damaged ({e})",
                             "the file was left as it is: move it aside (or restore a copy) and start the studio "
                             "again; it then starts a new, empty one") from None
        self._prepare_files()  # the -wal and -shm SQLite has just made: private too

    def _prepare_files(self) -> None:
        """Each of the database's files: absent (the first three are created, 0600, here), or a
        plain file of ours made 0600 through its own descriptor; a link is refused, never followed."""
        for suffix in SIDE_FILES:
            name = f"{self.path}{suffix}"
            try:
                fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except FileNotFoundError:
                if suffix == "-journal":  # WAL mode needs none: SQLite makes it only to change modes
                    continue
                try:
                    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                except FileExistsError:  # made meanwhile: looked at again below
                    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError as e:
                if e.errno == errno.ELOOP:
                    raise InputError(name, "a symbolic link is in the place of the studio's database file "
                                     "(not followed: the games' hands stay inside --dir)",
                                     "remove the link; the studio makes its own file there") from None
                raise InputError(name, f"cannot open the studio's database file: {e.strerror or e}",
                                 "check the folder's permissions") from None
            try:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode):
                    raise InputError(name, "not a plain file in the place of the studio's database file",
                                     "remove it; the studio makes its own file there")
                if stat.S_IMODE(st.st_mode) != 0o600:
                    os.fchmod(fd, 0o600)
            finally:
                os.close(fd)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=BUSY_SECONDS, check_same_thread=False, isolation_level=None)

    def _schema(self) -> None:
        with self.transaction() as db:
            row = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
            found = None
            if row is not None:
                got = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                found = int(got[0]) if got and str(got[0]).isdigit() else None
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            if found is not None and found < SCHEMA_VERSION:  # an older studio's database
                for version in range(found + 1, SCHEMA_VERSION + 1):
                    for statement in MIGRATIONS.get(version, []):
                        db.execute(statement)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; StoreBusy (nothing written) when another program holds the lock
        past BUSY_SECONDS."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as e:
                if _is_busy(e):
                    raise StoreBusy(str(e)) from None
                raise
            try:
                yield self._db
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                raise
            try:
                self._db.execute("COMMIT")
            except sqlite3.OperationalError as e:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                if _is_busy(e):
                    raise StoreBusy(str(e)) from None
                raise

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The read connection (never behind a waiting write); StoreBusy when the database cannot be
        read within BUSY_SECONDS."""
        with self._read_lock:
            try:
                yield self._read
            except sqlite3.OperationalError as e:
                if _is_busy(e):
                    raise StoreBusy(str(e)) from None
                raise

    def close(self) -> None:
        # never under a read or a write of another thread (a background import): closed between them
        with self._lock, self._read_lock:
            for db in (self._db, self._read):
                with contextlib.suppress(sqlite3.Error):
                    db.close()
