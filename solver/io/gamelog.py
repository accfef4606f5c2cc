"""Game logs (JSON Lines, `kakapo play --log`: docs/logs.md): reading them with errors that name the line,
and writing them.

A log is a ``setup`` line, one ``round`` line per finished round, and an ``end`` line once the
game is over; a log without its end is a game still in play (one interrupted, or entered by
hand up to some round). Reading checks the form of every line (JSON, the keys and their
types, names of cards, colours and cells); whether the moves obey the rules is checked when
the game is replayed (``game/resume.py``), which names the line of the first move that does not.
Keys a round line can do without, because the rules decide them (``start_player``, ``trump``,
``decision``, ``in_charge``, ``pieces``, ``skills_left``, ``scanned``), are checked when present.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.core.board import parse_cell
from solver.core.cards import ALL_CARDS, Card, Colour
from solver.core.codes import Result, Skill
from solver.core.errors import InputError, ParseError
from solver.core.rules import Placement
from solver.core.text import clean
from solver.io.safefiles import read_input_text, replacing

MAX_BYTES = 1_000_000  # a game log is a few kilobytes; anything bigger is not one
FIX = "give a log written by `kakapo play --log`, or one written by hand as docs/logs.md describes"

MAX_SAMPLES = 4096  # the most look-ahead deals a logged search player is taken to have used

@dataclass(frozen=True)
class LoggedRound:
    """One round line, parsed (``None`` where the line leaves a derivable key out)."""

    line: int
    round: int
    plays: tuple[tuple[int, Card], ...]
    skill: Skill
    placements: tuple[Placement, ...]
    pieces: tuple[Card, ...] | None = None
    start_player: int | None = None
    trump: Colour | None = None
    decision: Card | None = None
    in_charge: int | None = None
    skills_left: int | None = None
    scanned: tuple[str, ...] | None = None


@dataclass(frozen=True)
class GameLog:
    path: str
    mission: str
    players: int
    rounds: int | None
    skills: int | None
    hands: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...]
    removed: tuple[Card, ...]
    start_player: int
    rounds_logged: tuple[LoggedRound, ...]
    end: dict | None = None  # result, rounds_played, scanned, line
    meta: dict = field(default_factory=dict)  # seed, game, policy (samples) of the game that wrote it, when known
    format: int = 1  # 2: the setup line carries the mission and catalog (io/loginputs.py)
    mission_text: str | None = None
    mission_digest: str | None = None
    pieces_text: str | None = None
    pieces_digest: str | None = None  # the catalog file's text digest (not a mission's pieces_digest: its shapes')
    human: tuple[int, ...] = ()  # the seats a person played
    names: dict = field(default_factory=dict)  # seat -> the name of who played it, when the log says
    source: str | None = None  # "recorded": written from a sheet of a game played with the printed cards

    def line_of_round(self, r: int) -> int | None:
        for x in self.rounds_logged:
            if x.round == r:
                return x.line
        return None


class _Line:
    """One parsed line: typed access to its keys with errors that name the line."""

    def __init__(self, path: str, number: int, data: dict):
        self.path, self.number, self.data = path, number, data

    def error(self, problem: str, fix: str = FIX) -> InputError:
        return InputError(self.path, problem, fix, self.number)

    def has(self, key: str) -> bool:
        return key in self.data and self.data[key] is not None

    def get(self, key: str, kind: type, required: bool = True) -> Any:
        if key not in self.data or self.data[key] is None:
            if required:
                raise self.error(f"the {self.data.get('event', '')} line has no {key!r}")
            return None
        v = self.data[key]
        if kind is int and (not isinstance(v, int) or isinstance(v, bool)):
            raise self.error(f"{key!r} must be an integer, not {_short(v)}")
        if kind in (str, list, dict) and not isinstance(v, kind):
            raise self.error(f"{key!r} must be a {kind.__name__}, not {_short(v)}")
        return v

    def card(self, text: Any, what: str) -> Card:
        try:
            return Card.parse(text if isinstance(text, str) else "?")
        except ParseError as e:
            raise self.error(f"{what}: {e}") from None

    def cards(self, key: str, required: bool = True) -> tuple[Card, ...] | None:
        items = self.get(key, list, required)
        if items is None:
            return None
        return tuple(self.card(x, key) for x in items)

    def seat(self, v: Any, players: int, what: str) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < players:
            raise self.error(f"{what} is {_short(v)}; players are numbered 0..{players - 1}")
        return v


def _short(v: Any) -> str:
    t = repr(v)
    return clean(t if len(t) <= 40 else t[:37] + "...")


def people_of(log: GameLog) -> dict[int, str]:
    """The names of the people who played a logged game (seat -> name): a format-2 log's ``names``
    of its ``human`` seats (its other names label the bots, as ``bot (planner)``); an older log's all."""
    names = getattr(log, "names", {}) or {}
    if getattr(log, "format", 1) == 2:
        return {k: v for k, v in names.items() if k in getattr(log, "human", ()) and v}
    return {k: v for k, v in names.items() if v}


