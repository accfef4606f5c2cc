"""`kakapo calibrate` on simulated tables of known strength (issue 53). Usage:

    python benchmarks/bench_calibrate.py [--games 20] [--plays 20] [--workers 2] [--truth 30]
                                         [--seed 100] [--out calibrate.json]

Ten tables of two players, each ``--games`` games over four Buddy missions where the rungs spread
(b10, b14, b17, b19; game I on mission I mod 4, deal I of seed S + the table's number, S = ``--seed``): tables
of one rung (greedy, heuristic, planner, search-4, search-16), a table mixing two players (seat 0
greedy, seat 1 planner), and tables making random mistakes (each decision, with probability e, a
legal choice uniformly at random instead of the player's: planner 20 %, heuristic 15 %,
search-4 10 %, search-16 25 %). Their logs alone are calibrated (`calibrate`, the command's
defaults) on ``--workers`` processes, timed. Then against the truth:

* order: each table's true clear rate over the four missions (its own players on ``--truth``
  fresh deals a mission, another seed) against the clear rate `calibrate` expects from it there
  (the rungs' weights from all its games times the ladder's rates), Spearman's rank correlation;
* calibration: how many reliability bins hold their mean prediction inside the 95 % interval of
  the share cleared, and the Brier score against the baseline's.

``--again FILE`` judges the replays an earlier ``--out`` saved again, with the fit as it is now (the
same replays and results; no game is played): to hold a change of the fit against the same tables.
With ``--first K``, each table's first K games only: how the fit does for tables that played fewer.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.analysis.calibrate import (  # noqa: E402
    Ladder,
    Level,
    Table,
    brier,
    calibrate,
    measure_tables,
    reliability,
    row_rates,
)
from solver.analysis.ladder import RUNGS, rung_label  # noqa: E402
from solver.analysis.rate import RATE_PLAYS, Measured, read_games  # noqa: E402
from solver.app.calibrating import find_tables  # noqa: E402
from solver.app.sheets import read_game_file  # noqa: E402
from solver.game.engine import log_events, play_out  # noqa: E402
from solver.game.rng import SplitMix64  # noqa: E402
from solver.game.roster import make_policy  # noqa: E402
from solver.game.seeds import game_seeds  # noqa: E402
from solver.game.state import deal  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.difficulty import Campaign, campaign_difficulty  # noqa: E402
from solver.io.gamelog import write_log  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.io.paths import bundled_mission  # noqa: E402
from solver.runtime.workers import process_pool  # noqa: E402

MISSIONS = ("b10", "b14", "b17", "b19")
PLAYERS = 2
# name: (seat 0's player, seat 1's player, mistake rate); a player: "policy" or "search-K"
TABLES = {
    "greedy": ("greedy", "greedy", 0.0), "heuristic": ("heuristic", "heuristic", 0.0),
    "planner": ("planner", "planner", 0.0), "search-4": ("search-4", "search-4", 0.0),
    "search-16": ("search-16", "search-16", 0.0), "greedy+planner": ("greedy", "planner", 0.0),
    "planner-20%": ("planner", "planner", 0.2), "heuristic-15%": ("heuristic", "heuristic", 0.15),
    "search-4-10%": ("search-4", "search-4", 0.1), "search-16-25%": ("search-16", "search-16", 0.25),
}


class Mistaken:
    """A player that, with probability ``rate``, makes a legal choice at random instead."""

    def __init__(self, inner, rate: float, seed: int):
        self.inner, self.rate, self.name = inner, rate, f"{inner.name} with mistakes"
        self.coin = np.random.default_rng(seed)

    def act(self, obs, rng: SplitMix64):
        if self.rate and self.coin.random() < self.rate:
            return obs.legal[int(self.coin.integers(len(obs.legal)))]
        return self.inner.act(obs, rng)


def player(label: str, rate: float, seed: int):
    policy, _, k = label.partition("-")
    return Mistaken(make_policy(policy, int(k) if k else 0), rate, seed)


def one_game(name: str, mission: str, seed: int, game: int, log: bool):
    a, b, rate = TABLES[name]
    catalog = load_catalog()
    m = load_mission(bundled_mission(mission), catalog)
    state = deal(m, catalog, PLAYERS, int(game_seeds(seed, game, 1)[0]))
    seats = [player(a, rate, seed * 1000 + game), player(b, rate, seed * 1000 + game + 500)]
    play_out(state, seats)
    events = log_events(state, {"seed": seed, "game": game, "policy": "heuristic"}) if log else []
    return state.result() == "cleared", events


def _table_logs(args) -> list:
    t, name, games, seed = args
    return [one_game(name, MISSIONS[i % len(MISSIONS)], seed + t, i, True)[1] for i in range(games)]


def make_tables(folder: Path, games: int, seed: int, workers: int) -> None:
    """Each table's logs (a table a task: the same logs whatever the workers)."""
    pool = process_pool(workers)
    try:
        made = list(pool.map(_table_logs, [(t, name, games, seed) for t, name in enumerate(TABLES)]))
    finally:
        pool.shutdown()
    for name, logs in zip(TABLES, made, strict=True):
        (folder / name).mkdir()
        for i, events in enumerate(logs):
            write_log(folder / name / f"{i:03d}.jsonl", events)


