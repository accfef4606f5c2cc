"""An open-hand plan: every trick's cards in play order, the skill, the selected pieces and where
each goes; the policy that plays it; and the placement of pieces that only have to fit."""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.core.board import all_positions
from solver.core.cards import Card
from solver.core.codes import Skill
from solver.core.rules import Board, Placement, grow, mask_of
from solver.core.spec import GameSpec
from solver.game.policies import Policy
from solver.game.state import Option
from solver.puzzle.cpsat import Candidates, add_placement_model, solve_model, tuned_solver

FILLER_TIME_LIMIT = 5.0


@dataclass(frozen=True)
class PlannedRound:
    plays: tuple[tuple[int, Card], ...]  # (player, card) in play order
    skill: Skill
    pieces: tuple[Card, ...]  # selected pieces in placing order
    placements: tuple[Placement, ...]  # one per piece, same order


@dataclass(frozen=True)
class Plan:
    rounds: tuple[PlannedRound, ...]

    def placements(self) -> list[Placement]:
        return [p for r in self.rounds for p in r.placements]


def play_order(choice, spec: GameSpec) -> tuple[tuple[int, Card], ...]:
    """The cards of a round in a legal order: the lead card first; then in the spec's play order,
    each player's cards of the lead colour before the others (must-follow holds card by card)."""
    lead_colour = choice.lead.colour
    left = {p: sorted((c for c in choice.cards[p] if c != choice.lead), key=lambda c: (c.colour != lead_colour, c))
            for p in range(spec.players)}
    plays = [(choice.start, choice.lead)]
    for seat in spec.play_order(choice.start)[1:]:
        plays.append((seat, left[seat].pop(0)))
    return tuple(plays)


def place_fillers(mission, catalog, core: list[Placement], fillers: list[Card]) -> list[Placement] | None:
    """Legal places for pieces that only have to fit, beside a fixed scanning arrangement.

    Each goes where it covers fewest cells near the birds (first fit, largest piece first);
    None if some piece finds no room that way (the exact check is ``arrange``)."""
    board = Board.start(mission)
    for p in core:
        board.place(p)
    rings = 0
    for b in mission.birds:
        rings |= b.ring
    zone = grow(grow(rings))
    out = []
    for card in sorted(fillers, key=lambda c: (-catalog[c].size, c)):
        best, best_cost = None, None
        for cells in all_positions(catalog[card]):
            m = mask_of(cells)
            if board.is_legal_mask(int(card.colour), m):
                cost = bin(m & zone).count("1")
                if best_cost is None or cost < best_cost:
                    best, best_cost = Placement(card, cells), cost
                    if cost == 0:
                        break
        if best is None:
            return None
        board.place(best)
        out.append(best)
    return out


def arrange(mission, catalog, pieces: list[Card], time_limit: float = FILLER_TIME_LIMIT, work=None):
    """Exact: one legal arrangement of exactly these new pieces scanning at least ``clear`` birds.

    Returns the placements, None when proven impossible, or "unknown" on timeout. ``work``: a
    budget of CP-SAT deterministic time, spent from and added to ``work.used``."""
    board = Board.start(mission)
    birds = [b for b in mission.birds if board.can_still_be_scanned(b)]
    placements = {}
    for card in pieces:
        col = int(card.colour)
        placements[card] = [mask_of(p) for p in all_positions(catalog[card]) if board.is_legal_mask(col, mask_of(p))]
        if not placements[card]:
            return None
    cand = Candidates(board, birds, list(pieces), placements)
    model = cp_model.CpModel()
    pm = add_placement_model(model, mission, cand, available={c: 1 for c in pieces})
    for card in pieces:
        model.add(pm.used[card] == 1)
    solver = tuned_solver(time_limit)
    if work is not None:
        solver.parameters.max_deterministic_time = max(0.0, work.left())
    code = solve_model(solver, model)
    if work is not None:
        work.spend(solver.deterministic_time)
    if code == cp_model.INFEASIBLE:
        return None
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "unknown"
    return pm.chosen(solver.value)


class PlanPolicy(Policy):
    """Plays a plan made with every hand in view: an upper bound that cheats, never a player.

    The engine still hands it only observations; the plan is what it knew beforehand. Where
    there is no plan it plays ``fallback`` (a hidden-information policy). The plan's first round is
    the game's round ``first_round`` (a plan made from the middle of a game starts there)."""

    name = "open-hand"

    def __init__(self, plan: Plan | None, fallback, first_round: int = 1):
        self.plan = plan
        self.fallback = fallback
        self.first_round = first_round

    def _planned(self, obs) -> PlannedRound:
        assert self.plan is not None
        return self.plan.rounds[obs.round - self.first_round]

    def play_card(self, obs, legal, rng):
        if self.plan is None:
            return self.fallback.play_card(obs, legal, rng)
        seat, card = self._planned(obs).plays[len(obs.trick)]
        assert seat == obs.seat, "the plan's play order differs from the game's"
        return card

    def select(self, obs, options: list[Option], rng):
        if self.plan is None:
            return self.fallback.select(obs, options, rng)
        planned = self._planned(obs)
        for k, o in enumerate(options):
            if o.skill == planned.skill and o.pieces == planned.pieces:
                return k
        raise AssertionError(f"round {obs.round}: the planned selection is not offered")

    def place(self, obs, piece, legal, rng):
        if self.plan is None:
            return self.fallback.place(obs, piece, legal, rng)
        planned = self._planned(obs)
        target = planned.placements[planned.pieces.index(piece)]
        return legal.index(target)

