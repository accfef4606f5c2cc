"""The games as the store keeps them: each game's setup (the mission's and catalog's texts, the
table, the deal's seed), its seats' link hashes as it starts, every move in order, its result,
and why it cannot go on, if it cannot. A move is one transaction (the move and the game's row
together), so a kill loses at most the move being written and never leaves half of one."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.app.documents import Doc
from solver.play.tablegame import Handover, Move, TableSetup
from solver.studio.database import Database, json_or, now
from solver.studio.stored_imports import note_imported
from solver.studio.stored_recordings import finish_recording


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


class StoredGames:
    def __init__(self, db: Database, version: str):
        self.db = db
        self.version = version  # the studio's, kept with each game it starts

    def add(self, setup: TableSetup, token_hashes: dict[int, str], log: str, moves: tuple[Move, ...] = (),
            streams: list[int] | None = None, round_: int = 1, result: str | None = None,
            imported_from: str | None = None) -> None:
        """A new game (with the moves it has already when it comes from an old record, and the
        note that the record was imported), in one transaction."""
        with self.db.transaction() as db:
            self._insert(db, setup, log)
            for seat, h in token_hashes.items():
                db.execute("INSERT INTO seats (game_id, seat, token_hash) VALUES (?,?,?)", (setup.id, seat, h))
            if moves:
                self._moves(db, setup.id, 1, list(moves), streams or [], round_, result, log)
            if imported_from is not None:
                note_imported(db, imported_from, setup.id)

    def add_recorded(self, setup: TableSetup, log: str, round_: int, result: str | None,
                     imported_from: str | None = None, recording: str | None = None) -> None:
        """A game played with the printed cards and recorded from its sheet (or a log dropped into
        games/, or the Record tab's ``recording``, marked finished with it): its log, whole, in one
        transaction (no seat, no move: nothing is left to play)."""
        with self.db.transaction() as db:
            if recording is not None:  # finished once: the first finish takes it, in this transaction
                finish_recording(db, recording, setup.id)
            self._insert(db, setup, log, {"round": round_, "result": result, "ended": now() if result else None})
            if imported_from is not None:
                note_imported(db, imported_from, setup.id)

    def _insert(self, db: sqlite3.Connection, setup: TableSetup, log: str, more: dict[str, Any] | None = None) -> None:
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
        with self.db.transaction() as db:
            self._moves(db, game_id, first, moves, streams, round_, result, log)

    @staticmethod
    def _moves(db: sqlite3.Connection, game_id: str, first: int, moves: Sequence[Move], streams: list[int], round_: int,
               result: str | None, log: str) -> None:
        for k, m in enumerate(moves):
            db.execute("INSERT INTO moves VALUES (?,?,?,?,?,?)", (game_id, first + k, m.seat, m.action, m.by, now()))
        db.execute("UPDATE games SET streams = ?, round = ?, result = ?, ended = ?, log = ? WHERE id = ?",
                   (json.dumps([str(s) for s in streams]), round_, result, now() if result else None, log, game_id))

    def summaries(self) -> list[Doc]:
        """Every game's public columns (the seed too: the caller drops it before a game's end),
        oldest first; a value that no longer reads comes back as null."""
        with self.db.reading() as db:
            cursor = db.execute("SELECT id, mission, name, players, humans, names, policy, samples, created, "
                                      "known_deal, round, result, seed, game, broken FROM games ORDER BY created, id")
            cols = [d[0] for d in cursor.description]
            rows = cursor.fetchall()
        out = []
        for row in rows:
            r = dict(zip(cols, row, strict=True))
            r["human"] = json_or(r.pop("humans"), [])
            r["names"] = json_or(r["names"], {})
            r["known_deal"] = bool(r["known_deal"])
            out.append(r)
        return out

    def has(self, game_id: str) -> bool:
        with self.db.reading() as db:
            return db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def get(self, game_id: str) -> GameRow | None:
        """A game's row read whole; a damaged one comes back with its problem, never an exception."""
        with self.db.reading() as db:
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
        with self.db.transaction() as db:
            db.execute("UPDATE games SET broken = ? WHERE id = ?", (reason[:500], game_id))
