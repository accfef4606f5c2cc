"""Random small missions for cross-checking the two solvers."""

from __future__ import annotations

import random

from solver.core.board import SIZE, all_positions, cell
from solver.core.cards import ALL_CARDS, Colour
from solver.core.rules import Bird, Board, Mission, Placement, cells_of, mask_of

SMALL_BIRDS = [[(0, 0)], [(0, 0), (0, 1)], [(0, 0), (1, 0)], [(0, 0), (0, 1), (1, 0)]]


def small_mission(seed: int, catalog) -> tuple[Mission, list]:
    """A mission with 1-2 small birds, a few marks, maybe a pre-placed piece, and the pieces to exclude."""
    rng = random.Random(seed)
    birds: list[Bird] = []
    taken = 0
    for letter in "AB"[: rng.choice([1, 1, 2])]:
        for _ in range(50):
            shape = rng.choice(SMALL_BIRDS)
            r0, c0 = rng.randrange(0, SIZE - 1), rng.randrange(0, SIZE - 1)
            if rng.random() < 0.85:  # mostly interior birds, sometimes an edge decoy
                r0, c0 = rng.randrange(1, SIZE - 2), rng.randrange(1, SIZE - 2)
            cells = frozenset(cell(r0 + r, c0 + c) for r, c in shape)
            m = mask_of(cells)
            if not (m & taken) and not ((m | (m << 1) | (m >> 1) | (m << SIZE) | (m >> SIZE)) & taken):
                birds.append(Bird(letter, cells))
                taken |= m
                break
    ring = 0
    for b in birds:
        ring |= b.ring
    ring &= ~taken
    ring_cells = cells_of(ring)
    count = min(len(ring_cells), rng.choice([0, 1, 2, 3]))
    marks = {c: rng.choice(list(Colour)) for c in rng.sample(ring_cells, k=count)}
    clear = rng.choice([1, len(birds)])
    base = Mission(f"gen{seed}", f"generated {seed}", "buddy", clear, clear == len(birds), 8, 5,
                   tuple(birds), tuple(sorted(marks.items())), ())
    placed = []
    if rng.random() < 0.3:  # one pre-placed piece somewhere near the birds
        board = Board.start(base)
        card = rng.choice(ALL_CARDS)
        options = [p for p in all_positions(catalog[card])
                   if board.is_legal_mask(int(card.colour), mask_of(p)) and mask_of(p) & ring]
        if options:
            placed.append(Placement(card, rng.choice(options)))
    mission = Mission(base.id, base.name, base.mode, clear, base.clear_all, 8, 5, base.birds, base.marks, tuple(placed))
    keep = set(rng.sample(ALL_CARDS, k=7)) | {p.card for p in placed}
    exclude = [c for c in ALL_CARDS if c not in keep]
    return mission, exclude
