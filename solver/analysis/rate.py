"""`kakapo rate LOG...`: which rung of the ladder a table plays like, from its games, and the clear
rate to expect from it on other missions (docs/rate.md says how to read it).

For every rung and every logged game: the logged deal is played again ``plays`` times (the two
top rungs half as often: ``rung_plays``) from its start with the rated seats played by the rung
and the other seats by the policy the log names, each replay with other streams for the seats
(the same streams for every rung, so that rungs are compared on the same luck). The rung's
clear rate on that deal, smoothed (clears + 1/2) / (replays + 1), makes the likelihood of the
table's result there; the rungs' log-likelihoods over all the
games are compared by a likelihood ratio: the rungs within 1.92 of the best (half the 95 % point
of chi-square with one degree of freedom) cannot be ruled out. Beside it, the agreement: the share
of the rated seats' logged decisions (those with a choice) that the rung makes too at the same
moment, from the seat's own observation and a stream of its own.
"""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solver.analysis.ladder import RUNGS, rung_games, rung_label
from solver.analysis.replayplan import (
    EARLY,
    clears_of,
    first_plays,
    near_best,
    ruled_out,
    rung_plays,
    settled,
)
from solver.analysis.simulate import play_games
from solver.core.codes import DEFAULT_POLICY, PolicyId, Result
from solver.core.errors import InputError
from solver.core.rules import Mission
from solver.core.stats import wilson
from solver.game.actions import Action
from solver.game.arrays import build_arrays
from solver.game.fast.search import table_play_on
from solver.game.fast.state import fast_state
from solver.game.planner import planner_library
from solver.game.resume import replay, start_of_log
from solver.game.rng import SplitMix64
from solver.game.roster import make_policy
from solver.game.search import DEFAULT_SAMPLES
from solver.game.state import GameState, Observation
from solver.io.catalog import Catalog
from solver.io.difficulty import file_digest, file_key, find_campaign, games_places, no_campaign_text
from solver.io.gamelog import GameLog, digest, read_log
from solver.io.loginputs import catalog_text, log_inputs, mission_text
from solver.io.missionfile import load_mission
from solver.io.paths import mission_path
from solver.io.replays import Replays
from solver.runtime.workers import WORKER_TIMEOUT, process_pool, stop_pool

RATE_PLAYS = 20
LR_BOUND = 1.92  # half of chi-square(1)'s 95 % point (3.84): a rung this close to the best stays plausible
AGREE_STREAM = 7  # the agreement's streams: another family than the replays'
PREDICT_GAMES = 200  # a mission outside the campaign: the rung's games there
_ARRAYS: dict = {}  # per process: the arrays of each mission rated (_tables)
_PLAYERS: dict = {}  # per process: one player per rung (_agreement)


@dataclass
class RatedGame:
    """One log, read and checked: its deal, the rated seats' decisions, and its result."""

    path: str
    log: GameLog
    mission: Mission
    catalog: Catalog
    start: GameState
    cleared: bool | None  # None: the game was not finished
    seats: tuple[int, ...]
    other: str
    other_samples: int  # the other seats' search player's samples (when they play it)
    decisions: list[tuple[Observation, Action]] = field(default_factory=list)  # (observation, logged action)
    note: str | None = None
    moves: tuple[Action, ...] = ()  # every move of the game, in order
    deal: str = ""  # ``deal_digest``: what its streams and kept replays are keyed by


