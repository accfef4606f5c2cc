"""A game played with the printed cards, entered tap by tap on one phone passed around the table
(the studio's Record tab; ``app/recordings.py`` keeps the recordings).

A recording is its setup (the mission, the catalog, the names in seat order, who leads round one)
and the entries made so far: a card revealed, the pieces selected, a piece placed, the cards a
person still holds at the end. Nothing else is stored: every answer replays the entries by the
rules as a recorded game (``game/recorded.py``: the hands revealed as played), so the decision
card, who is in charge, the trump, the selections the skills allow, the legal placements, the end
of the game and every refusal are the rules', never the page's; ``app/refusals.py`` says a
refusal as a sheet's would, after the entry's number. A must-follow broken against a card still
held is caught when the cards left are entered. Undo removes the last entry.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from solver.app.refusals import sentence
from solver.core.board import cell_name, parse_cell
from solver.core.cards import ALL_CARDS, Card
from solver.core.errors import InputError, ParseError
from solver.core.rules import Mission
from solver.core.text import clean
from solver.game.engine import log_events
from solver.game.recorded import RecordedGame
from solver.game.state import GameState, IllegalAction, Phase
from solver.io.catalog import Catalog
from solver.io.missionwrite import board_json, board_rows
from solver.io.sheet import write_sheet

MAX_NAME = 24
MAX_ENTRIES = 400  # far above any game (40 cards, 2 placements a round, the cards left)
WHERE = "the recording"


@dataclass(frozen=True)
class Setup:
    """What a recording starts from: a mission (a bundled id or a mission file of the folder), the
    catalog file (None: the bundled pieces), the names in seat order and the seat that leads round one."""

    mission: str
    pieces: str | None
    names: tuple[str, ...]
    leader: int

    def to_json(self) -> dict[str, Any]:
        return {"mission": self.mission, "pieces": self.pieces, "names": list(self.names), "leader": self.leader}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Setup:
        return cls(d["mission"], d.get("pieces"), tuple(d["names"]), int(d["leader"]))


# the bidirectional marks and overrides: they reorder how a line shows, disguising what it says
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


_CONTROL_NAMES = {"\0": "NUL", "\t": "tab", "\n": "line feed", "\r": "carriage return", "\x1b": "escape",
                  "\x85": "next line", "\x7f": "delete"}


def unwritable(name: str) -> str | None:
    """The first character of ``name`` a sheet's line cannot hold, in words (a control character:
    NUL, a carriage return, a tab...; a line or paragraph separator; a bidirectional mark; a lone
    surrogate), or None."""
    for ch in name:
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs", "Zl", "Zp") or ch in BIDI:
            what = {"Cc": "the control character", "Cs": "the lone surrogate", "Zl": "the line separator",
                    "Zp": "the paragraph separator"}.get(category, "the bidirectional mark")
            label = _CONTROL_NAMES.get(ch) or (unicodedata.name(ch, "").lower() if category != "Cs" else "")
            return f"{what} U+{ord(ch):04X}" + (f" ({label})" if label else "")
    return None


def check_setup(setup: Setup, mission: Mission) -> None:
    """The names and the leader for this mission (InputError saying which and why)."""
    for n in setup.names:  # before anything is trimmed: such a character is never taken out quietly
        bad = unwritable(n)
        if bad is not None:
            raise InputError(WHERE, f"the name {clean(n)[:MAX_NAME]!r} holds {bad}, which a sheet cannot hold",
                             "type the name again with letters, digits, spaces and punctuation only")
    names = [n.strip() for n in setup.names]
    if len(names) not in mission.player_counts():
        raise InputError(WHERE, f"{mission.name} is played by {' or '.join(map(str, mission.player_counts()))} "
                         f"players, not {len(names)}", "give one name per person, in seat order")
    for n in names:
        if not n or len(n) > MAX_NAME or any(ch in n for ch in ",;/#\n") or n[0].isdigit():
            raise InputError(WHERE, f"the name {n[:MAX_NAME]!r} cannot be written on a sheet",
                             f"a name of 1 to {MAX_NAME} characters, not starting with a digit, without , ; / #")
    if len({n.lower() for n in names}) != len(names):
        raise InputError(WHERE, "two people have the same name", "give each person a name of their own")
    if not 0 <= setup.leader < len(names):
        raise InputError(WHERE, f"no seat {setup.leader} leads", "choose who leads round one")


@dataclass
class Tape:
    """The recording replayed: the recorded game after its entries (``game/recorded.py``)."""

    setup: Setup
    game: RecordedGame
    entries: int

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def left(self) -> dict[int, tuple[Card, ...]]:
        """The cards left entered so far, by seat."""
        return self.game.kept

    def phase(self) -> str:
        s = self.state
        if not s.is_over():
            return {Phase.REVEAL: "play", Phase.SELECT: "select", Phase.PLACE: "place"}[s.phase]
        return "left" if self.left_needed() else "done"

    def left_needed(self) -> dict[int, int]:
        """The seats whose cards left are still to enter (once the game is over), with how many they hold."""
        return self.game.missing() if self.state.is_over() else {}

    def sheet(self, mission_ref: str, pieces_ref: str | None) -> str:
        """The game's sheet: every finished round, and the cards left once all are entered."""
        rounds = [e for e in log_events(self.state)[1:] if e["event"] == "round"]
        done = self.state.is_over() and not self.left_needed()
        left = {self.names[k]: [str(c) for c in self.left.get(k, ())] for k in range(len(self.names))} if done else None
        notes = [] if done else ["being recorded: the rounds finished so far"]
        return write_sheet(mission_ref, pieces_ref, list(self.names), rounds, left, notes)