def _true_rate(args) -> float:
    t, name, games, seed = args
    return float(np.mean([one_game(name, MISSIONS[i % len(MISSIONS)], seed + 800 + t, i, False)[0]
                          for i in range(games * len(MISSIONS))]))


def truth(games: int, workers: int, seed: int) -> dict[str, float]:
    """Each table's players' clear rate over the four missions, on fresh deals (seed S + 800 + t)."""
    tasks = [(t, name, games, seed) for t, name in enumerate(TABLES)]
    pool = process_pool(workers)
    try:
        rates = list(pool.map(_true_rate, tasks))
    finally:
        pool.shutdown()
    return dict(zip(TABLES, rates, strict=True))


def expected(table: dict) -> float:
    """What calibrate expects of the table over the four missions (its level, the ladder's rates)."""
    campaign = campaign_difficulty()
    w = np.array([table["weights"][rung_label(p, k)] for p, k in RUNGS])
    level = Level(w, table["level"]["deal_share"], table["level"]["shift"], table["level"]["shift_sd"])
    return float(np.mean([level.expect(row_rates(campaign[(m, PLAYERS)]))[0] for m in MISSIONS]))


class CampaignLadder(Ladder):
    """The campaign's rates by the mission's name (the saved games are names, not missions)."""

    def of(self, game):
        return row_rates(self.campaign[(game.mission.id, game.start.players)])

    def campaigns_for(self, table):
        return [Campaign(self.campaign, "bundled")]


def saved_tables(raw: dict, first: int | None = None) -> tuple[list[Table], list[int]]:
    """The tables an earlier --out saved (each game's mission, players and result, in order), each
    cut to its first ``first`` games; and the saved columns kept."""
    tables: dict[str, list] = {}
    kept = []
    for i, (mission, players, cleared, table) in enumerate(raw["games"]):
        games = tables.setdefault(table, [])
        if first is not None and len(games) >= first:
            continue
        kept.append(i)
        games.append(SimpleNamespace(cleared=cleared, path=f"{table}/{i:03d}", mission=SimpleNamespace(id=mission),
                                     start=SimpleNamespace(players=players), note=None))
    return [Table(name, games) for name, games in tables.items()], kept  # type: ignore[arg-type]


def again(path: Path, workers: int, first: int | None = None) -> tuple[dict, dict, float]:
    """(the document, the true rates, 0 s): an earlier --out's replays judged by the fit as it is
    now (``first``: each table's first games only, as if it had played no more)."""
    saved = json.loads(path.read_text())
    raw, plays = saved["measured"], saved["doc"]["plays"]
    tables, kept = saved_tables(raw, first)
    whole = Measured(*(np.array(raw[k], np.int64)[:, kept] for k in ("clears", "same", "decisions")), plays)
    doc = calibrate(tables, plays, 1, workers, whole=whole, ladder=CampaignLadder(1, workers))
    return doc, saved["truth"], 0.0


def spearman(a: list[float], b: list[float]) -> float:
    ra = np.argsort(np.argsort(a)).astype(float)
    rb = np.argsort(np.argsort(b)).astype(float)
    return float(np.corrcoef(ra, rb)[0, 1])


