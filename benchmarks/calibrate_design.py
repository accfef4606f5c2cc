"""`rate` and `calibrate`'s replays, made only where they can change a figure (analysis/rate.py:
``settled``, ``ruled_out``), against every replay made, on simulated tables measured replay by
replay (``--dump``: written by ``--make``; bench_calibrate.py's ten tables of 20 games). No game is
played to compare: a replay is the same game whoever asks for it, so the design's figures are those
`calibrate` gives. Usage:

    python benchmarks/calibrate_design.py --make FILE [--games 20] [--workers 2]   # every replay, timed
    python benchmarks/calibrate_design.py --dump FILE                              # the design against it

Per table: the best rung, the rungs it cannot rule out, how its results follow the deal and its
shift (the level's words), the expected rate over the four missions; then the Brier score of the
leave-one-out predictions, and the replays made (their CPU seconds, measured per rung) against all.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_calibrate import TABLES, CampaignLadder, expected, make_tables, saved_tables  # noqa: E402
from solver.analysis.calibrate import calibrate  # noqa: E402
from solver.analysis.ladder import RUNGS, rung_label  # noqa: E402
from solver.analysis.rate import Measured  # noqa: E402
from solver.analysis.replayplan import EARLY, clears_of, near_best, ruled_out, rung_plays, settled  # noqa: E402

PLAYS = 20


def make(out: Path, games: int, workers: int) -> None:
    """Every replay (PLAYS a rung) and the agreement of every game of the ten tables, with the CPU
    seconds each rung's replays and agreement took."""
    import tempfile

    from solver.analysis.rate import _agreement, _replays, read_games
    from solver.app.calibrating import find_tables
    from solver.app.sheets import read_game_file

    folder = Path(tempfile.mkdtemp(prefix="calibrate-design-"))
    make_tables(folder, games, 100, workers)
    found, logs, _ = find_tables([str(folder / n) for n in TABLES], read_game_file)
    doc: dict = {"games": [], "cpu": [0.0] * len(RUNGS), "cpu_agree": [0.0] * len(RUNGS)}
    for name, paths, _ in found:
        for game in read_games(paths, None, read=lambda p: logs[str(p)]):
            rec = {"table": name, "mission": game.mission.id, "players": game.start.players,
                   "cleared": game.cleared, "replays": [], "same": [], "decisions": len(game.decisions)}
            for r, (policy, samples) in enumerate(RUNGS):
                t0 = time.process_time()
                won = [_replays(game, policy, samples, 1, i, i + 1) for i in range(PLAYS)]
                doc["cpu"][r] += time.process_time() - t0
                t0 = time.process_time()
                same, _ = _agreement(game, policy, samples, 1)
                doc["cpu_agree"][r] += time.process_time() - t0
                rec["replays"].append("".join(map(str, won)))
                rec["same"].append(same)
            doc["games"].append(rec)
        print(name, "done", flush=True)
    out.write_text(json.dumps(doc))


def normal(dump: dict) -> dict:
    """A dump whose games keep their replays and agreement by rung number (as text keys) read as ``make``'s."""
    for g in dump["games"]:
        if isinstance(g["replays"], dict):
            g["same"], totals = ([g["same"][str(r)][k] for r in range(len(RUNGS))] for k in (0, 1))
            g["decisions"] = totals[0]
            g["replays"] = [g["replays"][str(r)] for r in range(len(RUNGS))]
            g.setdefault("players", 2)
    return dump


def judged(dump: dict, design: bool) -> tuple[dict, float, float]:
    """(the calibrate document, the replays made, their CPU seconds) of the dump's games."""
    games = normal(dump)["games"]
    raw = {"games": [[g["mission"], g["players"], g["cleared"], g["table"]] for g in games]}
    tables, _ = saved_tables(raw)
    shape = (len(RUNGS), len(games))
    clears, same, decisions = (np.zeros(shape, np.int64) for _ in range(3))
    values, fake = {}, []
    for i, g in enumerate(games):
        fake.append(type("G", (), {"cleared": g["cleared"]})())
        for r, (_, samples) in enumerate(RUNGS):
            n = rung_plays(samples, PLAYS)
            first = min(n, EARLY) if design else n
            won = [c == "1" for c in g["replays"][r][:n]]
            values[(r, i)] = {"plays": n, "made": first, "first": sum(won[:first]), "rest": sum(won[first:]),
                              "same": g["same"][r], "decisions": g["decisions"]}
            same[r, i], decisions[r, i] = g["same"][r], g["decisions"]
    places, start = [], 0
    for t in tables:
        places.append(list(range(start, start + len(t.games))))
        start += len(t.games)
    out = ruled_out(values, fake, places, PLAYS) if design else set()
    near = near_best(values, fake, places, PLAYS, out) if design else set()  # every replay, as `measure` makes them
    made = cpu = 0.0
    per_replay = [c / (len(games) * PLAYS) for c in dump["cpu"]]
    for (r, i), v in values.items():
        complete = (r, i) in near and games[i]["cleared"] is not None
        clears[r, i] = clears_of(v, games[i]["cleared"], (r, i) in out, complete=complete)
        skipped = not complete and (settled(v, games[i]["cleared"]) or (r, i) in out)
        n = v["made"] + (0 if skipped else v["plays"] - v["made"])
        made += n
        cpu += n * per_replay[r] + dump["cpu_agree"][r] / len(games)
    doc = calibrate(tables, PLAYS, 1, 1, whole=Measured(clears, same, decisions, PLAYS), ladder=CampaignLadder(1, 1))
    return doc, made, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--make", type=Path, default=None)
    ap.add_argument("--dump", type=Path, default=None)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if args.make:
        make(args.make, args.games, args.workers)
        return
    dump = json.loads(args.dump.read_text())
    full, made_full, cpu_full = judged(dump, False)
    mine, made, cpu = judged(dump, True)
    same_levels = 0
    print("| table | best | plausible | deal | beyond | expected | (every replay: best, plausible, deal, beyond, "
          "expected) |\n|---|---|---|---|---|---|---|")
    for a, b in zip(mine["tables"], full["tables"], strict=True):
        def words(t):
            return (rung_label(t["best"]["policy"], t["best"]["samples"]),
                    ", ".join(rung_label(p["policy"], p["samples"]) for p in t["plausible"]),
                    t["level"]["deal"], t["level"]["beyond"], round(expected(t), 2))
        wa, wb = words(a), words(b)
        same_levels += wa[:4] == wb[:4]
        print(f"| {a['table']} | {' | '.join(map(str, wa))} | {', '.join(map(str, wb))} |")
    ca, cb = mine["calibration"], full["calibration"]
    print(f"\nthe same level (best, plausible, deal, beyond) for {same_levels} of {len(mine['tables'])} tables; Brier "
          f"{ca['brier']:.4f} against {cb['brier']:.4f} with every replay (baseline {cb['brier_baseline']:.4f})")
    print(f"replays made: {made:.0f} of {made_full:.0f}; CPU seconds (replays and agreement, as measured): "
          f"{cpu:.0f} against {cpu_full:.0f} (x{cpu_full / cpu:.2f})")


if __name__ == "__main__":
    main()
