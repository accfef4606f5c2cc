"""The piece catalog: which polyomino each of the 40 cards selects."""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Mapping
from pathlib import Path

from solver.core.board import Shape
from solver.core.cards import ALL_CARDS, VALUES, Card, Colour
from solver.core.errors import InputError, InputErrors, ParseError
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

    @property
    def digest(self) -> str:
        """The shapes' digest (comments and layout of the file aside): what a campaign measured for
        this catalog names (``difficulty.json``'s ``pieces_digest``)."""
        return hashlib.sha256(repr(self.key).encode()).hexdigest()[:16]


CATALOG_DRAWING = re.compile(r"[#./]{0,200}")  # a piece as the catalog file draws it ("##/#.")
CATALOG_TABLE = re.compile(r"^\s*\[\s*(red|yellow|green|blue|purple)\s*\]\s*(#.*)?$", re.MULTILINE)


def catalog_toml(drawings: Mapping[str, str], comments: tuple[str, ...] = ()) -> str:
    """A catalog file: one table per colour, keys 1 to 8, each piece's drawing as given (rows of
    '#' and '.' separated by '/'; "" for a piece not drawn), after ``comments`` (one ``#`` line
    each). The drawings are written as they are (checked for '#', '.' and '/' only): whether the
    file loads is for ``load_catalog`` to say."""
    unknown = sorted(set(drawings) - {str(c) for c in ALL_CARDS})
    bad = [name for name, drawn in drawings.items() if not CATALOG_DRAWING.fullmatch(drawn)]
    if unknown or bad:
        raise ValueError(f"not a piece: {unknown[0]}" if unknown else f"{bad[0]}: not a drawing of '#', '.' and '/'")
    tables = ["\n".join([f"[{colour.long}]", *(f'{v} = "{drawings.get(f"{colour.long}-{v}", "")}"' for v in VALUES)])
              + "\n" for colour in Colour]
    head = "".join(f"# {line}\n" for line in comments)
    return head + ("\n" if head else "") + "\n".join(tables)


def is_catalog_text(text: str) -> bool:
    """Whether a TOML file's text is a piece catalog (it has a colour's table: ``[red]`` ...) rather
    than a mission; read by what it holds, whether or not it loads."""
    return CATALOG_TABLE.search(text) is not None


def load_catalog(path: str | Path | None = None, text: str | None = None) -> Catalog:
    """Parse a catalog TOML file (default: the bundled one), or ``text`` (a catalog a game log
    carries; ``path`` then names the log); raises InputErrors naming every independent problem."""
    path = DEFAULT_CATALOG if path is None else path
    src = TomlSource(path, "piece catalog", text)
    shapes, problems = read_catalog(src)
    if problems:
        raise InputErrors([e for _, e in problems])
    return Catalog(shapes, str(path), src.text)


Problem = tuple[str | None, InputError]  # the piece it concerns ("red-5"; None: a table or key), what and where
MAX_PROBLEMS = 50  # a catalog's problems named at most: one per piece and a few more (a hostile file holds thousands)
VALUE_KEYS = tuple(str(v) for v in VALUES)
SHAPE_FIX = "draw one edge-connected piece with '#' cells"
STRING_FIX = 'write it like 3 = "###" or 4 = "##/#."'
_HEADER = re.compile(r"""^\s*\[\s*["']?([^\[\]"'\s]+)["']?\s*\]""")
_KEY = re.compile(r"""^\s*["']?([A-Za-z0-9_-]+)["']?\s*=""")


def piece_shape(raw: object) -> Shape:
    """One piece as a catalog gives it: a string of rows of '#' and '.' whose '#' cells are one
    edge-connected polyomino of at most MAX_SHAPE_CELLS cells (``Shape.parse``); ParseError saying
    what is wrong. The rule every piece of every catalog is read by."""
    if not isinstance(raw, str):
        raise ParseError("the shape must be a string of '#' and '.'")
    return Shape.parse(raw)


def read_catalog(src: TomlSource) -> tuple[dict[Card, Shape], list[Problem]]:
    """The shapes of a parsed catalog and every independent problem in it (the first MAX_PROBLEMS),
    each with the piece it concerns: exactly the five colour tables, each with the keys 1 to 8 and
    nothing else, each piece one shape (``piece_shape``). What `--pieces` loads and the studio's
    piece editor checks: the one set of rules."""
    data = src.data
    lines = key_lines(src.lines)
    colours = [c.long for c in Colour]
    shapes: dict[Card, Shape] = {}
    problems: list[Problem] = []

    def problem(piece: str | None, message: str, fix: str, line: int | None) -> None:
        if len(problems) < MAX_PROBLEMS:
            problems.append((piece, src.error(message, fix, line)))

    misspelt = set()  # a colour whose table is there under a misspelt name: said once, where it is misspelt
    for key in data:
        if key in colours:
            continue
        if len(problems) >= MAX_PROBLEMS:
            break
        close = difflib.get_close_matches(key, colours, n=1, cutoff=0.6)
        misspelt.update(close)
        hint = f": did you mean [{close[0]}]?" if close else ""
        line = lines.get((key, None)) or lines.get(("", key)) or src.line_of(re.escape(key)) or 1
        problem(None, f"unknown table or key [{key}]{hint}",
                "the catalog has exactly the tables [red] [yellow] [green] [blue] [purple]", line)
    for colour in Colour:
        name = colour.long
        table = data.get(name)
        if not isinstance(table, dict):
            if name not in misspelt:
                problem(None, f"missing table [{name}]",
                        f"add a [{name}] table with keys 1 to 8, each a shape such as \"##/#.\"", None)
            continue
        start = lines.get((name, None)) or lines.get(("", name)) or 1
        for key in table:
            if key not in VALUE_KEYS:
                problem(None, f"[{name}] has key {key!r}; keys are the values 1 to 8", "rename or remove that key",
                        lines.get((name, key)))
        for v in VALUES:
            piece = f"{name}-{v}"
            if str(v) not in table:
                problem(piece, f"[{name}] has no piece for value {v}",
                        f"add a line {v} = \"...\" with the shape of {piece}", start)
                continue
            raw = table[str(v)]
            try:
                shapes[Card(colour, v)] = piece_shape(raw)
            except ParseError as e:
                problem(piece, f"{piece}: {e}", SHAPE_FIX if isinstance(raw, str) else STRING_FIX,
                        lines.get((name, str(v))) or start)
    return shapes, problems


def key_lines(lines: list[str]) -> dict[tuple[str, str | None], int]:
    """Where each table header ``(table, None)`` and each key under it ``(table, key)`` first appears
    (``""``: before any header), in one pass over the lines."""
    out: dict[tuple[str, str | None], int] = {}
    table = ""
    for i, text in enumerate(lines, 1):
        m = _HEADER.match(text)
        if m:
            table = m.group(1)
            out.setdefault((table, None), i)
            continue
        m = _KEY.match(text)
        if m:
            out.setdefault((table, m.group(1)), i)
    return out
