"""The campaign's order by its difficulty figure (the shortfall of the ladder), from a file written
by `benchmarks/bench_ladder.py --ceiling --out FILE`; and the shipped table of it
(missions/difficulty.json). Usage:

    python benchmarks/campaign_order.py LADDER.json            # the order, and how far the numbers follow it
    python benchmarks/campaign_order.py LADDER.json --write    # also write missions/difficulty.json

A Buddy mission is ordered by its shortfall with 2 players, a Party mission by the mean of its
shortfalls with 3 and 4 players. A 95 % interval of each shortfall comes from resampling the
deals (the ceiling's rate held fixed), so neighbours whose intervals overlap are named.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_ladder import spearman  # noqa: E402
from solver.io.difficulty import DIFFICULTY_FILE, file_digest  # noqa: E402
from solver.io.paths import bundled_mission  # noqa: E402

RESAMPLES = 2000


def shortfall_interval(row: dict, rng: np.random.Generator) -> tuple[float, float]:
    """Resample the deals (the same picks for every rung that played them; the top rungs play the
    first deals only, so they get picks of their own) with each rung's clearable share held fixed."""
    answers = np.array([c == "1" for c in row["ceiling"]["answers"]], bool) if "answers" in row["ceiling"] else None
    picks_of: dict[int, np.ndarray] = {}
    terms = []
    for r in row["rungs"].values():
        won = np.array([c == "1" for c in r["won"]], bool)
        n = len(won)
        within = int(answers[:n].sum()) if answers is not None else row["ceiling"]["clearable"]
        if n not in picks_of:
            picks_of[n] = rng.integers(0, n, size=(RESAMPLES, n))
        rates = won[picks_of[n]].mean(axis=1)
        terms.append(np.maximum(0.0, 1.0 - rates / (within / n)) if within else np.ones(RESAMPLES))
    values = np.mean(terms, axis=0)
    lo, hi = np.quantile(values, [0.025, 0.975])
    return float(lo), float(hi)


def order(rows: list[dict]) -> dict[str, list[tuple[str, float, tuple[float, float]]]]:
    """mode -> [(mission id, key, interval of the key)], easiest first."""
    rng = np.random.default_rng(0)
    by_mission: dict[str, list[dict]] = {}
    for r in rows:
        by_mission.setdefault(r["mission"], []).append(r)
    out: dict[str, list] = {"buddy": [], "party": []}
    for mid, parts in by_mission.items():
        key = float(np.mean([p["shortfall"] for p in parts]))
        ivs = [shortfall_interval(p, rng) for p in parts]
        iv = (float(np.mean([a for a, _ in ivs])), float(np.mean([b for _, b in ivs])))
        out["buddy" if mid.startswith("b") else "party"].append((mid, key, iv))
    for mode in out:
        out[mode].sort(key=lambda e: (e[1], e[0]))
    return out


def report(rows: list[dict]) -> None:
    for mode, ranked in order(rows).items():
        print(f"\n{mode}: by shortfall (easiest first), with the current number")
        moved = 0
        for rank, (mid, key, (lo, hi)) in enumerate(ranked, 1):
            new = f"{mid[0]}{rank:02d}"
            moved += new != mid
            moved_mark = "" if new == mid else "  *"
            print(f"  {new} <- {mid}  shortfall {key:.3f}  (95 % {lo:.3f} .. {hi:.3f}){moved_mark}")
        close = [f"{a[0]}/{b[0]}" for a, b in itertools.pairwise(ranked) if b[2][0] <= a[2][1]]
        print(f"  {moved} of {len(ranked)} missions move; neighbours within each other's interval: "
              f"{', '.join(close) or 'none'}")
    for players in (2, 3, 4):
        part = [r for r in rows if r["players"] == players]
        if len(part) > 2:
            num = [int(r["mission"][1:]) for r in part]
            print(f"Spearman, number against shortfall, {players} players: "
                  f"{spearman(num, [r['shortfall'] for r in part]):.3f}")


def fewest_pieces(mission_id: str, players: int) -> int | None:
    """The fewest new pieces that clear the mission at this table (CP-SAT, proven), for `kakapo list`."""
    from solver.io.catalog import load_catalog
    from solver.io.missionfile import load_mission
    from solver.puzzle.cpsat import solve

    catalog = load_catalog()
    answer = solve(load_mission(bundled_mission(mission_id), catalog), catalog, players=players)
    return len(answer.placements) if answer.status == "solvable" and answer.optimal else None


def write_table(rows: list[dict], path: Path) -> None:
    out = []
    rng = np.random.default_rng(0)
    for r in sorted(rows, key=lambda r: (r["mission"], r["players"])):
        n = r["games"]
        file = bundled_mission(r["mission"])
        if file is None:
            raise SystemExit(f"{r['mission']}: no bundled mission of that id")
        out.append({"mission": r["mission"], "mode": "buddy" if r["mission"].startswith("b") else "party",
                    "players": r["players"], "games": n, "seed": r["seed"], "digest": file_digest(file),
                    "rates": {k: v["cleared"] / v.get("games", n) for k, v in r["rungs"].items()},
                    "rung_games": {k: v.get("games", n) for k, v in r["rungs"].items() if v.get("games", n) != n},
                    "ceiling_rate": r["ceiling"]["clearable"] / n, "undecided": r["ceiling"]["undecided"],
                    "shortfall": r["shortfall"], "shortfall_ci95": list(shortfall_interval(r, rng)),
                    "min_pieces": fewest_pieces(r["mission"], r["players"])})
    doc = {"about": "The campaign's ladder (kakapo ladder MISSION --games N --seed S, default catalog) and its "
                    "shortfall per mission and player count, and the fewest new pieces that clear it at that table "
                    "(kakapo solve --players N); written by benchmarks/campaign_order.py --write. "
                    "A row counts while its mission file has this digest.",
           "rows": out}
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path} ({len(out)} rows)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ladder", type=Path, help="a file written by bench_ladder.py --ceiling --out")
    ap.add_argument("--write", action="store_true", help=f"write {DIFFICULTY_FILE.relative_to(ROOT)}")
    args = ap.parse_args()
    rows = json.loads(args.ladder.read_text())
    if any("shortfall" not in r for r in rows):
        raise SystemExit("the ladder file has no ceiling: run bench_ladder.py with --ceiling")
    report(rows)
    if args.write:
        write_table(rows, DIFFICULTY_FILE)


if __name__ == "__main__":
    main()
