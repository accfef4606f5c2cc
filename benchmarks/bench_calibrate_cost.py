"""What a game costs `kakapo calibrate`: the constants of its estimate (app/calibrating.py,
FIXED_SECONDS and PER_PLAY_SECONDS). Usage:

    python benchmarks/bench_calibrate_cost.py [--plays 4 20] [--seeds 3]

One table of games played by the planner on eight missions (b05, b10, b12, b14, b17, b19 with 2
players, p02 with 3 and p03 with 4; ``--seeds`` deals each), calibrated in this process with one
worker at each ``--plays``; the CPU seconds of the calibration (process time: the replays, the
agreement and the fit; not the imports) divided by the games, and the line a + b x plays through
the points. Prints the figures and the constants to put in app/calibrating.py.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.app.calibrating import calibrate  # noqa: E402
from solver.game.engine import play_game  # noqa: E402
from solver.game.roster import make_policy  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.io.paths import MISSIONS  # noqa: E402

ROWS = [("buddy/b05", 2), ("buddy/b10", 2), ("buddy/b12", 2), ("buddy/b14", 2), ("buddy/b17", 2),
        ("buddy/b19", 2), ("party/p02", 3), ("party/p03", 4)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--plays", type=int, nargs="+", default=[4, 20])
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    catalog = load_catalog()
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "table"
        table.mkdir()
        for name, players in ROWS:
            m = load_mission(MISSIONS / f"{name}.toml", catalog)
            for seed in range(args.seeds):
                events = play_game(m, catalog, players, 10 + seed, make_policy("planner"), log=True).events
                (table / f"{m.id}-{seed}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
        games = len(ROWS) * args.seeds
        calibrate([str(table)], 1, 1, 1, target=0.6, latest=0)  # the kernels compiled and the libraries built first
        points = []
        for plays in args.plays:
            t0, w0 = time.process_time(), time.perf_counter()
            calibrate([str(table)], plays, 1, 1, target=0.6, latest=0)
            cpu, wall = time.process_time() - t0, time.perf_counter() - w0
            points.append((plays, cpu / games))
            print(f"plays {plays}: {games} games, {cpu:.1f} CPU s ({wall:.1f} s wall): {cpu / games:.3f} CPU s a game")
    (p1, c1), (p2, c2) = points[0], points[-1]
    per_play = (c2 - c1) / (p2 - p1) if p2 != p1 else 0.0
    fixed = c1 - per_play * p1
    print(f"FIXED_SECONDS, PER_PLAY_SECONDS = {fixed:.3f}, {per_play:.4f}")


if __name__ == "__main__":
    main()
