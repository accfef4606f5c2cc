"""The studio's state: one SQLite database (WAL mode) in a private folder of ``--dir``,
``DIR/.kakapo/studio.sqlite3`` (the folder 0700, the files 0600: they hold every hand and the seat
tokens' hashes).

It holds the table's games (their setup: the mission's and catalog's texts, the table, the deal's
seed), their seats (each seat token only as a SHA-256 hash, compared in constant time), every
move of every game in order, the jobs' history, and which old ``games/*.json`` records were
imported. A move is one transaction (the move and the game's row together), so a kill loses at
most the move being written and never leaves half of one; a copied file is never read as a game.

One studio at a time serves a folder: ``FolderLock`` (an exclusive lock on ``DIR/.kakapo/lock``,
which names the studio holding it) refuses a second one, naming the first.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import hmac
import json
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.app.documents import Doc
from solver.core.errors import InputError
from solver.io.safefiles import private_folder
from solver.play.table import Handover, Move, TableSetup

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


def token_hash(token: str) -> str:
    """A seat or job token as stored: its SHA-256 (tokens are 144 random bits, so no salt is needed)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str | None, stored: str | None) -> bool:
    if not token or not stored:
        return False
    return hmac.compare_digest(token_hash(token), stored)


def state_folder(directory: Path) -> Path:
    return private_folder(directory / STATE_FOLDER)


def _json_or(text: str | None, default: Any) -> Any:
    if text is None:
        return default
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return default


class Finished(Exception):
    """The recording was finished already (by another call): its game's id."""

    def __init__(self, game_id: str | None):
        super().__init__(game_id)
        self.game_id = game_id


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


@dataclass(frozen=True)
class GameRow:
    """A game as stored: its setup (None when the row no longer reads), its moves, and why it
    cannot be played on, if it cannot."""

    id: str
    setup: TableSetup | None
    moves: list[Move]
    streams: list[int] | None
    play_forced: dict[int, bool]
    result: str | None
    log: str | None
    problem: str | None
    summary: Doc
    handovers: list[Handover] = field(default_factory=list)


class StoreBusy(Exception):
    """Another program holds the database locked (the answer is a 503; nothing was written)."""


