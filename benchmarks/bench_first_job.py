"""The first job of a fresh install (issue 41, item 5): a new user opens the studio and asks for a
ladder before any kernel has been compiled.

    python benchmarks/bench_first_job.py [--mission b01] [--games 100] [--players N]

A real `kakapo studio` with an empty cache (kernels and the planner's libraries, in a new
temporary folder), driven over HTTP as the page drives it: the page opened as soon as it is
served, a ladder of GAMES deals asked at once. Prints the seconds from the page opening to the
kernels being ready and to the ladder's answer, the kernels' progress as the page showed it, and
the CPU seconds of the studio's whole process tree.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.bench_studio import call as timed_call  # noqa: E402


def call(url: str, path: str, doc=None):
    return timed_call(url, path, doc)[0]




def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mission", default="b01")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=None, help="default: the mission's smallest table")
    args = ap.parse_args()
    text = next(ROOT.glob(f"missions/*/{args.mission}.toml")).read_text(encoding="utf-8")
    cache = tempfile.mkdtemp(prefix="empty-kernel-cache-")
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser",
                             "--dir", tempfile.mkdtemp()], stdout=subprocess.PIPE, text=True, env=env)
    try:
        url = re.search(r"http://\S+", proc.stdout.readline()).group(0)
        call(url, "/")
        opened = time.perf_counter()
        print(f"page served {opened - t0:.2f} s after the command; cache {cache} (empty)")
        ask = {"kind": "ladder", "text": text, "name": f"{args.mission}.toml", "games": args.games}
        if args.players:
            ask["players"] = args.players
        job = call(url, "/api/jobs", ask)["id"]
        ready, shown = None, []
        while True:
            status = call(url, "/api/status")
            state = call(url, f"/api/jobs/{job}")
            now = time.perf_counter() - opened
            if ready is None and status["kernels"] == "ready":
                ready = now
            elif ready is None:
                shown.append(f"{now:.0f} s: {status.get('kernels_progress', 0):.0%}")
            if state["state"] in ("done", "failed", "cancelled"):
                break
            time.sleep(0.5)
        print(f"kernels ready {ready:.1f} s after the page opened (the page showed {', '.join(shown[::6])})")
        print(f"ladder of {args.games} deals on {args.mission}: {state['state']} "
              f"{now:.1f} s after the page opened")
        if state["state"] != "done":
            print(state["error"])
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"CPU of the studio and its processes: {used.ru_utime + used.ru_stime:.0f} s")


if __name__ == "__main__":
    main()
