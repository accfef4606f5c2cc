"""Solve every bundled mission with CP-SAT (one worker) and report time; compare parameter
variants and the exhaustive solver where it finishes. Usage:

    python benchmarks/bench_solve.py [--variants] [--exhaustive-limit SECONDS]
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

from solver import cpsat, exhaustive  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402

VARIANTS = {
    "default": None,  # the tuned parameters in solver/cpsat.py
    "plain": {},
    "lin2 only": {"linearization_level": 2},
    "core": {"optimize_with_core": True},
}


def _exhaustive(path, q):
    cat = load_catalog()
    m = load_mission(path, cat)
    t = time.perf_counter()
    found = exhaustive.min_pieces(m, cat, max_pieces=8)
    q.put((None if found is None else len(found), time.perf_counter() - t))


def time_exhaustive(path, limit):
    q = mp.Queue()
    p = mp.Process(target=_exhaustive, args=(path, q))
    p.start()
    p.join(limit)
    if p.is_alive():
        p.terminate()
        return None
    return q.get()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", action="store_true", help="also time the other parameter sets")
    ap.add_argument("--exhaustive-limit", type=float, default=20.0)
    args = ap.parse_args()
    cat = load_catalog()
    paths = sorted(ROOT.glob("missions/*/*.toml"))
    print(f"{'mission':8} {'status':10} {'pieces':>6} {'optimal':>7} {'cpsat s':>8} {'exhaust s':>10} {'ratio':>7}")
    times = []
    for path in paths:
        m = load_mission(path, cat)
        r = cpsat.solve(m, cat)
        times.append(r.seconds)
        ex = time_exhaustive(path, args.exhaustive_limit)
        ex_s = f"{ex[1]:.2f}" if ex else f">{args.exhaustive_limit:g}"
        ratio = f"{ex[1] / r.seconds:.1f}x" if ex else "-"
        print(f"{m.id:8} {r.status:10} {r.pieces_used!s:>6} {r.optimal!s:>7} {r.seconds:8.2f} {ex_s:>10} {ratio:>7}")
    print(f"cpsat median {statistics.median(times):.2f} s, worst {max(times):.2f} s")
    if args.variants:
        for name, params in VARIANTS.items():
            ts = [cpsat.solve(load_mission(p, cat), cat, params=params).seconds for p in paths]
            print(f"variant {name:10}: median {statistics.median(ts):.2f} s, worst {max(ts):.2f} s, "
                  f"total {sum(ts):.2f} s")
    t = []
    for _ in range(5):
        a = time.perf_counter()
        subprocess.run(["kakapo", "--help"], capture_output=True, check=True)
        t.append(time.perf_counter() - a)
    print(f"kakapo --help: median {statistics.median(t):.3f} s")


if __name__ == "__main__":
    main()
