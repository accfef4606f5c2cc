"""The studio's figures (issue 30): a real `kakapo studio` process, driven over HTTP.

    python benchmarks/bench_studio.py [--rounds 5] [--ladder-games 300]

- start: seconds from the command to the page served (the kernels load in the background);
- validation: milliseconds of `POST /api/validate` on every campaign mission, idle and while a
  ladder runs on both cores: median and 95th percentile of the client's round trip only (the
  studio no longer sends an X-Process-Time header: it was removed on 2026-11-27, issue 49, as it
  told how long a bot thought);
- solve: seconds of `POST /api/solve` on every campaign mission (count off), median and max;
- page load: the page and its files, warm;
- memory: resident memory of the studio and its processes, idle after a ladder.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MISSIONS = sorted((ROOT / "missions").glob("*/*.toml"))


def call(url: str, path: str, doc=None, method=None):
    data = None if doc is None else json.dumps(doc).encode()
    req = urllib.request.Request(url + path.lstrip("/"), data=data, method=method or ("POST" if data else "GET"),
                                 headers={"Content-Type": "application/json"})
    t = time.perf_counter()
    with urllib.request.urlopen(req, timeout=600) as r:
        body = r.read()
    return json.loads(body) if body[:1] in b"[{" else body, time.perf_counter() - t


def start_studio() -> tuple[subprocess.Popen, str]:
    """A real `kakapo studio` on 127.0.0.1 serving a new temporary folder: (process, url), once
    its kernels are loaded."""
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser",
                             "--dir", tempfile.mkdtemp()], stdout=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+", proc.stdout.readline()).group(0)
    while call(url, "/api/status")[0]["kernels"] != "ready":
        time.sleep(0.5)
    return proc, url


def rss_mb(pid: int) -> float:
    """Resident memory of a process and everything below it, in MB (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
        todo += children.get(p, [])
    return total / 1024


def validations(url: str, rounds: int) -> list[float]:
    """Round trips (client wall time, ms) of `POST /api/validate`, every campaign mission ``rounds`` times."""
    trip = []
    for _ in range(rounds):
        for path in MISSIONS:
            _, t = call(url, "/api/validate", {"text": path.read_text(encoding="utf-8"), "name": path.name})
            trip.append(1000 * t)
    return trip


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--ladder-games", type=int, default=300)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser",
                             "--dir", str(folder)], stdout=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+", proc.stdout.readline()).group(0)
    call(url, "/")
    start = time.perf_counter() - t0
    try:
        print(f"page served {start:.2f} s after the command (kernels: {call(url, '/api/status')[0]['kernels']})")
        while call(url, "/api/status")[0]["kernels"] != "ready":
            time.sleep(0.5)
        loads = []
        for _ in range(10):
            t = time.perf_counter()
            for p in ("/", "/static/main.js", "/static/studio.css", "/api/missions", "/api/status"):
                call(url, p)
            loads.append(time.perf_counter() - t)
        print(f"page load (page, script, style, mission list, status), warm: median {statistics.median(loads):.3f} s")
        trip = validations(url, args.rounds)
        print(f"validate, idle, {len(trip)} requests over {len(MISSIONS)} missions: round trip median "
              f"{statistics.median(trip):.1f} ms, p95 {pct(trip, 0.95):.1f} ms")
        solves = []
        for path in MISSIONS:
            _, t = call(url, "/api/solve", {"text": path.read_text(encoding="utf-8"), "name": path.name})
            solves.append(t)
        print(f"solve, every campaign mission: median {statistics.median(solves):.2f} s, max {max(solves):.2f} s")
        text = (ROOT / "missions/buddy/b19.toml").read_text(encoding="utf-8")
        job = call(url, "/api/jobs", {"kind": "ladder", "text": text, "name": "b19.toml",
                                      "games": args.ladder_games})[0]["id"]
        while call(url, f"/api/jobs/{job}")[0]["progress"] < 0.4:  # into the search rungs: both cores busy
            time.sleep(0.2)
        trip = validations(url, args.rounds)
        state = call(url, f"/api/jobs/{job}")[0]
        print(f"validate while a ladder runs on both cores ({state['state']}, {100 * state['progress']:.0f} % done): "
              f"round trip median {statistics.median(trip):.1f} ms, p95 {pct(trip, 0.95):.1f} ms")
        while call(url, f"/api/jobs/{job}")[0]["state"] not in ("done", "failed", "cancelled"):
            time.sleep(1)
        time.sleep(2)
        print(f"memory of the idle studio after the ladder: {rss_mb(proc.pid):.0f} MB (the server, its solve worker)")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
