"""Decide deals with open hands: clearable (with a plan that the reference engine replays),
not clearable (proven), or undecided within the time limit (never guessed).

Per mission, once: the puzzle's candidate placements and its fewest pieces (no solution at
all, or more pieces than the rounds can ever select, proves every deal not clearable), and
the solution library. Per deal: the nested rollout search in Numba (``witness.py``, levels 1
and 2), then the library-guided search (``witnesssearch.py``), then the exact CP-SAT model of the whole
deal (``model.py``) for what the searches did not clear. The searches find witnesses, the model
also proves that none exists.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from solver.core.codes import Verdict
from solver.core.rules import Board, Mission
from solver.core.spec import GameSpec
from solver.game.actions import Phase
from solver.game.arrays import build_arrays
from solver.game.engine import play_game
from solver.game.planner import planner_library
from solver.game.resume import board_mission
from solver.game.rng import SplitMix64
from solver.game.state import GameState, deal
from solver.openhand.model import DealModel
from solver.openhand.plan import Plan, PlannedRound, PlanPolicy, arrange, place_fillers, play_order
from solver.openhand.witness import search_witness
from solver.openhand.witnesssearch import WitnessSearch
from solver.puzzle import librarystore
from solver.puzzle.cpsat import candidate_placements, solve, solve_model, tuned_solver
from solver.puzzle.library import build_library

CLEARABLE, NOT_CLEARABLE, UNDECIDED = Verdict.labels()
ANSWERS = Verdict.labels()
DEFAULT_TIME_LIMIT = 10.0  # a deal's budget: seconds of CP-SAT's deterministic time
WALL_GUARD = 20.0  # wall seconds allowed per deterministic second: only a machine far too slow meets it
PUZZLE_WORK = 60.0  # deterministic seconds for the mission's puzzle (the campaign's take 0.1 to 4)
SEARCH_NODES = 1500  # rounds the library-guided search may expand per deal
# CP-SAT parameters of the deal model: presolve and the LP relaxation (CP-SAT's default level).
# Measured on the deals that reach the model now (the nested search clears the easy ones): on the
# six of p18 with 4 players that stayed undecided at 10 deterministic seconds without presolve
# and LP, these decide all six in 4.4 to 7.2 (benchmarks/RESULTS.md).
DEAL_PARAMS = {"linearization_level": 1, "cp_model_presolve": True}


@dataclass
class Work:
    """A budget of CP-SAT deterministic time (a count of work, the same on every machine and load),
    spent by each solve of a deal in turn."""

    budget: float
    used: float = 0.0

    def left(self) -> float:
        return self.budget - self.used

    def spend(self, amount: float) -> None:
        self.used += amount


@dataclass
class DealAnswer:
    result: str
    plan: Plan | None
    seconds: float
    how: str  # "puzzle", "rollouts, level N", "search", "model", "limit"


class DealSolver:
    """Everything about a mission that does not depend on the deal, and ``decide(seed)``."""

    def __init__(self, mission, catalog, players: int, time_limit: float = DEFAULT_TIME_LIMIT,
                 library=None, puzzle=None, arrays=None):
        self.spec = spec = GameSpec.of(mission, players)
        self.mission, self.catalog, self.players, self.time_limit = mission, catalog, players, time_limit
        self.cand = candidate_placements(mission, catalog, spec.removed)
        self._puzzle = puzzle
        self._library = library
        self._arrays = arrays

    @property
    def puzzle(self):
        """The mission's puzzle, solved on first use: a deal the rollouts clear does not need it
        (the review's moments, each a mission of its own: solving it was most of their open-hand
        answers). Budgeted in work too (PUZZLE_WORK), so that its answer does not depend on the
        machine either."""
        if self._puzzle is None:
            self._puzzle = solve(self.mission, self.catalog, players=self.players,
                                 time_limit=WALL_GUARD * PUZZLE_WORK, work_limit=PUZZLE_WORK)
        return self._puzzle

    @property
    def impossible(self) -> bool:
        """The puzzle has no solution the game can select: every deal is decided at once."""
        return self.puzzle.status == "unsolvable"

    @property
    def library(self) -> list:
        """The puzzle's solutions the exhaustive search follows: only a deal that the rollouts do not
        clear needs them (the review's moments, each a mission of its own, mostly do not: reading
        a stored library was half of its open-hand answers). Built on first use, once per
        mission, catalog and table, then read from disk (puzzle/librarystore.py)."""
        if self._library is None:
            self._library = self._stored_library() if self.puzzle.status == "solvable" else []
        return self._library

    def _stored_library(self) -> list:
        kind = f"deal-{self.players}"
        stored = librarystore.load(self.mission, self.catalog, kind)
        if stored is not None:
            return list(stored)
        built = build_library(self.mission, self.catalog, optimal=self.puzzle.placements)
        if self.puzzle.optimal:
            librarystore.save(self.mission, self.catalog, built, kind)
        return built

    def arrays(self):
        """The Numba engine's arrays of the mission, with the planner's library (built on first use)."""
        if self._arrays is None:
            self._arrays = build_arrays(self.mission, self.catalog, planner_library(self.mission, self.catalog))
        return self._arrays

    def decide(self, seed: int) -> DealAnswer:
        """The answer for deal ``seed`` of the mission."""
        return self.decide_state(deal(self.mission, self.catalog, self.players, seed))

    def decide_state(self, state) -> DealAnswer:
        """The answer for a game at the start of its first round (a deal, or ``from_moment``'s state).
        Every budget is counted in work, never in seconds of the clock (the search in nodes, the
        model in CP-SAT's deterministic time), so the answer is the same on any machine, however
        busy, and for any number of workers."""
        t0 = time.perf_counter()
        # an impossible puzzle decides at once where it is known (a mission's many deals solve it
        # first); else the rollouts go first, as no witness of an impossible puzzle can clear it
        if self._puzzle is not None and self.impossible:
            return DealAnswer(NOT_CLEARABLE, None, time.perf_counter() - t0, "puzzle")
        nested = search_witness(state, self.arrays())
        if nested is not None:
            return DealAnswer(CLEARABLE, nested[0], time.perf_counter() - t0, f"rollouts, level {nested[1]}")
        if self.impossible:
            return DealAnswer(NOT_CLEARABLE, None, time.perf_counter() - t0, "puzzle")
        found = WitnessSearch(state, self.catalog, self.library, SEARCH_NODES).run()
        if found is not None:
            return DealAnswer(CLEARABLE, self._plan(found.rounds, found.placements), time.perf_counter() - t0,
                              "search")
        result, plan = self._model(state, Work(self.time_limit))
        return DealAnswer(result, plan, time.perf_counter() - t0, "model" if result != UNDECIDED else "limit")

    def _model(self, state, work: Work):
        dm = DealModel(state, self.cand, min_pieces=self.puzzle.pieces_used)
        result, rounds, placements = clear_by_model(dm, self.mission, self.catalog, work)
        return result, None if rounds is None else self._plan(rounds, placements)

    def _plan(self, rounds, placements) -> Plan:
        where = {p.card: p for p in placements}
        return Plan(tuple(PlannedRound(play_order(r, self.spec), r.skill, tuple(r.pieces),
                                       tuple(where[p] for p in r.pieces)) for r in rounds))


def clear_by_model(dm: DealModel, mission: Mission, catalog, work: Work, fixed: tuple = (),
                   params: dict | None = None):
    """Solve the deal model ``dm`` (of ``mission``'s board) within ``work``, with the literals
    ``fixed`` true (on a copy of the model: ``dm`` keeps none of them) and CP-SAT's ``params``
    (DEAL_PARAMS by default): (CLEARABLE, its rounds, the placements of every piece it selects),
    or (NOT_CLEARABLE or UNDECIDED, None, None). A selected set whose pieces cannot all lie on the
    board (the model places only the scanning ones) is cut off, in ``dm`` too, and solved again."""
    while True:
        if work.left() <= 0:
            return UNDECIDED, None, None
        # the wall-clock limit only guards against a machine far too slow to matter
        solver = tuned_solver(WALL_GUARD * work.left() + 1.0, params=DEAL_PARAMS if params is None else params)
        solver.parameters.max_deterministic_time = work.left()
        code = solve_model(solver, with_fixed(dm.model, fixed))
        work.spend(solver.deterministic_time)
        if code == cp_model.INFEASIBLE:
            return NOT_CLEARABLE, None, None
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return UNDECIDED, None, None
        rounds = dm.rounds_of(solver.value)
        assert dm.puzzle is not None
        core = dm.puzzle.chosen(solver.value)
        selected = list(dm.pending) + [p for r in rounds for p in r.pieces]
        in_core = {p.card for p in core}
        fillers = place_fillers(mission, catalog, core, [p for p in selected if p not in in_core])
        if fillers is not None:
            return CLEARABLE, rounds, core + fillers
        placements = arrange(mission, catalog, selected, WALL_GUARD * max(0.0, work.left()) + 1.0, work)
        if placements == "unknown":
            return UNDECIDED, None, None
        if placements is not None:
            return CLEARABLE, rounds, placements
        dm.forbid_selection(set(selected))  # these pieces cannot all lie on the board: solve again


def with_fixed(model: cp_model.CpModel, fixed: tuple) -> cp_model.CpModel:
    """``model`` itself, or a copy of it with the literals ``fixed`` true (a copy, not assumptions:
    CP-SAT simplifies a model with fixed literals far better than one solved under assumptions)."""
    if not fixed:
        return model
    copy = model.clone()
    copy.add_bool_and([copy.get_bool_var_from_proto_index(lit.index) for lit in fixed])
    return copy


def replay(mission, catalog, players: int, seed: int, plan: Plan | None, fallback, log: bool = False):
    """Play the deal following the plan (or the fallback policy where there is none)."""
    return play_game(mission, catalog, players, seed, PlanPolicy(plan, fallback), log=log)


def from_moment(state: GameState) -> tuple[Mission, GameState]:
    """A game at the start of one of its rounds as a new game: the mission with the pieces on the
    board placed before play and the rounds and counters left, and a state at its round one (the
    hands as they are, the round's start player, the trump in force). Its open-hand answer is the
    answer from that moment: the deal solver decides it like any deal."""
    assert state.phase == Phase.REVEAL and not state.trick, "a moment at the start of a round"
    mission = board_mission(state)
    spec = replace(state.spec, rounds=mission.rounds, skills=mission.skills, trump_round_one=state.trump)
    hands = [list(h) for h in state.hands]
    return mission, GameState(spec, mission, state.catalog, hands, list(state.set_aside), state.leader,
                              [SplitMix64(r.state) for r in state.seat_rngs], Board.start(mission), spec.skills,
                              dealt=[list(h) for h in hands])