def replay_entries(setup: Setup, entries: list[dict[str, Any]], mission: Mission, catalog: Catalog) -> Tape:
    """The entries replayed by the rules; InputError naming the entry (1-based) and the rule when one
    is impossible."""
    check_setup(setup, mission)
    game = RecordedGame.start(mission, catalog, len(setup.names), setup.leader, WHERE)
    return extend(Tape(setup, game, 0), entries)


def extend(tape: Tape, entries: list[dict[str, Any]]) -> Tape:
    """A copy of ``tape`` with ``entries`` applied after its own (the recording grows one entry at
    a time: the studio keeps the last tape and replays only the new entry)."""
    if tape.entries + len(entries) > MAX_ENTRIES:
        raise InputError(WHERE, f"more than {MAX_ENTRIES} entries", "undo the last ones")
    tape = Tape(tape.setup, tape.game.clone(), tape.entries)
    for entry in entries:
        n, rnd = tape.entries + 1, tape.state.round
        try:
            _apply(tape, entry)
        except IllegalAction as e:
            problem, fix = sentence(e, tape.names)
            raise InputError(WHERE, f"entry {n}: {problem}", fix) from None
        except (ParseError, KeyError, ValueError, TypeError) as e:
            raise InputError(WHERE, f"entry {n} (round {rnd}): {e}", "undo it and enter what was played") from None
        except InputError as e:
            raise InputError(WHERE, f"entry {n} (round {rnd}): {e.problem}", e.fix) from None
        tape.entries = n
    return tape


def _apply(tape: Tape, entry: dict[str, Any]) -> None:
    game = tape.game
    if "left" in entry:
        _left(tape, int(entry["seat"]), [Card.parse(c) for c in entry["left"]])
    elif "card" in entry:
        game.reveal(Card.parse(entry["card"]))
    elif "pieces" in entry:
        game.select(tuple(Card.parse(c) for c in entry["pieces"]))
    elif "place" in entry:
        game.place(Card.parse(entry["place"]), frozenset(parse_cell(c) for c in entry["cells"]))
    else:
        raise InputError(WHERE, "an entry is a card, a selection, a placement or the cards left", "")


def _left(tape: Tape, seat: int, cards: list[Card]) -> None:
    """The cards a person still holds, entered once the game is over, one person at a time."""
    if not tape.state.is_over():
        raise InputError(WHERE, "the cards left are entered once the game is over", "go on with the game")
    if seat not in tape.left_needed():
        raise InputError(WHERE, f"no cards left to enter for seat {seat}", "")
    tape.game.keep(seat, cards)


def tape_doc(tape: Tape) -> dict[str, Any]:
    """What the Record tab draws: whose turn, the trick, the decision, the selections and placements
    the rules allow now, the board, the cards gone, and what is left to enter."""
    s = tape.state
    m = s.mission
    phase = tape.phase()
    last = s.history[-1] if s.history else None
    options = [{"pieces": [str(c) for c in o.pieces], "skill": o.skill.json,
                "text": _option_text(o.skill.json, o.pieces)} for o in s.options] if phase == "select" else []
    placements: list[list[str]] = []
    if phase == "place" and s.piece is not None:
        placements = [sorted(cell_name(c) for c in p.cells) for p in s.observation(s.in_charge).placements()]
    placed = [p for r in s.history for p in r.placements] + list(s.placed)
    return {
        "setup": tape.setup.to_json(), "players": s.players, "mode": s.spec.mode,
        "mission": {"id": m.id, "name": m.name, "clear": "all" if m.clear_all else m.clear, "needed": m.clear,
                    "rounds": s.spec.rounds, "board": board_rows(m)},
        "phase": phase, "round": s.round, "rounds": s.spec.rounds, "entries": tape.entries,
        "to_act": None if s.is_over() else s.current_player(), "trump": str(s.trump),
        "lead": str(s.trick[0][1].colour) if s.trick else None,
        "trick": [{"player": p, "card": str(c)} for p, c in s.trick],
        "last_trick": [{"player": p, "card": str(c)} for p, c in last.plays] if last else [],
        "last_in_charge": last.in_charge if last else None,
        "decision": str(s.decision) if s.decision else None, "in_charge": s.in_charge if s.in_charge >= 0 else None,
        "skills_left": s.skills_left, "options": options,
        "piece": str(s.piece) if s.piece else None, "placements": placements,
        "gone": sorted(str(c) for c in tape.game.gone()), "removed": [str(c) for c in s.spec.removed],
        "hand_size": s.spec.hand_size, "revealed": [len(tape.game.revealed(k)) for k in range(s.players)],
        "left_needed": {str(k): n for k, n in tape.left_needed().items()},
        "left": {str(k): [str(c) for c in v] for k, v in tape.left.items()},
        "pieces": [p.to_json() for p in placed], "last": placed[-1].cell_names() if placed else [],
        "state": board_json(s.board), "scanned": s.board.scanned(), "result": s.result(),
        "shapes": {str(c): s.catalog[c].format() for c in ALL_CARDS},
    }


def _option_text(skill: str | None, pieces: tuple[Card, ...]) -> str:
    what = " then ".join(map(str, pieces)) if pieces else "no piece (it is on the board already)"
    return what if skill is None else f"{skill.replace('_', ' ')}: {what}"