def read_games(paths: list[str], seats: tuple[int, ...] | None, read=read_log) -> list[RatedGame]:
    """Every log, checked by the rules (InputError names the file and line); ``read``: how a file
    becomes a log (the app layer's reads a game's sheet too)."""
    games = []
    for path in paths:
        log = read(path)
        inputs = log_inputs(log)
        final = replay(log, inputs.mission, inputs.catalog)
        rated = tuple(seats) if seats else tuple(log.human) or tuple(range(log.players))
        bad = [s for s in rated if not 0 <= s < log.players]
        if bad:
            raise InputError("--seat", f"seat {bad[0]} is not at the table of {path} ({log.players} players: seats "
                             f"0 to {log.players - 1})", "give seats the logs have", None)
        other = str(log.meta.get("policy") or DEFAULT_POLICY)
        note = inputs.note
        if other not in PolicyId.labels():
            if len(rated) < log.players:
                note = (f"{path} names no policy of ours for its other seats ({other!r}); the {DEFAULT_POLICY} "
                        "plays them")
            other = DEFAULT_POLICY
        start = start_of_log(log, inputs.mission, inputs.catalog)
        walk = start.clone()
        decisions = []
        for action in final.moves:
            seat = walk.current_player()
            if seat in rated and len(walk.legal_actions()) > 1:
                decisions.append((walk.observation(seat), action))
            walk.apply(action)
        cleared = None if log.end is None else log.end["result"] == Result.CLEARED.label
        game = RatedGame(str(path), log, inputs.mission, inputs.catalog, start, cleared, rated, other,
                         int(log.meta.get("samples") or DEFAULT_SAMPLES), decisions, note, tuple(final.moves))
        game.deal = deal_digest(game)
        games.append(game)
    return games


def _arrays(game: RatedGame):
    """The mission's arrays, built once per process and mission (a rating asks for them per rung)."""
    key = (game.mission.id, game.mission.source, game.catalog.key)
    if key not in _ARRAYS:
        _ARRAYS[key] = build_arrays(game.mission, game.catalog, planner_library(game.mission, game.catalog))
    return _ARRAYS[key]


# the sources that decide a replay (the rules, the engines, the players and their libraries): a kept replay made
# by other code is never used
REPLAY_SOURCES = ("core", "game", "runtime", "puzzle")
REPLAY_FORMAT = 1  # raised when what a kept replay means changes
REPLAY_STREAMS, AGREE_STREAMS = 11, 12  # the families of a game's streams: its replays, its agreement


def _engine_stamp() -> str:
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for name in REPLAY_SOURCES:
        for f in sorted((root / name).rglob("*.py")):
            h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


ENGINE_STAMP = _engine_stamp()


def deal_digest(game: RatedGame) -> str:
    """What a game was dealt and where: the mission (its text), the catalog (its shapes), the table,
    the hands, the cards set aside and out of the game, who starts, the rounds and skills."""
    s = game.start
    doc = {"mission": digest(mission_text(game.mission)), "pieces": game.catalog.digest, "players": s.players,
           "hands": [sorted(c.index for c in h) for h in s.hands], "set_aside": sorted(c.index for c in s.set_aside),
           "removed": sorted(c.index for c in game.log.removed), "start": s.start_player,
           "rounds": game.mission.rounds, "skills": game.mission.skills}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def game_streams(game: RatedGame, seed: int, family: int, count: int) -> np.ndarray:
    """The first ``count`` random streams of a family for this game: from the seed and the deal
    alone, so that a game's replays are the same wherever it stands among the games rated (and a
    kept replay stays right when other games come and go)."""
    words = [int(game.deal[i:i + 8], 16) for i in range(0, 32, 8)]
    return np.random.SeedSequence([seed, family, *words]).generate_state(max(1, count), np.uint64)[:count]


def replay_key(game: RatedGame, rung: int, plays: int, seed: int) -> str:
    """Everything that decides a rung's replays and agreement on a game: the deal, every move
    played, the rated seats, the other seats' player, the rung, the replays, the seed and the code."""
    doc = [REPLAY_FORMAT, ENGINE_STAMP, EARLY, game.deal, [a.code for a in game.moves], list(game.seats), game.other,
           game.other_samples, rung_label(*RUNGS[rung]), plays, seed]
    return hashlib.sha256(json.dumps(doc).encode()).hexdigest()[:32]


