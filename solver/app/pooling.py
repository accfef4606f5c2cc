"""Pooling games: a studio's finished games as one JSON Lines file, and such a file taken in, so
that a club or a fan community can put its tables' games together (for `rate` and `calibrate`).

The file is the games' logs one after another: each starts with its setup line (``"event":
"setup"``), which carries the mission and the catalog, so the file reads anywhere. Only finished
games go out (an unfinished game's log would show its hands), never a token (logs hold none);
names go out unless asked not to. Taking a file in replays every game by the rules first: a game
that breaks a rule is refused with its line in the file, one already held (the same mission,
catalog, hands, set-aside cards and moves: ``game_key``) is skipped.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from solver.app.sheets import NamedGame, Resolve, game_file
from solver.core.errors import InputError
from solver.io.gamelog import GameLog, parse_log

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


def game_key(log: GameLog) -> str:
    """What was played, and nothing else: the mission and catalog (their texts' digests; an older
    log's mission id), the number of players, the hands, the set-aside cards and the moves. Two
    logs of one game have one key, whatever names, ids or other keys their lines carry."""
    doc = {"mission": log.mission_digest or log.mission, "pieces": log.pieces_digest, "players": log.players,
           "hands": [sorted(str(c) for c in h) for h in log.hands],
           "set_aside": sorted(str(c) for c in log.set_aside), "removed": sorted(str(c) for c in log.removed),
           "moves": [[[[p, str(c)] for p, c in r.plays], r.skill.json,
                      [[str(pl.card), sorted(pl.cells)] for pl in r.placements]] for r in log.rounds_logged]}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def same_game(log: str) -> str | None:
    """``game_key`` of a log's text (None when it does not read as a log)."""
    try:
        return game_key(parse_log(log, "a log"))
    except InputError:
        return None


@dataclass
class Pooled:
    """A pooled file taken in: the games to add, those held already, and those refused."""

    games: list[NamedGame] = field(default_factory=list)
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
        except RecursionError:
            raise InputError(name, "values nested deeper than any game's log",
                             "give the file GET /api/games/export wrote", n) from None
        except ValueError:
            raise InputError(name, "not JSON", "give the file GET /api/games/export wrote", n) from None
        if isinstance(event, dict) and event.get("event") == "setup":
            out.append((n, []))
        if not out:
            raise InputError(name, "the file does not start with a game's setup line",
                             "give the file GET /api/games/export wrote", n)
        out[-1][1].append(line)
    if len(out) > MAX_GAMES:
        raise InputError(name, f"{len(out)} games: more than {MAX_GAMES} in one file", "split it")
    return [(start, "".join(x + "\n" for x in lines)) for start, lines in out]


def import_pool(text: str, name: str, held: set[str], resolve: Resolve) -> Pooled:
    """The games of a pooled file, each replayed by the rules (``held``: the keys of the games
    the studio has already, ``game_key``; ``resolve``: how a sheet's mission and catalog are found)."""
    out = Pooled()
    seen = set(held)
    for k, (start, log) in enumerate(split_games(text, name), 1):
        try:
            key = game_key(parse_log(log, f"game {k}"))
            if key in seen:
                out.held += 1
                continue
            recorded = game_file(log, f"game {k}", resolve)
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
