"""A game's sheet (``io/sheet.py``: a game played with the printed cards, written down as it went)
checked by the rules and turned into a format-2 log, and any log written back as a sheet. One use
case for `kakapo record`, every command that reads a log (a sheet reads as one), `POST /api/records`
and the Record tab's finished recordings.

The sheet is replayed as a recorded game (``game/recorded.py``): the cards each person still holds
(``left:``) are theirs from the start, each play is revealed by its person, so the rules check
whose turn it is, must follow (against the cards held at the end, and against any card revealed
later), the pieces placed against the selections the rules allow (the skill is read from them)
and each placement against the board; the hands are what each person played plus what they still
hold, the set-aside cards the rest. The first impossibility is an InputError naming the line,
the round, the person and the rule, in the words of ``app/refusals.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.app.refusals import sentence
from solver.core.rules import Mission
from solver.core.text import clean
from solver.game.actions import Phase
from solver.game.engine import log_events
from solver.game.recorded import RecordedGame
from solver.game.resume import replay
from solver.game.state import GameState, IllegalAction
from solver.io.catalog import Catalog, load_catalog
from solver.io.gamelog import FIX, GameLog, parse_log
from solver.io.gamelog import MAX_BYTES as LOG_BYTES
from solver.io.loginputs import log_inputs
from solver.io.missionfile import catalog_beside, load_mission
from solver.io.paths import bundled_mission, mission_path
from solver.io.safefiles import read_input_text, read_plain_file
from solver.io.sheet import Sheet, SheetRound, is_sheet_text, parse_sheet, read_sheet, write_sheet

Resolve = Callable[[Sheet], tuple[Catalog, Mission]]


@dataclass(frozen=True)
class NamedGame:
    """A game read from a sheet or a log: the log's events, the state at its end and the names by seat."""

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
MAX_TOML = 1_000_000  # a mission or catalog file (io/tomlfile.py)


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
            return read_plain_file(folder, name, MAX_TOML).decode("utf-8", "replace")
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


def game_of_sheet_file(path: str | Path) -> NamedGame:
    """A sheet file checked by the rules, its mission and catalog found beside it."""
    sheet = read_sheet(path)
    return game_of_sheet(sheet, beside(Path(path).resolve().parent))


def game_of_sheet_text(text: str, name: str, resolve: Resolve) -> NamedGame:
    return game_of_sheet(parse_sheet(text, name), resolve)


def game_of_sheet(sheet: Sheet, resolve: Resolve) -> NamedGame:
    """The sheet replayed by the rules as a recorded game (``game/recorded.py``: the cards left
    are kept from the start, each play is revealed by its person), as a log; InputError naming
    the line, the round, the person and the rule (``app/refusals.py``) at the first impossibility."""
    catalog, mission = resolve(sheet)
    names = sheet.names
    seat = {n.lower(): k for k, n in enumerate(names)}
    lines = {r.number: r.line for r in sheet.rounds}
    game = RecordedGame.start(mission, catalog, len(names), None, sheet.path)
    line = sheet.lines.get("left")
    try:
        for k, n in enumerate(names):
            if sheet.left is not None and sheet.left.get(n):
                game.keep(k, list(sheet.left[n]))
        for r in sheet.rounds:
            line = r.line
            if game.state.is_over():
                raise sheet.error(f"round {r.number}: the game ended after round {game.state.rounds_played()} "
                                  f"({str(game.state.result()).replace('_', ' ')}), yet the sheet goes on",
                                  "remove the rounds after the end", r.line)
            _round(sheet, game, r, seat)
        if sheet.left is None and game.missing():
            last = sheet.rounds[-1].number if sheet.rounds else 0
            short = [names[k] for k in game.missing()]
            raise sheet.error(f"the game ended after round {last} with cards still in hand ({', '.join(short)}): "
                              "the sheet does not say which", "add a last line with the cards each person still "
                              "holds, e.g.  left: " + "; ".join(f"{n} red-3 blue-1" for n in short[:2]),
                              (sheet.rounds[-1].line if sheet.rounds else sheet.lines["players"]))
        state = game.finish()
    except IllegalAction as e:
        problem, fix = sentence(e, names, lines.__getitem__)
        rnd = e.facts.get("round", -1)
        at = line if rnd == -1 else sheet.lines.get("left") if rnd is None else lines.get(rnd, line)
        raise sheet.error(problem, fix, at) from None
    meta = {"names": {str(k): n for k, n in enumerate(names)}, "source": "recorded",
            "human": list(range(len(names)))}
    return NamedGame(log_events(state, meta), state, names)


def _round(sheet: Sheet, game: RecordedGame, r: SheetRound, seat: dict[str, int]) -> None:
    """One round line replayed: its plays, the selection its pieces make, their placements."""
    state = game.state
    if len(r.plays) != state.spec.reveals_per_round:
        raise sheet.error(f"round {r.number}: a round has {state.spec.reveals_per_round} cards, not {len(r.plays)}",
                          f"write the {state.spec.reveals_per_round} cards played, in order", r.line)
    for who, card in r.plays:
        game.reveal(card, seat[who.lower()])
    game.select(tuple(p for p, _ in r.placements), cut=bool(r.placements) and r.placements[-1][1] is None)
    for piece, cells in r.placements:
        if cells is None:
            if state.result() == "unplaceable":
                return
            state.fits_nowhere(piece)
        else:
            game.place(piece, cells)
    if state.phase == Phase.PLACE:
        raise sheet.error(f"round {r.number}: {state.piece} is selected but not placed", f"write where {state.piece} "
                          f"was placed, or {state.piece} -  if it fit nowhere", r.line)


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
    text = read_input_text(path, LOG_BYTES, "game file (a log or a sheet)",
                           "give the file written by `kakapo play --log`, or a game's sheet",
                           too_large="a game's log or sheet has a few thousand", bad_text=FIX)
    if is_sheet_text(text):
        sheet = parse_sheet(text, str(path))
        return parse_log(game_of_sheet(sheet, beside(Path(path).resolve().parent)).text, str(path))
    return parse_log(text, str(path))


def game_of_text(text: str, name: str, resolve: Resolve | None = None) -> GameLog:
    """A log's text, or a sheet's (its mission a bundled id, or what ``resolve`` finds)."""
    if is_sheet_text(text):
        return parse_log(game_of_sheet_text(text, name, resolve or beside(Path.cwd() / ".nowhere")).text, name)
    return parse_log(text, name)


def game_file(text: str, name: str, resolve: Resolve) -> NamedGame:
    """A dropped or pooled file's game as a recording: a sheet recorded (its mission and catalog
    found by ``resolve``), or a log replayed by the rules (it carries what it was played on)."""
    if is_sheet_text(text):
        return game_of_sheet_text(text, name, resolve)
    log = parse_log(text, name)
    inputs = log_inputs(log)
    state = replay(log, inputs.mission, inputs.catalog)
    events = [json.loads(line) for line in text.splitlines() if line.strip()]  # parse_log read each line already
    return NamedGame(events, state, tuple(log.names.get(k, "") for k in range(log.players)))
