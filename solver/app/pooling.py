"""Pooling games: a studio's finished games as one JSON Lines file, and such a file taken in, so
that a club or a fan community can put its tables' games together (for `rate` and `calibrate`).

The file is the games' logs one after another: each starts with its setup line (``"event":
"setup"``), which carries the mission and the catalog, so the file reads anywhere. Only finished
games go out (an unfinished game's log would show its hands), never a token (logs hold none);
names go out unless asked not to. Taking a file in replays every game by the rules first: a game
that breaks a rule is refused with its line in the file, one already held is skipped.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from solver.app.recording import Recorded, game_file
from solver.core.errors import InputError

MAX_POOL = 20_000_000  # bytes of a pooled file: thousands of games
MAX_GAMES = 5000


def export_text(logs: list[str], names: bool = True) -> str:
    """The finished games' logs as one file; without ``names`` the setup lines lose theirs."""
    out = []
    for log in logs:
        lines = [x for x in log.splitlines() if x.strip()]
        if not names and lines:
            setup = json.loads(lines[0])
            setup.pop("names", None)
            lines[0] = json.dumps(setup)
        out += lines
    return "".join(x + "\n" for x in out)


def same_game(log: str) -> str:
    """A key of a game that does not depend on its names or where it was written: its events, less
    the names and the ids a studio gives."""
    events = [json.loads(x) for x in log.splitlines() if x.strip()]
    if events and isinstance(events[0], dict):
        events[0] = {k: v for k, v in events[0].items() if k not in ("names", "game_id", "source", "created")}
    return hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()


@dataclass
class Pooled:
    """A pooled file taken in: the games to add, those held already, and those refused."""

    games: list[Recorded] = field(default_factory=list)
    held: int = 0
    refused: list[dict[str, object]] = field(default_factory=list)  # {"game": k (1-based), "line", "message", "fix"}


def split_games(text: str, name: str) -> list[tuple[int, str]]:
    """The logs of a pooled file, each with the line it starts on (a setup line starts one)."""
    out: list[tuple[int, list[str]]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            raise InputError(name, f"line {n} is not JSON", "give the file GET /api/games/export wrote", n) from None
        if isinstance(event, dict) and event.get("event") == "setup":
            out.append((n, []))
        if not out:
            raise InputError(name, "the file does not start with a game's setup line",
                             "give the file GET /api/games/export wrote", n)
        out[-1][1].append(line)
    if len(out) > MAX_GAMES:
        raise InputError(name, f"{len(out)} games: more than {MAX_GAMES} in one file", "split it")
    return [(start, "".join(x + "\n" for x in lines)) for start, lines in out]


def import_pool(text: str, name: str, held: set[str], folder: Path) -> Pooled:
    """The games of a pooled file, each replayed by the rules (``held``: the keys of the games
    the studio has already, ``same_game``)."""
    out = Pooled()
    seen = set(held)
    for k, (start, log) in enumerate(split_games(text, name), 1):
        key = same_game(log)
        if key in seen:
            out.held += 1
            continue
        try:
            recorded = game_file(log, f"game {k}", folder)
        except InputError as e:
            out.refused.append({"game": k, "line": None if e.line is None else start + e.line - 1,
                                "message": e.problem, "fix": e.fix})
            continue
        if recorded.state.result() is None:
            out.refused.append({"game": k, "line": start, "message": "the game is not finished",
                                "fix": "pool finished games only"})
            continue
        seen.add(key)
        out.games.append(recorded)
    return out
