"""Time `kakapo generate --count 1` in 0.1-wide bands (target: median <= 60 s).

    python benchmarks/bench_generate.py [--runs 6] [--mode buddy]

Each run is a fresh process in a fresh output folder (Numba's cache warm, as for a user's
second command); prints one line per run and the median, as a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time

BANDS = ["0.80-0.90", "0.60-0.70", "0.40-0.50", "0.20-0.30", "0.70-0.80", "0.30-0.40", "0.50-0.60", "0.10-0.20"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--mode", choices=["buddy", "party"], default="buddy")
    ap.add_argument("--policy", default="heuristic")
    args = ap.parse_args()
    print("| mode | band | seed | seconds | found | clear rate |")
    print("|---|---|---|---|---|---|")
    times = []
    for i in range(args.runs):
        band = BANDS[i % len(BANDS)]
        with tempfile.TemporaryDirectory() as out:
            cmd = ["kakapo", "generate", "--mode", args.mode, "--band", band, "--count", "1", "--seed", str(500 + i),
                   "--policy", args.policy, "--out", out, "--json"]
            t0 = time.perf_counter()
            res = subprocess.run(cmd, capture_output=True, text=True)
            dt = time.perf_counter() - t0
        found = json.loads(res.stdout) if res.returncode in (0, 3) and res.stdout.strip() else []
        rate = f"{found[0]['clear_rate']:.3f}" if found else "-"
        print(f"| {args.mode} | {band} | {500 + i} | {dt:.1f} | {len(found)} | {rate} |", flush=True)
        times.append(dt)
    print(f"\nmedian {statistics.median(times):.1f} s over {len(times)} runs (target 60 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
