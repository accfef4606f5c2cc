"""The review's documents: a decision judged, a round, a seat's summary, the decision that lost
the game, and the whole review (``kakapo review``'s JSON), with the thresholds that class a
decision. The review's work is in ``review.py``; its words in ``review_story.py``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solver.core.board import all_positions
from solver.core.rules import Board, Mission, Placement
from solver.game.actions import Action, ActionKind
from solver.game.state import GameState, RoundRecord
from solver.io.gamelog import GameLog
from solver.io.missionwrite import board_rows
from solver.openhand.deal import UNDECIDED

# ---------------------------------------------------------------- how a decision is judged
# A decision's cost is the clear rate the best move keeps minus the rate the move played keeps
# (the search player in every seat, from the moment after each, on the same continuations).
# Thresholds in clear-rate points, as chess reviews grade a drop in winning chances
# (docs/policies.md, "The review"); below GOOD a move lost at most about one continuation in 24.
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
UNCOUNTED = ("equal", "forced")  # decisions that did not matter: drawn apart, not in accuracy
THRESHOLDS = {"good": 0.05, "inaccuracy": 0.10, "mistake": 0.20, "blunder": 0.30}
LOST_BY_MIN = 0.10  # a decision below this made no difference worth naming (the inaccuracy threshold)
assert THRESHOLDS["inaccuracy"] == LOST_BY_MIN


def classify(cost: float) -> str:
    out = "best"
    for name in CLASSES[1:]:
        if cost >= THRESHOLDS[name] - 1e-9:
            out = name
    return out


def move_accuracy(cost: float) -> float:
    """A decision's accuracy in %, from its cost in clear-rate points: lichess's curve of a move's
    accuracy from its drop in winning chances (100 for no loss, ~63 for a 10-point loss)."""
    return max(0.0, min(100.0, 103.1668 * float(np.exp(-0.04354 * 100 * cost)) - 3.1669))


@dataclass
class Decision:
    """One decision of the game, judged: the clear rate after the move played and after the search
    player's choice, on the same continuations."""

    round: int
    seat: int
    human: bool
    kind: str  # card, selection, placement
    played: str
    best: str
    rate_before: float | None  # measured where the decision cost 10 points or more (else when known)
    rate_played: float
    rate_best: float
    best_action: Action | None = field(default=None, repr=False)
    board: Board | None = field(default=None, repr=False)  # before the decision
    catalog: Any = field(default=None, repr=False, compare=False)
    played_action: Action | None = field(default=None, repr=False)
    # the quick judgement's, where it stopped short of the careful one's depth: the moments after the
    # move played and after the alternative measured, that alternative, and how many continuations
    open_end: OpenEnd | None = field(default=None, repr=False, compare=False)
    state: GameState | None = field(default=None, repr=False, compare=False)  # the moment of the decision
    forced: bool = False  # one legal choice
    equal: bool = False  # every choice tried leads to the same result (see _mark_equal)
    reasons: list[dict] = field(default_factory=list)  # what a costly move made impossible or harder
    named: dict | None = None  # the cards and pieces the reasons name (review_explain)

    @property
    def cost(self) -> float:
        return max(0.0, self.rate_best - self.rate_played)

    @property
    def klass(self) -> str:
        if self.forced:
            return "forced"
        if self.equal or self.rate_best <= 0.0:  # once every choice loses, none is best
            return "equal"
        return classify(self.cost)

    @property
    def counted(self) -> bool:
        """A decision that mattered: counted in accuracy."""
        return self.klass not in UNCOUNTED

    def best_cells(self) -> list[str] | None:
        """The cells of the search player's placement, for a placement decision (to draw it)."""
        return self._cells(self.best_action)

    def played_cells(self) -> list[str] | None:
        """The cells of the placement played, for a placement decision."""
        return self._cells(self.played_action)

    def _cells(self, a: Action | None) -> list[str] | None:
        if a is None or a.kind != ActionKind.PLACE or a.card is None or self.catalog is None:
            return None
        return Placement(a.card, all_positions(self.catalog[a.card])[a.index]).cell_names()

    def to_json(self) -> dict:
        return {"round": self.round, "seat": self.seat, "human": self.human, "kind": self.kind,
                "played": self.played, "best": self.best,
                "rate_before": None if self.rate_before is None else round(self.rate_before, 4),
                "rate_played": round(self.rate_played, 4), "rate_best": round(self.rate_best, 4),
                "cost": round(self.cost, 4), "class": self.klass, "best_cells": self.best_cells(),
                "played_cells": self.played_cells(),
                **({"reasons": list(self.reasons)} if self.reasons else {}),
                **({"named": self.named} if self.named else {}),
                # the board at that moment (the pieces on it), so that a reader draws the decision
                "pieces": [] if self.board is None else [p.to_json() for p in self.board.pieces.values()]}

    def costliest_json(self) -> dict:
        """The round's costliest decision in the keys the review has always had."""
        return {"decision": self.kind, "player": self.seat, "played": self.played, "alternative": self.best,
                "rate_played": round(self.rate_played, 4), "rate_alternative": round(self.rate_best, 4),
                "cost": round(self.cost, 4), "class": self.klass, "alternative_cells": self.best_cells()}


