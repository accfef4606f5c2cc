"""What workers cost: the CPU seconds (user + system) of a command's whole process tree with
W worker processes against 1, and its wall time, on the same work. Usage:

    python benchmarks/bench_workers.py [--workers 1,2,8] [--jobs simulate,ladder,report] [--repeats 1]

Target (issue 41): with 8 workers, the tree's CPU within 1.2x of 1 worker for `simulate` and
1.25x for `ladder` and `report`. On a 2-core machine 8 workers still run as 8 processes: the
overhead (start-up, kernels loaded per process, chunking, idle spinning) is what is measured.
The kernel cache is warmed first, so that no run pays a compile.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JOBS = {
    "simulate": ["simulate", "p19", "--players", "4", "--games", "20000", "--json"],
    "search": ["simulate", "p19", "--players", "4", "--games", "400", "--policy", "search", "--samples", "4",
               "--json"],
    "ladder": ["ladder", "b19", "--games", "100", "--json"],
    "report": ["report", "b01", "b05", "p03", "p11", "--games", "2000", "--baseline", "--ceiling-games", "40",
               "--force"],
}


def run(args: list[str], workers: int, out: Path) -> tuple[float, float]:
    """(CPU seconds of the whole tree, wall seconds) of one command."""
    extra = ["--out", str(out)] if args[0] == "report" else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args, *extra, "--workers", str(workers)],
                       capture_output=True, text=True, env=dict(os.environ, KAKAPO_NOTICES="0"))
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"{args}: exit {r.returncode}\n{r.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", default="1,2,8")
    ap.add_argument("--jobs", default=",".join(JOBS))
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--out", default=None, help="write the figures as JSON here")
    a = ap.parse_args()
    counts = [int(w) for w in a.workers.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for job in a.jobs.split(","):
            args = JOBS[job]
            run(args, 1, Path(tmp) / "warm")  # kernels and libraries cached, the report's folder claimed
            figures = {}
            for w in counts:
                best = min((run(args, w, Path(tmp) / f"{job}-{w}-{k}") for k in range(a.repeats)),
                           key=lambda x: x[0])
                figures[w] = best
            base = figures[counts[0]][0]
            for w, (cpu, wall) in figures.items():
                rows.append({"job": job, "workers": w, "cpu_s": round(cpu, 1), "wall_s": round(wall, 1),
                             "cpu_vs_first": round(cpu / base, 2)})
                print(f"{job:<9} workers {w:>2}: CPU {cpu:7.1f} s ({cpu / base:.2f}x), wall {wall:6.1f} s", flush=True)
    if a.out:
        Path(a.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
