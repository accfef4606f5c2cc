"""How fast a solve answers where people wait: the studio's `POST /api/solve` (a real `kakapo
studio` on 127.0.0.1, kernels loaded, each board asked --repeats times, its median kept) over every
bundled mission and over new users' boards (1 to 6 birds drawn at random on an empty board, every
bird to be cleared: what someone drawing their first mission sends); and `kakapo solve` on the
command line, start-up included. Usage:

    python benchmarks/bench_answer.py [--boards 10] [--repeats 3] [--cli 12]

Targets (issue 41): /api/solve median within 0.3 s warm, `kakapo solve` median within 1 s.
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_studio import MISSIONS, call, pct, start_studio  # noqa: E402


def new_boards(per_count: int, seed: int = 7) -> dict[int, list[str]]:
    """TOML texts of boards with 1 to 6 birds, ``per_count`` of each, every bird to be cleared."""
    from solver.analysis.generate import BIRD_SHAPES, _free_spot
    from solver.core.rules import Bird, Mission
    from solver.core.spec import MODE_RULES
    from solver.io.missionwrite import mission_toml

    rng = random.Random(seed)
    out: dict[int, list[str]] = {}
    for n in range(1, 7):
        texts: list[str] = []
        while len(texts) < per_count:
            birds: list[Bird] = []
            for letter in "ABCDEF"[:n]:
                cells = _free_spot(rng, birds, rng.choice(BIRD_SHAPES), edge_ok=False)
                if cells is None:
                    break
                birds.append(Bird(letter, cells))
            if len(birds) < n:
                continue
            mode = "buddy" if n <= 3 else "party"
            m = Mission("new", f"New board {n}-{len(texts)}", mode, n, True, MODE_RULES[mode].rounds,
                        MODE_RULES[mode].skills, tuple(birds), (), (), "A first board.")
            texts.append(mission_toml(m))
        out[n] = texts
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=10, help="new boards of each bird count")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--cli", type=int, default=12, help="bundled missions timed with `kakapo solve`")
    a = ap.parse_args()
    proc, url = start_studio()
    try:
        def timed(text: str, name: str) -> tuple[float, str]:
            times, status = [], ""
            for _ in range(a.repeats):
                doc, t, _ = call(url, "/api/solve", {"text": text, "name": name})
                times.append(t)
                status = doc.get("status", "?") if isinstance(doc, dict) else "?"
            return statistics.median(times), status

        call(url, "/api/solve", {"text": MISSIONS[0].read_text(encoding="utf-8"), "name": MISSIONS[0].name})  # warm
        bundled = [timed(p.read_text(encoding="utf-8"), p.name)[0] for p in MISSIONS]
        print(f"/api/solve, {len(bundled)} bundled missions: median {statistics.median(bundled):.3f} s, "
              f"p90 {pct(bundled, 0.9):.3f} s, max {max(bundled):.3f} s", flush=True)
        every = []
        for n, texts in new_boards(a.boards).items():
            got = [timed(t, f"new-{n}.toml") for t in texts]
            times = [t for t, _ in got]
            every += times
            statuses = {s: sum(1 for _, x in got if x == s) for s in sorted({x for _, x in got})}
            print(f"/api/solve, new boards with {n} bird(s): median {statistics.median(times):.3f} s, "
                  f"max {max(times):.3f} s ({statuses})", flush=True)
        print(f"/api/solve, every new board ({len(every)}): median {statistics.median(every):.3f} s, "
              f"p90 {pct(every, 0.9):.3f} s", flush=True)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    cli = []
    for p in MISSIONS[:: max(1, len(MISSIONS) // a.cli)][: a.cli]:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "solver.cli", "solve", str(p)], capture_output=True, check=False)
        cli.append(time.perf_counter() - t)
    print(f"kakapo solve, {len(cli)} bundled missions, start-up included: median {statistics.median(cli):.2f} s, "
          f"max {max(cli):.2f} s")


if __name__ == "__main__":
    main()
