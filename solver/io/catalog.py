"""The piece catalog: which polyomino each of the 40 cards selects."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from pathlib import Path

from solver.core.board import Shape
from solver.core.cards import ALL_CARDS, VALUES, Card, Colour
from solver.core.errors import ParseError
from solver.io.paths import MISSIONS
from solver.io.tomlfile import TomlSource

DEFAULT_CATALOG = MISSIONS / "pieces.toml"


class Catalog(Mapping):
    """Card -> Shape for all 40 cards."""

    def __init__(self, shapes: dict[Card, Shape], source: str = "", text: str = ""):
        self._shapes = dict(shapes)
        self.source = source
        self.text = text  # the file's text as read (what a game log records); "" for one made in code

    def __getitem__(self, card: Card) -> Shape:
        return self._shapes[card]

    def __iter__(self):
        return iter(ALL_CARDS)

    def __len__(self) -> int:
        return len(self._shapes)

    @property
    def key(self) -> tuple:
        """The shapes as one hashable value: equal for two catalogs that select the same pieces."""
        return tuple(sorted((card.index, shape.cells) for card, shape in self._shapes.items()))


CATALOG_TABLE = re.compile(r"^\s*\[\s*(red|yellow|green|blue|purple)\s*\]\s*(#.*)?$", re.MULTILINE)


def is_catalog_text(text: str) -> bool:
    """Whether a TOML file's text is a piece catalog (it has a colour's table: ``[red]`` ...) rather
    than a mission; read by what it holds, whether or not it loads."""
    return CATALOG_TABLE.search(text) is not None


def load_catalog(path: str | Path | None = None, text: str | None = None) -> Catalog:
    """Parse a catalog TOML file (default: the bundled one), or ``text`` (a catalog a game log
    carries; ``path`` then names the log); raises InputError."""
    path = DEFAULT_CATALOG if path is None else path
    src = TomlSource(path, "piece catalog", text)
    data = src.data
    shapes: dict[Card, Shape] = {}
    for key in data:
        try:
            Colour.parse(key)
            ok = key == Colour.parse(key).long
        except ParseError:
            ok = False
        if not ok:
            close = difflib.get_close_matches(key, [c.long for c in Colour], n=1, cutoff=0.6)
            hint = f": did you mean [{close[0]}]?" if close else ""
            raise src.error(f"unknown table or key [{key}]{hint}",
                            "the catalog has exactly the tables [red] [yellow] [green] [blue] [purple]",
                            src.table_line(key) or src.key_line(key) or src.line_of(re.escape(key)) or 1)
    for colour in Colour:
        table = data.get(colour.long)
        if not isinstance(table, dict):
            raise src.error(f"missing table [{colour.long}]",
                            f"add a [{colour.long}] table with keys 1 to 8, each a shape such as \"##/#.\"")
        start = src.table_line(colour.long) or 1
        for key in table:
            if key not in {str(v) for v in VALUES}:
                raise src.error(f"[{colour.long}] has key {key!r}; keys are the values 1 to 8",
                                "rename or remove that key", src.key_line(key, start))
        for v in VALUES:
            if str(v) not in table:
                raise src.error(f"[{colour.long}] has no piece for value {v}",
                                f"add a line {v} = \"...\" with the shape of {colour.long}-{v}", start)
            raw = table[str(v)]
            line = src.key_line(str(v), start)
            if not isinstance(raw, str):
                raise src.error(f"{colour.long}-{v}: the shape must be a string of '#' and '.'",
                                'write it like 3 = "###" or 4 = "##/#."', line)
            try:
                shapes[Card(colour, v)] = Shape.parse(raw)
            except ParseError as e:
                raise src.error(f"{colour.long}-{v}: {e}", "draw one edge-connected piece with '#' cells",
                                line) from None
    return Catalog(shapes, str(path), src.text)
