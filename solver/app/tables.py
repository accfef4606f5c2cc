"""What the tables' finished games say: `kakapo rate`, and the studio's Tables view (the folder's
finished games, which count, grouped into tables by who played; rated and calibrated as jobs)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from solver.app.calibrating import LATEST, calibrate, estimate_seconds, in_words, people_key
from solver.app.documents import Counted, Doc, Fraction, Shown
from solver.app.inputs import job_folder
from solver.app.sheets import read_game_file
from solver.core.errors import InputError
from solver.io.catalog import Catalog
from solver.io.packs import scan_folder
from solver.io.paths import MISSIONS, mission_path
from solver.io.replays import FolderReplays, Replays
from solver.runtime.workers import WORKER_TIMEOUT

if TYPE_CHECKING:  # heavy at run time: Numba
    from solver.analysis.rate import Cluster


def rate(paths: list[str], seats: tuple[int, ...] | None, plays: int, missions: Iterable[str], *, seed: int,
         workers: int, progress: Counted | None = None, near: tuple[Path, ...] | None = None,
         simulate: bool = True, replays: Replays | None = None, scheduler: str | None = None,
         worker_timeout: float = WORKER_TIMEOUT, status: Callable[[str | None], None] | None = None) -> Doc:
    """`kakapo rate`'s document: each mission predicted with the games' catalog (``analysis.rate.predict``;
    the campaign looked for beside the games, or in ``near``); InputError, before any work, for a
    mission that is neither a file nor a bundled one. The games' replays are kept (``replays``; by
    default beside the logs: ``io.replays.FolderReplays``), so that rating them again replays only
    the new ones; ``scheduler``: the work on that Dask cluster, with the same figures."""
    missions = list(missions)
    for m in missions:
        if not mission_path(m).exists():
            raise InputError("--mission", f"{m!r} is neither a mission file nor a bundled mission",
                             "give a bundled id (kakapo list) or a mission file")
    from solver.analysis.rate import rate as run_rate  # heavy: Numba

    doc: Doc = run_rate(paths, seats, plays, list(missions), seed=seed, workers=workers, progress=progress,
                        read=read_game_file, near=near, simulate=simulate,
                        replays=FolderReplays() if replays is None else replays,
                        cluster=on_cluster(scheduler, worker_timeout, status))
    return doc


def on_cluster(scheduler: str | None, worker_timeout: float,
               status: Callable[[str | None], None] | None = None) -> Cluster | None:
    """`rate` and `calibrate`'s work for the Dask scheduler at ``scheduler`` (None: here)."""
    if not scheduler:
        return None
    from solver.analysis.rate import Cluster  # heavy: Numba

    return Cluster(scheduler, worker_timeout, status)


STUDIO_PLAYS = 20  # the studio's rate and calibrate jobs: replays of each deal per rung (`--plays`' default)


def finished_games(rows: list[Doc]) -> list[Doc]:
    """The finished games of a folder's games listing, in its order (the oldest first): ended with
    a result, not broken, played at a table of a known size. The one rule for what the Tables list
    counts, what rate and calibrate learn from and what an export holds."""
    return [g for g in rows if g.get("result") is not None and not g.get("broken") and g.get("players")]


def tables_listing(rows: list[Doc]) -> list[Doc]:
    """The folder's tables: its finished games grouped by the names of who played (as `kakapo
    calibrate` groups logs), each with its games and results by mission; games naming nobody make
    one table, "unnamed"."""
    groups: dict[tuple[str, ...], Doc] = {}
    for g in finished_games(rows):
        names = [n for _, n in sorted((g.get("names") or {}).items()) if n and n.strip()]
        key = people_key(names)
        t = groups.setdefault(key, {"table": ", ".join(names) if names else "unnamed", "names": names, "games": 0,
                                    "cleared": 0, "ids": [], "missions": {}})
        t["games"] += 1
        t["cleared"] += g["result"] == "cleared"
        t["ids"].append(g["id"])
        m = t["missions"].setdefault((g.get("mission"), g["players"]), {"mission": g.get("mission"),
                                                                        "players": g["players"], "games": 0,
                                                                        "cleared": 0})
        m["games"] += 1
        m["cleared"] += g["result"] == "cleared"
    out = []
    for t in groups.values():
        t["missions"] = sorted(t["missions"].values(), key=lambda m: (str(m["mission"]), m["players"]))
        out.append(t)
    return sorted(out, key=lambda t: (-t["games"], t["table"]))


