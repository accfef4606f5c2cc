"""How long a game's sheet takes to record (`kakapo record`'s work: read the sheet, check every
play, selection and placement by the rules, write the log): sheets of simulated 10-round Party
games (p03, 4 players) and Buddy games, written by `record --sheet-of`, each recorded --repeat
times; the time per sheet, median and worst, in this process (no start-up).

    python benchmarks/bench_record.py [--sheets 20] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.app.sheets import beside, game_of_sheet_text, sheet_of
from solver.game.engine import play_game
from solver.game.roster import make_policy
from solver.io.catalog import load_catalog
from solver.io.gamelog import parse_log
from solver.io.missionfile import load_mission
from solver.io.paths import MISSIONS


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sheets", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    catalog = load_catalog()
    where = beside(Path.cwd())
    for name, players in (("party/p03", 4), ("buddy/b05", 2)):
        m = load_mission(MISSIONS / f"{name}.toml", catalog)
        times, rounds = [], []
        for seed in range(args.sheets):
            events = play_game(m, catalog, players, seed, make_policy("random"), log=True).events
            sheet = sheet_of(parse_log("".join(json.dumps(e) + "\n" for e in events), "g"))
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                rec = game_of_sheet_text(sheet, "g.txt", where)
                times.append(time.perf_counter() - t0)
            rounds.append(rec.state.rounds_played())
        print(f"{name} ({players} players): {args.sheets} sheets of {min(rounds)}-{max(rounds)} rounds, "
              f"{args.repeat} times each: median {1000 * statistics.median(times):.1f} ms, "
              f"worst {1000 * max(times):.1f} ms a sheet")
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}")


if __name__ == "__main__":
    main()
