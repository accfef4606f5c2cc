"""`kakapo calibrate TABLE...`: the tables' games found and grouped, then the fit
(``analysis/calibrate.py``).

Each TABLE argument is a folder of one table's finished games (logs or sheets; every regular file
in it but the mission and catalog files and pictures a folder of sheets may hold beside them), or
one log or sheet. A game whose log names who played (``"names"``: a studio game, a recorded
sheet) belongs to the table of that set of names, wherever it was given; a game without names
belongs to its argument's table. A table is called by its folder (or file) when all its games came
from one argument that holds no other table, else by its names joined. Unfinished games are left
out (they have no result to learn from), with a note.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from solver.app.documents import Counted, Doc
from solver.app.recording import read_game_file
from solver.core.errors import InputError
from solver.io.gamelog import GameLog, people_of

Key = tuple[str, object]  # a table's key: ("names", the names) or ("arg", the argument's index)
Found_ = list[tuple[str, list[str], list[str]]]  # (table name, its game files, its names)
NOT_GAMES = {".toml", ".json", ".png", ".svg", ".html", ".md", ".csv", ".pdf", ".sqlite3"}  # beside the games


@dataclass
class Found:
    """One table's games as found: their files (in order) and the names of who played."""

    key: Key
    paths: list[str] = field(default_factory=list)
    args: set[int] = field(default_factory=set)
    names: list[str] = field(default_factory=list)


def game_files(arg: str) -> list[Path]:
    """The game files a TABLE argument gives (a folder's, sorted by name; or the file itself)."""
    p = Path(arg)
    if p.is_dir():
        files = sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith(".")
                       and f.suffix.lower() not in NOT_GAMES)
        if not files:
            raise InputError(arg, "this folder holds no game (a log or a sheet)",
                             "give a folder of one table's logs or sheets, or the files themselves")
        return files
    if not p.is_file():
        raise InputError(arg, "no such file or folder", "give a folder of one table's games, or a log or a sheet")
    return [p]


def people_key(names: Iterable[str]) -> tuple[str, ...]:
    """A table's key: the names of who played, whatever their order or case."""
    return tuple(sorted({n.strip().casefold() for n in names if n and n.strip()}))


def names_key(log: GameLog) -> tuple[str, ...]:
    """The table a log belongs to: the names of the people who played (the bots' labels left out)."""
    return people_key(people_of(log).values())


def find_tables(args: list[str], read: Callable[[Path], GameLog] = read_game_file
                ) -> tuple[Found_, dict[str, GameLog], list[str]]:
    """[(table name, its game files, its names)], the logs read by path, and notes."""
    logs: dict[str, GameLog] = {}
    found: dict[Key, Found] = {}
    per_arg: dict[int, set[Key]] = {}
    notes: list[str] = []
    seen: set[Path] = set()
    for a, arg in enumerate(args):
        for f in game_files(arg):
            if f.resolve() in seen:
                continue
            seen.add(f.resolve())
            log = read(f)
            if log.end is None:
                notes.append(f"{f}: the game is not finished; left out")
                continue
            logs[str(f)] = log
            key = ("names", names_key(log)) if names_key(log) else ("arg", a)
            t = found.setdefault(key, Found(key))
            t.paths.append(str(f))
            t.args.add(a)
            if not t.names:
                people = people_of(log)
                t.names = [people[s] for s in sorted(people)]
            per_arg.setdefault(a, set()).add(key)
    out: Found_ = []
    taken: set[str] = set()
    for t in found.values():
        a = min(t.args)
        if len(t.args) == 1 and per_arg[a] == {t.key}:
            p = Path(args[a])
            name = p.resolve().name if p.is_dir() else p.stem
        else:  # games naming nobody, beside named ones: called by where they came from
            p = Path(args[a])
            name = ", ".join(t.names) or (p.resolve().name if p.is_dir() else p.stem)
        base, k = name, 2
        while name in taken:
            name, k = f"{base} ({k})", k + 1
        taken.add(name)
        out.append((name, t.paths, t.names))
    return out, logs, notes


def calibrate(args: list[str], plays: int, seed: int, workers: int, target: float,
              progress: Counted | None = None) -> Doc:
    """`kakapo calibrate`'s document."""
    from solver.analysis.calibrate import Table  # heavy: Numba
    from solver.analysis.calibrate import calibrate as fit  # heavy: Numba
    from solver.analysis.rate import read_games  # heavy: Numba

    found, logs, notes = find_tables(args)
    if not found:
        raise InputError(args[0], "no finished game among the tables given",
                         "give the folders or files of finished games (a log with an end line, a whole sheet)")
    tables = [Table(name, read_games(paths, None, read=lambda p: logs[str(p)]), names)
              for name, paths, names in found]
    doc: Doc = fit(tables, plays, seed, workers, target, progress)
    doc["notes"] = notes + sorted({g.note for t in tables for g in t.games if g.note})
    return doc
