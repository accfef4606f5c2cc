"""The planner's solution library: CPU seconds to build it (a first run) against reading it from
the store on disk (every later run, report task and worker), per campaign mission.

    python benchmarks/bench_library.py [--missions b01,p20]

Builds go to a temporary cache folder, so the user's store is neither read nor changed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--missions", default="", help="ids, e.g. b01,p20 (default: the whole campaign)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        from solver.game import planner
        from solver.io.catalog import load_catalog
        from solver.io.missionfile import load_mission
        from solver.io.paths import bundled_mission
        from solver.puzzle import librarystore

        librarystore.cache_root = lambda: Path(cache)  # libraries only: the kernels stay where they are
        cat = load_catalog()
        campaign = [p.stem for p in sorted((ROOT / "missions").glob("*/*.toml"))]
        ids = args.missions.split(",") if args.missions else campaign
        print("| mission | solutions | build CPU s | load CPU s |")
        print("|---|---|---|---|")
        builds, loads = [], []
        for mid in ids:
            m = load_mission(bundled_mission(mid), cat)
            planner._LIBRARIES.clear()
            t = time.process_time()
            sols = planner.planner_library(m, cat)
            build = time.process_time() - t
            planner._LIBRARIES.clear()
            t = time.process_time()
            again = planner.planner_library(m, cat)
            load = time.process_time() - t
            assert again == sols, mid
            builds.append(build)
            loads.append(load)
            print(f"| {mid} | {len(sols)} | {build:.2f} | {load:.3f} |", flush=True)
        print(f"\nbuild: median {statistics.median(builds):.2f} s, max {max(builds):.2f} s, total {sum(builds):.0f} s;"
              f" load: median {statistics.median(loads) * 1000:.0f} ms, max {max(loads) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