class Store:
    """The database: one connection for writes (one transaction at a time) and one for reads, so
    that a write waiting for another program's lock never holds a seat's view behind it.

    Its files are made only inside the private folder, never through a link: a link (or anything
    but a plain file) in the place of the database or of its ``-wal``, ``-shm`` and ``-journal``
    files is an input error naming it, as is a file that is not a SQLite database (kept as it is).
    """

    def __init__(self, directory: Path, version: str):
        self.folder = state_folder(directory)
        self.path = self.folder / DATABASE
        self.version = version
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
        for db in (self._db, self._read):
            with contextlib.suppress(sqlite3.Error):
                db.close()

    # ------------------------------------------------------------ games
    def add_game(self, setup: TableSetup, token_hashes: dict[int, str], log: str, moves: tuple[Move, ...] = (),
                 streams: list[int] | None = None, round_: int = 1, result: str | None = None,
                 imported_from: str | None = None) -> None:
        """A new game (with the moves it has already when it comes from an old record, and the
        note that the record was imported), in one transaction."""
        with self.transaction() as db:
            self._insert_game(db, setup, log)
            for seat, h in token_hashes.items():
                db.execute("INSERT INTO seats (game_id, seat, token_hash) VALUES (?,?,?)", (setup.id, seat, h))
            if moves:
                self._moves(db, setup.id, 1, list(moves), streams or [], round_, result, log)
            if imported_from is not None:
                db.execute("INSERT OR REPLACE INTO imports VALUES (?,?,?,?)", (imported_from, setup.id, now(),
                                                                               "imported"))

    def add_recorded(self, setup: TableSetup, log: str, round_: int, result: str | None,
                     imported_from: str | None = None, recording: str | None = None) -> None:
        """A game played with the printed cards and recorded from its sheet (or a log dropped into
        games/, or the Record tab's ``recording``, marked finished with it): its log, whole, in one
        transaction (no seat, no move: nothing is left to play)."""
        with self.transaction() as db:
            if recording is not None:  # finished once: the first finish takes it, in this transaction
                taken = db.execute("UPDATE recordings SET game_id = ?, updated = ? WHERE id = ? AND game_id IS NULL",
                                   (setup.id, now(), recording)).rowcount
                if taken != 1:
                    row = db.execute("SELECT game_id FROM recordings WHERE id = ?", (recording,)).fetchone()
                    raise Finished(row[0] if row else None)
            self._insert_game(db, setup, log, {"round": round_, "result": result, "ended": now() if result else None})
            if imported_from is not None:
                db.execute("INSERT OR REPLACE INTO imports VALUES (?,?,?,?)", (imported_from, setup.id, now(),
                                                                               "imported"))

    def _insert_game(self, db: sqlite3.Connection, setup: TableSetup, log: str,
                     more: dict[str, Any] | None = None) -> None:
        """The games row of ``setup`` (``more``: other columns, as column -> value)."""
        cols = {"id": setup.id, "created": setup.created, "mission": setup.mission_id, "name": setup.name,
                "mission_text": setup.mission_text, "pieces_text": setup.pieces_text, "players": setup.players,
                "humans": json.dumps(list(setup.humans)), "names": json.dumps(dict(setup.names)),
                "policy": setup.policy, "samples": setup.samples, "seed": setup.seed, "game": setup.game,
                "known_deal": int(setup.known_deal), "log": log, "version": self.version, **(more or {})}
        db.execute(f"INSERT INTO games ({', '.join(cols)}) VALUES ({','.join('?' * len(cols))})", tuple(cols.values()))

    def add_moves(self, game_id: str, first: int, moves: Sequence[Move], streams: list[int], round_: int,
                  result: str | None, log: str) -> None:
        """Moves ``first``.. of a game and its row after them, in one transaction (a move already
        stored under that number is a conflict: nothing is written)."""
        with self.transaction() as db:
            self._moves(db, game_id, first, moves, streams, round_, result, log)

    @staticmethod
    def _moves(db: sqlite3.Connection, game_id: str, first: int, moves: Sequence[Move], streams: list[int], round_: int,
               result: str | None, log: str) -> None:
        for k, m in enumerate(moves):
            db.execute("INSERT INTO moves VALUES (?,?,?,?,?,?)", (game_id, first + k, m.seat, m.action, m.by, now()))
        db.execute("UPDATE games SET streams = ?, round = ?, result = ?, ended = ?, log = ? WHERE id = ?",
                   (json.dumps([str(s) for s in streams]), round_, result, now() if result else None, log, game_id))

    def set_play_forced(self, game_id: str, seat: int, value: bool) -> None:
        with self.transaction() as db:
            db.execute("UPDATE seats SET play_forced = ? WHERE game_id = ? AND seat = ?", (int(value), game_id, seat))

    def seat_hash(self, game_id: str, seat: int) -> str | None:
        with self.reading() as db:
            row = db.execute("SELECT token_hash FROM seats WHERE game_id = ? AND seat = ?",
                                   (game_id, seat)).fetchone()
        return row[0] if row else None

    def retired_hashes(self, game_id: str, seat: int) -> list[str]:
        """The hashes of the seat's links that a handover stopped."""
        with self.reading() as db:
            return [r[0] for r in db.execute("SELECT token_hash FROM retired_links WHERE game_id = ? AND seat = ?",
                                             (game_id, seat))]

    def seat_hashes(self, game_id: str) -> list[str]:
        with self.reading() as db:
            return [r[0] for r in db.execute("SELECT token_hash FROM seats WHERE game_id = ?", (game_id,))]

    def summaries(self) -> list[Doc]:
        """Every game's public columns (the seed too: the caller drops it before a game's end),
        oldest first; a value that no longer reads comes back as null."""
        with self.reading() as db:
            cursor = db.execute("SELECT id, mission, name, players, humans, names, policy, samples, created, "
                                      "known_deal, round, result, seed, game, broken FROM games ORDER BY created, id")
            cols = [d[0] for d in cursor.description]
            rows = cursor.fetchall()
        out = []
        for row in rows:
            r = dict(zip(cols, row, strict=True))
            r["human"] = _json_or(r.pop("humans"), [])
            r["names"] = _json_or(r["names"], {})
            r["known_deal"] = bool(r["known_deal"])
            out.append(r)
        return out

    def has_game(self, game_id: str) -> bool:
        with self.reading() as db:
            return db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def game(self, game_id: str) -> GameRow | None:
        """A game's row read whole; a damaged one comes back with its problem, never an exception."""
        with self.reading() as db:
            cursor = db.execute("SELECT * FROM games WHERE id = ?", (game_id,))
            row = cursor.fetchone()
            if row is None:
                return None
            cols = [d[0] for d in cursor.description]
            moves = db.execute("SELECT n, seat, action, by FROM moves WHERE game_id = ? ORDER BY n",
                                     (game_id,)).fetchall()
            seats = db.execute("SELECT seat, play_forced FROM seats WHERE game_id = ?", (game_id,)).fetchall()
            handed = db.execute("SELECT move, seat, to_bot, policy, samples FROM handovers WHERE game_id = ? "
                                "ORDER BY k", (game_id,)).fetchall()
        r = dict(zip(cols, row, strict=True))
        summary = {"id": r["id"], "mission": r["mission"], "name": r["name"], "players": r["players"],
                   "created": r["created"], "policy": r["policy"], "result": r["result"], "round": r["round"]}
        try:
            humans = tuple(int(s) for s in json.loads(r["humans"]))
            names = tuple(sorted((int(k), str(v)) for k, v in json.loads(r["names"]).items()))
            setup = TableSetup(r["id"], r["mission"], r["name"], r["mission_text"], r["pieces_text"], int(r["players"]),
                               humans, r["policy"], r["samples"], int(r["seed"]), int(r["game"]), bool(r["known_deal"]),
                               names, r["created"])
            summary.update({"human": list(humans), "names": {str(k): v for k, v in names}})
            if [n for n, *_ in moves] != list(range(1, len(moves) + 1)):
                raise ValueError("its moves are not numbered 1, 2, 3, ...")
            streams = None if r["streams"] is None else [int(s) for s in json.loads(r["streams"])]
            forced = {int(s): bool(v) for s, v in seats if v is not None}
            handovers = [Handover(int(m), int(s), bool(b), p, None if n is None else int(n))
                         for m, s, b, p, n in handed]
            return GameRow(r["id"], setup, [Move(int(s), int(a), str(b)) for _, s, a, b in moves], streams, forced,
                           r["result"], r["log"], r.get("broken"), summary, handovers)
        except (ValueError, TypeError, AttributeError, RecursionError) as e:
            summary.setdefault("human", [])
            return GameRow(r["id"], None, [], None, {}, r["result"], r["log"],
                           r.get("broken") or f"its row in the database is damaged ({str(e)[:120]})", summary)

    def set_broken(self, game_id: str, reason: str) -> None:
        """The game cannot go on, for this reason: said from now on, after a restart too."""
        with self.transaction() as db:
            db.execute("UPDATE games SET broken = ? WHERE id = ?", (reason[:500], game_id))

    def hand_over(self, game_id: str, handover: Handover, token_hash_: str | None) -> None:
        """A seat handed to a bot (its link's token dropped) or to a person (a new token), with the
        note of it (the log says who played which moves), in one transaction."""
        with self.transaction() as db:
            k = db.execute("SELECT COUNT(*) FROM handovers WHERE game_id = ?", (game_id,)).fetchone()[0]
            db.execute("INSERT INTO handovers VALUES (?,?,?,?,?,?,?,?)",
                       (game_id, k + 1, handover.move, handover.seat, int(handover.to_bot), handover.policy,
                        handover.samples, now()))
            # the link that stops working is remembered (hashed), so that it can be told why
            db.execute("INSERT OR IGNORE INTO retired_links SELECT game_id, seat, token_hash FROM seats "
                       "WHERE game_id = ? AND seat = ?", (game_id, handover.seat))
            if token_hash_ is None:
                db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, handover.seat))
            else:
                db.execute("INSERT OR REPLACE INTO seats (game_id, seat, token_hash) VALUES (?,?,?)",
                           (game_id, handover.seat, token_hash_))

    # ------------------------------------------------------------ replays (rate and calibrate keep them)
    def replays(self, keys: Sequence[str]) -> dict[str, str]:
        """The kept replays of these keys, as their sealed entries (``io.replays``: checked by the reader)."""
        out: dict[str, str] = {}
        with self.reading() as db:
            for k in range(0, len(keys), 500):
                part = list(keys[k:k + 500])
                marks = ",".join("?" * len(part))
                out.update(db.execute(f"SELECT key, entry FROM replays WHERE key IN ({marks})", part).fetchall())
        return out

    def keep_replays(self, entries: Sequence[tuple[str, str]]) -> None:
        """Keep replays (key, sealed entry), in one transaction."""
        with self.transaction() as db:
            db.executemany("INSERT OR REPLACE INTO replays (key, entry) VALUES (?, ?)", list(entries))

    # ------------------------------------------------------------ jobs
    def add_job(self, job_id: str, kind: str, token_hash_: str, about: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO jobs (id, kind, state, created, token_hash, about) VALUES (?,?,?,?,?,?)",
                       (job_id, kind, "queued", now(), token_hash_, about))

    def end_job(self, job_id: str, state: str, result: Doc | None, error: str | None) -> None:
        with self.transaction() as db:
            db.execute("UPDATE jobs SET state = ?, progress = ?, ended = ?, result = ?, error = ? WHERE id = ?",
                       (state, 1.0 if state == "done" else 0.0, now(),
                        None if result is None else json.dumps(result), error, job_id))

    def set_job_state(self, job_id: str, state: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE jobs SET state = ? WHERE id = ?", (state, job_id))

    def jobs(self) -> list[Doc]:
        with self.reading() as db:
            rows = db.execute("SELECT id, kind, state, progress, created, ended, error, about, token_hash, "
                                    "result FROM jobs ORDER BY created, id").fetchall()
        out = []
        for i, kind, state, progress, created, ended, error, about, th, result in rows:
            try:
                doc = None if result is None else json.loads(result)
            except (ValueError, RecursionError):
                doc, error = None, error or "its stored result is damaged"
            out.append({"id": i, "kind": kind, "state": state, "progress": progress, "created": created,
                        "ended": ended, "error": error, "about": about, "token_hash": th, "result": doc})
        return out

    def stop_unfinished_jobs(self) -> None:
        """Jobs a studio left queued or running when it stopped: failed, and said why."""
        with self.transaction() as db:
            db.execute("UPDATE jobs SET state = 'failed', error = 'the studio stopped before it ended', ended = ? "
                       "WHERE state IN ('queued', 'running')", (now(),))

    # ------------------------------------------------------------ recordings (the Record tab)
    def add_recording(self, recording_id: str, setup: Doc) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO recordings (id, created, updated, setup, entries) VALUES (?,?,?,?,'[]')",
                       (recording_id, now(), now(), json.dumps(setup)))

    def recording(self, recording_id: str) -> Doc | None:
        """``{"id", "created", "updated", "setup", "entries", "game"}``, or None."""
        with self.reading() as db:
            row = db.execute("SELECT id, created, updated, setup, entries, game_id FROM recordings WHERE id = ?",
                             (recording_id,)).fetchone()
        return None if row is None else self._recording_row(row)

    def recordings(self) -> list[Doc]:
        """Every recording, the last changed first."""
        with self.reading() as db:
            rows = db.execute("SELECT id, created, updated, setup, entries, game_id FROM recordings "
                              "ORDER BY updated DESC, id").fetchall()
        return [self._recording_row(r) for r in rows]

    @staticmethod
    def _recording_row(row: tuple[Any, ...]) -> Doc:
        i, created, updated, setup, entries, game = row
        return {"id": i, "created": created, "updated": updated, "setup": _json_or(setup, {}),
                "entries": _json_or(entries, []), "game": game}

    def set_entries(self, recording_id: str, entries: list[Doc], expected: int) -> bool:
        """The recording's entries, written only if it still has ``expected`` of them and is not
        finished (two phones, or a double tap, cannot both add the same entry); False if not."""
        with self.transaction() as db:
            row = db.execute("SELECT entries, game_id FROM recordings WHERE id = ?", (recording_id,)).fetchone()
            if row is None or row[1] is not None or len(_json_or(row[0], [])) != expected:
                return False
            db.execute("UPDATE recordings SET entries = ?, updated = ? WHERE id = ?",
                       (json.dumps(entries), now(), recording_id))
            return True

    def drop_recording(self, recording_id: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM recordings WHERE id = ? AND game_id IS NULL", (recording_id,))

    # ------------------------------------------------------------ imported records
    def imported(self, file: str) -> str | None:
        with self.reading() as db:
            row = db.execute("SELECT outcome FROM imports WHERE file = ?", (file,)).fetchone()
        return row[0] if row else None

    def note_import(self, file: str, game_id: str | None, outcome: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO imports VALUES (?,?,?,?)", (file, game_id, now(), outcome))

    def import_problems(self) -> list[Doc]:
        with self.reading() as db:
            rows = db.execute("SELECT file, game_id, outcome FROM imports WHERE outcome != 'imported'")
            return [{"file": f, "id": g, "problem": o} for f, g, o in rows]
