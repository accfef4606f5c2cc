"""The planner: the heuristic, with its placement score steered by the puzzle's solutions.

Public knowledge only: the mission, the catalog and a library of the puzzle's solutions
(solver/library.py, computed from the mission alone), the board, the counters, the round and
the cards revealed so far. A placement scores what the heuristic gives it, plus a bonus when it
puts the piece where a live solution has it; usefulness, card play, selection and placement
all read that score, so with no live solution left the planner is the heuristic.
docs/policies.md describes it; fast.py has its Numba twin (integers only, same ties).
"""

from __future__ import annotations

from solver.core.cards import Card
from solver.core.rules import grow, halo, mask_of
from solver.core.spec import selectable_pieces
from solver.game.policies import BoardView, HeuristicPolicy, MissionArrays, popcount
from solver.game.weights import ALIGN_BASE, ALIGN_STEP, FILLER_NEED_PENALTY, PLAN_SOLUTIONS, UNPLACEABLE
from solver.puzzle import librarystore

_LIBRARIES: dict = {}
LIBRARY_SOLVE_WORK = 60.0  # deterministic seconds for the puzzle that seeds the library (the campaign's: 0.1 to 4)


def planner_library(mission, catalog, best=None) -> tuple:
    """The solutions the planner steers by: the library's smallest ones (deterministic). Built once
    per mission and catalog and kept on disk (puzzle/librarystore.py), so a second run, a report
    and every worker reuse it; kept in the process too. ``best``: the mission solver's optimal
    answer, if the caller has it already."""
    key = (mission, catalog.key)
    if key not in _LIBRARIES:
        sols = librarystore.load(mission, catalog)
        if sols is None:
            from solver.puzzle.cpsat import solve  # heavy: OR-Tools, only where a library is built
            from solver.puzzle.library import build_library  # heavy: Numba

            # budgeted in CP-SAT's deterministic time, so the library is the same on any machine, however busy
            best = best if best is not None and best.optimal else solve(mission, catalog, time_limit=1200.0,
                                                                        work_limit=LIBRARY_SOLVE_WORK)
            built = build_library(mission, catalog, optimal=best.placements) if best.status == "solvable" else []
            sols = tuple(built[:PLAN_SOLUTIONS])
            if best.status == "unsolvable" or (best.status == "solvable" and best.optimal):
                librarystore.save(mission, catalog, sols)  # not an answer cut short by the time limit
        _LIBRARIES[key] = (catalog, sols)
    return _LIBRARIES[key][1]


class PlanArrays(MissionArrays):
    """The heuristic's arrays plus the library: per solution its pieces' cells, all its cells and
    its cells per colour."""

    def __init__(self, mission, catalog, solutions):
        super().__init__(mission, catalog)
        self.sol_cards = [s.cards for s in solutions]
        self.sol_where = [{p.card: p.mask for p in s.placements} for s in solutions]
        self.sol_cells = [mask_of(c for p in s.placements for c in p.cells) for s in solutions]
        self.sol_colour = [[mask_of(c for p in s.placements if int(p.colour) == col for c in p.cells)
                            for col in range(5)] for s in solutions]
        self.pre = {p.card for p in mission.placed}


def conflicts(card: Card, m: int, t: PlanArrays, i: int) -> bool:
    """Would the piece on cells ``m`` spoil solution i? (the placement rules, pairwise)"""
    if t.sol_cards[i] >> card.index & 1:
        return t.sol_where[i][card] != m
    return bool(m & t.sol_cells[i]) or bool(halo(m) & t.sol_colour[i][int(card.colour)])


