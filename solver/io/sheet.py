"""The game sheet: a game written down as it is played, as a chess scoresheet is (docs/logs.md).

```
mission: b05            # a bundled id, or a mission file beside the sheet
pieces: my-copy.toml    # optional: a catalog file beside the sheet
players: Ann, Ben       # the names in seat order (clockwise), 2 to 4
1. Ann blue-2, Ben blue-8, Ann blue-6, Ben blue-3 / blue-8 f11 d12 e12 f12 g12
2. Ben blue-7, Ann red-2, Ben blue-4, Ann yellow-5 / blue-7 i10 j10 k10 k11 l11
left: Ann yellow-1 red-3; Ben purple-2
```

This module reads and writes the form only (names, cards, cells, line numbers); whether the game
obeys the rules is checked when it is recorded (``app/sheets.py``), which names the line, the
round, the person and the rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from solver.core.board import cell_name, parse_cell
from solver.core.cards import Card
from solver.core.errors import InputError, ParseError
from solver.core.text import clean
from solver.io.safefiles import read_input_text

MAX_BYTES = 200_000  # a sheet of 13 rounds is about a kilobyte
FIX = "write the sheet as docs/logs.md shows (mission:, players:, one line per round, left:)"
ROUND = re.compile(r"^(\d+)\s*[.)]\s*(.*)$")
KEY = re.compile(r"^(mission|pieces|players|left)\s*:\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class SheetRound:
    """One round line: the plays in order (name, card), the pieces placed in order (a piece with
    ``None`` for cells: it fit nowhere), ``None`` for ``-`` (no piece selected)."""

    line: int
    number: int
    plays: tuple[tuple[str, Card], ...]
    placements: tuple[tuple[Card, frozenset[int] | None], ...]


@dataclass(frozen=True)
class Sheet:
    path: str
    mission: str
    pieces: str | None
    names: tuple[str, ...]
    rounds: tuple[SheetRound, ...]
    left: dict[str, tuple[Card, ...]] | None  # None: no `left:` line
    lines: dict[str, int]  # the line of each key (mission, pieces, players, left)

    def error(self, problem: str, fix: str = FIX, line: int | None = None) -> InputError:
        return InputError(self.path, problem, fix, line)


def is_sheet_text(text: str) -> bool:
    """Whether a file holding a game is a sheet rather than a JSON Lines log: its first line that is
    no comment is a sheet's (``mission:`` ... or a round); anything else is read as a log."""
    for raw in text[:MAX_BYTES].splitlines():
        line = _strip(raw)
        if line:
            return bool(KEY.match(line) or ROUND.match(line))
    return False


def _strip(raw: str) -> str:
    return raw.split("#", 1)[0].strip()


def read_sheet(path: str | Path) -> Sheet:
    return parse_sheet(read_input_text(path, MAX_BYTES, "sheet", "give the game's sheet (or its log)",
                                       too_large="a game's sheet has about a thousand bytes", bad_text=FIX),
                       str(path))


