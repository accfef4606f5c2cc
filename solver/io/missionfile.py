"""Reading and checking mission files (TOML, docs/reference.md). Every problem is an InputError."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from pathlib import Path

from solver.core.board import SIZE, cell, cell_name, col_of, is_connected, neighbours, parse_cell, row_of
from solver.core.cards import Card, Colour
from solver.core.errors import InputError, InputErrors, ParseError
from solver.core.rules import Bird, Board, Mission, Placement, blocked_reason, mask_of
from solver.core.spec import MAX_SKILLS, MODE_RULES, max_rounds
from solver.core.text import clean
from solver.io.catalog import Catalog, load_catalog
from solver.io.packs import scan_folder
from solver.io.safefiles import MAX_FILE_BYTES, read_regular
from solver.io.tomlfile import TomlSource

KNOWN_KEYS = ("name", "story", "mode", "clear", "rounds", "skills", "pieces_digest", "board", "placed")
PLACED_KEYS = ("piece", "cells")
MARK_LETTERS = {c.letter: c for c in Colour}


def mission_fit(path: str | Path, catalog, text: str | None = None) -> tuple[Mission, str | None]:
    """The mission read with ``catalog``, and None; or, when it reads only with the bundled catalog
    (a pre-placed piece whose cells are not that piece's shape in ``catalog``), the mission as the
    bundled catalog reads it and why it does not fit ``catalog`` (its line and piece named).
    InputError when it does not read with the bundled catalog either (a broken mission)."""
    try:
        return load_mission(path, catalog, text=text), None
    except InputError as e:
        why = (f"line {e.line}: " if e.line else "") + f"{e.problem} (with this catalog)"
        for other in (catalog, load_catalog()):  # a mission made with another catalog reads, but not here
            try:
                return load_mission(path, other, text=text, check_made_with=False), why
            except InputError:
                continue
        raise


def load_mission(path: str | Path, catalog, warnings: list[str] | None = None, text: str | None = None,
                 mission_id: str | None = None, check_made_with: bool = True) -> Mission:
    """Parse and check a mission file against a catalog; raises InputErrors naming file and line
    of every independent problem found (a problem that makes later checks meaningless stops there).

    ``text``: that text instead of the file's (a mission a game log carries; ``path`` then names the
    log), ``mission_id`` the id it had. ``warnings`` (non-fatal remarks) is kept for callers that
    collect them; an unknown key is an error (a misspelled ``rounds`` would otherwise play the default silently).
    ``check_made_with``: False reads a mission made with another catalog (``pieces_digest``) anyway.
    """
    src = TomlSource(path, "mission", text)
    d = src.data
    mission_id = clean(mission_id if mission_id is not None else Path(path).stem)
    problems: list[InputError] = []

    def attempt(check, fallback=None):
        try:
            return check()
        except InputErrors as e:
            problems.extend(e.all())
        except InputError as e:
            problems.append(e)
        return fallback

    for key in d:
        if key not in KNOWN_KEYS:
            problems.append(unknown_key(src, key, KNOWN_KEYS, src.key_line(key) or src.table_line(key)))

    name = attempt(lambda: _parse_name(src, d), "?")
    story = attempt(lambda: _parse_story(src, d), "")
    mode = attempt(lambda: _parse_mode(src, d))
    defaults = mode or "buddy"  # to go on checking the rest of the file
    rounds = attempt(lambda: _positive_int(src, d, "rounds", MODE_RULES[defaults].rounds, minimum=1,
                                           maximum=max_rounds(defaults)), 1)
    skills = attempt(lambda: _positive_int(src, d, "skills", MODE_RULES[defaults].skills, minimum=0,
                                           maximum=MAX_SKILLS), 0)
    board = attempt(lambda: _parse_board(src, d))
    birds, marks = board if board else ([], {})
    clear = attempt(lambda: _parse_clear(src, d, birds if board else None))
    if problems or clear is None:
        # a misspelled required key is said once, where it is misspelled
        misspelled = {m for k in d if k not in KNOWN_KEYS for m in difflib.get_close_matches(k, KNOWN_KEYS, 1, 0.6)}
        raise InputErrors([e for e in problems if e.problem not in {f"missing required key {k!r}" for k in misspelled}])
    clear, clear_all = clear
    _parse_pieces_digest(src, d, catalog if check_made_with else None)
    mission = Mission(mission_id, name, mode, clear, clear_all, rounds, skills,
                      tuple(birds), tuple(sorted(marks.items())), ())
    placed = _parse_placed(src, d, mission, catalog)
    return Mission(mission_id, mission.name, mode, clear, clear_all, rounds, skills,
                   mission.birds, mission.marks, tuple(placed), story, src.text)


def check_file(path, catalog, text: str | None = None) -> dict | None:
    """`validate`'s document of a file that does not load (every independent problem, with its
    line), None for one that does: every file is checked this way before any work. ``text``:
    the file's text read already (a file of a pack)."""
    try:
        load_mission(path, catalog, text=text)
    except InputError as e:
        return {"file": str(path), "mission": Path(path).stem, "valid": False,
                "errors": [x.to_json() for x in e.all()], "warnings": [], "status": None, "min_pieces": None,
                "optimal": None, "difficulty": []}
    return None