def _replays(game: RatedGame, policy: str, samples: int | None, seed: int, lo: int, hi: int) -> int:
    """Clears of the logged deal in its replays lo..hi-1 (of this game's streams), the rated seats
    played by (policy, samples) and the others by the player the log names."""
    T = _arrays(game)
    group = np.array([0 if s in game.seats else 1 for s in range(game.start.players)], np.int64)
    pols = np.array([int(PolicyId.parse(policy)), int(PolicyId.parse(game.other))], np.int64)
    ks = np.array([samples or 0, game.other_samples if game.other == PolicyId.SEARCH.label else 0], np.int64)
    results = np.zeros(hi - lo, np.int64)
    table_play_on(fast_state(game.start), group, pols, ks, T, game_streams(game, seed, REPLAY_STREAMS, hi)[lo:],
                  results)
    return int((results == int(Result.CLEARED)).sum())


def _agreement(game: RatedGame, policy: str, samples: int | None, seed: int) -> tuple[int, int]:
    """(decisions the rung makes too, decisions) over the rated seats' logged decisions."""
    key = (policy, samples)
    if key not in _PLAYERS:  # one player per rung and process: the search player keeps its arrays
        _PLAYERS[key] = make_policy(policy, samples or 0)
    player = _PLAYERS[key]
    streams = game_streams(game, seed, AGREE_STREAMS, len(game.decisions))
    same = 0
    for (obs, action), s in zip(game.decisions, streams, strict=False):
        if player.act(obs, SplitMix64(int(s))) == action:
            same += 1
    return same, len(game.decisions)


def replay_part(game: RatedGame, rung: int, plays: int, seed: int, part: str) -> dict:
    """One rung on one game. ``part`` "first": its first replays (none for an unfinished game: its
    result says nothing a replay could be compared with); "rest": the others; "agree": its agreement."""
    policy, samples = RUNGS[rung]
    n, first = rung_plays(samples, plays), first_plays(samples, plays)
    if part == "rest":
        return {"rest": _replays(game, policy, samples, seed, first, n)}
    if part == "agree":
        same, total = _agreement(game, policy, samples, seed)
        return {"same": same, "decisions": total}
    made = first if game.cleared is not None else 0
    return {"plays": n, "made": made, "first": _replays(game, policy, samples, seed, 0, made) if made else 0}


def sound(value, game: RatedGame, rung: int, plays: int) -> bool:
    """Whether a kept replay is one this game and rung can have made (else it is made again): its
    first replays, and its other replays and its agreement where it has them."""
    try:
        samples = RUNGS[rung][1]
        n, first = rung_plays(samples, plays), first_plays(samples, plays)
        made = value["made"]
        rest, same, decisions = value.get("rest", 0), value.get("same", 0), value.get("decisions", len(game.decisions))
        return (all(type(x) is int for x in (value["plays"], made, value["first"], rest, same, decisions))
                and value["plays"] == n and made == (first if game.cleared is not None else 0)
                and 0 <= value["first"] <= made and 0 <= rest <= n - made
                and decisions == len(game.decisions) and 0 <= same <= decisions)
    except (KeyError, TypeError, AttributeError):
        return False


_JOB: dict = {}  # the games being rated: forked workers inherit them instead of unpickling them per task


def _task(args) -> tuple[tuple[int, int, str], dict]:
    rung, index, plays, seed, part = args
    return (rung, index, part), replay_part(_JOB["games"][index], rung, plays, seed, part)




@dataclass
class Measured:
    """Per rung and game: clears in the replays, and the agreement's (same, decisions)."""

    clears: np.ndarray  # rungs x games
    same: np.ndarray  # rungs x games
    decisions: np.ndarray  # rungs x games
    plays: int
    kept: int = 0  # how many (rung, game) pairs' replays were kept from an earlier run
    made: int = 0  # the replays made or kept (of len(RUNGS) x games x plays at most)
    replayer: Replayer | None = None  # what made them (``agree`` asks it for more)


@dataclass(frozen=True)
class Cluster:
    """A Dask scheduler to do the work on, and what to do while it has no worker (``cluster.Session``)."""

    address: str
    worker_timeout: float = WORKER_TIMEOUT
    status: Any = None