def digest(text: str) -> str:
    """The first 16 hex digits of the SHA-256 of the text (UTF-8): how a log names the mission and
    catalog texts it carries."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def read_log(path: str | Path) -> GameLog:
    """Parse a log file; InputError naming the file and line for anything that is not a log."""
    return parse_log(read_input_text(path, MAX_BYTES, "log file", "give the file written by `kakapo play --log`",
                                     too_large="a game log has a few thousand", bad_text=FIX), str(path))


def parse_log(text: str, name: str) -> GameLog:
    """A log from its text (``name``: what the messages call it); InputError naming the line."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise InputError(name, f"the log has {len(text.encode('utf-8'))} bytes; a game log has a few thousand", FIX)
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except RecursionError:
            raise InputError(name, "values nested deeper than any log needs", FIX, number) from None
        except ValueError as e:
            cut = " (the last line is cut short: was the game interrupted while writing?)" \
                if number == len(text.splitlines()) else ""
            raise InputError(name, f"not a JSON object{cut}: {clean(str(e))[:120]}", FIX, number) from None
        if not isinstance(data, dict):
            raise InputError(name, f"each line is a JSON object, not {type(data).__name__}", FIX, number)
        lines.append(_Line(name, number, data))
    if not lines:
        raise InputError(name, "the file is empty", FIX)
    events = [ln.data.get("event") for ln in lines]
    for ln, ev in zip(lines, events, strict=True):
        if ev not in ("setup", "round", "end"):
            raise ln.error(f"unknown event {_short(ev)}; a log has setup, round and end lines")
    if events[0] != "setup":
        raise lines[0].error("the first line of a log is its setup line")
    if "setup" in events[1:]:
        raise lines[events.index("setup", 1)].error("a second setup line: one log holds one game")
    if "end" in events and events.index("end") != len(events) - 1:
        raise lines[events.index("end") + 1].error("a line after the end of the game")
    setup = _setup(lines[0])
    rounds: list[LoggedRound] = []
    for ln in lines[1:]:
        if ln.data["event"] == "round":
            r = _round(ln, setup["players"])
            if r.round != len(rounds) + 1:
                raise ln.error(f"round {r.round} follows round {len(rounds)}; rounds are numbered 1, 2, 3, ...")
            rounds.append(r)
    if setup["start_player"] is None:
        if not rounds or not rounds[0].plays:
            raise lines[0].error("no hand holds purple-8 and no round is logged, so the setup line must say who "
                                 "started", 'add "start_player": N (the player who led round one, from 0)')
        setup["start_player"] = rounds[0].plays[0][0]
    end = None
    if events[-1] == "end":
        ln = lines[-1]
        try:
            result = Result.parse(ln.get("result", str)).label
        except ParseError as e:
            raise ln.error(str(e)) from None
        end = {"result": result, "rounds_played": ln.get("rounds_played", int, False),
               "scanned": ln.get("scanned", list, False), "line": ln.number}
    meta = {k: setup[k] for k in ("seed", "game", "policy") if setup.get(k) is not None}
    samples = setup.get("samples")
    if samples is not None and 0 <= samples <= MAX_SAMPLES:
        meta["samples"] = samples  # the search player's; a count out of range is not ours and is left out
    return GameLog(name, setup["mission"], setup["players"], setup["rounds"], setup["skills"], setup["hands"],
                   setup["set_aside"], setup["removed"], setup["start_player"], tuple(rounds), end, meta,
                   **_record(lines[0], setup["players"]))


def _record(ln: _Line, players: int) -> dict:
    """The format-2 keys of the setup line: the texts it carries, checked against their digests."""
    fmt = ln.get("format", int, False)
    if fmt is not None and fmt not in (1, 2):
        raise ln.error(f"format {fmt} is not one this version of kakapo reads (1 or 2)",
                       "read it with a newer kakapo, or give a log written by `kakapo play --log`")
    out: dict = {"format": fmt or 1}
    # each text's hash: ``mission_digest``; the catalog file's under its own name,
    # ``pieces_text_digest``, and as ``pieces_digest`` (the name logs of before gave it)
    for what, keys, called in (("mission", ("mission_digest",), "mission file"),
                               ("pieces", ("pieces_text_digest", "pieces_digest"), "catalog file")):
        text = ln.get(f"{what}_text", str, fmt == 2)
        hashes = [(k, ln.get(k, str, False)) for k in keys]
        hashes = [(k, v) for k, v in hashes if v is not None]
        logged = hashes[0][1] if hashes else None
        if text is not None:
            actual = digest(text)
            for key, value in hashes:
                if value != actual:
                    raise ln.error(f"the {called}'s text the log carries has the text digest {actual}, not "
                                   f"{clean(value)[:20]} as its {key} says: the log was edited after it was written",
                                   f"give the log as kakapo wrote it, or remove {' and '.join(k for k, _ in hashes)} "
                                   "to read the text as it is")
            logged = actual
        out[f"{what}_text"], out[f"{what}_digest"] = text, logged
    seats = ln.get("human", list, False) or []
    out["human"] = tuple(sorted({ln.seat(k, players, "a human seat") for k in seats}))
    names = ln.get("names", dict, False) or {}
    out["names"] = {}
    for k, v in names.items():
        if not (isinstance(k, str) and k.isdigit() and int(k) < players) or not isinstance(v, str):
            raise ln.error(f"'names' maps seats to names, like {{\"0\": \"Ann\"}}, not {_short(names)}")
        out["names"][int(k)] = clean(v)[:60]
    out["source"] = clean(ln.get("source", str, False))[:20] if ln.has("source") else None
    return out


