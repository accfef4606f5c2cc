"""Draft and measure campaign missions: random candidates, solved by CP-SAT and played by the
heuristic, then chosen so that measured difficulty rises with the number.

    python benchmarks/campaign.py --mode buddy --candidates 250 --pick 16 --first 5 --above 0.51 --write
    python benchmarks/campaign.py --mode party --candidates 300 --pick 17 --first 4 --above 0.965 --write

With --write it writes <out>/<mode>/<prefix><NN>.toml (default out: benchmarks/draft_campaign;
never over an existing file) and prints the table. The drafts in benchmarks/draft_campaign were
made by the two commands above. They are not the bundled campaign (that one was made with
`kakapo generate`, see missions/CAMPAIGN.md); they stay as the benchmarks' fixed set of missions
whose games run the full 8-10 rounds, so that speed figures compare across versions.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.analysis.generate import BIRD_SHAPES, NAMES  # noqa: E402  (the generator's bird shapes and names)
from solver.core.board import SIZE, all_positions, cell, col_of, row_of  # noqa: E402
from solver.core.cards import ALL_CARDS, Colour  # noqa: E402
from solver.core.errors import InputError  # noqa: E402
from solver.core.rules import Bird, Board, Mission, Placement, blocked_reason, mask_of  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.io.missionwrite import mission_toml  # noqa: E402


def random_mission(rng: random.Random, mode: str, mid: str, catalog) -> Mission | None:
    n_birds = rng.choice([1, 1, 2, 2, 2, 3, 3, 4])
    birds, taken = [], 0
    for letter in "ABCDE"[:n_birds]:
        for _ in range(60):
            shape = rng.choice(BIRD_SHAPES)
            h = max(r for r, _ in shape) + 1
            w = max(c for _, c in shape) + 1
            decoy = rng.random() < 0.08
            lo = 0 if decoy else 1
            r0 = rng.randrange(lo, SIZE - h - lo + 1)
            c0 = rng.randrange(lo, SIZE - w - lo + 1)
            cells = frozenset(cell(r0 + r, c0 + c) for r, c in shape)
            m = mask_of(cells)
            near = mask_of(cell(row_of(x) + dr, col_of(x) + dc) for x in cells for dr in range(-2, 3)
                           for dc in range(-2, 3) if 0 <= row_of(x) + dr < SIZE and 0 <= col_of(x) + dc < SIZE)
            if not near & taken:
                birds.append(Bird(letter, cells))
                taken |= m
                break
    if not birds:
        return None
    marks = {}
    for b in birds:
        ring = [c for c in range(SIZE * SIZE) if (b.ring >> c) & 1]
        for c in rng.sample(ring, k=min(len(ring), rng.choice([0, 1, 1, 2, 2, 3]))):
            marks[c] = rng.choice(list(Colour))
    live = [b for b in birds if blocked_reason(Mission("x", "x", mode, 1, False, 8, 5, tuple(birds), (), ()),
                                               b) is None]
    if not live:
        return None
    clear = rng.choice([len(live), len(live), max(1, len(live) - 1)])
    rounds, skills = (8, 5) if mode == "buddy" else (10, 3)
    base = Mission(mid, "", mode, clear, clear == len(birds), rounds, skills, tuple(birds),
                   tuple(sorted(marks.items())), ())
    placed = []
    if rng.random() < 0.25:
        board = Board.start(base)
        ring = 0
        for b in live:
            ring |= b.ring
        for _ in range(rng.choice([1, 2])):
            card = rng.choice(ALL_CARDS)
            if board.is_used(card):
                continue
            options = [p for p in all_positions(catalog[card]) if board.is_legal_mask(int(card.colour), mask_of(p))
                       and mask_of(p) & ring and not any(c in marks and marks[c] != card.colour for c in p)]
            if options:
                p = Placement(card, rng.choice(options))
                board.place(p)
                placed.append(p)
    return Mission(mid, "", mode, clear, clear == len(birds), rounds, skills, base.birds, base.marks, tuple(placed))


def to_toml(m: Mission, name: str, note: str) -> str:
    return mission_toml(replace(m, name=name), comment=note)


def describe(m: Mission, min_pieces: int) -> str:
    decoys = sum(1 for b in m.birds if blocked_reason(m, b))
    parts = [f"{len(m.birds)} bird(s)", f"scan {'all' if m.clear == len(m.birds) else m.clear}",
             f"{len(m.marks)} coloured side(s)", f"fewest pieces {min_pieces}"]
    if decoys:
        parts.append(f"{decoys} decoy(s)")
    if m.placed:
        parts.append(f"{len(m.placed)} piece(s) placed before play")
    return ", ".join(parts)


def main():
    from solver.analysis.simulate import play_games
    from solver.puzzle.cpsat import solve

    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["buddy", "party"], required=True)
    ap.add_argument("--candidates", type=int, default=300)
    ap.add_argument("--pick", type=int, default=16)
    ap.add_argument("--first", type=int, default=5, help="number of the first new mission")
    ap.add_argument("--above", type=float, default=1.0, help="clear rate of the last existing mission")
    ap.add_argument("--below", type=float, default=0.02, help="lowest clear rate wanted")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "draft_campaign")
    args = ap.parse_args()
    catalog = load_catalog()
    rng = random.Random(args.seed)
    prefix = "b" if args.mode == "buddy" else "p"
    players = (2,) if args.mode == "buddy" else (3, 4)
    pool = []
    for k in range(args.candidates):
        m = random_mission(rng, args.mode, f"cand{k}", catalog)
        if m is None:
            continue
        r = solve(m, catalog, time_limit=3)
        if r.status != "solvable" or not r.optimal or r.seconds > 1.5 or r.pieces_used == 0:
            continue
        rates = [float((play_games(m, catalog, p, args.games, 7, "heuristic", "numba", 2).results == 0).mean())
                 for p in players]
        rate = sum(rates) / len(rates)
        if args.below <= rate < args.above - 0.02 and all(x < args.above for x in rates):
            pool.append((rate, rates, r.pieces_used, m))
    pool.sort(key=lambda x: -x[0])
    print(f"{len(pool)} usable candidates")
    targets = [args.above - (args.above - args.below) * (i + 1) / (args.pick + 1) for i in range(args.pick)]
    chosen, used = [], set()
    for t in targets:
        best = min((i for i in range(len(pool)) if i not in used), key=lambda i: abs(pool[i][0] - t), default=None)
        if best is not None:
            used.add(best)
            chosen.append(pool[best])
    chosen.sort(key=lambda x: -x[0])
    names = [n for n in NAMES]
    rng.shuffle(names)
    for i, (rate, rates, pieces, m) in enumerate(chosen):
        mid = f"{prefix}{args.first + i:02d}"
        path = args.out / args.mode / f"{mid}.toml"
        text = to_toml(m, names[i], describe(m, pieces))
        print(f"{mid} rate {rate:.3f} {[f'{x:.3f}' for x in rates]} pieces {pieces}  {describe(m, pieces)}")
        if args.write:
            if path.exists():
                raise SystemExit(f"{path} exists; not overwritten")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            try:
                load_mission(path, catalog)
            except InputError as e:
                path.unlink()
                raise SystemExit(f"generated an invalid mission: {e}") from None


if __name__ == "__main__":
    main()