def live_solutions(t: PlanArrays, obs) -> list[tuple[int, int]]:
    """(solution, pieces of it on the board) for each solution that the board has not spoiled and
    that can still be completed: its missing pieces fit in the rounds and skills left, and in
    party none of their cards was revealed in an earlier round without deciding it."""
    board = obs.board
    cap = selectable_pieces(obs.spec.rounds - obs.round + 1, obs.skills_left)
    lost = 0
    if not obs.spec.buddy:  # no wild colour or shift change: a discarded card's piece is gone
        for r in obs.history:
            for _, c in r.plays:
                if c != r.decision:
                    lost |= 1 << c.index
        for c in obs.removed:
            lost |= 1 << c.index
    used = sum(1 << c.index for c in board.pieces)
    new = [(c, p.mask) for c, p in board.pieces.items() if c not in t.pre]
    out = []
    for i, cards in enumerate(t.sol_cards):
        missing = cards & ~used
        if popcount(missing) > cap or missing & lost:
            continue
        if any(conflicts(c, m, t, i) for c, m in new):
            continue
        out.append((i, popcount(cards) - popcount(missing)))
    return out


class PlanBoardView(BoardView):
    """BoardView whose placement score adds the alignment bonus (see the module docstring)."""

    def __init__(self, t: PlanArrays, board, live):
        super().__init__(t, board)
        self.live = live
        self.align: dict[tuple[Card, int], int] = {}  # (piece, cells) -> best bonus
        for i, placed in live:
            bonus = ALIGN_BASE + ALIGN_STEP * placed
            for card, m in t.sol_where[i].items():
                if not board.is_used(card) and self.align.get((card, m), -1) < bonus:
                    self.align[(card, m)] = bonus
        self.top = max((placed for _, placed in live), default=-1)

    def plan_score(self, card: Card, m: int) -> int:
        s = self.score(int(card.colour), m) if m & self.need else 0
        return s + self.align.get((card, m), 0)

    def usefulness(self, card: Card) -> int:
        if card in self._u:
            return self._u[card]
        u = super().usefulness(card)
        if u != UNPLACEABLE:
            for (c, m), _bonus in self.align.items():
                if c == card:
                    u = max(u, self.plan_score(card, m))
        self._u[card] = u
        return u


class PlannerPolicy(HeuristicPolicy):
    """``library``: the solutions to steer by (default: ``planner_library`` of the mission)."""

    name = "planner"

    def __init__(self, library: tuple | None = None) -> None:
        super().__init__()
        self.library = library
        self._plan_key: tuple | None = None
        self._plan_view: PlanBoardView | None = None

    def view(self, obs) -> PlanBoardView:
        key = (id(obs.mission), id(obs.catalog))
        t = self._arrays.get(key)
        if t is None:
            library = self.library if self.library is not None else planner_library(obs.mission, obs.catalog)
            t = self._arrays[key] = PlanArrays(obs.mission, obs.catalog, library)
        vkey = (key, obs.board.occupied, frozenset(obs.board.pieces), obs.round, obs.skills_left, len(obs.history))
        if vkey != self._plan_key or self._plan_view is None:
            self._plan_key, self._plan_view = vkey, PlanBoardView(t, obs.board, live_solutions(t, obs))
        return self._plan_view

    def place(self, obs, piece, legal, rng):
        v = self.view(obs)
        masks = [mask_of(p.cells) for p in legal]
        aligned = [k for k, m in enumerate(masks) if (piece, m) in v.align]
        h = super().place(obs, piece, legal, rng)
        if aligned:
            # the best planner score among the solutions' places and the heuristic's choice
            return max([*aligned, h], key=lambda k: (v.plan_score(piece, masks[k]), k == h, -k))
        if not v.live or (masks[h] & v.need and v.score(int(piece.colour), masks[h]) > 0):
            return h
        # a filler (the heuristic's place scores nothing): where it spoils no live solution and
        # intrudes least on the birds still wanted, if there is such a place
        t = self._arrays[(id(obs.mission), id(obs.catalog))]
        zone = grow(grow(v.need))
        best, best_cost = None, None
        for k, m in enumerate(masks):
            if any(conflicts(piece, m, t, i) for i, _ in v.live):
                continue
            cost = popcount(m & zone) + (FILLER_NEED_PENALTY if m & v.need else 0)
            if best_cost is None or cost < best_cost:
                best, best_cost = k, cost
        return h if best is None else best
