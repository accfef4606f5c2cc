"""Printing for the table (`kakapo print`, `POST /api/print`): a card per mission to set up the
board, and a blank game sheet laid out as `kakapo record` reads it. What a card says is worked
out here (the fewest new pieces, solved; the difficulty in words, from the campaign measured for
the mission's catalog); the drawing is ``view/pdfpages.py``'s."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from solver.app.documents import Doc
from solver.app.inputs import mission_of_text, table_size
from solver.app.packs import MissionSource, campaign_place
from solver.app.solving import solve
from solver.core.errors import InputError
from solver.core.rules import Board
from solver.core.spec import GameSpec
from solver.io.catalog import Catalog
from solver.io.difficulty import data_digest, file_digest
from solver.io.missionfile import bundled_digest
from solver.io.paths import bundled_mission

PAPERS = ("a4", "letter")
PER_PAGE = (1, 2, 4)
if TYPE_CHECKING:  # heavy at run time: matplotlib
    from solver.view.pdfpages import CardText

SOLVE_SECONDS = 20.0  # the fewest pieces on a card: CP-SAT answers a mission in well under a second


@dataclass
class Printed:
    """A PDF and what it shows, mission by mission (``kakapo print --json``)."""

    pdf: bytes
    pages: int
    missions: list[Doc]

    def summary(self, path: str | None) -> Doc:
        return {"pdf": path, "pages": self.pages, "bytes": len(self.pdf), "missions": self.missions}


def check_layout(paper: str, per_page: int, sheet: bool = False) -> None:
    if paper not in PAPERS:
        raise InputError("--paper", f"{paper!r} is not a paper size", "give --paper a4 or --paper letter")
    if per_page not in PER_PAGE:
        raise InputError("--per-page", f"{per_page} cards a page", "give --per-page 1, 2 or 4")
    if sheet and per_page != 1:
        raise InputError("--per-page", "a game sheet takes a whole page", "leave --per-page out with --sheet")


def players_text(counts: tuple[int, ...] | list[int]) -> str:
    return " or ".join(str(p) for p in counts) + " players"


def fewest_pieces(src: MissionSource, time_limit: float) -> tuple[str, dict[int, int | None]]:
    """The fewest new pieces that clear the mission, for each table size (proven by CP-SAT), in
    words, and as numbers (None where no answer was proven)."""
    m = src.mission
    words, numbers = {}, {}
    for p in m.player_counts():
        r = solve(m, src.catalog, p, [], max_pieces=None, time_limit=time_limit).answer.result
        if r.status == "solvable":
            numbers[p] = r.pieces_used
            words[p] = f"{r.pieces_used}" if r.optimal else f"at most {r.pieces_used}"
        else:
            numbers[p] = None
            words[p] = "none: it cannot be cleared" if r.status == "unsolvable" else \
                f"not found within {time_limit:g} s"
    if len(set(words.values())) == 1:
        return next(iter(words.values())), numbers
    return "; ".join(f"{w} with {p} players" for p, w in words.items()), numbers


def catalog_words(catalog: Catalog) -> str | None:
    """The catalog named on a card when it is not the bundled one."""
    if catalog.digest == bundled_digest():
        return None
    name = Path(catalog.source).name if catalog.source else "another catalog"
    return f"{name} (digest {catalog.digest})"


def card_of(src: MissionSource, time_limit: float = SOLVE_SECONDS) -> tuple[Board, Doc]:
    """What the card of a mission says (a document; ``view.pdfpages.CardText`` is made of it)."""
    m = src.mission
    fewest, numbers = fewest_pieces(src, time_limit)
    places, where = campaign_place(src)
    if not places:
        difficulty = "not measured"
    elif len(set(places.values())) == 1:
        difficulty = next(iter(places.values()))
    else:
        difficulty = "; ".join(f"{text} with {p} players" for p, text in places.items())
    clear = f"all {len(m.birds)} birds" if m.clear_all else f"{m.clear} of the {len(m.birds)} birds"
    doc: Doc = {"id": m.id, "name": m.name, "story": m.story, "mode": m.mode, "players": list(m.player_counts()),
                "rounds": m.rounds, "skills": m.skills, "clear": clear, "fewest": fewest,
                "fewest_pieces": {str(p): n for p, n in numbers.items()}, "difficulty": difficulty,
                "campaign": where, "catalog": catalog_words(src.catalog),
                "placed": [f"{p.card} {' '.join(p.cell_names())}" for p in m.placed]}
    return Board.start(m), doc


def card_text(doc: Doc) -> CardText:
    from solver.view.pdfpages import CardText  # heavy: matplotlib

    facts = [("Mode", f"{doc['mode']}, {players_text(doc['players'])}"),
             ("Rounds", f"{doc['rounds']} rounds, {doc['skills']} skill counters"),
             ("To clear", f"scan {doc['clear']}"),
             ("Fewest new pieces", doc["fewest"]),
             ("Difficulty", doc["difficulty"] if doc["campaign"] is None or doc["campaign"] == "bundled" else
              f"{doc['difficulty']} (measured in {Path(doc['campaign']).parent.name or doc['campaign']})")]
    if doc["catalog"]:
        facts.append(("Pieces", doc["catalog"]))
    if doc["placed"]:
        facts.append(("Placed", "; ".join(doc["placed"])))
    return CardText(doc["name"], f"{doc['id']}  ·  {doc['mode']}  ·  {players_text(doc['players'])}",
                    doc["story"], tuple(facts))


def print_cards(sources: list[MissionSource], paper: str = "a4", per_page: int = 1,
                time_limit: float = SOLVE_SECONDS) -> Printed:
    """A card per mission, ``per_page`` on a page."""
    check_layout(paper, per_page)
    from solver.view.pdfpages import cards_pdf  # heavy: matplotlib

    cards, docs = [], []
    for src in sources:
        board, doc = card_of(src, time_limit)
        cards.append((board, card_text(doc)))
        docs.append(doc)
    title = docs[0]["name"] if len(docs) == 1 else f"{len(docs)} kakapo missions"
    pdf = cards_pdf(cards, paper, per_page, title)
    return Printed(pdf, -(-len(cards) // per_page), docs)


# ---------------------------------------------------------------- the blank game sheet
def sheet_layout_of(src: MissionSource, players: int | None) -> Doc:
    """The blank sheet of a mission for a table of ``players`` (InputError when the mode is not
    played by that many)."""
    m = src.mission
    n = table_size(m, players, m.id)
    spec = GameSpec.of(m, n, m.id)
    pieces = None if src.catalog.digest == bundled_digest() else Path(src.catalog.source).name
    notes = ["Write each play as it is made: NAME CARD (Ann blue-2), the leader first; after / the pieces placed, "
             "PIECE CELL CELL ... (red-8 a1 b1 c1), a comma between two, - when no piece was selected, PIECE - "
             "when it fit nowhere.",
             "At the end, left: the cards each person still holds (Ann yellow-1 red-3; Ben purple-2). "
             "Lines that start with # are notes."]
    if not src.bundled:
        beside = src.sheet_name + (f" and {pieces}" if pieces else "")
        notes.append(f"Keep {beside} beside the typed sheet (or record it in the studio's folder).")
    return {"title": f"{m.name} ({m.id}): {m.mode}, {n} players, {m.rounds} rounds, {m.skills} skill counters",
            "mission": src.sheet_name, "pieces": pieces, "players": n, "rounds": m.rounds,
            "plays": n * spec.cards_per_round, "notes": notes}


def print_sheets(sources: list[MissionSource], players: int | None, paper: str = "a4") -> Printed:
    """A blank game sheet per mission."""
    check_layout(paper, 1, sheet=True)
    from solver.view.pdfpages import SheetLayout, sheet_pdf  # heavy: matplotlib

    docs = [sheet_layout_of(src, players) for src in sources]
    layouts = [SheetLayout(d["title"], d["mission"], d["pieces"], d["players"], d["rounds"], d["plays"],
                           tuple(d["notes"])) for d in docs]
    keys = ("mission", "pieces", "players", "rounds", "plays")
    return Printed(sheet_pdf(layouts, paper), len(layouts),
                   [{"id": s.mission.id, "sheet": {k: d[k] for k in keys}} for s, d in zip(sources, docs, strict=True)])


def text_source(text: str, catalog: Catalog, name: str | None = None) -> MissionSource:
    """A mission the studio holds as text: a bundled mission when it is one's file unchanged."""
    m = mission_of_text(text, catalog, name)
    data = text.encode("utf-8", "surrogatepass")
    found = bundled_mission(m.id)
    bundled = found is not None and file_digest(found) == data_digest(data) and catalog.digest == bundled_digest()
    return MissionSource(m, catalog, data, None, bundled, f"{m.id}.toml")


def print_text(text: str, catalog: Catalog, name: str | None = None, paper: str = "a4", sheet: bool = False,
               players: int | None = None) -> bytes:
    """`POST /api/print`: the card of a mission text, or its blank game sheet."""
    src = text_source(text, catalog, name)
    printed = print_sheets([src], players, paper) if sheet else print_cards([src], paper)
    return printed.pdf

