"""Recording a game played with the printed cards: a sheet (``io/sheet.py``) checked against the
rules and turned into a format-2 log, and any log written back as a sheet. One use case for
`kakapo record`, every command that reads a log (a sheet reads as one) and `POST /api/records`.

The hands are what each person played plus what they still hold (``left:``); the set-aside cards
are the rest. Every play is checked when it is made: whose turn it is, must follow (against the
hand now known in full), the pieces placed against the selections the rules allow (the skill is
read from them) and each placement against the board. The first impossibility is an InputError
naming the line, the round, the person and the rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.core.board import cell_name
from solver.core.cards import ALL_CARDS, Card
from solver.core.errors import InputError
from solver.core.rules import Board, Mission, Placement
from solver.core.spec import GameSpec
from solver.core.text import clean
from solver.game.actions import Action
from solver.game.engine import log_events
from solver.game.resume import replay
from solver.game.rng import SplitMix64
from solver.game.state import GameState, IllegalAction, Phase, legal_positions, position_of
from solver.io.catalog import Catalog, load_catalog
from solver.io.gamelog import FIX, GameLog, parse_log
from solver.io.missionfile import catalog_beside, load_mission
from solver.io.paths import bundled_mission, mission_path
from solver.io.records import log_inputs
from solver.io.safefiles import MAX_FILE_BYTES, read_input_text, read_plain_file
from solver.io.sheet import Sheet, SheetRound, is_sheet_text, parse_sheet, read_sheet, write_sheet

Resolve = Callable[[Sheet], tuple[Catalog, Mission]]


@dataclass(frozen=True)
class Recorded:
    """A sheet recorded: the log's events, the state at its end and the names by seat."""

    events: list[dict[str, Any]]
    state: GameState
    names: tuple[str, ...]  # by seat ("" where the log names nobody)

    @property
    def text(self) -> str:
        return "".join(json.dumps(e) + "\n" for e in self.events)

    def summary(self, log: str | None) -> dict[str, Any]:
        return {"log": log, "rounds": self.state.rounds_played(), "result": self.state.result(),
                "names": list(self.names)}


PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,120}$")  # a file of the folder itself: no path, no '..'


def _plain(sheet: Sheet, key: str, ref: str, where: str) -> str:
    """``ref`` if it is a plain file name (or a bundled id); InputError on the sheet's line else."""
    if not PLAIN_NAME.match(ref) or ".." in ref:
        raise sheet.error(f"{key}: {clean(ref)[:60]!r} is not a plain file name: a sheet names a bundled mission "
                          f"or a file {where} by its name, never a path, '..' or a link",
                          f"give a bundled id (kakapo list) or the name of a file {where}", sheet.lines[key])
    return ref


def beside(folder: Path) -> Resolve:
    """The mission and catalog a sheet names, read as the CLI reads them: ``mission:`` a file
    beside the sheet (by its plain name, with or without .toml) or a bundled id, ``pieces:`` a
    catalog file beside it (else the catalog the mission says it was made with, beside it, or
    the bundled one); never a path elsewhere."""

    def resolve(sheet: Sheet) -> tuple[Catalog, Mission]:
        ref = _plain(sheet, "mission", sheet.mission, "beside the sheet")
        path = folder / ref
        if not path.is_file() and (folder / f"{ref}.toml").is_file():
            path = folder / f"{ref}.toml"
        if not path.is_file():
            found = bundled_mission(ref)
            if found is None:
                raise sheet.error(f"mission: {ref!r} is neither a file beside the sheet nor a bundled mission",
                                  "give a bundled id (kakapo list) or the name of a mission file beside the sheet",
                                  sheet.lines["mission"])
            path = found
        catalog = load_catalog(folder / _plain(sheet, "pieces", sheet.pieces, "beside the sheet")) \
            if sheet.pieces else catalog_beside(mission_path(path))
        return catalog, load_mission(path, catalog)

    return resolve


