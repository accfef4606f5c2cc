"""The replays of logged games, kept so that rating or calibrating a table again replays only its
new games: each entry under a key that digests everything that decides it (``analysis/rate.py``
makes the keys and the values), sealed with a digest of the key and the value.

Beside a folder of logs the entries are lines of a hidden file, ``.kakapo-replays`` (JSON Lines), appended
through the safe writer (never through a link, never into a FIFO) and read with the bounded
reader; the studio keeps the same sealed entries in its database. An entry is never trusted
blindly: a line that does not read, whose seal does not match, or whose value is not what the
reader expects is taken as missing, and that replay is made again (and written again).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from solver.io.safefiles import append_line, read_regular

CACHE_FILE = ".kakapo-replays"  # no suffix: no `*.jsonl` or `*.txt` listing of a folder of games takes it for one
MAX_CACHE = 64_000_000  # bytes: hundreds of thousands of entries; a larger file is left unread (recomputed)


def seal(key: str, value: Any) -> str:
    """The digest that travels with an entry: a damaged or edited entry does not match it."""
    return hashlib.sha256((key + "\0" + json.dumps(value, sort_keys=True)).encode()).hexdigest()[:20]


def unsealed(key: str, value: Any, check: Any) -> Any | None:
    """``value`` when ``check`` is its seal, else None."""
    try:
        return value if isinstance(check, str) and seal(key, value) == check else None
    except (TypeError, ValueError, RecursionError):
        return None


def entry_line(key: str, value: Any) -> str:
    return json.dumps({"key": key, "value": value, "check": seal(key, value)}, sort_keys=True) + "\n"


def read_entries(text: str) -> dict[str, Any]:
    """The good entries of a cache file's text (the last of a key wins)."""
    out: dict[str, Any] = {}
    for line in text.splitlines():
        try:
            entry = json.loads(line)
            key = entry["key"]
            value = unsealed(key, entry["value"], entry["check"])
        except (ValueError, KeyError, TypeError, RecursionError):
            continue  # a line cut short, damaged or not ours
        if isinstance(key, str) and value is not None:
            out[key] = value
    return out


class Replays(Protocol):
    """Where replays are kept between runs (``io.replays.FolderReplays``; the studio's database)."""

    def get(self, wanted: Iterable[tuple[str, str | None]]) -> dict[str, Any]: ...

    def put(self, entries: Iterable[tuple[str, Any, str | None]]) -> None: ...


class FolderReplays:
    """The replays kept beside the logs: each game's entries in its own folder's file."""

    def __init__(self) -> None:
        self.read: dict[Path, dict[str, Any]] = {}

    def _folder(self, where: str | None) -> Path | None:
        return None if where is None else Path(where).resolve().parent

    def _entries(self, folder: Path) -> dict[str, Any]:
        if folder not in self.read:
            try:
                text = read_regular(folder / CACHE_FILE, MAX_CACHE, follow_links=False).decode("utf-8", "replace")
            except OSError:  # none yet, unreadable, a link or too large: every replay is made again
                text = ""
            self.read[folder] = read_entries(text)
        return self.read[folder]

    def get(self, wanted: Iterable[tuple[str, str | None]]) -> dict[str, Any]:
        """The kept values of these (key, the game's file) pairs that are there and sound."""
        out = {}
        for key, where in wanted:
            folder = self._folder(where)
            if folder is not None and key in self._entries(folder):
                out[key] = self._entries(folder)[key]
        return out

    def put(self, entries: Iterable[tuple[str, Any, str | None]]) -> None:
        """Keep (key, value, the game's file) entries; a folder that cannot be written keeps none."""
        for key, value, where in entries:
            folder = self._folder(where)
            if folder is None:
                continue
            with contextlib.suppress(OSError):
                append_line(folder / CACHE_FILE, entry_line(key, value))
                self._entries(folder)[key] = value


class DatabaseReplays:
    """The replays kept in a database (the studio's): ``fetch(keys)`` gives {key: sealed entry} and
    ``keep([(key, sealed entry)])`` stores them; an entry that does not read or does not match its
    seal is taken as missing. A database that cannot be read or written costs only the replays."""

    def __init__(self, fetch: Callable[[list[str]], dict[str, str]],
                 keep: Callable[[list[tuple[str, str]]], None]) -> None:
        self.fetch, self.keep = fetch, keep

    def get(self, wanted: Iterable[tuple[str, str | None]]) -> dict[str, Any]:
        keys = sorted({key for key, _ in wanted})
        try:
            found = self.fetch(keys)
        except Exception:  # a busy or broken database: the replays are made again
            return {}
        return {k: v for k, v in read_entries("\n".join(str(e).strip() for e in found.values())).items()
                if k in found}

    def put(self, entries: Iterable[tuple[str, Any, str | None]]) -> None:
        with contextlib.suppress(Exception):  # the replays are a cache: a busy database keeps none this time
            self.keep([(key, entry_line(key, value).strip()) for key, value, _ in entries])