def unknown_key(src: TomlSource, key: str, known, line: int | None, where: str = "") -> InputError:
    """An unknown key, with the known key it most likely misspells."""
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if line is None:  # a dotted key or a table header: the first line that names it
        line = src.top_key_line(key) or 1
    shown = key if len(key) <= 40 else key[:37] + "..."
    if close:
        return src.error(f"{where}unknown key {shown!r}: did you mean {close[0]!r}?",
                         f"rename it to {close[0]!r}", line)
    return src.error(f"{where}unknown key {shown!r}", f"remove it; the known keys are {', '.join(known)}", line)


def _parse_name(src: TomlSource, d: dict) -> str:
    name = d.get("name")
    if name is None:
        raise src.error("missing required key 'name'", 'add a line such as  name = "First contact"', 1)
    if not isinstance(name, str) or not name.strip():
        raise src.error("'name' must be a non-empty string", 'write it like  name = "First contact"',
                        src.key_line("name"))
    return clean(name.strip())  # shown on terminals and pages: no control characters


def _parse_story(src: TomlSource, d: dict) -> str:
    story = d.get("story", "")
    if not isinstance(story, str) or "\n" in story.strip():
        raise src.error("'story' must be one line of text",
                        'write it like  story = "A young kakapo hides near the track."',
                        src.key_line("story"))
    return clean(story.strip())


DIGEST = re.compile(r"^[0-9a-f]{16}$")
DECLARED = re.compile(r"""^[ \t]*pieces_digest[ \t]*=[ \t]*["']([0-9a-f]{16})["'][ \t]*(?:#.*)?$""", re.MULTILINE)


def made_with(m: Mission) -> str | None:
    """The digest of the catalog a mission says it was made with (its file's ``pieces_digest``)."""
    return declared_pieces(m.source) if m.source else None


def declared_pieces(text: str) -> str | None:
    """The ``pieces_digest`` a mission's text declares (the catalog it was made with), read without
    checking the rest of the file; None when it declares none or the text does not parse."""
    found = DECLARED.search(text[:MAX_FILE_BYTES])  # a line of the file, never a parse of untrusted text
    return found.group(1) if found else None


def _parse_pieces_digest(src: TomlSource, d: dict, catalog) -> str | None:
    """The catalog the mission was made with (its shapes' digest). Read with other shapes, its placed
    pieces and its difficulty would be another mission's: an error, never a silent reading."""
    value = d.get("pieces_digest")
    if value is None:
        return None
    line = src.key_line("pieces_digest")
    if not isinstance(value, str) or not DIGEST.match(value):
        raise src.error("'pieces_digest' must be 16 hexadecimal digits (the digest of the catalog the mission "
                        "was made with, as `kakapo pieces --pieces FILE` prints it)",
                        'write it like  pieces_digest = "3f2a9c1b0d4e5f67", or remove the line', line)
    if catalog is not None and value != catalog.digest:
        used = "the bundled catalog" if catalog.digest == bundled_digest() else (Path(catalog.source).name or "it")
        raise src.error(f"the mission was made with another catalog (pieces_digest {value}), not with {used} "
                        f"(digest {catalog.digest}): its shapes would be read as another mission's",
                        "use the catalog it was made with (--pieces FILE; in the studio, the Catalog menu), or "
                        "remove the pieces_digest line to read it with these shapes", line)
    return value


