"""`kakapo solve`'s answer: the fewest new pieces (CP-SAT), replayed through the rules, with the
proven reasons when there is no answer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.core.cards import Card
from solver.core.rules import Board, Mission, check_placements
from solver.core.spec import GameSpec
from solver.puzzle.cpsat import ANSWER_PARAMS, SolveResult, solve
from solver.puzzle.reasons import explain


@dataclass
class Answer:
    result: SolveResult
    board: Board  # the mission's board with the answer's pieces on it
    reasons: list[dict]  # why there is none (unsolvable only)
    players: int
    budget: int  # the most new pieces the rounds can select
    max_pieces: int | None = None  # the user's cap, if any

    @property
    def limit(self) -> int:
        """The most new pieces the answer could use."""
        return self.budget if self.max_pieces is None else min(self.max_pieces, self.budget)

    def to_json(self) -> dict:
        return {**self.result.to_json(), "players": self.players, **({"reasons": self.reasons} if self.reasons else {})}


def answer(m: Mission, catalog, players: int, exclude: Sequence[Card] = (), max_pieces: int | None = None,
           time_limit: float = 60.0) -> Answer:
    result = solve(m, catalog, exclude=exclude, max_pieces=max_pieces, time_limit=time_limit, players=players,
                   params=ANSWER_PARAMS)
    board, _ = check_placements(m, catalog, result.placements)  # every answer replayed through the rules
    reasons = explain(m, catalog, players, exclude, max_pieces, time_limit=max(1.0, time_limit / 3)) \
        if result.status == "unsolvable" else []
    budget = GameSpec.of(m, players, hands_last=False).piece_budget
    return Answer(result, board, reasons, players, budget, max_pieces)