class Replayer:
    """The rungs' replays and agreement on some games, made where they are not kept yet, part by
    part (``replay_part``): here, in worker processes, or on a Dask cluster; each part kept as it
    comes (``replays``)."""

    def __init__(self, games: list[RatedGame], plays: int, seed: int, workers: int = 1, progress=None,
                 replays: Replays | None = None, cluster: Cluster | None = None):
        self.games, self.plays, self.seed, self.workers = games, plays, seed, workers
        self.progress, self.replays, self.cluster = progress, replays, cluster
        _JOB["games"] = games
        pairs = [(r, g) for r in range(len(RUNGS)) for g in range(len(games))]
        self.keys = {(r, g): replay_key(games[g], r, plays, seed) for r, g in pairs}
        kept = replays.get((self.keys[p], games[p[1]].path) for p in pairs) if replays is not None else {}
        self.values: dict[tuple[int, int], dict] = {
            p: kept[self.keys[p]] for p in pairs if sound(kept.get(self.keys[p]), games[p[1]], p[0], plays)}
        self.kept = len(self.values)
        self.done, self.total = 0.0, 0.0

    def missing(self, pairs, part: str) -> list[tuple[int, int]]:
        """The pairs whose ``part`` is not made yet."""
        field = {"first": "made", "rest": "rest", "agree": "same"}[part]
        return [p for p in pairs if field not in self.values.get(p, {})]

    def make(self, wanted: dict[str, list[tuple[int, int]]], more: float = 0.0) -> None:
        """Make these parts of these pairs (``more``: the work foreseen after them, for the time left)."""
        todo = [(r, g, self.plays, self.seed, part) for part, pairs in wanted.items() for r, g in pairs]
        self.total = self.done + sum(_work(self.games[g], r, self.plays, part) for r, g, _, _, part in todo) + more
        self._tell()
        fresh = []
        for (r, g, part), value in _run(todo, self.workers, self.cluster, self.games, self.keys):
            self.values[(r, g)] = {**self.values.get((r, g), {}), **value}
            fresh.append((self.keys[(r, g)], self.values[(r, g)], self.games[g].path))
            if self.replays is not None and len(fresh) >= 64:
                self.replays.put(fresh)
                fresh = []
            self.done += _work(self.games[g], r, self.plays, part)
            self._tell()
        if self.replays is not None and fresh:
            self.replays.put(fresh)

    def _tell(self) -> None:
        if self.progress:
            self.progress(round(self.done), max(1, round(self.total)))


def measure(games: list[RatedGame], plays: int, seed: int, workers: int = 1, *, progress=None,
            replays: Replays | None = None, cluster: Cluster | None = None,
            tables: list[list[int]] | None = None, agreement: bool = True) -> Measured:
    """Every rung on every game (the work of `rate`; a subset of games is summed from it). A game's
    replays depend on its deal and moves alone (``game_streams``), not on the other games or its
    place among them. Each rung first makes EARLY replays of a deal; the others only where they can
    change a figure (``settled``, ``ruled_out``: by the games of each of ``tables``, lists of the
    games' places, default one table of them all). ``agreement``: each rung's agreement with the
    logged decisions too (`calibrate` asks only where it breaks a tie: ``agree``). ``replays``: kept
    replays are taken from there, and new ones kept there; the same figures as made afresh.
    ``cluster``: the work is done on that Dask cluster's workers, with the same figures.
    ``progress(done, total)`` in units of work (a search rung's replays weigh more; the total grows
    once the first replays tell what else is needed)."""
    work = Replayer(games, plays, seed, workers, progress, replays, cluster)
    pairs = [(r, g) for r in range(len(RUNGS)) for g in range(len(games))]
    agree = work.missing(pairs, "agree") if agreement else []
    foreseen = sum(_work(games[g], r, plays, "rest") for r, g in pairs) * 0.3  # about what the first replays leave
    work.make({"first": work.missing(pairs, "first"), "agree": agree}, foreseen)
    places = tables or [list(range(len(games)))]
    out_of_it = ruled_out(work.values, games, places, plays)
    rest = [(r, g) for r, g in pairs if not settled(work.values[(r, g)], games[g].cleared) and (r, g) not in out_of_it]
    work.make({"rest": work.missing(rest, "rest")})
    near = near_best(work.values, games, places, plays, out_of_it)  # from every replay the others left to make
    whole = set(rest) | {(r, g) for r, g in near
                         if games[g].cleared is not None and work.values[(r, g)]["made"] < work.values[(r, g)]["plays"]}
    work.make({"rest": work.missing(sorted(whole - set(rest)), "rest")})
    shape = (len(RUNGS), len(games))
    out = Measured(np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.int64), plays,
                   kept=work.kept, replayer=work)
    for r, g in pairs:
        v = work.values[(r, g)]
        out.clears[r, g] = clears_of(v, games[g].cleared, (r, g) in out_of_it, complete=(r, g) in whole)
        out.same[r, g], out.decisions[r, g] = v.get("same", 0), v.get("decisions", 0)
        out.made += v["made"] + (v["plays"] - v["made"] if (r, g) in whole else 0)
    return out