def in_folder(folder: Path, catalog: Catalog) -> Resolve:
    """The mission and catalog a sheet names, as the studio finds them (a sheet sent to it or
    dropped into its ``games/``): ``mission:`` a mission file of ``folder`` (by its plain name,
    with or without .toml), else a bundled id; ``pieces:`` a catalog file of ``folder`` (without
    it, ``catalog``: the one in use). Never an absolute path, '..' or a link: each is InputError
    on the sheet's line."""

    def read(sheet: Sheet, key: str, name: str) -> str | None:
        try:
            return read_plain_file(folder, name, MAX_FILE_BYTES).decode("utf-8", "replace")
        except FileNotFoundError:
            return None
        except OSError as e:  # a link, a FIFO, a folder, too large: refused unread
            raise sheet.error(f"{key}: {clean(name)[:60]} cannot be read: {e.strerror or e}",
                              "give a mission or catalog file of the studio's folder itself (a plain file)",
                              sheet.lines[key]) from None

    def resolve(sheet: Sheet) -> tuple[Catalog, Mission]:
        where = "of the studio's folder"
        ref = _plain(sheet, "mission", sheet.mission, where).removesuffix(".toml")
        chosen = catalog
        if sheet.pieces:
            name = _plain(sheet, "pieces", sheet.pieces, where)
            if not name.endswith(".toml"):
                raise sheet.error(f"pieces: {clean(name)[:60]!r} is not a catalog file name",
                                  "give the name of a catalog file (.toml) of the studio's folder",
                                  sheet.lines["pieces"])
            text = read(sheet, "pieces", name)
            if text is None:
                raise sheet.error(f"pieces: no file {clean(name)[:60]!r} in the studio's folder",
                                  "give the name of a catalog file of the studio's folder", sheet.lines["pieces"])
            chosen = load_catalog(name, text)
        text = read(sheet, "mission", f"{ref}.toml")
        if text is not None:
            return chosen, load_mission(f"{ref}.toml", chosen, text=text, mission_id=ref)
        found = bundled_mission(ref)
        if found is None:
            raise sheet.error(f"mission: {ref!r} is neither a mission file of the studio's folder nor a bundled "
                              "mission", "give a bundled id (kakapo list) or the name of a mission file in the "
                              "studio's folder", sheet.lines["mission"])
        return chosen, load_mission(found, chosen, mission_id=ref)

    return resolve


def record_file(path: str | Path) -> Recorded:
    """A sheet file recorded, its mission and catalog found beside it."""
    sheet = read_sheet(path)
    return record(sheet, beside(Path(path).resolve().parent))


def record_text(text: str, name: str, resolve: Resolve) -> Recorded:
    return record(parse_sheet(text, name), resolve)