def fresh(args) -> tuple:
    """Make the tables, calibrate their logs and measure their true rates, timed."""
    folder = Path(tempfile.mkdtemp(prefix="bench-calibrate-"))
    t0 = time.perf_counter()
    make_tables(folder, args.games, args.seed, args.workers)
    made = time.perf_counter() - t0
    print(f"{len(TABLES)} tables x {args.games} games made in {made:.0f} s ({folder})", flush=True)
    found, logs, _ = find_tables([str(folder / n) for n in TABLES], read_game_file)
    tables = [Table(n, read_games(paths, None, read=lambda p: logs[str(p)]), names) for n, paths, names in found]
    t0, c0 = time.perf_counter(), time.process_time()
    whole = measure_tables(tables, args.plays, 1, args.workers)
    doc = calibrate(tables, args.plays, 1, args.workers, whole=whole)
    wall = time.perf_counter() - t0
    print(f"calibrated in {wall:.0f} s wall on {args.workers} workers (main process CPU "
          f"{time.process_time() - c0:.0f} s)", flush=True)
    t0 = time.perf_counter()
    if args.truth_from:
        true = json.loads(args.truth_from.read_text())["truth"]
    else:
        true = truth(args.truth, args.workers, args.seed)
    print(f"true rates measured in {time.perf_counter() - t0:.0f} s", flush=True)
    return doc, true, wall, made, whole, tables


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plays", type=int, default=RATE_PLAYS)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--truth", type=int, default=30, help="fresh deals a mission for each table's true rate")
    ap.add_argument("--seed", type=int, default=100, help="the tables' deals: seed S + the table's number")
    ap.add_argument("--truth-from", type=Path, default=None, help="the true rates of an earlier --out (same seeds)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--again", type=Path, nargs="+", default=None,
                    help="judge earlier --out files' replays again (each, then pooled)")
    ap.add_argument("--first", type=int, default=None, help="with --again: each table's first K games only")
    args = ap.parse_args()
    if args.again:
        pooled = []
        for path in args.again:
            print(f"\n## {path}")
            doc, true, _ = again(path, args.workers, args.first)
            report(doc, true)
            pooled += [(e["predicted"], e["cleared"]) for t in doc["tables"] for e in t["predictions"]]
        bins = reliability(pooled)
        within = sum(b["ci95"][0] <= b["predicted"] <= b["ci95"][1] for b in bins)
        print(f"\npooled over {len(args.again)} files ({len(pooled)} games): Brier {brier(pooled):.4f}; "
              f"bins holding their prediction: {within} of {len(bins)}")
        print_bins(bins)
        return
    doc, true, wall, made, whole, tables = fresh(args)
    rho, rows = report(doc, true)
    if args.out:
        raw = {"clears": whole.clears.tolist(), "same": whole.same.tolist(), "decisions": whole.decisions.tolist(),
               "games": [[g.mission.id, g.start.players, bool(g.cleared), t.name] for t in tables for g in t.games]}
        args.out.write_text(json.dumps({"doc": doc, "rows": rows, "spearman": rho, "wall": wall,
                                        "made": made, "truth": true, "measured": raw}, indent=1))


def print_bins(bins: list[dict]) -> None:
    print("| predicted | observed | 95 % | games |\n|---|---|---|---|")
    for b in bins:
        print(f"| {b['predicted']:.3f} | {b['observed']:.3f} | {b['ci95'][0]:.2f}-{b['ci95'][1]:.2f} | {b['games']} |")


def report(doc: dict, true: dict) -> tuple[float, list[dict]]:
    """Print the tables against the truth, the calibration and the missions; (Spearman, rows)."""
    rows = []
    for t in doc["tables"]:
        best = rung_label(t["best"]["policy"], t["best"]["samples"])
        plaus = ", ".join(rung_label(p["policy"], p["samples"]) for p in t["plausible"])
        rows.append({"table": t["table"], "cleared": t["cleared"], "games": t["games"], "best": best,
                     "plausible": plaus, "expected": expected(t), "true": true[t["table"]]})
    rho = spearman([r["expected"] for r in rows], [r["true"] for r in rows])
    c = doc["calibration"]
    print("\n| table | cleared | best rung | plausible | expected over the 4 missions | true rate |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['table']} | {r['cleared']} / {r['games']} | {r['best']} | {r['plausible']} | "
              f"{r['expected']:.2f} | {r['true']:.2f} |")
    print(f"\nSpearman (expected, true) over {len(rows)} tables: {rho:.3f}")
    print(f"Brier {c['brier']:.4f}, baseline {c['brier_baseline']:.4f}; bins holding their prediction: "
          f"{c['bins_within']} of {len(c['bins'])}")
    print_bins(c["bins"])
    print("\nmissions:")
    for m in doc["missions"]:
        print(f"  {m}")
    return rho, rows


if __name__ == "__main__":
    main()
