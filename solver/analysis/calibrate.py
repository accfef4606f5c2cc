"""`kakapo calibrate TABLE...`: each table's level from all its games, the clear rate it should
expect on any mission, those predictions checked against what the tables then did, what to play
next, and the missions' difficulty as the tables' games tell it (docs/rate.md says how to read it).

**Rating.** Every table is rated as `kakapo rate` rates its logs (``rate.measure``: every rung of
the ladder replays every logged deal; ``rate.judge``: the log-likelihood of the table's results
per rung, the best rung and the plausible ones). The same seed gives each table the figures
`rate` gives its logs alone, whatever the other tables and the workers.

**A table's level.** Real tables are no rung: they mix players, make mistakes, have good and bad
evenings. Judged deal by deal as `rate` judges, a table that loses some deals its rung always
clears is put on a rung far too weak (and one that clears a few deals its rung loses, too strong),
and its predictions are overconfident. So a table's level is three things learned from its
finished games (``level_of``):

* its rung r (weights over the nine rungs, a uniform prior);
* how much of its results the deal decides, b in DEAL_SHARES (a uniform prior): a game is cleared
  with probability b (c + 1/2)/(n + 1) + (1 - b) R, where the rung cleared c of its n replays of
  that deal and R is the rung's clear rate at the mission (b = 1 is `rate`'s likelihood; b = 0 hears
  only the mission). A table of one rung keeps b near 1; a table making mistakes is told by a low b;
* a shift u in logits beyond its rung (a normal prior of standard deviation PRIOR_SD, the joint
  fit's): the maximum a posteriori of its results given logit p_g = logit(expected_g) + u, with
  expected_g the weighted rungs' rate at game g's mission, and the shift's standard error.

**Expecting.** A table's clear rate at a mission is logit^-1(logit(sum_r w_r R_r) + u) with R_r
the ladder's rates there, with the catalog the games were played with: the row of the campaign
measured for that catalog (the bundled table for the bundled shapes, or the difficulty.json `kakapo
campaign` wrote for another), else each rung plays the mission with that catalog; never the figures
of other shapes. `next` draws from that campaign only. Its 95 % interval is that of the rate over
the rungs (by their weights) and the shift (normal, its standard error), and holds the expectation.
Chosen on simulated tables and held against fresh ones (docs/rate.md, benchmarks/RESULTS.md).

**Checked against what happens (leave one out).** For every finished game, the table is rated
again on its other games only (the same replays: a subset of the measure) and the game's mission
is expected from that rating; the game's own result never enters its prediction. The Brier score
(mean squared difference between the prediction and the result, 1 cleared, 0 not) is set beside
a baseline that ignores the table: the mission's clear rate averaged over the ladder's rungs. The
reliability bins (tenths of the predicted rate) hold the mean predicted rate, the share cleared
and a 95 % Wilson interval of that share.

**Missions heard from tables.** A joint logistic fit over every finished game g (table t,
mission and player count k): logit p_g = logit(ladder_g) + u_t - d_k, where ladder_g is the
table's expected rate from its rating (the ladder is the prior: with u = d = 0 the fit is the
ladder's prediction), u_t a table's level beyond its rung and d_k a mission's difficulty beyond
the ladder's (positive: harder than the ladder says), both with a normal prior of standard
deviation PRIOR_SD logits; the maximum a posteriori by Newton's method (deterministic). Per
mission: the games and tables it rests on, the share cleared, the fitted rate over its games
(``learned``: the observed share pulled towards the ladder's expectation, the less so the more
games), the ladder's expectation for those games and d_k.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist

import numpy as np

from solver.analysis.ladder import RUNGS, rung_label
from solver.analysis.rate import (
    PREDICT_GAMES,
    Cluster,
    Measured,
    RatedGame,
    Replays,
    agree,
    judge,
    measure,
    rung_plays,
    rung_rate,
)
from solver.core.errors import InputError
from solver.core.stats import too_wide, wilson
from solver.io.difficulty import (
    Campaign,
    MeasuredRow,
    Wanted,
    campaign_difficulty,
    campaigns_for,
    find_campaign,
    mission_key,
    no_campaign_text,
)
from solver.io.gamelog import digest
from solver.io.loginputs import mission_text
from solver.io.missionfile import mission_fit
from solver.io.paths import bundled_mission

TARGET = 0.6  # `next`: the clear rate a table is suggested to aim at
NEXT_STEPS = 3  # `next`: how far a table is sent past the furthest mission it cleared, in campaign order
BINS = 10  # the reliability diagram's bins: tenths of the predicted rate
PRIOR_SD = 1.0  # the prior on a table's and a mission's shift, in logits
EDGE = 0.01  # a ladder rate of 0 or 1 is taken as 0.01 or 0.99 beside a shift (a finite logit)
DEAL_SHARES = (1.0, 0.75, 0.5, 0.25, 0.0)  # how much of a table's results the deal decides (uniform prior)
DEAL_FOLLOWS = 0.65  # the deal's share from which a table's results are said to follow the deal
RATE_EDGE = 0.005  # a rung's mission rate of 0 or 1, in the likelihood: no result is impossible
Z = 1.959964  # the 95 % point of the normal
SHIFT_POINTS = 41  # the shift's normal, as quantiles, for the interval


@dataclass
class Table:
    """One table's finished games (each game's streams: its place in this list)."""

    name: str
    games: list[RatedGame]
    names: list[str] = field(default_factory=list)  # who plays, where the logs say


@dataclass(frozen=True)
class Rates:
    """The ladder at one mission and player count: each rung's clear rate and the games behind it."""

    mission: str
    players: int
    rates: np.ndarray  # per rung of RUNGS
    games: np.ndarray
    source: str  # "bundled", the path of a campaign's difficulty.json, or "simulated, N games"

    @property
    def baseline(self) -> float:
        """The mission's clear rate over the ladder's rungs: what a table picked at random expects."""
        return float(self.rates.mean())


