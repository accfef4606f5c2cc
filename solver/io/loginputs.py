"""What a game log carries so that it reads the same anywhere, years later (docs/logs.md, the setup line's
format-2 keys; docs/logs.md): the mission's and the catalog's text with their digests, and the
seats a person played. And the other way: the mission and catalog a log is to be read with.

Like a chess PGN game that starts from a FEN, a format-2 log needs nothing else at hand: its
mission and catalog are rebuilt from the texts it holds. A MISSION or ``--pieces`` given beside
such a log must be the same text (else the answer would be about another game); an older log
(format 1, no texts) is read against MISSION or the bundled mission its id names, and says so,
and the replay of its moves through the rules (game/resume.py) stops at the first move that is not
legal on the mission used.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.cards import ALL_CARDS, Colour
from solver.core.errors import InputError
from solver.core.rules import Mission
from solver.io.catalog import DEFAULT_CATALOG, Catalog, load_catalog
from solver.io.gamelog import GameLog, digest
from solver.io.missionfile import load_mission
from solver.io.missionwrite import mission_toml
from solver.io.paths import bundled_mission, mission_path

FORMAT = 2  # the log format this version writes


def mission_text(m: Mission) -> str:
    """The mission's text as read from its file; for a mission made in code, its TOML."""
    return m.source or mission_toml(m)


def catalog_text(catalog: Catalog) -> str:
    """The catalog's text as read from its file; for one made in code, its TOML."""
    if getattr(catalog, "text", ""):
        return catalog.text
    out = []
    for colour in Colour:
        out.append(f"[{colour.long}]")
        out += [f'{c.value} = "{catalog[c].format()}"' for c in ALL_CARDS if c.colour == colour]
        out.append("")
    return "\n".join(out)


def setup_keys(mission: Mission, catalog: Catalog, human: list[int] | tuple[int, ...] = ()) -> dict:
    """The setup line's format-2 keys. The catalog file's text digest is written twice: as
    ``pieces_text_digest``, its own name, and as ``pieces_digest`` for the readers of before (not
    the catalog's digest a mission file's ``pieces_digest`` carries, which hashes its shapes)."""
    mt, ct = mission_text(mission), catalog_text(catalog)
    return {"format": FORMAT, "mission_text": mt, "mission_digest": digest(mt), "pieces_text": ct,
            "pieces_digest": digest(ct), "pieces_text_digest": digest(ct), "human": sorted(human)}


@dataclass(frozen=True)
class LogInputs:
    """The mission and catalog a log is read with, and a note for the reader when they are not the
    log's own (an older log)."""

    mission: Mission
    catalog: Catalog
    note: str | None = None


def log_inputs(log: GameLog, mission: str | None = None, pieces: str | None = None) -> LogInputs:
    """The mission and catalog of a logged game: the log's own (format 2), checked against MISSION
    and ``--pieces`` when given; for an older log, MISSION (else the bundled mission it names)."""
    if log.mission_text is not None and log.pieces_text is not None:
        catalog = load_catalog(f"{log.path} (the piece catalog it records)", log.pieces_text)
        m = load_mission(f"{log.path} (the mission it records)", catalog, text=log.mission_text,
                         mission_id=log.mission)
        if pieces is not None:
            given = load_catalog(pieces)
            _same(pieces, catalog_text(given), log, log.pieces_digest, "catalog file", "--pieces")
        if mission is not None:
            given_m = load_mission(mission_path(mission), catalog)
            _same(mission, mission_text(given_m), log, log.mission_digest, "mission file", "MISSION")
        return LogInputs(m, catalog)
    catalog = load_catalog(pieces)
    if mission is None:
        found = bundled_mission(log.mission)
        if found is None:
            raise InputError(log.path, f"the log does not record its mission (an older log), and {log.mission!r} "
                             "is not a bundled mission", "give the mission file too (kakapo review LOG --mission "
                             "MISSION.toml, kakapo play MISSION.toml --from LOG)", 1)
        mission = str(found)
    m = load_mission(mission_path(mission), catalog)
    source = "the bundled mission" if mission_path(mission) == bundled_mission(log.mission) else "the mission file"
    pieces_note = "" if pieces is None and catalog.source == str(DEFAULT_CATALOG) else f" and {pieces}"
    note = (f"note: {log.path} does not record its mission (a log written before format 2): it is read with "
            f"{source} {mission_path(mission)}{pieces_note} (digest {digest(mission_text(m))}); a move not legal "
            "there stops the reading")
    return LogInputs(m, catalog, note)


def _same(given: str, text: str, log: GameLog, logged: str | None, what: str, option: str) -> None:
    if digest(text) != logged:
        raise InputError(given, f"this {what} (text digest {digest(text)}) is not the one the game in {log.path} "
                         f"was played on (text digest {logged})", f"leave {option} out: the log carries its {what}",
                         None)