def calibrate_texts(logs: dict[str, str], workers: int, progress: Fraction | None = None,
                    target: float = 0.6, latest: int = LATEST, folder: Path | None = None,
                    replays: Replays | None = None) -> Doc:
    """The studio's Tables view: `kakapo calibrate` of the folder's finished games (their logs'
    texts by game id, oldest first), grouped into tables by the names of who played (the games
    naming nobody: one table, "unnamed"); each table's ``latest`` games learned from; the
    campaign measured for their catalog looked for in ``folder`` (the studio's) and a
    ``campaign/`` folder in it; with ``"words"``: every figure in plain words
    (view/calibrate_text.py)."""
    from solver.view.calibrate_text import plain_words  # heavy: Numba (the fit's modules)

    tell = progress or (lambda _f: None)
    order = {Path(game_id).name: k for k, game_id in enumerate(logs)}  # when each was played: the order given
    near = () if folder is None else (folder,)
    with tempfile.TemporaryDirectory(prefix="kakapo-calibrate-") as tmp:
        games = Path(tmp) / "unnamed"
        games.mkdir()
        for game_id, text in logs.items():
            (games / f"{Path(game_id).name}.jsonl").write_text(text, encoding="utf-8")
        doc = calibrate([str(games)], STUDIO_PLAYS, 1, workers, target=target,
                        progress=lambda d, t: tell(0.97 * d / max(t, 1)),
                        latest=latest, when=lambda p: order.get(p.stem, -1), near=near, replays=replays)
    for t in doc["tables"]:  # called as the Tables list calls them, even when one table has every game
        if t["names"]:
            t["table"] = ", ".join(t["names"])
    doc["words"] = plain_words(doc)  # every figure in a sentence: the page says them as they are
    return doc


def calibration_cost(rows: list[Doc], workers: int, latest: int = LATEST) -> Doc:
    """What the studio's calibration of these finished games will learn from and cost, said
    before it starts: ``{"games", "tables", "left_out", "latest", "estimate_seconds", "estimate"}``."""
    counts = [t["games"] for t in tables_listing(rows)]
    used = sum(min(n, latest) if latest else n for n in counts)
    seconds = estimate_seconds(used, STUDIO_PLAYS, workers)
    return {"games": used, "tables": len(counts), "left_out": sum(counts) - used, "latest": latest or None,
            "estimate_seconds": round(seconds, 1), "estimate": in_words(seconds)}


def rate_texts(logs: dict[str, str], workers: int, progress: Fraction | None = None,
               folder: Path | None = None, replays: Replays | None = None) -> Doc:
    """The studio's "rate this table": `kakapo rate` of the folder's finished games (their logs'
    texts by game id; the people's seats), with the clear rate to expect at every bundled mission
    and every mission of ``folder``, from the campaign measured for the games' catalog (looked for
    in ``folder`` and a ``campaign/`` folder in it); a mission it did not measure says why (nothing
    is played there and then: the page waits for no forty ladders)."""
    tell = progress or (lambda _f: None)
    missions = [str(p) for p in sorted(MISSIONS.glob("buddy/*.toml")) + sorted(MISSIONS.glob("party/*.toml"))]
    if folder is not None:
        missions += [str(folder / f.name) for f in scan_folder(folder).missions]  # the folder's own files only
    with tempfile.TemporaryDirectory(prefix="kakapo-rate-") as tmp:
        paths = []
        for game_id, text in logs.items():
            path = Path(tmp) / f"{Path(game_id).name}.jsonl"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        return rate(paths, None, STUDIO_PLAYS, missions, seed=1, workers=workers,
                    progress=lambda d, t: tell(0.97 * d / max(t, 1)), near=() if folder is None else (folder,),
                    simulate=False, replays=replays)


# each job answers the document of the command of its name with --json (``registry.JOBS``); its
# request as the studio's job model gives it; ``progress(fraction)``
def _games_of(request: Doc) -> dict[str, str]:
    """The folder's finished games a job learns from: their logs' texts by game id, oldest first."""
    return dict(zip(request["names"], request["texts"], strict=True))


def rate_job(request: Doc, catalog: Catalog, workers: int, progress: Fraction, shown: Shown | None = None,
             replays: Replays | None = None) -> Doc:
    """`kakapo rate --json` of the folder's finished games (``rate_texts``)."""
    return rate_texts(_games_of(request), workers, progress, job_folder(request), replays)


def calibrate_job(request: Doc, catalog: Catalog, workers: int, progress: Fraction,
                  shown: Shown | None = None, replays: Replays | None = None) -> Doc:
    """`kakapo calibrate --json` of the folder's finished games (``calibrate_texts``)."""
    return calibrate_texts(_games_of(request), workers, progress, folder=job_folder(request), replays=replays)
