"""The campaign's sequential design (analysis/sequential.py) replayed on a ladder measured deal by
deal (`benchmarks/ladder_campaign.json`: every rung's result on each of the bundled campaign's
first 500 deals, the top rungs on 200; the open-hand ceiling's answers): the figure and precision
each row would get, against the whole file's figure, and the deals and CPU seconds it would cost.
No game is played: game i of a seed is the same deal whoever plays it, so the design's rows are
those `kakapo campaign` gives on the bundled catalog (seed 1). Usage:

    python benchmarks/campaign_design.py [--precision 0.025] [--games 500] [--orders 0]

``--orders K`` also replays it on K other orders of the same deals (a permutation of the first 200,
then of the rest): how often a row's interval misses the whole file's figure when the deals differ.
The reference's CPU seconds a game are scaled to this version's per rung (``--scale``, from
benchmarks/bench_campaign_cost.py on b19).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_ladder import spearman  # noqa: E402
from solver.analysis.ladder import RUNGS, rung_label  # noqa: E402
from solver.analysis.sequential import estimate, first_deals, next_deals  # noqa: E402
from solver.io.difficulty import PRECISION  # noqa: E402

LABELS = [rung_label(p, k) for p, k in RUNGS]
# this version's CPU seconds for 200 deals of b19 with 2 players (search rungs), to rescale the reference's
NOW_B19 = {"search-2": 2.1, "search-4": 3.2, "search-8": 5.3, "search-16": 9.1, "search-32": 15.6, "search-64": 28.2}


def replay(won: list[np.ndarray], clearable: np.ndarray, games: int, precision: float):
    """(estimate, deals per rung, batches) of the design on these results."""
    caps = [min(games, len(w)) for w in won]
    n = [min(a, c) for a, c in zip(first_deals(games), caps, strict=True)]
    batches = 1
    while True:
        grown = next_deals([w[:k] for w, k in zip(won, n, strict=True)], games, precision)
        if grown is None:
            break
        grown = [min(g, c) for g, c in zip(grown, caps, strict=True)]  # the file holds no more deals
        if grown == n:
            break
        n, batches = grown, batches + 1
    return estimate([w[:k] for w, k in zip(won, n, strict=True)], clearable), n, batches


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", type=Path, default=ROOT / "benchmarks" / "ladder_campaign.json")
    ap.add_argument("--precision", type=float, default=PRECISION)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--orders", type=int, default=0)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    rows = json.loads(args.file.read_text())
    b19 = next(r for r in rows if r["mission"] == "b19")
    scale = {k: NOW_B19[k] / 200 / b19["rungs"][k]["cpu_per_game"] if k in NOW_B19 else 1.0 for k in LABELS}
    rng = np.random.default_rng(0)
    for order in range(args.orders + 1):
        figures, outside, cost, cost200, most = [], [], 0.0, 0.0, 0
        for r in rows:
            won0 = [np.array([c == "1" for c in r["rungs"][k]["won"]]) for k in LABELS]
            clear0 = np.array([c == "1" for c in r["ceiling"]["answers"]])
            whole = estimate(won0, clear0)
            if order:
                first, rest = rng.permutation(200), 200 + rng.permutation(len(clear0) - 200)
                perm = np.concatenate([first, rest])
                won = [w[perm[:len(w)]] if len(w) > 200 else w[first] for w in won0]
                clear = clear0[perm]
            else:
                won, clear = won0, clear0
            got, n, batches = replay(won, clear, args.games, args.precision)
            per_game = np.array([r["rungs"][k]["cpu_per_game"] * scale[k] for k in LABELS])
            cost += float(per_game @ np.array(n))
            cost200 += float(per_game.sum() * 200)
            most = max(most, batches)
            inside = abs(got.shortfall - whole.shortfall) <= got.half_width
            if not inside:
                outside.append(f"{r['mission']}/{r['players']}")
            figures.append((got.shortfall, whole.shortfall))
            if order == 0 and not args.quiet:
                print(f"{r['mission']}/{r['players']}: {got.shortfall:.3f} +/- {got.half_width:.3f} (whole file "
                      f"{whole.shortfall:.3f} +/- {whole.half_width:.3f}){'' if inside else '  OUTSIDE'}; deals "
                      f"{n}; {batches} batches")
        a = np.array(figures)
        print(f"{'the deals of seed 1' if order == 0 else f'order {order}'}: precision {args.precision}: "
              f"{cost:.0f} CPU s against {cost200:.0f} for 200 deals every rung (x{cost200 / cost:.2f}); rows "
              f"outside their interval: {len(outside)} {outside}; Spearman {spearman(a[:, 0], a[:, 1]):.4f}; "
              f"at most {most} batches")


if __name__ == "__main__":
    main()