def _setup(ln: _Line) -> dict:
    players = ln.get("players", int)
    if players not in (2, 3, 4):
        raise ln.error(f"players is {players}; a game has 2, 3 or 4 players")
    hands = ln.get("hands", list)
    if len(hands) != players or not all(isinstance(h, list) for h in hands):
        raise ln.error(f"'hands' must hold one list of cards per player ({players})")
    dealt = tuple(tuple(ln.card(c, f"player {k}'s hand") for c in h) for k, h in enumerate(hands))
    # what a table can leave out: purple-1 is out with 3 players, the set-aside cards are the
    # cards in no hand, and whoever holds purple-8 starts
    removed = ln.cards("removed", False)
    if removed is None:
        removed = (Card.parse("purple-1"),) if players == 3 else ()
    set_aside = ln.cards("set_aside", False)
    if set_aside is None:
        held = {c for h in dealt for c in h} | set(removed)
        set_aside = tuple(c for c in ALL_CARDS if c not in held)
    start: int | None
    if ln.has("start_player"):
        start = ln.seat(ln.get("start_player", int), players, "start_player")
    else:
        holders = [k for k, h in enumerate(dealt) if Card.parse("purple-8") in h]
        start = holders[0] if holders else None  # purple-8 set aside: who leads round one
    out = {
        "mission": clean(ln.get("mission", str)), "players": players,
        "rounds": ln.get("rounds", int, False), "skills": ln.get("skills", int, False),
        "hands": dealt, "set_aside": set_aside, "removed": removed, "start_player": start,
        "seed": ln.get("seed", int, False), "game": ln.get("game", int, False),
        "samples": ln.get("samples", int, False),
        "policy": clean(ln.get("policy", str, False)) if ln.has("policy") else None,
    }
    return out


def _round(ln: _Line, players: int) -> LoggedRound:
    plays = []
    for item in ln.get("plays", list):
        if not isinstance(item, dict) or "player" not in item or "card" not in item:
            raise ln.error(f"each play is {{\"player\": N, \"card\": \"red-3\"}}, not {_short(item)}")
        plays.append((ln.seat(item["player"], players, "a play's player"), ln.card(item["card"], "a play's card")))
    skill_text = ln.data.get("skill")
    try:
        skill = Skill.from_json(skill_text if skill_text is None or isinstance(skill_text, str) else "?")
    except ParseError:
        raise ln.error(f"skill is {_short(skill_text)}; one of null, double_scan, wild_color, shift_change") \
            from None
    placements = []
    for item in ln.get("placements", list):
        if not isinstance(item, dict) or not isinstance(item.get("cells"), list):
            raise ln.error(f"each placement is {{\"piece\": \"red-5\", \"cells\": [\"c9\", ...]}}, not {_short(item)}")
        piece = ln.card(item.get("piece"), "a placement's piece")
        try:
            cells = frozenset(parse_cell(c if isinstance(c, str) else "?") for c in item["cells"])
        except ParseError as e:
            raise ln.error(f"placement of {piece}: {e}") from None
        placements.append(Placement(piece, cells))
    trump = None
    if ln.has("trump"):
        try:
            trump = Colour.parse(ln.get("trump", str))
        except ParseError as e:
            raise ln.error(f"trump: {e}") from None
    scanned = ln.get("scanned", list, False)
    return LoggedRound(
        line=ln.number, round=ln.get("round", int), plays=tuple(plays), skill=skill, placements=tuple(placements),
        pieces=ln.cards("pieces", False),
        start_player=ln.seat(ln.data["start_player"], players, "start_player") if ln.has("start_player") else None,
        trump=trump, decision=ln.card(ln.data["decision"], "decision") if ln.has("decision") else None,
        in_charge=ln.seat(ln.data["in_charge"], players, "in_charge") if ln.has("in_charge") else None,
        skills_left=ln.get("skills_left", int, False),
        scanned=None if scanned is None else tuple(clean(x) for x in scanned))


def write_log(path: str | Path, events: list[dict]) -> None:
    """Write the log whole or not at all (a game logged round by round is never left half-written),
    through a randomly named file created exclusively, never through a link (``io/safefiles.py``)."""
    with replacing(path) as f:
        for e in events:
            f.write(json.dumps(e) + "\n")