def record(sheet: Sheet, resolve: Resolve) -> Recorded:
    """The sheet checked against the rules, as a log (InputError naming the line, round, person and rule)."""
    catalog, mission = resolve(sheet)
    names = sheet.names
    seat = {n.lower(): k for k, n in enumerate(names)}
    spec = GameSpec.of(mission, len(names), sheet.path)

    # ------------------------------------------------ the hands: played plus left
    played: list[list[Card]] = [[] for _ in names]
    first_seen: dict[Card, int] = {}
    for r in sheet.rounds:
        for who, card in r.plays:
            if card in first_seen:
                raise sheet.error(f"round {r.number}: {card} was played already (line {first_seen[card]})",
                                  "each card is played once: correct the card", r.line)
            if card in spec.removed:
                raise sheet.error(f"round {r.number}: {card} is out of the game with {spec.players} players",
                                  "correct the card", r.line)
            first_seen[card] = r.line
            played[seat[who.lower()]].append(card)
    last = sheet.rounds[-1].number if sheet.rounds else 0
    if sheet.left is None:
        short = [names[k] for k in range(len(names)) if len(played[k]) != spec.hand_size]
        if short:
            raise sheet.error(f"the game ended after round {last} with cards still in hand ({', '.join(short)}): "
                              "the sheet does not say which", "add a last line with the cards each person still "
                              "holds, e.g.  left: " + "; ".join(f"{n} red-3 blue-1" for n in short[:2]),
                              (sheet.rounds[-1].line if sheet.rounds else sheet.lines["players"]))
        hands = [sorted(h) for h in played]
    else:
        hands = []
        for k, n in enumerate(names):
            left = list(sheet.left.get(n, ()))
            for card in left:
                if card in first_seen:
                    raise sheet.error(f"left: {n} still holds {card}, but it was played (line {first_seen[card]})",
                                      "correct the cards left", sheet.lines["left"])
                if card in spec.removed:
                    raise sheet.error(f"left: {card} is out of the game with {spec.players} players",
                                      "correct the cards left", sheet.lines["left"])
                first_seen[card] = sheet.lines["left"]
            if len(played[k]) + len(left) != spec.hand_size:
                raise sheet.error(f"{n} played {len(played[k])} card(s) and holds {len(left)}: a {spec.players}-player"
                                  f" {spec.mode} game deals {spec.hand_size} to each", "correct the cards left",
                                  sheet.lines["left"])
            hands.append(sorted(played[k] + left))
    held = {c for h in hands for c in h}
    set_aside = sorted(c for c in ALL_CARDS if c not in held and c not in spec.removed)
    if len(set_aside) != spec.set_aside:
        raise sheet.error(f"the hands hold {len(held)} cards; {spec.players} players of a {spec.mode} game hold "
                          f"{spec.hand_size * spec.players}", "correct the cards", sheet.lines.get("left"))

    # ------------------------------------------------ who leads round one
    holders = [k for k, h in enumerate(hands) if spec.start_card in h]
    if sheet.rounds and sheet.rounds[0].plays:
        first = seat[sheet.rounds[0].plays[0][0].lower()]
    else:
        first = holders[0] if holders else 0
    if holders and holders[0] != first:
        raise sheet.error(f"round 1: {names[holders[0]]} held {spec.start_card} and leads round 1, not "
                          f"{names[first]}", "the holder of purple-8 plays the first card",
                          sheet.rounds[0].line if sheet.rounds else None)
    state = GameState(spec, mission, catalog, [list(h) for h in hands], set_aside, first,
                      [SplitMix64(k) for k in range(spec.players)], Board.start(mission), spec.skills,
                      dealt=[list(h) for h in hands])
    for r in sheet.rounds:
        if state.is_over():
            raise sheet.error(f"round {r.number}: the game ended after round {state.rounds_played()} "
                              f"({str(state.result()).replace('_', ' ')}), yet the sheet goes on",
                              "remove the rounds after the end", r.line)
        _round(sheet, state, r, names, seat)
    meta = {"names": {str(k): n for k, n in enumerate(names)}, "source": "recorded",
            "human": list(range(len(names)))}
    return Recorded(log_events(state, meta), state, names)


def _round(sheet: Sheet, state: GameState, r: SheetRound, names: tuple[str, ...], seat: dict[str, int]) -> None:
    def bad(problem: str, fix: str) -> InputError:
        return sheet.error(f"round {r.number}: {problem}", fix, r.line)

    spec = state.spec
    if len(r.plays) != spec.reveals_per_round:
        raise bad(f"a round has {spec.reveals_per_round} cards, not {len(r.plays)}",
                  f"write the {spec.reveals_per_round} cards played, in order")
    for who, card in r.plays:
        k = seat[who.lower()]
        now = state.current_player()
        if k != now:
            why = "the holder of purple-8 leads round 1" if state.round == 1 and not state.trick else \
                "the winner of the last trick leads" if not state.trick else "play goes clockwise"
            raise bad(f"{names[now]} plays next, not {names[k]} ({why})", "correct the order of the plays")
        lead = state.trick[0][1].colour if state.trick else None
        if lead is not None and card.colour != lead:
            follow = [c for c in state.hands[k] if c.colour == lead]
            if follow:
                raise bad(f"{names[k]} played {card} but held {follow[0]}: must follow {lead}",
                          "correct the card played (or the cards left)")
        state.apply(Action.reveal(card))
    pieces = tuple(p for p, _ in r.placements)
    matches = [k for k, o in enumerate(state.options)
               if o.pieces == pieces or (r.placements and r.placements[-1][1] is None and o.pieces[:len(pieces)]
                                         == pieces)]
    if not matches:
        owner = names[state.in_charge]
        offered = "; ".join(f"{o.skill.json.replace('_', ' ') if o.skill.json else 'no skill'}: "
                            f"{', '.join(map(str, o.pieces)) or 'nothing'}" for o in state.options)
        raise bad(f"{state.decision} wins the trick ({owner} in charge): "
                  f"{', '.join(map(str, pieces)) or 'no piece'} is no selection the rules allow ({offered})",
                  "correct the pieces placed (a skill is read from them) or the cards")
    state.apply(Action.select(matches[0]))
    for piece, cells in r.placements:
        if state.phase != Phase.PLACE:
            if state.result() == "unplaceable" and cells is None:
                return
            raise bad(f"{piece} is placed, but the round is over", "correct the pieces placed")
        if cells is None:
            spots = legal_positions(state.board, piece, state.catalog[piece])
            raise bad(f"{piece} fits on the board ({len(spots)} place(s)), so it must be placed",
                      f"write the cells where {piece} was placed")
        placement = Placement(piece, cells)
        try:
            position = position_of(placement, state.catalog)
        except KeyError:
            raise bad(f"the cells of {piece} ({' '.join(cell_name(c) for c in sorted(cells))}) are not its shape "
                      f"({state.catalog[piece].format()}) in any rotation or reflection",
                      "correct the cells") from None
        try:
            state.apply(Action.place(piece, position))
        except IllegalAction as e:
            raise bad(str(e).replace("cannot place", f"{names[state.in_charge]} cannot place"),
                      "correct the cells") from None
    if state.phase == Phase.PLACE:
        raise bad(f"{state.piece} is selected but not placed", f"write where {state.piece} was placed, or "
                  f"{state.piece} -  if it fit nowhere")