def agree(m: Measured, rungs: list[int], games: list[int]) -> None:
    """Fill in these rungs' agreement on these games (of the games ``m`` was measured on), where
    ``measure`` was asked for none."""
    work = m.replayer
    assert work is not None
    pairs = [(r, g) for r in rungs for g in games]
    work.make({"agree": work.missing(pairs, "agree")})
    for r, g in pairs:
        m.same[r, g], m.decisions[r, g] = work.values[(r, g)]["same"], work.values[(r, g)]["decisions"]


def kept_games(games: list[RatedGame], plays: int, seed: int, replays: Replays | None) -> int:
    """How many of these games have every rung's first replays kept already (they cost next to nothing)."""
    if replays is None or not games:
        return 0
    keys = {(r, g): replay_key(games[g], r, plays, seed) for r in range(len(RUNGS)) for g in range(len(games))}
    kept = replays.get((k, games[g].path) for (r, g), k in keys.items())
    return sum(all(sound(kept.get(keys[(r, g)]), games[g], r, plays) for r in range(len(RUNGS)))
               for g in range(len(games)))


def _work(game: RatedGame, rung: int, plays: int, part: str) -> float:
    """About what a part of a rung's work on a game costs (for the time left): the search player's
    samples and the replays, or the decisions the agreement asks it about."""
    samples = RUNGS[rung][1]
    per_game = 0.03 if samples is None else 1.26 + 0.42 * samples
    if part == "rest":
        return per_game * (rung_plays(samples, plays) - first_plays(samples, plays))
    if part == "agree":
        return 0.05 * per_game * len(game.decisions) / 40
    return per_game * (first_plays(samples, plays) if game.cleared is not None else 0)


def judge(games: list[RatedGame], m: Measured, subset: list[int] | None = None) -> dict:
    """The rungs' likelihoods and agreements over ``subset`` of the games (default all), the best
    rung and the plausible ones."""
    subset = list(range(len(games))) if subset is None else subset
    finished = [g for g in subset if games[g].cleared is not None]
    won = np.array([games[g].cleared for g in finished], bool)
    rungs: list[dict[str, Any]] = []
    for r, (policy, samples) in enumerate(RUNGS):
        n = rung_plays(samples, m.plays)
        p = (m.clears[r, finished] + 0.5) / (n + 1)
        ll = float(np.sum(np.where(won, np.log(p), np.log1p(-p)))) if finished else 0.0
        decided = int(m.decisions[r, subset].sum())
        rungs.append({"policy": policy, "samples": samples, "log_likelihood": round(ll, 4),
                      "agreement": round(float(m.same[r, subset].sum() / decided), 4) if decided else None,
                      "expected_clears": round(float(m.clears[r, finished].sum() / n), 3), "plays": n})
    best = max(range(len(rungs)), key=lambda i: (rungs[i]["log_likelihood"], rungs[i]["agreement"] or 0.0, -i))
    top = rungs[best]["log_likelihood"]
    plausible = [i for i in range(len(rungs)) if top - rungs[i]["log_likelihood"] <= LR_BOUND]
    return {"finished": len(finished), "cleared": int(won.sum()), "rungs": rungs, "best_index": best,
            "plausible_index": plausible}