def logit(p):
    p = np.clip(p, EDGE, 1 - EDGE)
    return np.log(p) - np.log1p(-p)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# the shift's normal as SHIFT_POINTS equally likely points (the midpoints of as many slices)
NORMAL = np.array([NormalDist().inv_cdf((i + 0.5) / SHIFT_POINTS) for i in range(SHIFT_POINTS)])


@dataclass(frozen=True)
class Level:
    """A table's level from some of its games (``level_of``): its rung's weights, how much its
    results follow the deal (the mean of b), and its shift beyond its rung in logits."""

    weights: np.ndarray  # per rung of RUNGS
    deal_share: float
    shift: float
    shift_sd: float

    def expect(self, rates: Rates) -> tuple[float, float, float]:
        """(expected clear rate, low, high) at the mission of ``rates``: the interval holds 95 % of
        the rate over the rungs (by their weights) and the shift (its normal)."""
        p = float(sigmoid(logit(float(self.weights @ rates.rates)) + self.shift))
        us = self.shift + self.shift_sd * NORMAL
        values = sigmoid(logit(rates.rates)[:, None] + us[None, :]).ravel()
        mass = np.repeat(self.weights / len(us), len(us))
        order = np.argsort(values, kind="stable")
        cum = np.cumsum(mass[order])
        lo = float(values[order][min(int(np.searchsorted(cum, 0.025)), len(cum) - 1)])
        hi = float(values[order][min(int(np.searchsorted(cum, 0.975)), len(cum) - 1)])
        return p, min(p, lo), max(p, hi)

    @property
    def beyond(self) -> str:
        """"more" or "fewer": the table clears more (fewer) games than its rung would, the shift's 95 %
        interval clear of 0; "as": as its rung."""
        if self.shift - Z * self.shift_sd > 0:
            return "more"
        return "fewer" if self.shift + Z * self.shift_sd < 0 else "as"

    @property
    def deal(self) -> str:
        """"follows": the table's results follow the deal as a rung's do (the deal's share at least
        DEAL_FOLLOWS); "less": they follow it much less (at most 1 - DEAL_FOLLOWS: mistakes, mixed
        play); "unsure": its games do not tell yet."""
        if self.deal_share >= DEAL_FOLLOWS:
            return "follows"
        return "less" if self.deal_share <= 1 - DEAL_FOLLOWS else "unsure"

    def document(self) -> dict:
        return {"deal_share": round(self.deal_share, 4), "deal": self.deal, "shift": round(self.shift, 4),
                "shift_sd": round(self.shift_sd, 4), "beyond": self.beyond}


def row_rates(row: MeasuredRow, source: str = "bundled") -> Rates:
    """The ladder from a campaign's measured row (``source``: where it was measured)."""
    labels = [rung_label(p, k) for p, k in RUNGS]
    return Rates(row.mission, row.players, np.array([row.rates[lab] for lab in labels], float),
                 np.array([row.deals(lab) for lab in labels], np.int64), source)