@lru_cache(maxsize=1)
def bundled_digest() -> str:
    return load_catalog().digest


def _parse_mode(src: TomlSource, d: dict) -> str:
    mode = d.get("mode")
    if mode is None:
        raise src.error("missing required key 'mode'",
                        'add  mode = "buddy"  (2 players) or  mode = "party"  (3 or 4 players)', 1)
    if mode not in ("buddy", "party"):
        raise src.error(f"mode is {mode!r}; it must be \"buddy\" or \"party\"",
                        'write  mode = "buddy"  (2 players) or  mode = "party"  (3 or 4 players)', src.key_line("mode"))
    return mode


def _parse_clear(src: TomlSource, d: dict, birds) -> tuple[int, bool]:
    clear_raw = d.get("clear")
    clear_line = src.key_line("clear")
    if clear_raw is None:
        raise src.error("missing required key 'clear'",
                        'add  clear = 1  (birds that must be scanned) or  clear = "all"', 1)
    if clear_raw == "all":
        return (len(birds) if birds is not None else 0), True
    if not (isinstance(clear_raw, int) and not isinstance(clear_raw, bool) and clear_raw >= 1):
        raise src.error(f"clear is {clear_raw!r}; it must be an integer >= 1 or \"all\"",
                        'write  clear = 1  or  clear = "all"', clear_line)
    if birds is not None and clear_raw > len(birds):
        raise src.error(f"clear = {clear_raw!r} but the board has only {len(birds)} bird(s)",
                        f"lower clear to at most {len(birds)} or add birds to the board", clear_line)
    return clear_raw, False


def _positive_int(src: TomlSource, d: dict, key: str, default: int, minimum: int, maximum: int) -> int:
    if key not in d:
        return default
    v = d[key]
    if not isinstance(v, int) or isinstance(v, bool) or not minimum <= v <= maximum:
        shown = repr(v) if len(repr(v)) <= 30 else repr(v)[:27] + "..."
        why = {"rounds": " (what the hands allow: 8 in buddy; 13 in party, 11-13 for 3 players only)"}.get(key, "")
        raise src.error(f"{key} is {shown}; it must be an integer from {minimum} to {maximum}{why}",
                        f"write  {key} = {default}  or remove the line to use the default", src.key_line(key))
    return v


def _board_rows(src: TomlSource, raw: str, key_line: int) -> list[tuple[int, str]]:
    """The board's drawn rows with the file line of each (blank lines around the block left out)."""
    parts = src.lines[key_line - 1].split("=", 1) if key_line <= len(src.lines) else []
    after = parts[1].strip() if len(parts) == 2 else ""
    first_line = key_line + (1 if after in ('"""', "'''") else 0)
    numbered = [(first_line + i, r.strip()) for i, r in enumerate(raw.split("\n"))]
    while numbered and not numbered[0][1]:
        numbered.pop(0)
    while numbered and not numbered[-1][1]:
        numbered.pop()
    return numbered


def board_line(m: Mission, cell_index: int) -> int | None:
    """The line of the mission's file that draws this cell's board row (None for a mission made in
    code, or one whose file does not draw the board row by row)."""
    if not m.source:
        return None
    try:
        src = TomlSource(m.id, "mission", m.source)
    except InputError:
        return None
    raw = src.data.get("board")
    if not isinstance(raw, str):
        return None
    rows = _board_rows(src, raw, src.key_line("board") or 1)
    return rows[row_of(cell_index)][0] if len(rows) == SIZE else None