def rate(paths: list[str], seats: tuple[int, ...] | None = None, plays: int = RATE_PLAYS, missions=(),
         *, seed: int = 1, workers: int = 1, progress=None, read=read_log, near: tuple[Path, ...] | None = None,
         simulate: bool = True, replays: Replays | None = None, cluster: Cluster | None = None) -> dict:
    """`kakapo rate`'s document. Each of ``missions`` is predicted with the catalog the games were
    played with (``predict``), its campaign looked for in the missions' folder and ``near`` (default:
    the games' folders: ``io.difficulty.games_places``); ``simulate``: a mission that campaign did
    not measure is played there and then (else its prediction is null, with why). ``replays``: where
    the games' replays are kept between runs; ``cluster``: the work on a Dask cluster (the same figures)."""
    games = read_games(paths, seats, read)
    j = judge(games, measure(games, plays, seed, workers, progress=progress, replays=replays, cluster=cluster))
    rungs, best_i, plausible = j["rungs"], j["best_index"], j["plausible_index"]
    players = sorted({g.start.players for g in games})
    doc = {"games": len(games), "finished": j["finished"], "cleared": j["cleared"],
           "seats": sorted({s for g in games for s in g.seats}), "plays": plays, "seed": seed,
           "missions": sorted({g.mission.id for g in games}), "players": players,
           "rungs": rungs, "best": {"policy": rungs[best_i]["policy"], "samples": rungs[best_i]["samples"]},
           "plausible": [{"policy": rungs[i]["policy"], "samples": rungs[i]["samples"]} for i in plausible],
           "told_apart": len(plausible) == 1,
           "notes": [g.note for g in games if g.note],
           # who the rated seats were, by the logs' names (a recorded or studio game's), once each
           "names": sorted({g.log.names[s] for g in games for s in g.seats if s in g.log.names})}
    if j["finished"] < len(games):
        doc["notes"].append(f"{len(games) - j['finished']} game(s) not finished: their decisions count in the "
                            "agreement, not in the likelihood")
    catalogs = {g.catalog.digest: g.catalog for g in games}
    if near is None:
        near = games_places(paths)
    if len(catalogs) == 1:
        (catalog,) = catalogs.values()
        doc["predictions"] = [predict(m, best_i, plausible, players, seed=seed, workers=workers, catalog=catalog,
                                      near=near, simulate=simulate, cluster=cluster)
                              for m in missions]
    else:  # a prediction is made with the shapes the table played: these games played several
        why = (f"the games were played with {len(catalogs)} piece catalogs (digests {', '.join(sorted(catalogs))}): "
               "rate the games of one catalog to predict its missions")
        doc["predictions"] = [unpredicted(m, why) for m in missions]
    return doc


def _run(tasks, workers: int, cluster: Cluster | None = None, games: list[RatedGame] | None = None,
         keys: dict | None = None):
    """Yield ((rung, game, part), value) as the tasks finish: here, in worker processes, or on a Dask cluster."""
    order = sorted(tasks, key=lambda t: -(RUNGS[t[0]][1] or 0))  # the heaviest first: the last ones are short
    if not order:
        return
    if cluster is not None:
        from solver.analysis.cluster import Session  # heavy: Dask

        assert games is not None and keys is not None
        session = Session(cluster.address, cluster.worker_timeout, cluster.status)
        try:
            for r, g, plays, seed, part in order:
                session.submit(f"kakapo-replay-{part}-{keys[(r, g)]}", (r, g, part), replay_part, games[g], r, plays,
                               seed, part)
            while session.busy():
                yield from session.finished()
        finally:
            session.close()
        return
    if workers <= 1 or len(tasks) <= 1:
        for t in order:
            yield _task(t)
        return
    pool = process_pool(workers)
    try:
        futures = [pool.submit(_task, t) for t in order]
        for f in as_completed(futures):
            yield f.result()
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown()


