"""Solve every bundled mission with CP-SAT (one worker): CPU seconds per solve (imports excluded),
proven optimal or not; optionally other parameter sets, and the exhaustive solver as a check.
Usage:

    python benchmarks/bench_solve.py [--variants] [--exhaustive-limit SECONDS] [--repeats 3]

Each mission is solved ``--repeats`` times in this process and its best CPU time is kept (the
machine is shared; the best of a few is the figure least disturbed by other work).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.puzzle import cpsat, exhaustive  # noqa: E402

VARIANTS = {
    "default": None,  # the tuned parameters in solver/puzzle/cpsat.py
    "plain": {},
    "lin2 only": {"linearization_level": 2},
    "core": {"optimize_with_core": True},
}


def _exhaustive(path, q):
    cat = load_catalog()
    m = load_mission(path, cat)
    t = time.process_time()
    found = exhaustive.min_pieces(m, cat, max_pieces=8)
    q.put((None if found is None else len(found), time.process_time() - t))


def time_exhaustive(path, limit):
    q: mp.Queue = mp.Queue()
    p = mp.Process(target=_exhaustive, args=(path, q))
    p.start()
    p.join(limit)
    if p.is_alive():
        p.terminate()
        return None
    return q.get()


def cpu_solve(m, cat, repeats: int, params=None):
    best, result = None, None
    for _ in range(repeats):
        t = time.process_time()
        result = cpsat.solve(m, cat, params=params)
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    return result, best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", action="store_true", help="also time the other parameter sets")
    ap.add_argument("--exhaustive-limit", type=float, default=0.0, help="seconds; 0 skips the exhaustive check")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    cat = load_catalog()
    paths = sorted(ROOT.glob("missions/*/*.toml"))
    cpsat.solve(load_mission(paths[0], cat), cat)  # OR-Tools loaded outside the clock
    print("| mission | status | pieces | proven optimal | CPU s | exhaustive CPU s |")
    print("|---|---|---|---|---|---|")
    times = []
    for path in paths:
        m = load_mission(path, cat)
        r, cpu = cpu_solve(m, cat, args.repeats)
        times.append(cpu)
        ex = time_exhaustive(path, args.exhaustive_limit) if args.exhaustive_limit > 0 else None
        ex_s = "-" if args.exhaustive_limit <= 0 else (f"{ex[1]:.2f}" if ex else f">{args.exhaustive_limit:g}")
        print(f"| {m.id} | {r.status} | {r.pieces_used} | {'yes' if r.optimal else 'NO'} | {cpu:.2f} | {ex_s} |",
              flush=True)
    print(f"\nCP-SAT, CPU s per solve over {len(times)} missions: median {statistics.median(times):.2f}, "
          f"worst {max(times):.2f}, total {sum(times):.1f}")
    if args.variants:
        for name, params in VARIANTS.items():
            ts = [cpu_solve(load_mission(p, cat), cat, 1, params)[1] for p in paths]
            print(f"variant {name:10}: median {statistics.median(ts):.2f} s, worst {max(ts):.2f} s, "
                  f"total {sum(ts):.2f} s")
    t = []
    for _ in range(5):
        a = time.perf_counter()
        subprocess.run(["kakapo", "--help"], capture_output=True, check=True)
        t.append(time.perf_counter() - a)
    print(f"kakapo --help: median {statistics.median(t):.3f} s wall")


if __name__ == "__main__":
    main()