class Ladder:
    """The ladder's rates where the tables played, with the catalog each game was played with (the
    rule of ``rate.predict``): the row of the campaign measured for that catalog where it measured
    this mission (its text's digest) at this table, else every rung plays the mission once per
    mission, catalog and player count. ``near``: where that campaign is looked for beside the
    catalog's places (``io.difficulty.find_campaign``: the games' folders)."""

    def __init__(self, seed: int, workers: int, near: tuple[Path, ...] = (), cluster: Cluster | None = None):
        self.seed, self.workers, self.near, self.cluster = seed, workers, tuple(near), cluster
        self.campaign = campaign_difficulty()  # the bundled shapes' table, as shipped
        self.cache: dict[tuple, Rates] = {}
        self.found: dict[tuple, Campaign] = {}

    def campaign_of(self, catalog, wanted: tuple[Wanted, ...] = ()) -> Campaign:
        """The campaign measured for ``catalog`` (looked for once per catalog and missions)."""
        key = (catalog.key, wanted)
        if key not in self.found:
            self.found[key] = find_campaign(catalog, None, self.near, wanted)
        return self.found[key]

    def row(self, game: RatedGame) -> tuple[MeasuredRow | None, str | None]:
        """The measured row of the game's mission as played (its text) at its table, and the file
        it comes from ("bundled" for the shipped table); (None, None) where none was measured."""
        m = game.mission
        campaign = self.campaign_of(game.catalog, (mission_key(m),))
        row = campaign.row(m.id, game.start.players, digest(mission_text(m)))
        return (row, campaign.source) if row is not None else (None, None)

    def of(self, game: RatedGame) -> Rates:
        m, n = game.mission, game.start.players
        key = (m.id, digest(mission_text(m)), game.catalog.key, n)
        if key not in self.cache:
            row, source = self.row(game)
            if row is not None and all(rung_label(p, k) in row.rates for p, k in RUNGS):
                self.cache[key] = row_rates(row, source or "bundled")
            else:
                played = [rung_rate(m, game.catalog, n, i, None, self.seed, self.workers, self.cluster)
                          for i in range(len(RUNGS))]
                self.cache[key] = Rates(m.id, n, np.array([r for r, _ in played], float),
                                        np.array([g for _, g in played], np.int64),
                                        f"simulated, {PREDICT_GAMES} games")
        return self.cache[key]

    def campaigns_for(self, table: Table) -> list[Campaign]:
        """The campaigns ``next`` draws from: every one measured for the catalog most of the table's
        games were played with (none when none was)."""
        counts = Counter(g.catalog.digest for g in table.games)
        if not counts:
            return []
        top = min(counts, key=lambda d: (-counts[d], d))
        return campaigns_for(next(g.catalog for g in table.games if g.catalog.digest == top), None, self.near)


def fit_shift(expected: np.ndarray, won: np.ndarray, sd: float = PRIOR_SD) -> tuple[float, float]:
    """(u, its standard error): the maximum a posteriori of logit p = logit(expected) + u, u ~
    Normal(0, sd) (``map_logistic`` with one column)."""
    theta, hess = map_logistic(np.ones((len(won), 1)), logit(expected), won, sd)
    return float(theta[0]), float(1 / np.sqrt(hess[0, 0]))


def level_of(games: list[RatedGame], m: Measured, ladder: Ladder, subset: list[int] | None = None) -> Level:
    """A table's level from ``subset`` of its games (default all; unfinished ones say nothing)."""
    subset = list(range(len(games))) if subset is None else subset
    finished = [g for g in subset if games[g].cleared is not None]
    if not finished:
        return Level(np.full(len(RUNGS), 1 / len(RUNGS)), float(np.mean(DEAL_SHARES)), 0.0, PRIOR_SD)
    won = np.array([bool(games[g].cleared) for g in finished])
    n = np.array([rung_plays(k, m.plays) for _, k in RUNGS], float)[:, None]
    deal = (m.clears[:, finished] + 0.5) / (n + 1)
    mission = np.clip(np.array([ladder.of(games[g]).rates for g in finished]).T, RATE_EDGE, 1 - RATE_EDGE)
    ll = np.array([np.where(won, np.log(p), np.log1p(-p)).sum(axis=1)
                   for p in (b * deal + (1 - b) * mission for b in DEAL_SHARES)])  # shares x rungs
    joint = np.exp(ll - ll.max())
    joint /= joint.sum()
    weights = joint.sum(axis=0)
    share = float(joint.sum(axis=1) @ np.array(DEAL_SHARES))
    u, sd = fit_shift(mission.T @ weights, won)
    return Level(weights, share, u, sd)