def unpredicted(mission, why: str) -> dict:
    """A prediction that cannot be made, and why."""
    return {"mission": Path(str(mission)).stem, "players": None, "rung": None, "clear_rate": None, "ci95": None,
            "source": None, "shortfall": None, "why": why}


def predict(mission, best: int, plausible: list[int], players: list[int], *, seed: int, workers: int,
            catalog, near: tuple[Path, ...] = (), simulate: bool = True, cluster: Cluster | None = None) -> dict:
    """The clear rate to expect at a mission from the best rung, with the catalog the table played
    (``catalog``; never another's figures). Its ``source``, the one rule of a prediction: the
    campaign measured for that catalog (``io.difficulty.find_campaign``: "bundled", or the path of
    its difficulty.json) where it measured this mission file at this table; else the rungs play
    the mission there and then with that catalog ("simulated, N games"), when ``simulate``; else
    ``clear_rate`` null with ``why``. The interval spans every plausible rung's 95 % interval."""
    path = mission_path(mission)
    try:
        m = load_mission(path, catalog)
    except InputError as e:
        return unpredicted(mission, f"it does not fit the catalog the games were played with: "
                                    f"{'line ' + str(e.line) + ': ' if e.line else ''}{e.problem}")
    counts = m.player_counts()
    n = players[0] if len(players) == 1 and players[0] in counts else m.default_players()
    campaign = find_campaign(catalog, path.parent, near, [file_key(path)])
    needed = sorted(set(plausible) | {best})
    measured = table = campaign.row(m.id, n, file_digest(path))
    shortfall = None if measured is None else round(measured.shortfall, 4)  # the mission's difficulty there
    if table is not None and not all(rung_label(*RUNGS[i]) in table.rates for i in needed):
        table = None
    if table is None and not simulate:
        why = no_campaign_text(catalog) if campaign.source is None else \
            f"the campaign measured for this catalog ({campaign.source}) has no row for {m.id} with {n} players"
        return {**unpredicted(mission, why), "mission": m.id, "players": n, "shortfall": shortfall}
    rates = {i: rung_rate(m, catalog, n, i, table, seed, workers, cluster) for i in needed}
    lows, highs = [], []
    for rate_, games in rates.values():
        lo, hi = wilson(round(rate_ * games), games)
        lows.append(lo)
        highs.append(hi)
    policy, samples = RUNGS[best]
    return {"mission": m.id, "players": n, "rung": rung_label(policy, samples),
            "clear_rate": round(rates[best][0], 4), "ci95": [round(min(lows), 4), round(max(highs), 4)],
            "source": campaign.source if table is not None else f"simulated, {PREDICT_GAMES} games",
            "shortfall": shortfall}


def rung_rate(m: Mission, catalog, n: int, i: int, table, seed: int, workers: int,
              cluster: Cluster | None = None) -> tuple[float, int]:
    """(clear rate, games) of rung ``i`` at mission ``m`` with ``n`` players: the campaign's
    measured row ``table`` (io.difficulty.MeasuredRow; None: not measured) where it has the rung,
    else the rung plays the mission (PREDICT_GAMES games, the top rungs fewer; on ``cluster``'s
    workers when given: the same games)."""
    policy, samples = RUNGS[i]
    label = rung_label(policy, samples)
    if table is not None and label in table.rates:
        return table.rates[label], table.deals(label)
    games = rung_games(samples, PREDICT_GAMES)
    if cluster is not None:
        from solver.analysis.cluster import ClusterWork  # heavy: Dask

        work = ClusterWork(cluster.address, f"{m.id}.toml", mission_text(m).encode("utf-8"),
                           catalog_text(catalog).encode("utf-8"), n, seed, worker_timeout=cluster.worker_timeout,
                           status=cluster.status)
        results = work.rungs([(policy, samples, games)])[0]
    else:
        results = play_games(m, catalog, n, games, seed, policy, "numba", workers, samples=samples or 0).results
    return float((results == int(Result.CLEARED)).mean()), games