def _parse_board(src: TomlSource, d: dict) -> tuple[list[Bird], dict[int, Colour]]:
    if "board" not in d:
        raise src.error("missing required key 'board'", 'add  board = """  with 12 lines of 12 characters, then """', 1)
    raw = d["board"]
    key_line = src.key_line("board") or 1
    if not isinstance(raw, str):
        raise src.error("'board' must be a multi-line string",
                        'write  board = """  then 12 lines of 12 characters, then """', key_line)
    numbered = _board_rows(src, raw, key_line)
    if len(numbered) != SIZE:
        raise src.error(f"the board has {len(numbered)} line(s); it must have exactly 12",
                        "draw 12 lines of 12 characters ('.' empty, A-Z birds, r y g b p coloured sides)", key_line)
    bird_cells: dict[str, list[int]] = {}
    marks: dict[int, Colour] = {}
    problems: list[InputError] = []  # every row's mistake, not only the first
    for r, (line, row) in enumerate(numbered):
        if len(row) != SIZE:
            problems.append(src.error(f"board row {r + 1} has {len(row)} characters; it must have exactly 12",
                                      "make every board line 12 characters long", line,
                                      tuple(cell_name(cell(r, k)) for k in range(SIZE))))
        for c, ch in enumerate(row[:SIZE]):
            if ch == ".":
                continue
            if "A" <= ch <= "Z":
                bird_cells.setdefault(ch, []).append(cell(r, c))
            elif ch in MARK_LETTERS:
                marks[cell(r, c)] = MARK_LETTERS[ch]
            else:
                where = f"board row {r + 1}, column {c + 1} (cell {cell_name(cell(r, c))})"
                problems.append(src.error(f"{where} has {ch!r}",
                                          "use only '.' (empty), A-Z (bird cells) and r y g b p (coloured sides)",
                                          line, (cell_name(cell(r, c)),)))
                break  # one per row: the rest of a garbled row says nothing new
    birds = []
    for letter in sorted(bird_cells):
        cells = bird_cells[letter]
        if not is_connected([(row_of(x), col_of(x)) for x in cells]):
            line = numbered[row_of(cells[0])][0]
            names = " ".join(cell_name(x) for x in cells)
            problems.append(src.error(f"bird {letter} is not edge-connected (cells {names})",
                                      f"join the cells of bird {letter}, or give separate birds different letters",
                                      line, tuple(cell_name(x) for x in cells)))
            continue
        birds.append(Bird(letter, frozenset(cells)))
    bird_mask = mask_of(c for cells in bird_cells.values() for c in cells)
    for c in marks:
        if not (mask_of(neighbours(c)) & bird_mask):
            line = numbered[row_of(c)][0]
            mark = marks[c].letter
            problems.append(src.error(f"coloured side mark {mark!r} at {cell_name(c)} does not share an edge "
                                      "with any bird", "put colour marks on empty cells directly beside a bird "
                                      "(above, below, left or right)", line, (cell_name(c),)))
    if not bird_cells:
        problems.append(src.error("the board has no birds", "draw at least one bird with a capital letter (A-Z)",
                                  key_line))
    if problems:
        raise InputErrors(problems)
    return birds, marks


def _parse_placed(src: TomlSource, d: dict, mission: Mission, catalog) -> list[Placement]:
    raw = d.get("placed", [])
    lines = src.array_table_lines("placed")
    if not isinstance(raw, list):
        raise src.error("'placed' must be an array of tables", "write each pre-placed piece as a [[placed]] block",
                        src.key_line("placed"))
    board = Board(mission)
    out = []
    problems: list[InputError] = []
    for i, entry in enumerate(raw):
        line = lines[i] if i < len(lines) else src.key_line("placed")
        try:
            p = _one_placed(src, board, catalog, entry, f"[[placed]] #{i + 1}", line)
        except InputError as e:
            problems.append(e)  # each block on its own: the others are still checked
            continue
        board.place(p)
        out.append(p)
    if problems:
        raise InputErrors(problems)
    return out