def _rung(i: int) -> dict:
    policy, samples = RUNGS[i]
    return {"policy": policy, "samples": samples}


def table_players(table: Table) -> int:
    """The table's usual number of players (the most games; the fewer players on a tie)."""
    counts = Counter(g.start.players for g in table.games)
    return min(counts, key=lambda n: (-counts[n], n))


def leave_one_out(games: list[RatedGame], m: Measured, ladder: Ladder) -> list[dict]:
    """Every finished game's prediction from the table's other games only."""
    out = []
    for g, game in enumerate(games):
        if game.cleared is None:
            continue
        others = [h for h in range(len(games)) if h != g]
        rates = ladder.of(game)
        p, lo, hi = level_of(games, m, ladder, others).expect(rates)
        out.append({"game": game.path, "mission": rates.mission, "players": rates.players,
                    "cleared": bool(game.cleared), "predicted": p, "ci95": [lo, hi], "baseline": rates.baseline,
                    "source": rates.source})
    return out


def brier(pairs: list[tuple[float, bool]]) -> float | None:
    return sum((p - float(y)) ** 2 for p, y in pairs) / len(pairs) if pairs else None


def reliability(pairs: list[tuple[float, bool]], bins: int = BINS) -> list[dict]:
    """Predicted against observed in tenths of the predicted rate (the bins that hold games)."""
    out = []
    for b in range(bins):
        inside = [(p, y) for p, y in pairs if min(int(p * bins), bins - 1) == b]
        if not inside:
            continue
        won = sum(y for _, y in inside)
        lo, hi = wilson(won, len(inside))
        out.append({"predicted": round(sum(p for p, _ in inside) / len(inside), 4),
                    "observed": round(won / len(inside), 4), "games": len(inside),
                    "ci95": [round(lo, 4), round(hi, 4)]})
    return out


