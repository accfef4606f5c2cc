"""`kakapo calibrate TABLE...`: the tables' games found and grouped, then the fit
(``analysis/calibrate.py``).

Each TABLE argument is a folder of one table's finished games (logs or sheets; every regular file
in it but the mission and catalog files and pictures a folder of sheets may hold beside them), or
one log or sheet. A game whose log names who played (``"names"``: a studio game, a recorded
sheet) belongs to the table of that set of names, wherever it was given; a game without names
belongs to its argument's table. A table is called by its folder (or file) when all its games came
from one argument that holds no other table, else by its names joined. Unfinished games are left
out (they have no result to learn from), with a note.

The work is bounded: each table's latest ``latest`` finished games are learned from (by the files'
modification times, the studio's games by when they were played; default ``LATEST``), the games
left out are counted in the document, and the time it will take is estimated before it starts
(``estimate_seconds``: the replays' cost measured in benchmarks/RESULTS.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from solver.app.documents import Counted, Doc
from solver.app.sheets import read_game_file
from solver.core.errors import InputError
from solver.io.difficulty import games_places
from solver.io.gamelog import GameLog, people_of
from solver.io.replays import FolderReplays, Replays
from solver.runtime.workers import WORKER_TIMEOUT

Key = tuple[str, object]  # a table's key: ("names", the names) or ("arg", the argument's index)
Found_ = list[tuple[str, list[str], list[str]]]  # (table name, its game files, its names)
LATEST = 40  # each table's latest finished games learned from by default: twice the 20 a table's level was shown
# to hold at (benchmarks/RESULTS.md); older games add little and cost as much
# what one game costs to calibrate, in CPU seconds: FIXED + PER_PLAY x plays (benchmarks/bench_calibrate_cost.py,
# benchmarks/RESULTS.md: 0.76 a game at 4 plays, 2.07 at 20, over eight missions; it varies with the mission)
FIXED_SECONDS, PER_PLAY_SECONDS = 0.44, 0.082
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
    if not p.exists():
        raise InputError(arg, "no such file or folder", "give a folder of one table's games, or a log or a sheet")
    return [p]  # read as a game file: anything but a regular file is refused there, unread


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


def estimate_seconds(games: int, plays: int, workers: int) -> float:
    """About how long calibrating ``games`` games takes (wall seconds on ``workers`` cores of a
    machine like the benchmarks')."""
    return games * (FIXED_SECONDS + PER_PLAY_SECONDS * plays) / max(1, workers)


def in_words(seconds: float) -> str:
    """A duration as a person says it."""
    if seconds < 90:
        return f"about {max(1, round(seconds))} s"
    if seconds < 5400:
        return f"about {round(seconds / 60)} min"
    return f"about {seconds / 3600:.1f} h"


def modified(path: Path) -> float:
    """When the file was last written (0 if it cannot be told)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def keep_latest(found: Found_, latest: int, when: Callable[[Path], float] = modified
                ) -> tuple[Found_, list[tuple[str, int, int]]]:
    """Each table's latest ``latest`` games (0: all; by ``when``, ties by name), in the order they
    were found; and (table, games left out, games it had) for each table cut."""
    out: Found_ = []
    cut: list[tuple[str, int, int]] = []
    for name, paths, names in found:
        if latest and len(paths) > latest:
            newest = sorted(paths, key=lambda p: (when(Path(p)), p))[-latest:]
            keep = set(newest)
            cut.append((name, len(paths) - latest, len(paths)))
            paths = [p for p in paths if p in keep]
        out.append((name, paths, names))
    return out, cut


def calibrate(args: list[str], plays: int, seed: int, workers: int, *, target: float,
              progress: Counted | None = None, latest: int = LATEST, when: Callable[[Path], float] = modified,
              said: Callable[[str], None] | None = None, near: tuple[Path, ...] | None = None,
              replays: Replays | None = None, scheduler: str | None = None, worker_timeout: float = WORKER_TIMEOUT,
              status: Callable[[str | None], None] | None = None) -> Doc:
    """`kakapo calibrate`'s document: each table's ``latest`` games (0: all) learned from; ``said``
    hears the estimate of the time it will take before the work starts (the games whose replays
    are kept, by default beside their logs: ``replays``, cost next to nothing); each game's
    expectations from the campaign measured for the catalog it was played with, looked for in
    ``near`` (default: the games' folders and the folders above them,
    ``io.difficulty.games_places``); ``scheduler``: the work on that Dask cluster, the same figures."""
    from solver.analysis.calibrate import Table  # heavy: Numba
    from solver.analysis.calibrate import calibrate as fit  # heavy: Numba
    from solver.analysis.rate import Cluster, kept_games, read_games  # heavy: Numba

    found, logs, notes = find_tables(args)
    if not found:
        raise InputError(args[0], "no finished game among the tables given",
                         "give the folders or files of finished games (a log with an end line, a whole sheet)")
    found, cut = keep_latest(found, latest, when)
    games = sum(len(paths) for _, paths, _ in found)
    left = sum(n for _, n, _ in cut)
    tables = [Table(name, read_games(paths, None, read=lambda p: logs[str(p)]), names)
              for name, paths, names in found]
    replays = FolderReplays() if replays is None else replays
    kept = kept_games([g for t in tables for g in t.games], plays, seed, replays)
    estimate = estimate_seconds(games - kept, plays, workers)
    if said is not None:
        said(f"calibrate: {games} game(s) of {len(found)} table(s)"
             + (f" ({kept} replayed before, kept)" if kept else "") + f", {in_words(estimate)} on {workers} worker(s)"
             + (f" ({left} older game(s) left out: each table's latest {latest} are learned from)" if left else ""))
    if near is None:
        near = games_places([p for _, paths, _ in found for p in paths])
    cluster = Cluster(scheduler, worker_timeout, status) if scheduler else None
    doc: Doc = fit(tables, plays, seed, workers, target=target, progress=progress, near=near, replays=replays,
                   cluster=cluster)
    doc["latest"] = latest or None
    doc["left_out"] = left
    doc["estimate_seconds"] = round(estimate, 1)
    doc["notes"] = notes + [f"{name}: its {n} oldest of {had} games left out (each table's latest {latest} are "
                            "learned from)" for name, n, had in cut] \
        + sorted({g.note for t in tables for g in t.games if g.note})
    return doc
