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

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solver.analysis.ladder import RUNGS, is_top_rung, rung_games, rung_label
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
from solver.game.seeds import game_seeds
from solver.game.state import GameState, Observation
from solver.io.catalog import Catalog
from solver.io.difficulty import file_digest, file_key, find_campaign, games_places, no_campaign_text
from solver.io.gamelog import GameLog, read_log
from solver.io.loginputs import log_inputs
from solver.io.missionfile import load_mission
from solver.io.paths import mission_path
from solver.runtime.workers import process_pool, stop_pool

RATE_PLAYS = 20
LR_BOUND = 1.92  # half of chi-square(1)'s 95 % point (3.84): a rung this close to the best stays plausible
AGREE_STREAM = 7  # the agreement's streams: another family than the replays'
PREDICT_GAMES = 200  # a mission outside the campaign: the rung's games there
_ARRAYS: dict = {}  # per process: the arrays of each mission rated (_tables)
_PLAYERS: dict = {}  # per process: one player per rung (_agreement)


def rung_plays(samples: int | None, plays: int) -> int:
    """The replays a rung makes of each deal: ``plays``, but half as many for the two top rungs
    (search with 32 and 64 samples cost 2 and 4 times search-16 a game; as the ladder plays them
    on fewer deals), the first half of the same streams."""
    return max(1, (plays + 1) // 2) if is_top_rung(samples) else plays


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
        games.append(RatedGame(str(path), log, inputs.mission, inputs.catalog, start, cleared, rated, other,
                               int(log.meta.get("samples") or DEFAULT_SAMPLES), decisions, note))
    return games


def _arrays(game: RatedGame):
    """The mission's arrays, built once per process and mission (a rating asks for them per rung)."""
    key = (game.mission.id, game.mission.source, game.catalog.key)
    if key not in _ARRAYS:
        _ARRAYS[key] = build_arrays(game.mission, game.catalog, planner_library(game.mission, game.catalog))
    return _ARRAYS[key]


def _replays(game: RatedGame, index: int, policy: str, samples: int | None, plays: int, seed: int) -> int:
    """Clears of the logged deal in ``rung_plays`` replays (the first of the ``plays`` streams of
    this game), the rated seats played by (policy, samples)."""
    T = _arrays(game)
    group = np.array([0 if s in game.seats else 1 for s in range(game.start.players)], np.int64)
    pols = np.array([int(PolicyId.parse(policy)), int(PolicyId.parse(game.other))], np.int64)
    ks = np.array([samples or 0, game.other_samples if game.other == PolicyId.SEARCH.label else 0], np.int64)
    n = rung_plays(samples, plays)
    results = np.zeros(n, np.int64)
    table_play_on(fast_state(game.start), group, pols, ks, T, game_seeds(seed, index * plays, n), results)
    return int((results == int(Result.CLEARED)).sum())


def _agreement(game: RatedGame, index: int, policy: str, samples: int | None, seed: int) -> tuple[int, int]:
    """(decisions the rung makes too, decisions) over the rated seats' logged decisions."""
    key = (policy, samples)
    if key not in _PLAYERS:  # one player per rung and process: the search player keeps its arrays
        _PLAYERS[key] = make_policy(policy, samples or 0)
    player = _PLAYERS[key]
    streams = game_seeds(seed + AGREE_STREAM, index * 1000, max(1, len(game.decisions)))
    same = 0
    for (obs, action), s in zip(game.decisions, streams, strict=False):
        if player.act(obs, SplitMix64(int(s))) == action:
            same += 1
    return same, len(game.decisions)


_JOB: dict = {}  # the games being rated: forked workers inherit them instead of unpickling them per task


def _task(args) -> tuple[int, int, int, int, int]:
    rung, index, stream, plays, seed = args
    policy, samples = RUNGS[rung]
    game = _JOB["games"][index]
    clears = _replays(game, stream, policy, samples, plays, seed)
    same, total = _agreement(game, stream, policy, samples, seed)
    return rung, index, clears, same, total


@dataclass
class Measured:
    """Per rung and game: clears in the replays, and the agreement's (same, decisions)."""

    clears: np.ndarray  # rungs x games
    same: np.ndarray  # rungs x games
    decisions: np.ndarray  # rungs x games
    plays: int


def measure(games: list[RatedGame], plays: int, seed: int, workers: int = 1, progress=None,
            streams: list[int] | None = None) -> Measured:
    """Every rung on every game (the work of `rate`; a subset of games is summed from it).
    ``streams[g]``: the index that picks game g's random streams (default g, its place in the
    list; `calibrate` measures several tables at once, each game with its place in its table)."""
    _JOB["games"] = games
    streams = list(range(len(games))) if streams is None else streams
    tasks = [(r, g, streams[g], plays, seed) for r in range(len(RUNGS)) for g in range(len(games))]
    clears, same, decisions = (np.zeros((len(RUNGS), len(games)), np.int64) for _ in range(3))
    out = Measured(clears, same, decisions, plays)
    for done, (r, g, c, same, total) in enumerate(_run(tasks, workers), start=1):
        out.clears[r, g], out.same[r, g], out.decisions[r, g] = c, same, total
        if progress:
            progress(done, len(tasks))
    return out


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
         seed: int = 1, workers: int = 1, progress=None, read=read_log, near: tuple[Path, ...] | None = None,
         simulate: bool = True) -> dict:
    """`kakapo rate`'s document. Each of ``missions`` is predicted with the catalog the games were
    played with (``predict``), its campaign looked for in the missions' folder and ``near`` (default:
    the games' folders: ``io.difficulty.games_places``); ``simulate``: a mission that campaign did
    not measure is played there and then (else its prediction is null, with why)."""
    games = read_games(paths, seats, read)
    j = judge(games, measure(games, plays, seed, workers, progress))
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
        doc["predictions"] = [predict(m, best_i, plausible, players, seed, workers, catalog, near, simulate)
                              for m in missions]
    else:  # a prediction is made with the shapes the table played: these games played several
        why = (f"the games were played with {len(catalogs)} piece catalogs (digests {', '.join(sorted(catalogs))}): "
               "rate the games of one catalog to predict its missions")
        doc["predictions"] = [unpredicted(m, why) for m in missions]
    return doc


