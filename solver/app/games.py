"""One game at a time, and what is learnt from games: `kakapo play` (bots, the open-hand team,
people in the terminal), `kakapo review` and `kakapo rate`, and the same for the studio (a log
given as text, the folder's finished games)."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from solver.app.calibrating import LATEST, calibrate, estimate_seconds, in_words, people_key
from solver.app.documents import Counted, Doc, Fraction, Said, Shown
from solver.app.inputs import LoggedGame, logged_text, samples_for, table_size
from solver.app.recording import read_game_file
from solver.app.registry import BATCH_DEFAULT, PLAY_POLICIES, POLICIES, TABLE_DEFAULT
from solver.core.codes import OPEN_HAND, PolicyId
from solver.core.errors import InputError
from solver.core.rules import Mission
from solver.game.state import GameState
from solver.io.catalog import Catalog
from solver.io.gamelog import GameLog
from solver.io.missionfile import mission_files
from solver.io.paths import MISSIONS
from solver.io.replays import FolderReplays

if TYPE_CHECKING:  # heavy at run time: Numba, OR-Tools
    from solver.analysis.rate import Cluster, Replays
    from solver.analysis.review_types import Review
    from solver.play.games import PlayedGame


WORKER_TIMEOUT = 300.0  # seconds without any Dask worker before `rate` and `calibrate` give up (--worker-timeout)


@dataclass(frozen=True)
class Run:
    """Who plays a game and on which deal: ``seed`` and ``game`` name game I of `simulate --seed S`."""

    seed: int
    game: int
    policy: str
    samples: int

    def label(self) -> str:
        return self.policy if self.policy != PolicyId.SEARCH.label else f"search ({self.samples} samples)"


def run_of(log: GameLog | None, seed: int | None, game: int | None, policy: str | None, samples: int | None,
           default: str = BATCH_DEFAULT, known: tuple[str, ...] = PLAY_POLICIES) -> Run:
    """--seed, --game, --policy and --samples as given, else as the log records them (a continued
    game repeats the original), else their defaults."""
    logged = None if log is None else log.meta.get("policy")
    if log is not None:
        seed = log.meta.get("seed", 1) if seed is None else seed
        game = log.meta.get("game", 0) if game is None else game
    policy = policy or (logged if logged in known else default)
    if log is not None and samples is None and policy == PolicyId.SEARCH.label and policy == logged:
        samples = log.meta.get("samples")  # the original's, so that it repeats
    return Run(1 if seed is None else seed, game or 0, policy, samples_for(policy, samples))


def play(m: Mission, catalog: Catalog, players: int, run: Run, time_limit: float) -> PlayedGame:
    """Game ``run.game`` of `simulate --seed`, played by ``run.policy`` (or the open-hand team)."""
    from solver.play import games  # heavy: the open-hand solver's OR-Tools

    return games.play(m, catalog, players, run.seed, run.game, run.policy, time_limit, run.samples)


def play_from(lg: LoggedGame, round_: int | None, run: Run, time_limit: float, players: int | None) -> PlayedGame:
    """The logged game from the start of round ``round_`` (default: after its last round), played on."""
    from solver.play import games  # heavy: the open-hand solver's OR-Tools

    return games.play_from(lg.log, lg.mission, lg.catalog, round_, run.seed, run.game, run.policy, time_limit,
                           players, run.samples)


@dataclass
class TerminalGame:
    """A game a person takes seats of, in the terminal, where it starts: the deal, or a logged moment."""

    mission: Mission
    catalog: Catalog
    players: int
    run: Run
    state: GameState
    earlier: list[int]  # the seats people played in the rounds before (a continued game)


def terminal_game(m: Mission | None, catalog: Catalog | None, players: int | None, source: str, lg: LoggedGame | None,
                  round_: int | None, seed: int | None, game: int | None, policy: str | None,
                  samples: int | None) -> TerminalGame:
    """`play --human`: the game a person plays, the other seats by the table's policy (default the
    planner; never the open-hand team, which sees every hand)."""
    from solver.play import games  # heavy: the open-hand solver's OR-Tools

    if policy == OPEN_HAND:
        raise InputError("--policy", "the open-hand team plans every seat with every hand in view; it cannot share "
                         "a table with a person", f"give another --policy (default {TABLE_DEFAULT})")
    if lg is not None:
        run = run_of(lg.log, seed, game, policy, samples, TABLE_DEFAULT, POLICIES)
        state, _ = games.resume(lg.log, lg.mission, lg.catalog, round_, run.seed, run.game, run.policy, players,
                                run.samples)
        return TerminalGame(lg.mission, lg.catalog, lg.log.players, run, state, list(lg.log.human))
    assert m is not None and catalog is not None
    n = table_size(m, players, source)
    run = run_of(None, seed, game, policy, samples, TABLE_DEFAULT, POLICIES)
    return TerminalGame(m, catalog, n, run, games.dealt(m, catalog, n, run.seed, run.game), [])


# ---------------------------------------------------------------- review and rate
def review(lg: LoggedGame, time_limit: float, samples: int | None = None, playouts: int | None = None, seed: int = 1,
           progress: Said | None = None, workers: int = 1, careful: bool = False,
           judged: Shown | None = None) -> Review:
    """`kakapo review` of a logged game (``analysis.review.Review``); ``judged(decision's JSON)``
    as each decision is judged (without its boards: the page lists it while the rest is judged)."""
    from solver.analysis.review import REVIEW_PLAYOUTS, REVIEW_SAMPLES, review_game  # heavy: Numba, OR-Tools

    tell = None if judged is None else (lambda d: judged(brief_decision(d.to_json())))
    return review_game(lg.log, lg.mission, lg.catalog, time_limit, REVIEW_SAMPLES if samples is None else samples,
                       REVIEW_PLAYOUTS if playouts is None else playouts, seed, progress, workers, careful, tell)


BOARD_KEYS = ("pieces", "best_cells", "played_cells")


def brief_decision(doc: Doc) -> Doc:
    """A judged decision as streamed before the review ends: its words and figures, no boards."""
    return {k: v for k, v in doc.items() if k not in BOARD_KEYS}


def review_text(text: str, name: str = "the log", time_limit: float = 10.0, progress: Fraction | None = None,
                workers: int = 1, judged: Shown | None = None) -> Doc:
    """The studio's review: `kakapo review --json` of a log's text (format 2 logs carry their
    mission; an older one is read with the bundled mission it names); ``progress(fraction)``,
    ``judged(decision)`` as in ``review``."""
    lg = logged_text(text, name)
    tell = progress or (lambda _f: None)
    steps = [0]

    def said(_text: str) -> None:  # one line per round, then one per open-hand verdict
        steps[0] += 1
        tell(min(0.99, steps[0] / (2 * len(lg.log.rounds_logged) + 2)))

    return review(lg, time_limit, progress=said, workers=workers, judged=judged).to_json()


def rate(paths: list[str], seats: tuple[int, ...] | None, plays: int, missions: Iterable[str], seed: int, workers: int,
         progress: Counted | None = None, near: tuple[Path, ...] | None = None, simulate: bool = True,
         replays: Replays | None = None, scheduler: str | None = None, worker_timeout: float = WORKER_TIMEOUT,
         status: Callable[[str | None], None] | None = None) -> Doc:
    """`kakapo rate`'s document: each mission predicted with the games' catalog (``analysis.rate.predict``;
    the campaign looked for beside the games, or in ``near``). The games' replays are kept (``replays``;
    by default beside the logs: ``io.replays.FolderReplays``), so that rating them again replays only
    the new ones; ``scheduler``: the work on that Dask cluster, with the same figures."""
    from solver.analysis.rate import rate as run_rate  # heavy: Numba

    doc: Doc = run_rate(paths, seats, plays, list(missions), seed, workers, progress, read=read_game_file, near=near,
                        simulate=simulate, replays=FolderReplays() if replays is None else replays,
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


def tables_listing(rows: list[Doc]) -> list[Doc]:
    """The folder's tables: its finished games grouped by the names of who played (as `kakapo
    calibrate` groups logs), each with its games and results by mission; games naming nobody make
    one table, "unnamed"."""
    groups: dict[tuple[str, ...], Doc] = {}
    for g in rows:
        if g.get("result") is None or g.get("broken") or not g.get("players"):
            continue
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
    (view/calibration.py)."""
    from solver.view.calibration import plain_words  # heavy: Numba (the fit's modules)

    tell = progress or (lambda _f: None)
    order = {Path(game_id).name: k for k, game_id in enumerate(logs)}  # when each was played: the order given
    near = () if folder is None else (folder,)
    with tempfile.TemporaryDirectory(prefix="kakapo-calibrate-") as tmp:
        games = Path(tmp) / "unnamed"
        games.mkdir()
        for game_id, text in logs.items():
            (games / f"{Path(game_id).name}.jsonl").write_text(text, encoding="utf-8")
        doc = calibrate([str(games)], STUDIO_PLAYS, 1, workers, target, lambda d, t: tell(0.97 * d / max(t, 1)),
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
        with contextlib.suppress(InputError):  # no mission of its own in the folder
            missions += [str(p) for p in mission_files(folder) if not p.is_symlink()]  # the folder's own files only
    with tempfile.TemporaryDirectory(prefix="kakapo-rate-") as tmp:
        paths = []
        for game_id, text in logs.items():
            path = Path(tmp) / f"{Path(game_id).name}.jsonl"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        return rate(paths, None, STUDIO_PLAYS, missions, 1, workers, lambda d, t: tell(0.97 * d / max(t, 1)),
                    near=() if folder is None else (folder,), simulate=False, replays=replays)
