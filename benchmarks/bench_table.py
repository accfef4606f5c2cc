"""The studio's table under load (issue 38): a real `kakapo studio` process, driven over HTTP on
127.0.0.1 only.

    python benchmarks/bench_table.py [--tables 10] [--search-samples 64]

- While all-bot games of search players (``--search-samples`` samples, Party p15 with 4 bots)
  think in the background (one always running: a new one starts when the last ends),
  ``--tables`` tables of 2 to 4 people play at once, one thread a person: each polls its seat
  and answers (choice 1, with the question's id) as soon as it is asked. Every request's round
  trip (client wall time only) is kept: median, 95th percentile and max, for the seats'
  documents, the answers and the starts. (The studio's X-Process-Time header, the server's time,
  was removed on 2026-11-27, issue 49: it told how long a bot thought.)
- Every table's log is fetched at its end and refereed (tests/helpers/referee.py): every move legal.
- A doubled answer: each person sends every answer twice at once, once in ten; exactly one of
  each pair must be taken (the other is 409).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.referee import referee  # noqa: E402

TABLES = [("b05", 2, [0, 1]), ("b12", 2, [0, 1]), ("p03", 3, [0, 1, 2]), ("p10", 4, [0, 1, 2, 3]),
          ("p06", 3, [0, 2]), ("b18", 2, [0, 1]), ("p12", 4, [0, 1, 3]), ("b09", 2, [0, 1]),
          ("p18", 4, [0, 1, 2, 3]), ("p01", 3, [0, 1, 2])]


def call(url: str, path: str, doc=None) -> tuple[int, object, float]:
    data = None if doc is None else json.dumps(doc).encode()
    req = urllib.request.Request(url + path.lstrip("/"), data=data, method="POST" if data else "GET",
                                 headers={"Content-Type": "application/json"})
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            body, status = r.read(), r.status
    except urllib.error.HTTPError as e:
        body, status = e.read(), e.code
    wall = time.perf_counter() - t
    text = body.decode()
    try:
        return status, json.loads(text), wall
    except ValueError:  # a log: JSON Lines
        return status, text, wall


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Timings:
    def __init__(self):
        self.lock = threading.Lock()
        self.rows: dict[str, list[float]] = {}

    def add(self, kind: str, wall: float) -> None:
        with self.lock:
            self.rows.setdefault(kind, []).append(1000 * wall)


def person(url: str, gid: str, seat: int, token: str, timings: Timings, doubles: list, rng: random.Random) -> None:
    path = f"/api/games/{gid}/seats/{seat}?token={token}"
    while True:
        status, doc, wall = call(url, path)
        timings.add("seat document", wall)
        assert status == 200, (status, doc)
        if doc["result"] is not None:
            return
        q = doc["question"]
        if q is None:
            time.sleep(0.05)
            continue
        body = {"choice": 1, "question": q["id"]}
        if rng.random() < 0.1:  # a double tap: the same answer twice at once
            out: list[int] = []
            threads = [threading.Thread(target=lambda o=out, b=body: o.append(call(url, path, b)[0]))
                       for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            doubles.append(sorted(out))
            continue
        status, _, wall = call(url, path, body)
        timings.add("answer", wall)
        assert status in (200, 409), status


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--search-samples", type=int, default=64)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser",
                             "--dir", str(folder)], stdout=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+", proc.stdout.readline()).group(0)
    try:
        while call(url, "/api/status")[1]["kernels"] != "ready":
            time.sleep(0.5)
        timings = Timings()
        done = threading.Event()
        search_games: list[str] = []

        def keep_searching() -> None:  # one all-bot search game thinking at every moment of the run
            while not done.is_set():
                _, doc, wall = call(url, "/api/games", {"mission": "p15", "players": 4, "human": [],
                                                             "policy": "search", "samples": args.search_samples})
                timings.add("start", wall)
                search_games.append(doc["id"])
                while not done.is_set():
                    listed = {g["id"]: g for g in call(url, "/api/games")[1]}
                    if listed[doc["id"]]["result"] is not None:
                        break
                    time.sleep(0.2)

        searching = threading.Thread(target=keep_searching)
        searching.start()
        time.sleep(1.0)  # the search game is thinking
        games, threads, doubles = [], [], []
        t0 = time.perf_counter()
        for k, (mission, players, human) in enumerate(TABLES[:args.tables]):
            status, doc, wall = call(url, "/api/games", {"mission": mission, "players": players,
                                                                 "human": human, "policy": "planner",
                                                                 "names": {str(s): f"P{k}.{s}" for s in human}})
            assert status == 200, doc
            timings.add("start", wall)
            games.append((doc["id"], mission, players, human))
            for s in doc["seats"]:
                threads.append(threading.Thread(target=person, args=(url, doc["id"], s["seat"], s["token"], timings,
                                                                     doubles, random.Random(100 * k + s["seat"]))))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        played = time.perf_counter() - t0
        listed = {g["id"]: g for g in call(url, "/api/games")[1]}
        still = listed[search_games[-1]]["result"] is None
        done.set()
        searching.join()
        from solver.io.catalog import load_catalog
        from solver.io.missionfile import load_mission
        from solver.io.paths import bundled_mission

        catalog = load_catalog()
        refereed = 0
        for gid, mission, _, _ in games:
            events = [json.loads(x) for x in call(url, f"/api/games/{gid}/log")[1].splitlines()]
            assert referee(events, load_mission(bundled_mission(mission), catalog), catalog) == events[-1]["result"]
            refereed += 1
        print(f"{len(games)} tables, {len(threads)} people, all at once, {played:.1f} s; every log refereed "
              f"({refereed}); all-bot search-{args.search_samples} games (p15/4) thinking all along: "
              f"{len(search_games)} started, the last {'still thinking' if still else 'over'} at the end")
        print("| request | count | round trip ms: median | p95 | max |")
        print("|---|---|---|---|---|")
        for kind, w in sorted(timings.rows.items()):
            print(f"| {kind} | {len(w)} | {statistics.median(w):.1f} | {pct(w, 0.95):.1f} | {max(w):.1f} |")
        every = [x for rows in timings.rows.values() for x in rows]
        print(f"every request ({len(every)}): round trip p95 {pct(every, 0.95):.1f} ms, max {max(every):.1f} ms")
        print(f"doubled answers: {len(doubles)} pairs, {sum(1 for d in doubles if d == [200, 409])} taken exactly "
              f"once, {sum(1 for d in doubles if d != [200, 409])} otherwise")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
