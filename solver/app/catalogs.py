"""A piece catalog as documents: its pieces as `kakapo pieces --json` and the studio list them
(``piece_rows``, ``pieces_doc``), and a catalog's text checked as the studio's piece editor asks
(`/api/catalogs/validate`) before it saves one, by the rules `--pieces` loads a catalog with
(``io.catalog.read_catalog``), every independent problem with its line and the piece it concerns."""

from __future__ import annotations

import re
from collections.abc import Mapping

from solver.app.documents import Doc
from solver.core.board import MAX_SHAPE_CELLS, SIZE, Shape
from solver.core.cards import ALL_CARDS, Card, Colour
from solver.core.errors import InputError
from solver.io.catalog import Catalog, catalog_toml, read_catalog
from solver.io.tomlfile import TomlSource

_HEADER = re.compile(r"""^\s*\[\s*["']?([a-z]+)["']?\s*\]""")
_VALUE = re.compile(r"""^\s*["']?([1-8])["']?\s*=""")
_DRAWING = re.compile(r"[#./\s]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def piece_rows(shapes: Mapping[Card, Shape]) -> list[Doc]:
    """``[{"piece", "cells", "shape"}]``: each piece of ``shapes`` drawn as rows of '#' and '.'
    (``"##/#."``), in the order of the cards."""
    return [{"piece": str(card), "cells": shapes[card].size, "shape": shapes[card].format()}
            for card in ALL_CARDS if card in shapes]


def pieces_doc(catalog: Catalog, file: str | None) -> Doc:
    """The catalog's pieces with its digest and the file it comes from (null: the bundled one)."""
    return {"file": file, "digest": catalog.digest, "pieces": piece_rows(catalog)}


def drawn_catalog_text(drawings: Mapping[str, str], source: str) -> str:
    """The catalog file the studio's Pieces tab draws: ``drawings`` by piece ("red-5": "##/#."; ""
    or missing: not drawn), its first comment naming the catalog it started from (``source``).
    ValueError for a key that is no piece or a drawing of anything but '#', '.' and '/'."""
    started = _CONTROL.sub(" ", source)
    return catalog_toml(drawings, (
        f"kakapo piece catalog, drawn in the studio's Pieces tab (started from {started}).",
        "One table per colour, keys 1 to 8: each piece's cells, '#' filled and '.' empty, rows separated by '/'.",
        "Any rotation or reflection of a shape may be placed. Use it with --pieces FILE."))


def check_catalog(text: str, name: str) -> Doc:
    """``{"valid", "errors": [{"line", "piece", "message", "fix"}], "pieces": [{"piece", "cells",
    "shape"}]}``: every problem `--pieces` would refuse the text for (``piece``: "red-5", or null
    for a table or key), and every piece that can be drawn, as written (a piece that breaks a
    rule, such as one in two parts, is drawn as it is; one that is no drawing is left out)."""
    try:
        src = TomlSource(name, "piece catalog", text)
    except InputError as e:  # the TOML itself: nothing else can be read
        return {"valid": False, "errors": [_item(None if e.line is None else piece_on_line(text, e.line), e)],
                "pieces": []}
    shapes, problems = read_catalog(src)
    drawn = {card: shapes[card] if card in shapes else drawing(_raw(src.data, card.colour, card.value))
             for card in ALL_CARDS}
    pieces = piece_rows({card: shape for card, shape in drawn.items() if shape is not None})
    errors = sorted(problems, key=lambda p: (p[1].line is None, p[1].line or 0))
    digest = None if problems else Catalog(shapes).digest  # what a mission made with it declares
    return {"valid": not problems, "errors": [_item(piece, e) for piece, e in errors], "pieces": pieces,
            "digest": digest}


def drawing(raw: object) -> Shape | None:
    """The '#' cells of a shape that breaks a rule but is still a drawing of '#' and '.' (cells in
    two parts, too large for a piece), as written; None for anything else."""
    if not isinstance(raw, str) or len(raw) > 4 * SIZE * SIZE or raw.count("#") > MAX_SHAPE_CELLS \
            or not _DRAWING.fullmatch(raw):
        return None
    rows = [r.strip() for r in raw.replace("/", "\n").split("\n")]
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
    return Shape.of(cells) if cells else None


def piece_on_line(text: str, line: int) -> str | None:
    """The piece whose key is on ``line`` (1-based) under a colour's table ([red] then 5 = ...):
    where the TOML parser stops on a piece given twice."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    m = _VALUE.match(lines[line - 1])
    if not m:
        return None
    for above in reversed(lines[:line - 1]):
        h = _HEADER.match(above)
        if h:
            return f"{h.group(1)}-{m.group(1)}" if h.group(1) in {c.long for c in Colour} else None
    return None


def _raw(data: Doc, colour: Colour, value: int) -> object:
    table = data.get(colour.long)
    return table.get(str(value)) if isinstance(table, dict) else None


def _item(piece: str | None, e: InputError) -> Doc:
    return {"line": e.line, "piece": piece, "message": e.problem, "fix": e.fix}
