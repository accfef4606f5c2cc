"""The games that come into the studio's folder from elsewhere, each taken in once: logs and sheets
of games played with the printed cards, in another studio or by `kakapo play --log`, dropped into
``--dir/games/`` (recorded games with their names), and the ``games/ID.json`` records of the
studio's earlier versions (replayed by the rules, their moves kept). A file that is not a regular
one, or too large, is refused unread; whatever one file holds, the others are still imported; why
a file was not is listed with the folder's games."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from solver.app.sheets import Resolve, game_file
from solver.core.errors import InputError
from solver.io.safefiles import UnsafeTarget
from solver.play.tablegame import BrokenGame, TableGame, replay_record
from solver.studio.database import StoreBusy
from solver.studio.folder import Folder
from solver.studio.live import LiveGame, log_text
from solver.studio.store import Store, token_hash
from solver.studio.thinking import GaveUp, Thinkers
from solver.studio.turns import Turns

RECORD_FORMAT = 1  # the games/ID.json records of the studio's earlier versions, imported once
MAX_RECORD = 8_000_000
RESCAN_EVERY = 3.0  # seconds: how often the games listing looks for games dropped into games/

AddRecord = Callable[..., str]  # (recorded, mission, catalog, imported_from=name) -> the new game's id


@dataclass
class Inbox:
    """``--dir/games/`` looked at for games to take in; ``add_record`` and ``live``: the table's
    (a game recorded joins it; an old record's game is loaded to think on); ``sheet_resolver``: how
    a dropped sheet's ``mission:`` and ``pieces:`` are found (the context's: the catalog in use)."""

    folder: Folder
    store: Store
    thinkers: Thinkers
    turns: Turns
    add_record: AddRecord
    live: Callable[[str], LiveGame | None]
    sheet_resolver: Callable[[], Resolve]
    _importing: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _scanned_at: float = field(default_factory=time.monotonic, init=False, repr=False)

    def start(self) -> None:
        """Take in what is there, in the background."""
        threading.Thread(target=self.import_records, name="kakapo-import", daemon=True).start()

    def rescan(self) -> None:
        """Games dropped into ``games/`` since the last look are imported in the background (at most
        every few seconds; the listing that asked shows them at its next look)."""
        now = time.monotonic()
        if now - self._scanned_at < RESCAN_EVERY or self._importing.locked() or self.turns.closed:
            return
        self._scanned_at = now
        self.start()

    def wait(self, seconds: float) -> None:
        """Let an import under way end (it stops at its next file once the table is closed), so that
        the database is not closed under it."""
        if self._importing.acquire(timeout=seconds):
            self._importing.release()

    def import_records(self) -> None:
        with self._importing:  # one import at a time: each file joins once
            self._old_records()

    def _old_records(self) -> None:
        if not self.folder.games.is_dir():
            return
        # shortest names first: a record's own name (ID.json) before its copies (ID copy.json)
        for path in sorted(self.folder.games.glob("*.json"), key=lambda p: (len(p.name), p.name)):
            if self.turns.closed:
                return
            name = path.name
            if self.store.imports.outcome(name) is not None:
                continue
            try:
                outcome, game_id = self._old_record(path)
            except StoreBusy:
                continue  # another program holds the database: tried again at the next look
            except Exception as e:  # one bad file never stops the others
                outcome, game_id = f"not imported: {type(e).__name__}", None
            if outcome != "imported":  # an imported one is noted with the game, in one transaction
                self.store.imports.note(name, game_id, outcome)
        self.import_dropped()

    def import_dropped(self) -> None:
        """Logs and sheets of games played elsewhere (with the printed cards, another studio,
        `kakapo play --log`) dropped into ``--dir/games/``: each joins the folder's games once, as a
        recorded game with its names; the logs this studio wrote of its own games are skipped. A
        sheet's ``mission:`` and ``pieces:`` are found as ``POST /api/records`` finds them
        (``sheet_resolver``); a file that is not a regular one, or too large, is refused unread;
        whatever one file holds, the others are still imported."""
        found = sorted(self.folder.games.glob("*.jsonl")) + sorted(self.folder.games.glob("*.txt"))
        for path in found:
            if self.turns.closed:
                return
            name = path.name
            if self.store.imports.outcome(name) is not None or self.store.games.has(path.stem) or \
                    path.with_suffix(".json").exists():
                continue
            try:
                outcome = self._dropped(name)
            except StoreBusy:
                continue  # another program holds the database: tried again at the next look
            except Exception as e:  # one bad file never stops the others
                outcome = f"not imported: {type(e).__name__}"
            if outcome is not None:
                self.store.imports.note(name, None, outcome[:300])

    def _dropped(self, name: str) -> str | None:
        """One dropped file imported (None), or why not."""
        try:
            text = self.folder.game_file(name, MAX_RECORD).decode("utf-8")
            recorded = game_file(text, name, self.sheet_resolver())
        except UnsafeTarget as e:
            return f"not imported: {e.strerror}"
        except (OSError, UnicodeDecodeError) as e:
            return f"not imported: {getattr(e, 'strerror', None) or type(e).__name__}"
        except InputError as e:
            where = f"line {e.line}: " if e.line else ""
            return f"not imported: {where}{e.problem}"
        self.add_record(recorded, recorded.state.mission, recorded.state.catalog, imported_from=name)
        return None

    def _old_record(self, path: Path) -> tuple[str, str | None]:
        try:
            record = json.loads(self.folder.game_file(path.name, MAX_RECORD).decode("utf-8"))
        except UnsafeTarget as e:
            return f"not imported: {e.strerror}", None
        except (OSError, ValueError, RecursionError) as e:
            return f"not imported: not a game record ({type(e).__name__})", None
        if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT or not isinstance(
                record.get("id"), str):
            return "not imported: not a game record of this version", None
        gid = record["id"]
        for old in (path, path.with_suffix(".jsonl")):  # they hold tokens and hands: the owner's only
            with contextlib.suppress(OSError):
                if not old.is_symlink():
                    old.chmod(0o600)
        if self.store.games.has(gid):
            return f"not imported: a copy of game {gid}, which the database holds already", gid
        try:
            setup, moves, streams, tokens = self.thinkers.submit(f"import {gid}", replay_record, record).result()
        except BrokenGame as e:
            return f"not imported: {e}", gid
        except GaveUp as e:
            return f"not imported: {e.errors[-1] if e.errors else 'it could not be replayed'}", gid
        except Exception as e:
            return f"not imported: {type(e).__name__}", gid
        finally:
            self.thinkers.release(f"import {gid}")
        g = TableGame(setup, moves, streams)
        self.store.games.add(setup, {int(s): token_hash(t) for s, t in tokens.items()}, log_text(g.log()), moves,
                             streams, g.state.round, g.state.result(), imported_from=path.name)
        self.live(gid)
        return "imported", gid
