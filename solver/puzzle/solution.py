"""A solution of the puzzle: new pieces, each on its cells, that scan enough birds together."""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.rules import Placement


@dataclass(frozen=True)
class Solution:
    placements: tuple[Placement, ...]
    cards: int  # bit per card index

    @property
    def size(self) -> int:
        return len(self.placements)