# ---------------------------------------------------------------- a log as a sheet
def sheet_of(log: GameLog, names: list[str] | None = None) -> str:
    """The sheet of a log: its mission (a bundled id, else the mission's file name to put beside it),
    its names (or "player 1" ...), each round, and the cards still held at the end."""
    inputs = log_inputs(log)
    state = replay(log, inputs.mission, inputs.catalog)
    names = names or [log.names.get(k) or f"player {k + 1}" for k in range(log.players)]
    notes = []
    bundled = bundled_mission(log.mission)
    ref = log.mission
    if bundled is None or (log.mission_text is not None and bundled.read_text(encoding="utf-8") != log.mission_text):
        ref = f"{log.mission}.toml"
        notes.append(f"the mission file {ref} (the log carries it) goes beside this sheet")
    pieces = None
    if inputs.catalog.key != load_catalog().key:
        pieces = "pieces.toml"
        notes.append("the catalog pieces.toml (the log carries it) goes beside this sheet")
    rounds = log_events(state)[1:]
    rounds = [e for e in rounds if e["event"] == "round"]
    left = {names[k]: [str(c) for c in state.hands[k]] for k in range(log.players)}
    return write_sheet(ref, pieces, names, rounds, left, notes)


# ---------------------------------------------------------------- any file that holds a game
def read_game_file(path: str | Path) -> GameLog:
    """A log file, or a sheet file recorded as one: what every command that reads a log reads
    (read once: a regular file within the size limit, checked before it is read)."""
    text = read_input_text(path, MAX_FILE_BYTES, "game file (a log or a sheet)",
                           "give the file written by `kakapo play --log`, or a game's sheet",
                           too_large="a game's log or sheet has a few thousand", bad_text=FIX)
    if is_sheet_text(text):
        return parse_log(record(parse_sheet(text, str(path)), beside(Path(path).resolve().parent)).text, str(path))
    return parse_log(text, str(path))


def game_of_text(text: str, name: str, resolve: Resolve | None = None) -> GameLog:
    """A log's text, or a sheet's (its mission a bundled id, or what ``resolve`` finds)."""
    if is_sheet_text(text):
        return parse_log(record_text(text, name, resolve or beside(Path.cwd() / ".nowhere")).text, name)
    return parse_log(text, name)


def game_file(text: str, name: str, resolve: Resolve) -> Recorded:
    """A dropped or pooled file's game as a recording: a sheet recorded (its mission and catalog
    found by ``resolve``), or a log replayed by the rules (it carries what it was played on)."""
    if is_sheet_text(text):
        return record_text(text, name, resolve)
    log = parse_log(text, name)
    inputs = log_inputs(log)
    state = replay(log, inputs.mission, inputs.catalog)
    events = [json.loads(line) for line in text.splitlines() if line.strip()]  # parse_log read each line already
    return Recorded(events, state, tuple(log.names.get(k, "") for k in range(log.players)))