def _one_placed(src: TomlSource, board: Board, catalog, entry, where: str, line: int | None) -> Placement:
    if isinstance(entry, dict):
        for key in entry:
            if key not in PLACED_KEYS:
                raise unknown_key(src, key, PLACED_KEYS, src.key_line(key, line or 1) or line, f"{where}: ")
    if not isinstance(entry, dict) or "piece" not in entry or "cells" not in entry:
        raise src.error(f"{where} needs keys 'piece' and 'cells'",
                        'write  piece = "red-5"  and  cells = ["c9", "c10", "d10", "e10"]', line)
    try:
        card = Card.parse(entry["piece"]) if isinstance(entry["piece"], str) else None
    except ParseError as e:
        card = None
        err = str(e)
    else:
        err = f"piece must be a name like \"red-5\", not {entry['piece']!r}"
    if card is None:
        raise src.error(f"{where}: unknown piece: {err}", "name a piece as <colour>-<value>, e.g. red-5 or p8", line)
    cells_raw = entry["cells"]
    if not isinstance(cells_raw, list) or not all(isinstance(x, str) for x in cells_raw):
        raise src.error(f"{where} ({card}): cells must be a list of cell names", 'write  cells = ["c9", "c10"]', line)
    if not cells_raw:
        raise src.error(f"{where} ({card}): cells is empty", "list the cells the piece covers, e.g. cells = [\"c9\"]",
                        line)
    try:
        cells = [parse_cell(x) for x in cells_raw]
    except ParseError as e:
        raise src.error(f"{where} ({card}): {e}", "use cell names a1..l12", line) from None
    if len(set(cells)) != len(cells):
        raise src.error(f"{where} ({card}): a cell is listed twice", "list each cell of the piece once", line)
    p = Placement(card, frozenset(cells))
    problem = board.placement_problem(p, catalog[card])
    if problem:
        if "already on the board" in problem:
            problem = f"{card} is placed twice"
            fix = "each piece exists once; remove the repeated [[placed]] block"
        elif "shape" in problem:
            fix = f"give cells that form {card}'s shape ({catalog[card].format()}) in the catalog in use"
        elif "bird" in problem:
            fix = "move the piece off the bird cells"
        elif "overlaps" in problem:
            fix = "pre-placed pieces may not share cells; move one of them"
        elif "shares an edge" in problem:
            fix = "pieces of the same colour may touch only at corners; move one of them"
        else:
            fix = "check the cells"
        raise src.error(f"{where} ({card}): {problem}", fix, line, tuple(p.cell_names()))
    return p


def warning_items(m: Mission) -> list[dict]:
    """The warnings `validate` gives before it solves or plays, with their line and cells."""
    out = []
    board = Board.start(m)
    for b in m.birds:
        cells = [cell_name(c) for c in sorted(b.cells)]
        why = blocked_reason(m, b)
        if why:
            out.append({"line": board_line(m, min(b.cells)), "message": f"bird {b.letter} can never be scanned "
                        f"({why}): a decoy", "fix": "move the bird, or leave it as a decoy on purpose",
                        "cells": cells})
        elif not board.can_still_be_scanned(b):
            out.append({"line": board_line(m, min(b.cells)), "message": f"bird {b.letter} can never be scanned: a "
                        "pre-placed piece covers a coloured side with another colour", "fix": "", "cells": cells})
    if len(board.scanned()) >= m.clear:
        out.append({"line": None, "message": "the mission is already cleared by the pre-placed pieces", "fix": "",
                    "cells": []})
    return out


def mission_files(directory: Path) -> list[Path]:
    """The missions of a folder: its ``*.toml`` files that are not catalogs (by what they hold),
    sorted by name; InputError when it is no folder or holds none."""
    if not directory.is_dir():
        raise InputError(str(directory), "not a folder", "give the folder of your missions")
    found = [directory / f.name for f in scan_folder(directory, follow_links=True).missions]
    if not found:
        raise InputError(str(directory), "no mission files (*.toml) in this folder", "give the folder of your "
                         "missions")
    return found


def catalog_beside(path: Path, notes: list[str] | None = None) -> Catalog:
    """The bundled catalog, or the catalog file beside a mission with the digest it declares."""
    bundled = load_catalog()
    try:
        text = read_regular(path, MAX_FILE_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return bundled  # load_mission says what is wrong with the file
    wanted = declared_pieces(text)
    if wanted is None or wanted == bundled.digest:
        return bundled
    for beside in scan_folder(path.parent).catalogs:  # no link followed, no FIFO waited on
        if beside.name == path.name:
            continue
        other = path.parent / beside.name
        try:
            found = load_catalog(other, beside.data.decode("utf-8"))
        except (InputError, UnicodeDecodeError):
            continue
        if found.digest == wanted:
            if notes is not None:
                notes.append(f"{path.name} was made with the catalog {other.name} beside it: read with its shapes")
            return found
    return bundled  # load_mission refuses it, naming the digest and the fix
