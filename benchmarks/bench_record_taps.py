"""Taps to enter a whole game in the Record tab, before and after tap-to-narrow.

Simulated games (bundled missions, ``--policy`` players) are entered as the Record tab enters
them: the placements offered at each piece placed are the studio's own (``tape_doc``, in the order
it sends them), and the taps on the board are counted for two ways of choosing a placement:

- **before** (each tap cycled through the placements covering the cell tapped; a tap on another
  cell started a new cycle): a person taps one cell of the piece until the preview is right. Two
  people are modelled: one who taps the piece's first cell (board order), and one who knows which
  of its cells reaches the placement soonest (the best case).
- **after** (each tap narrows the placements to those covering every cell tapped so far; the
  preview stays while it still covers them, else it is the one of them sharing the most cells
  with the others): a person taps a cell of the piece that the preview misses, until the preview
  is right. Modelled: the first such cell
  in board order, and a random one (the mean over ``--draws`` orders).

The rule is ``static/narrow.js``'s, written again here (tests/page/test_record_tab_browser.py holds
the page to it). Whole game: a tap per card revealed, per selection, per placement's board taps
plus its *Place*, per card left plus each person's *These are the cards*, and *Check and save*.

    python benchmarks/bench_record_taps.py [--games 3] [--policy planner] [--seed 1]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.app.taps import Setup, extend, replay_entries, tape_doc  # noqa: E402
from solver.core.board import parse_cell  # noqa: E402
from solver.game.engine import play_game  # noqa: E402
from solver.game.roster import make_policy  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.io.paths import bundled_mission  # noqa: E402
from tests.helpers.games import entries_of  # noqa: E402

MISSIONS = (("b05", 2), ("b10", 2), ("b15", 2), ("b20", 2), ("p03", 4), ("p10", 3), ("p15", 4), ("p20", 3))


def board_order(cells: list[str]) -> list[str]:
    """Cells as a person reads the board: row by row, left to right."""
    return sorted(cells, key=parse_cell)


def cycle_taps(placements: list[list[str]], target: list[str], cell: str) -> int:
    """Before: taps on ``cell`` until the cycle through the placements covering it shows ``target``."""
    covering = [p for p in placements if cell in p]
    return covering.index(target) + 1


def narrow(placements: list[list[str]], taps: list[str], picked: list[str] | None, cell: str
           ) -> tuple[list[str], list[str] | None]:
    """After (static/narrow.js): a tap on ``cell``; (the cells tapped, the preview)."""
    taps = [c for c in taps if c != cell] if cell in taps else [*taps, cell]
    covering = [p for p in placements if all(c in p for c in taps)]
    if not covering and len(taps) > 1:  # no placement covers them all: afresh from this cell
        taps = [cell]
        covering = [p for p in placements if cell in p]
    if not covering or not taps:
        return [], None
    return taps, picked if picked in covering else central(covering)


def central(covering: list[list[str]]) -> list[str]:
    """The placement sharing the most cells with the others (the first on a tie)."""
    sets = [set(p) for p in covering]
    return covering[max(range(len(covering)), key=lambda i: (sum(len(sets[i] & s) for s in sets), -i))]


def narrow_taps(placements: list[list[str]], target: list[str], choose) -> int:
    """After: a person taps a cell of ``target`` that the preview misses (``choose`` picks which)."""
    taps: list[str] = []
    picked = None
    n = 0
    while picked != target:
        missed = [c for c in board_order(target) if picked is None or c not in picked]
        taps, picked = narrow(placements, taps, picked, choose(missed))
        n += 1
        assert n <= len(target), (target, taps)  # at most the piece's number of cells
    return n


def game_taps(events: list[dict], mission, catalog, draws: int, rng: random.Random) -> dict:
    entries, left = entries_of(events)
    names = tuple(f"P{k}" for k in range(events[0]["players"]))
    tape = replay_entries(Setup(mission.id, None, names, events[0]["start_player"]), [], mission, catalog)
    rows = []
    other = 0
    for entry in entries:
        if "place" in entry:
            placements = tape_doc(tape)["placements"]
            target = sorted(entry["cells"])
            first = board_order(target)[0]
            rows.append({"cells": len(target), "offered": len(placements),
                         "before_first": cycle_taps(placements, target, first),
                         "before_best": min(cycle_taps(placements, target, c) for c in target),
                         "after_first": narrow_taps(placements, target, lambda m: m[0]),
                         "after_random": statistics.mean(narrow_taps(placements, target, rng.choice)
                                                         for _ in range(draws))})
        else:
            other += 1
        tape = extend(tape, [entry])
    other += sum(len(c) + 1 for c in left.values() if c) + 1  # the cards left, each person's confirm, save
    return {"placements": rows, "other": other}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3, help="games per mission")
    ap.add_argument("--policy", default="planner", help="the players (random: placements no bot would choose)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--draws", type=int, default=20)
    args = ap.parse_args()
    catalog = load_catalog()
    rng = random.Random(args.seed)
    rows: list[dict] = []
    whole: dict[str, list[float]] = {"before": [], "after": []}
    for mid, players in MISSIONS:
        mission = load_mission(bundled_mission(mid), catalog)
        for g in range(args.games):
            events = play_game(mission, catalog, players, 1000 * args.seed + g, make_policy(args.policy),
                               log=True).events
            doc = game_taps(events, mission, catalog, args.draws, rng)
            rows += doc["placements"]
            for when, key in (("before", "before_first"), ("after", "after_first")):
                whole[when].append(doc["other"] + sum(r[key] + 1 for r in doc["placements"]))
    print(f"{platform.node()}: {len(whole['after'])} games ({args.games} a mission of {len(MISSIONS)}), "
          f"{args.policy} players, seed {args.seed}; {len(rows)} placements")
    print(f"{'taps per placement (board taps, Place not counted)':52} {'median':>7} {'mean':>6} {'p90':>5} {'max':>5}")
    for key, what in (("before_first", "before: cycling, the piece's first cell"),
                      ("before_best", "before: cycling, the best cell"),
                      ("after_first", "after: narrowing, first cell the preview misses"),
                      ("after_random", "after: narrowing, a random cell it misses")):
        xs = sorted(r[key] for r in rows)
        print(f"{what:52} {statistics.median(xs):7.1f} {statistics.mean(xs):6.2f} "
              f"{xs[int(0.9 * (len(xs) - 1))]:5.1f} {max(xs):5.1f}")
    for size in sorted({r["cells"] for r in rows}):
        of = [r for r in rows if r["cells"] == size]
        print(f"  {size}-cell pieces ({len(of):3d}): median before (first cell) "
              f"{statistics.median(r['before_first'] for r in of):.1f}, after "
              f"{statistics.median(r['after_first'] for r in of):.1f} (at most {size}); "
              f"{statistics.median(r['offered'] for r in of):.0f} placements offered (median)")
    big = [r for r in rows if r["cells"] in (4, 5)]
    print(f"4-5-cell pieces: median taps after {statistics.median(r['after_first'] for r in big):.1f}, "
          f"worst before {max(r['before_first'] for r in big)}")
    for when in ("before", "after"):
        xs = whole[when]
        print(f"whole game, {when}: median {statistics.median(xs):.0f} taps (min {min(xs)}, max {max(xs)})")
    share = [sum(r["before_first"] + 1 for r in rows), sum(r["after_first"] + 1 for r in rows)]
    print(f"placements' share of all taps: before {share[0] / sum(whole['before']):.0%}, "
          f"after {share[1] / sum(whole['after']):.0%}")


if __name__ == "__main__":
    main()