def map_logistic(x: np.ndarray, offset: np.ndarray, won: np.ndarray, sd: float = PRIOR_SD,
                 steps: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """(theta, the Hessian of the negative log posterior there): the maximum a posteriori of
    logit p = offset + x theta, theta ~ Normal(0, sd). Newton's method on a concave objective, each
    step at most 2 logits in any coordinate; the same data give the same numbers."""
    theta = np.zeros(x.shape[1])
    y = won.astype(float)

    def hessian() -> np.ndarray:
        p = sigmoid(offset + x @ theta)
        return (x * (p * (1 - p))[:, None]).T @ x + np.eye(x.shape[1]) / sd**2

    for _ in range(steps):
        grad = x.T @ (y - sigmoid(offset + x @ theta)) - theta / sd**2
        step = np.linalg.solve(hessian(), grad)
        step *= min(1.0, 2.0 / max(float(np.abs(step).max()), 1e-300))
        theta += step
        if float(np.abs(step).max()) < 1e-10:
            break
    return theta, hessian()


def joint_fit(tables: np.ndarray, missions: np.ndarray, prior: np.ndarray, won: np.ndarray, n_tables: int,
              n_missions: int, sd: float = PRIOR_SD, steps: int = 100) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The maximum a posteriori of logit p_g = logit(prior_g) + u[tables_g] - d[missions_g] with
    u, d ~ Normal(0, sd): (u, d, fitted p)."""
    x = np.zeros((len(won), n_tables + n_missions))
    x[np.arange(len(won)), tables] = 1.0
    x[np.arange(len(won)), n_tables + missions] = -1.0
    offset = logit(prior)
    theta, _ = map_logistic(x, offset, won, sd, steps)
    return theta[:n_tables], theta[n_tables:], sigmoid(offset + x @ theta)


def heard(tables: list[Table], expected: list[list[float]]) -> list[dict]:
    """The missions' difficulty from every table's finished games (the joint fit), per mission and
    player count; ``expected[t][g]``: the ladder's expectation of table t's game g (its rating)."""
    rows = [(t, g.mission.id, g.start.players, bool(g.cleared), expected[t][i])
            for t, table in enumerate(tables) for i, g in enumerate(table.games) if g.cleared is not None]
    if not rows:
        return []
    keys = sorted({(m, n) for _, m, n, _, _ in rows})
    index = {k: i for i, k in enumerate(keys)}
    t_of = np.array([r[0] for r in rows], np.int64)
    k_of = np.array([index[(r[1], r[2])] for r in rows], np.int64)
    won = np.array([r[3] for r in rows], bool)
    prior = np.array([r[4] for r in rows], float)
    _, d, fitted = joint_fit(t_of, k_of, prior, won, len(tables), len(keys))
    out = []
    for i, (mission, players) in enumerate(keys):
        on = k_of == i
        out.append({"mission": mission, "players": players, "games": int(on.sum()),
                    "tables": len(set(t_of[on].tolist())), "observed": round(float(won[on].mean()), 4),
                    "learned": round(float(fitted[on].mean()), 4), "expected": round(float(prior[on].mean()), 4),
                    "shift": round(float(d[i]), 4)})
    return out


def fits(mission: str, catalog) -> bool:
    """Whether a mission of a campaign can be played with ``catalog`` (None: any), its placed pieces
    read as their shapes there: a mission that does not fit a table's pieces is never suggested to
    it. (A campaign measured for that catalog measured only missions that fit it: a mission that is
    not bundled is taken as it was measured.)"""
    if catalog is None:
        return True
    key = (mission, catalog.key)
    if key not in _FITS:
        path = bundled_mission(mission)
        try:
            _FITS[key] = path is None or mission_fit(path, catalog)[1] is None
        except InputError:
            _FITS[key] = False
    return _FITS[key]


_FITS: dict[tuple, bool] = {}


def next_missions(table: Table, level: Level, campaign: dict, target: float, source: str = "bundled") -> list[dict]:
    """What to play next: the missions of ``campaign`` (rows of the campaign measured for the
    table's catalog, measured at ``source``) at the table's number of players that fit its pieces
    and that it has not cleared, up to NEXT_STEPS past the furthest one it cleared in campaign order
    (the bundled missions' numbers, whatever pieces measured them; your missions by their
    shortfall; from the first when it cleared none; those it left behind too), nearest the target
    first. A table is sent on step by
    step, never to the far end of the campaign on a few games, however its level reads. Each says
    the mission it follows (``after``: the furthest cleared, or null) and whether its interval is
    too wide to say anything yet (``too_few_games``)."""
    n = table_players(table)
    cleared = {g.mission.id for g in table.games if g.cleared and g.start.players == n}
    catalog = getattr(table.games[-1], "catalog", None) if table.games else None  # the pieces it plays with now
    rows = [(mission, row) for (mission, players), row in campaign.items()
            if players == n and all(rung_label(p, k) in row.rates for p, k in RUNGS) and fits(mission, catalog)]
    numbered = all(bundled_mission(mission) is not None for mission, _ in rows)  # the bundled missions' numbers
    rows.sort(key=(lambda e: e[0]) if numbered else (lambda e: (e[1].shortfall, e[0])))
    order = [mission for mission, _ in rows]  # the campaign's order
    reached = max((i for i, mission in enumerate(order) if mission in cleared), default=-1)
    out = []
    for i, mission in enumerate(order):
        if mission in cleared or i > reached + NEXT_STEPS:
            continue
        p, lo, hi = level.expect(row_rates(campaign[(mission, n)], source))
        ci = [round(lo, 4), round(hi, 4)]
        out.append({"mission": mission, "players": n, "predicted": round(p, 4), "ci95": ci, "source": source,
                    "after": order[reached] if reached >= 0 else None, "too_few_games": too_wide(ci)})
    out.sort(key=lambda e: (abs(e["predicted"] - target), e["mission"]))
    return out


def next_of(table: Table, level: Level, ladder: Ladder, target: float) -> dict:
    """A table's ``next``: the missions of every campaign measured for its catalog (the first that
    measured a mission gives its figures; each entry names its ``source``), nearest the target
    first; or an empty ``next`` and ``next_why`` when none was measured for that catalog."""
    campaigns = ladder.campaigns_for(table)
    if not campaigns:
        catalog = next(g.catalog for g in table.games)
        return {"next": [], "next_why": no_campaign_text(catalog)}
    out: dict[tuple[str, int], dict] = {}
    for campaign in campaigns:
        for e in next_missions(table, level, campaign.rows, target, campaign.source or "bundled"):
            out.setdefault((e["mission"], e["players"]), e)
    return {"next": sorted(out.values(), key=lambda e: (abs(e["predicted"] - target), e["mission"]))}


def measure_tables(tables: list[Table], plays: int, seed: int = 1, workers: int = 1, progress=None,
                   replays: Replays | None = None, cluster: Cluster | None = None) -> Measured:
    """Every rung replaying every table's games (one pool for all; a game's replays depend on its
    deal and moves alone, so that a table's figures are those `rate` gives its logs alone)."""
    every = [g for t in tables for g in t.games]
    places, start = [], 0
    for t in tables:
        places.append(list(range(start, start + len(t.games))))
        start += len(t.games)
    return measure(every, plays, seed, workers, progress=progress, replays=replays, cluster=cluster, tables=places,
                   agreement=False)


def calibrate(tables: list[Table], plays: int, seed: int = 1, workers: int = 1, *, target: float = TARGET,
              progress=None, whole: Measured | None = None, ladder: Ladder | None = None,
              near: tuple[Path, ...] = (), replays: Replays | None = None, cluster: Cluster | None = None) -> dict:
    """`kakapo calibrate`'s document (``whole``: the replays, when measure_tables made them already;
    ``ladder``: where the rungs' rates are looked up, by default a ``Ladder`` looking for the
    campaign measured for each game's catalog in ``near`` too; ``replays``: where replays are kept
    between runs; ``cluster``: the work on a Dask cluster, with the same figures)."""
    if whole is None and any(t.games for t in tables):
        whole = measure_tables(tables, plays, seed, workers, progress, replays, cluster)
    ladder = Ladder(seed, workers, near, cluster) if ladder is None else ladder
    docs, predictions, expected = [], [], []
    start = 0
    for table in tables:
        cols = slice(start, start + len(table.games))
        start += len(table.games)
        assert whole is not None
        m = Measured(whole.clears[:, cols], whole.same[:, cols], whole.decisions[:, cols], plays)
        j = judge(table.games, m)
        top = max(r["log_likelihood"] for r in j["rungs"])
        tied = [i for i, r in enumerate(j["rungs"]) if r["log_likelihood"] == top]
        if len(tied) > 1 and whole.replayer is not None:  # the agreement breaks the tie: asked of those rungs only
            agree(whole, tied, list(range(cols.start, cols.stop)))
            j = judge(table.games, m)
        level = level_of(table.games, m, ladder)
        w = level.weights
        expected.append([float(w @ ladder.of(g).rates) for g in table.games])
        loo = leave_one_out(table.games, m, ladder)
        predictions += loo
        best = j["best_index"]
        docs.append({"table": table.name, "names": table.names, "games": j["finished"], "cleared": j["cleared"],
                     "players": table_players(table), "missions": sorted({g.mission.id for g in table.games}),
                     "best": _rung(best), "plausible": [_rung(i) for i in j["plausible_index"]],
                     "told_apart": len(j["plausible_index"]) == 1,
                     "weights": {rung_label(*RUNGS[i]): round(float(w[i]), 4) for i in range(len(RUNGS))},
                     "level": level.document(),
                     **next_of(table, level, ladder, target),
                     "predictions": [{**e, "predicted": round(e["predicted"], 4),
                                      "ci95": [round(x, 4) for x in e["ci95"]],
                                      "baseline": round(e["baseline"], 4)} for e in loo]})
    pairs = [(e["predicted"], e["cleared"]) for e in predictions]
    base = [(e["baseline"], e["cleared"]) for e in predictions]
    score, score_base = brier(pairs), brier(base)
    inside = sum(b["ci95"][0] <= b["predicted"] <= b["ci95"][1] for b in reliability(pairs))
    return {"tables": docs, "plays": plays, "seed": seed, "target": target,
            "calibration": {"games": len(pairs), "method": "leave-one-out",
                            "brier": None if score is None else round(score, 4),
                            "brier_baseline": None if score_base is None else round(score_base, 4),
                            "bins": reliability(pairs), "bins_within": inside,
                            "baseline": "the mission's clear rate averaged over the ladder's rungs"},
            "missions": heard(tables, expected)}


def skill(doc: dict) -> float | None:
    """How much better than the baseline the predictions are: 1 - Brier / Brier of the baseline."""
    c = doc["calibration"]
    if c["brier"] is None or not c["brier_baseline"]:
        return None
    return 1 - c["brier"] / c["brier_baseline"]