def _run(tasks, workers: int):
    if workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield _task(t)
        return
    pool = process_pool(workers)
    try:
        # the heaviest tasks first (the search rungs), so that the last ones are short
        order = sorted(tasks, key=lambda t: -(RUNGS[t[0]][1] or 0))
        futures = [pool.submit(_task, t) for t in order]
        for f in futures:
            yield f.result()
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown()


def unpredicted(mission, why: str) -> dict:
    """A prediction that cannot be made, and why."""
    return {"mission": Path(str(mission)).stem, "players": None, "rung": None, "clear_rate": None, "ci95": None,
            "source": None, "shortfall": None, "why": why}


def predict(mission, best: int, plausible: list[int], players: list[int], seed: int, workers: int,
            catalog, near: tuple[Path, ...] = (), simulate: bool = True) -> dict:
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
    rates = {i: rung_rate(m, catalog, n, i, table, seed, workers) for i in needed}
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


def rung_rate(m: Mission, catalog, n: int, i: int, table, seed: int, workers: int) -> tuple[float, int]:
    """(clear rate, games) of rung ``i`` at mission ``m`` with ``n`` players: the campaign's
    measured row ``table`` (io.difficulty.MeasuredRow; None: not measured) where it has the rung,
    else the rung plays the mission (PREDICT_GAMES games, the top rungs fewer)."""
    policy, samples = RUNGS[i]
    label = rung_label(policy, samples)
    if table is not None and label in table.rates:
        return table.rates[label], rung_games(samples, table.games)
    games = rung_games(samples, PREDICT_GAMES)
    out = play_games(m, catalog, n, games, seed, policy, "numba", workers, samples=samples or 0)
    return float((out.results == int(Result.CLEARED)).mean()), games