def parse_sheet(text: str, name: str) -> Sheet:
    """A sheet from its text; InputError naming the line for anything that is not one."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise InputError(name, "the sheet is larger than any game's", FIX)
    keys: dict[str, str] = {}
    lines: dict[str, int] = {}
    rounds: list[SheetRound] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip(raw)
        if not line:
            continue
        key = KEY.match(line)
        if key:
            k = key.group(1).lower()
            if k in keys:
                raise InputError(name, f"a second {k}: line (the first is line {lines[k]})", "keep one", number)
            keys[k], lines[k] = key.group(2).strip(), number
            continue
        m = ROUND.match(line)
        if not m:
            raise InputError(name, f"cannot read {clean(line)[:60]!r}: a line is mission:, pieces:, players:, "
                             "left: or a round (\"3. Ann red-2, Ben red-5 / red-5 c3 c4 d4\")", FIX, number)
        if "left" in keys:
            raise InputError(name, "a round after the left: line", "put left: at the end", number)
        rounds.append(_round(name, number, int(m.group(1)), m.group(2)))
        if rounds[-1].number != len(rounds):
            raise InputError(name, f"round {rounds[-1].number} follows round {len(rounds) - 1}; rounds are "
                             "numbered 1, 2, 3, ...", "number the rounds in order", number)
    for k in ("mission", "players"):
        if k not in keys or not keys[k]:
            raise InputError(name, f"the sheet has no {k}: line", "start the sheet with  mission: b05  and  "
                             "players: Ann, Ben", 1)
    names = tuple(clean(n.strip()) for n in keys["players"].split(","))
    if not 2 <= len(names) <= 4 or any(not n for n in names):
        raise InputError(name, f"players: names 2 to 4 people, separated by commas, not {len(names)}",
                         "write it like  players: Ann, Ben, Cleo", lines["players"])
    if len(set(n.lower() for n in names)) != len(names):
        raise InputError(name, "players: a name is given twice", "give each person a name of their own",
                         lines["players"])
    left = _left(name, keys["left"], lines["left"], names) if "left" in keys else None
    for r in rounds:
        for who, _ in r.plays:
            _person(name, who, names, r.line, r.number)
    return Sheet(name, keys["mission"], keys.get("pieces") or None, names, tuple(rounds), left, lines)


def _person(path: str, who: str, names: tuple[str, ...], line: int, rnd: int | None) -> str:
    for n in names:
        if n.lower() == who.lower():
            return n
    where = f"round {rnd}: " if rnd else ""
    raise InputError(path, f"{where}{clean(who)[:40]!r} is not at the table (players: {', '.join(names)})",
                     "use the names of the players: line", line)


def _card(path: str, text: str, line: int, where: str) -> Card:
    try:
        return Card.parse(text)
    except ParseError as e:
        raise InputError(path, f"{where}{e}", "name cards like blue-3 or b3", line) from None


def _round(path: str, line: int, number: int, body: str) -> SheetRound:
    where = f"round {number}: "
    plays_text, sep, placed_text = body.partition("/")
    if not sep:
        raise InputError(path, f"{where}no ' / ' before the pieces placed", "end the round with  / PIECE CELL ..., "
                         "or  / -  when no piece was selected", line)
    plays = []
    for item in (x.strip() for x in plays_text.split(",")):
        who, _, card = item.rpartition(" ")
        if not who.strip() or not card:
            raise InputError(path, f"{where}cannot read the play {clean(item)[:40]!r}", "write each play as  NAME "
                             "CARD, e.g. Ann blue-2", line)
        plays.append((who.strip(), _card(path, card, line, where)))
    placements: list[tuple[Card, frozenset[int] | None]] = []
    placed_text = placed_text.strip()
    if placed_text != "-":
        for item in (x.strip() for x in placed_text.split(",")):
            parts = item.split()
            if not parts:
                raise InputError(path, f"{where}an empty placement", "write  PIECE CELL CELL ...  separated by ', '",
                                 line)
            piece = _card(path, parts[0], line, where)
            if parts[1:] == ["-"]:
                placements.append((piece, None))
                continue
            try:
                cells = frozenset(parse_cell(c) for c in parts[1:])
            except ParseError as e:
                raise InputError(path, f"{where}{piece}: {e}", "name cells like c3 (column a-l, row 1-12)", line) \
                    from None
            if not cells:
                raise InputError(path, f"{where}{piece} has no cells", f"write the cells it covers, or  {piece} -  "
                                 "when it fit nowhere", line)
            placements.append((piece, cells))
    return SheetRound(line, number, tuple(plays), tuple(placements))


def _left(path: str, text: str, line: int, names: tuple[str, ...]) -> dict[str, tuple[Card, ...]]:
    out: dict[str, tuple[Card, ...]] = {n: () for n in names}
    for part in (x.strip() for x in text.split(";")):
        if not part:
            continue
        words = part.split()
        # a name may have spaces: the cards are the words that read as cards at the end
        k = len(words)
        while k > 0 and _is_card(words[k - 1]):
            k -= 1
        who = _person(path, " ".join(words[:k]), names, line, None)
        out[who] = out[who] + tuple(Card.parse(w) for w in words[k:])
    return out


def _is_card(word: str) -> bool:
    try:
        Card.parse(word)
        return True
    except ParseError:
        return False


# ---------------------------------------------------------------- writing
def write_sheet(mission: str, pieces: str | None, names: list[str], rounds: list[dict],
                left: dict[str, list[str]] | None, notes: tuple[str, ...] | list[str] = ()) -> str:
    """A sheet from a log's round events (``plays`` with ``player`` seats, ``pieces``,
    ``placements``) and the cards each person still holds."""
    out = [f"# {n}" for n in notes]
    out.append(f"mission: {mission}")
    if pieces:
        out.append(f"pieces: {pieces}")
    out.append(f"players: {', '.join(names)}")
    for e in rounds:
        plays = ", ".join(f"{names[p['player']]} {p['card']}" for p in e["plays"])
        placed = [f"{p['piece']} {' '.join(p['cells'])}" for p in e["placements"]]
        if len(e["pieces"]) > len(e["placements"]):
            placed.append(f"{e['pieces'][len(e['placements'])]} -")
        out.append(f"{e['round']}. {plays} / {', '.join(placed) or '-'}")
    if left is not None and any(left.values()):
        out.append("left: " + "; ".join(f"{n} {' '.join(cards)}" for n, cards in left.items() if cards))
    return "\n".join(out) + "\n"


def cells_text(cells: frozenset[int]) -> str:
    return " ".join(cell_name(c) for c in sorted(cells))
