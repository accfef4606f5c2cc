"""What a request names, resolved and checked once for both front ends: a mission (a file, a
bundled id or a text), a catalog, a log with the mission it was played on, the size of the table,
the seats people play, the pieces left out, the search player's samples. Every refusal is an
InputError naming what is wrong and how to fix it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from solver.app.documents import Doc
from solver.app.packs import one_mission
from solver.app.sheets import game_of_text, read_game_file
from solver.core.cards import Card
from solver.core.codes import PolicyId
from solver.core.errors import InputError, ParseError
from solver.core.rules import Mission
from solver.core.spec import GameSpec
from solver.game.search import DEFAULT_SAMPLES
from solver.io.catalog import Catalog, load_catalog
from solver.io.gamelog import GameLog
from solver.io.loginputs import log_inputs
from solver.io.missionfile import catalog_beside, load_mission
from solver.io.paths import mission_path

TEXT_NAME = "mission.toml"  # the name a mission given as text goes by, when it has none


def mission_catalog(path: Path, pieces: str | None, notes: list[str] | None = None) -> Catalog:
    """The catalog a mission file is read with, the one rule of every command and the studio:
    ``--pieces FILE`` when given; else, for a mission that says it was made with another catalog
    (``pieces_digest``), the catalog of that digest lying beside it, with a note in ``notes``;
    else the bundled catalog (a mission made with another one is then refused by ``load_mission``,
    naming both digests and the fix)."""
    return load_catalog(pieces) if pieces is not None else catalog_beside(path, notes)


def missions_catalog(paths: list[Path], pieces: str | None, notes: list[str] | None = None) -> Catalog:
    """The one catalog a set of missions is measured or listed with (a campaign, a list, a report):
    ``--pieces FILE`` when given; else the catalog beside them that they say they were made with
    (``mission_catalog``) when they name one only, with a note; else the bundled catalog."""
    if pieces is not None:
        return load_catalog(pieces)
    found: dict[str, tuple[Catalog, list[str]]] = {}
    for path in paths:
        said: list[str] = []
        catalog = catalog_beside(path, said)
        if said:
            found.setdefault(catalog.digest, (catalog, said))
    if len(found) != 1:
        return load_catalog()
    ((catalog, said),) = found.values()
    if notes is not None:
        name = Path(catalog.source).name
        notes.append(f"missions of {paths[0].parent} were made with the catalog {name} beside them: read with its "
                     "shapes (--pieces FILE to choose another)")
    return catalog


def load_inputs(mission: str, pieces: str | None, warnings: list[str] | None = None,
                notes: list[str] | None = None) -> tuple[Catalog, Mission]:
    """The catalog (``mission_catalog``: a note in ``notes`` when it is the one beside the mission)
    and the mission (a file, or a bundled mission's id). A pack of one mission, or ``PACK/ID``,
    names a mission inside a pack (read with the pack's catalog, or ``--pieces``)."""
    packed = one_mission(mission, pieces)
    if packed is not None:
        return packed
    path = mission_path(mission)
    catalog = mission_catalog(path, pieces, notes)
    return catalog, load_mission(path, catalog, warnings)


def mission_id(name: str | None) -> str:
    return Path(name or TEXT_NAME).stem or "mission"


def mission_of_text(text: str, catalog: Catalog, name: str | None = None) -> Mission:
    """The mission of a TOML text; InputError (naming the line) when it is not a valid mission."""
    return load_mission(name or TEXT_NAME, catalog, text=text, mission_id=mission_id(name))


def table_size(m: Mission, players: int | None, source: str) -> int:
    """The number of players at the table: the one asked for if the mission's mode allows it
    (InputError naming ``source`` if not), else the mission's default."""
    return GameSpec.of(m, players if players is not None else m.default_players(), source).players


def seat_numbers(text: str, option: str) -> list[int]:
    """Seat numbers from 0 as a person types them ("0" or "0,2")."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit():
            raise InputError(option, f"{part!r} is not a seat number", f"give seats from 0, e.g. {option} 0 or "
                             f"{option} 0,2")
        out.append(int(part))
    return out


def person_seats(seats: list[int], players: int, option: str = "--human") -> list[int]:
    """The seats people play at a table of ``players``: each a seat of the table, each once."""
    for s in seats:
        if not 0 <= s < players:
            raise InputError(option, f"{str(s)!r} is not a seat of this {players}-player game",
                             f"give seat numbers from 0 to {players - 1}, e.g. {option} 0 or {option} 0,2")
    for k, s in enumerate(seats):
        if s in seats[:k]:
            raise InputError(option, f"seat {s} is named twice", "name each seat once")
    return list(seats)


def rated_seats(text: str) -> tuple[int, ...]:
    """`rate --seat`: seat numbers from 0, each once (checked against each log's table later)."""
    seats = seat_numbers(text, "--seat")
    for k, s in enumerate(seats):
        if s in seats[:k]:
            raise InputError("--seat", f"seat {s} is named twice", "name each seat once")
    return tuple(seats)


def excluded_pieces(items: Iterable[object]) -> list[Card]:
    """`--exclude red-5,p8` (repeatable) and the studio's list: the pieces that may not be used."""
    out = []
    for item in items:
        for name in str(item).split(","):
            if name.strip():
                try:
                    out.append(Card.parse(name))
                except ParseError as e:
                    raise InputError("--exclude", str(e), "name pieces like red-5 or p8, separated by commas") from None
    return out


def samples_for(policy: str | None, samples: int | None) -> int:
    """The search player's samples: ``samples`` goes with the search policy only; its default otherwise."""
    if samples is not None and policy != PolicyId.SEARCH.label:
        raise InputError("--samples", "--samples goes with --policy search", "give --policy search, or leave "
                         "--samples out")
    return DEFAULT_SAMPLES if samples is None else samples


@dataclass(frozen=True)
class LoggedGame:
    """A log, the catalog and the mission it was played on, and a note for the reader when they
    are not the log's own (an older log read with a bundled mission)."""

    log: GameLog
    catalog: Catalog
    mission: Mission
    note: str | None = None


def logged_game(log_path: str, mission: str | None = None, pieces: str | None = None) -> LoggedGame:
    """A log file and what it was played on: the mission and catalog it carries (format 2), else
    MISSION or the bundled mission it names."""
    log = read_game_file(log_path)
    inputs = log_inputs(log, mission, pieces)
    return LoggedGame(log, inputs.catalog, inputs.mission, inputs.note)


def logged_text(text: str, name: str = "the log") -> LoggedGame:
    """A log given as text (the studio's review), read as `kakapo review` reads a file."""
    log = game_of_text(text, name)
    inputs = log_inputs(log)
    return LoggedGame(log, inputs.catalog, inputs.mission, inputs.note)


def job_folder(request: Doc) -> Path | None:
    """The folder a studio job's request names (the studio's own: where the campaign measured for
    its catalog is found), or None."""
    folder = request.get("folder")
    return Path(folder) if folder else None


def game_inputs(mission: str | None, pieces: str | None, from_log: str | None,
                noted: Callable[[str], None] | None = None) -> tuple[Catalog, Mission, LoggedGame | None]:
    """What a game is played (or a board solved) on: a logged game's mission and catalog with the log
    (``from_log``), else MISSION read with its catalog; ``noted(note)`` says what the reader should
    know of them (an older log read with a bundled mission, a catalog read from beside a mission)."""
    notes: list[str] = []
    if from_log:
        lg = logged_game(from_log, mission, pieces)
        notes += [lg.note.removeprefix("note: ")] if lg.note else []
        catalog, m = lg.catalog, lg.mission
    else:
        if mission is None:
            raise InputError("MISSION", "no mission given", "give a mission file or a bundled mission's id")
        lg = None
        catalog, m = load_inputs(mission, pieces, notes=notes)
    for note in notes:
        if noted is not None:
            noted(note)
    return catalog, m, lg
