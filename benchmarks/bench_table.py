"""The studio's table (issue 31): a real `kakapo studio` process, driven over HTTP.

    python benchmarks/bench_table.py [--games 3]

- a click answered: the server-side milliseconds (X-Process-Time) of each seat's answer, which
  include the bots' moves up to the seat's next question, for bots that need no search
  (heuristic, planner), on Buddy and Party missions: median, 95th percentile, max;
- the review of a 10-round game: `POST /api/review` against `kakapo review LOG --json` on the
  same log (wall seconds), and the review job's progress events.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_studio import call, pct  # noqa: E402

TABLES = [("b05", 2, [0]), ("b12", 2, [1]), ("b18", 2, [0]), ("p03", 3, [0, 2]), ("p10", 4, [3]), ("p18", 4, [0])]


def play(url: str, mission: str, players: int, human: list[int], policy: str, seed: int) -> list[float]:
    doc, _, _ = call(url, "/api/games", {"mission": mission, "players": players, "human": human, "policy": policy,
                                         "seed": seed, "game": 0})
    tokens = {s["seat"]: s["token"] for s in doc["seats"]}
    times = []
    while True:
        moved = False
        for seat in human:
            path = f"/api/games/{doc['id']}/seats/{seat}?token={tokens[seat]}"
            view, _, _ = call(url, path)
            if view["result"] is not None:
                return times
            if view["question"] is None:
                continue
            _, _, server = call(url, path, {"choice": 1})
            times.append(1000 * server)
            moved = True
        assert moved


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3, help="games per mission and policy")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser",
                             "--dir", str(folder)], stdout=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+", proc.stdout.readline()).group(0)
    try:
        while call(url, "/api/status")[0]["kernels"] != "ready":
            time.sleep(0.5)
        print("| table | policy | answers | server ms: median | p95 | max |")
        print("|---|---|---|---|---|---|")
        every = []
        for mission, players, human in TABLES:
            for policy in ("heuristic", "planner"):
                times = []
                for seed in range(1, args.games + 1):
                    times += play(url, mission, players, human, policy, seed)
                every += times
                print(f"| {mission}/{players}, people at {','.join(map(str, human))} | {policy} | {len(times)} | "
                      f"{statistics.median(times):.1f} | {pct(times, 0.95):.1f} | {max(times):.1f} |")
        print(f"every answer ({len(every)}): median {statistics.median(every):.1f} ms, p95 {pct(every, 0.95):.1f} ms, "
              f"max {max(every):.1f} ms")
        # a 10-round game's review: the studio against the command line
        log = folder / "ten.jsonl"
        for seed in range(1, 40):
            subprocess.run([sys.executable, "-m", "solver.cli", "play", "p17", "--players", "4", "--policy", "greedy",
                            "--seed", str(seed), "--log", str(log)], capture_output=True, check=False)
            if json.loads(log.read_text().splitlines()[-1])["rounds_played"] == 10:
                break
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "solver.cli", "review", str(log), "--json"], capture_output=True,
                       check=True)
        cli = time.perf_counter() - t
        t = time.perf_counter()
        call(url, "/api/review", {"log": log.read_text()})
        api = time.perf_counter() - t
        job = call(url, "/api/jobs", {"kind": "review", "text": log.read_text()})[0]["id"]
        t, seen = time.perf_counter(), set()
        while True:
            state = call(url, f"/api/jobs/{job}")[0]
            seen.add(state["progress"])
            if state["state"] in ("done", "failed", "cancelled"):
                break
            time.sleep(0.1)
        as_job = time.perf_counter() - t
        print(f"review of a 10-round game (p17, 4 players, seed {seed}): kakapo review {cli:.1f} s; "
              f"POST /api/review {api:.1f} s; as a job {as_job:.1f} s with {len(seen)} distinct progress values")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
