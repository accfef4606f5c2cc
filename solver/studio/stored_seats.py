"""The seats as the store keeps them: each seat's link only as its token's SHA-256 (compared in
constant time by the table), the links a hand-over stopped (so that their holders are told why),
the hand-overs themselves (the log says who played which moves) and each person's own choices."""

from __future__ import annotations

from solver.play.tablegame import Handover
from solver.studio.database import Database, now


class StoredSeats:
    def __init__(self, db: Database):
        self.db = db

    def set_play_forced(self, game_id: str, seat: int, value: bool) -> None:
        with self.db.transaction() as db:
            db.execute("UPDATE seats SET play_forced = ? WHERE game_id = ? AND seat = ?", (int(value), game_id, seat))

    def hash(self, game_id: str, seat: int) -> str | None:
        with self.db.reading() as db:
            row = db.execute("SELECT token_hash FROM seats WHERE game_id = ? AND seat = ?",
                                   (game_id, seat)).fetchone()
        return row[0] if row else None

    def retired(self, game_id: str, seat: int) -> list[str]:
        """The hashes of the seat's links that a handover stopped."""
        with self.db.reading() as db:
            return [r[0] for r in db.execute("SELECT token_hash FROM retired_links WHERE game_id = ? AND seat = ?",
                                             (game_id, seat))]

    def hashes(self, game_id: str) -> list[str]:
        with self.db.reading() as db:
            return [r[0] for r in db.execute("SELECT token_hash FROM seats WHERE game_id = ?", (game_id,))]

    def hand_over(self, game_id: str, handover: Handover, token_hash_: str | None) -> None:
        """A seat handed to a bot (its link's token dropped) or to a person (a new token), with the
        note of it (the log says who played which moves), in one transaction."""
        with self.db.transaction() as db:
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