@dataclass
class RoundReview:
    round: int
    start_player: int
    open_hand: str = UNDECIDED
    how: str = ""  # solved (s), the game itself, implied by round R (JSON only: the text says it plainly)
    search_rate: float = 0.0
    costliest: Decision | None = None
    board: Board | None = field(default=None, repr=False)  # at the start of the round
    record: RoundRecord | None = field(default=None, repr=False)  # the round as played, when finished

    def to_json(self) -> dict:
        doc = {"round": self.round, "open_hand": self.open_hand, "open_hand_how": self.how,
               "search_rate": round(self.search_rate, 4),
               "costliest": None if self.costliest is None else self.costliest.costliest_json()}
        # the board as the round found it and what the round did to it, so that a reader draws it
        # without the log
        doc["pieces"] = [] if self.board is None else [p.to_json() for p in self.board.pieces.values()]
        r = self.record
        doc["plays"] = [] if r is None else [{"player": p, "card": str(c)} for p, c in r.plays]
        doc["placements"] = [] if r is None else [p.to_json() for p in r.placements]
        return doc


@dataclass
class SeatSummary:
    seat: int
    human: bool
    decisions: int  # with a choice (forced moves apart)
    classes: dict[str, int]
    accuracy: float | None  # over the decisions that mattered
    name: str | None = None  # the log's name for the seat (a recorded or studio game), else None
    counted: int = 0  # the decisions that mattered (neither equal nor forced)

    def to_json(self) -> dict:
        return {"seat": self.seat, "name": self.name, "human": self.human, "decisions": self.decisions,
                "counted": self.counted, "classes": self.classes,
                "accuracy": None if self.accuracy is None else round(self.accuracy, 1)}


@dataclass
class Review:
    mission: Mission
    log: GameLog
    players: int
    result: str
    rounds: list[RoundReview]
    lost_at: int | None
    lost_in: int | None
    samples: int
    playouts: int
    seed: int
    seconds: float
    final: Board
    decisions: list[Decision] = field(default_factory=list)
    seats: list[SeatSummary] = field(default_factory=list)
    lost_by: LostBy | None = None
    story: str = ""  # the review in one or two plain sentences
    turned_by: Decision | None = None  # the move after which no order of play of the cards could clear the deal
    careful: bool = False  # every decision measured as far as the yardstick goes (SCREEN)
    human: tuple[int, ...] = ()
    catalog: Any = field(default=None, repr=False)

    def who(self, seat: int, possessive: bool = False) -> str:  # a seat in words (``who``)
        return who(seat, self.human, possessive, self.log.names)

    def to_json(self) -> dict:
        return {"mission": self.mission.id, "players": self.players, "result": self.result,
                "rounds": [r.to_json() for r in self.rounds], "lost_at": self.lost_at, "lost_in": self.lost_in,
                "decisions": [d.to_json() for d in self.decisions], "seats": [s.to_json() for s in self.seats],
                "lost_by": None if self.lost_by is None else self.lost_by.to_json(), "summary": self.story,
                "open_hand_lost_by": None if (d := self.turned_by) is None else
                {"round": d.round, "seat": d.seat, "kind": d.kind, "played": d.played},
                "human": list(self.human), "board": board_rows(self.mission),
                "policy": self.log.meta.get("policy"),  # the bots' (the seats no person played)
                "samples": self.samples, "player": "planner" if self.samples == 0 else "search",
                "playouts": self.playouts, "seed": self.seed, "thresholds": THRESHOLDS, "careful": self.careful,
                "seconds": round(self.seconds, 2)}


@dataclass
class OpenEnd:
    """A decision the quick judgement stopped short of the careful judgement's depth: the moments
    before and after the move played, the alternative measured and the moment after it."""

    before: GameState
    played: GameState
    choice: Action
    alternative: GameState


@dataclass
class LostBy:
    decision: Decision
    why: str

    def to_json(self) -> dict:
        d = self.decision
        return {"round": d.round, "seat": d.seat, "played": d.played, "best": d.best, "cost": round(d.cost, 4),
                "why": self.why, "reasons": list(d.reasons)}


def who(seat: int, human: tuple[int, ...], possessive: bool = False, names: dict | None = None) -> str:
    """A seat in words: its name in the log, "you" in a game a person played alone, or "player N"."""
    if names and names.get(seat):
        return f"{names[seat]}'s" if possessive else names[seat]
    if len(human) == 1 and seat == human[0]:
        return "your" if possessive else "you"
    return f"player {seat}'s" if possessive else f"player {seat}"
