"""Exact mission solver: CP-SAT model with one Boolean per (piece, placement).

Sections: candidate placements, variables, constraints, objective, solve,
answer extraction (re-verified by the rules module before it is returned).
"""

from __future__ import annotations

import contextlib
import itertools
import signal
import socket
import threading
import time
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.core.board import all_positions
from solver.core.cards import ALL_CARDS, Card
from solver.core.rules import (
    Board,
    Mission,
    Placement,
    cells_of,
    check_placements,
    halo,
    mask_of,
)
from solver.core.spec import GameSpec, out_of_game

DEFAULT_TIME_LIMIT = 60.0
SEED = 20261122
# Measured in benchmarks/bench_solve.py: the LP with more cuts (linearization 2)
# halves the proof time; capping the at-most-one clique merging in presolve,
# which otherwise dominates on these models, halves it again.
TUNED_PARAMS = {"linearization_level": 2, "merge_at_most_one_work_limit": 1000.0}
# `kakapo solve`'s answer (and the studio's): without presolve and probing, which on these small
# models cost more than the search they save: the same answers on every bundled, draft and test
# mission, with and without pieces excluded, at a third of the time (benchmarks/bench_solve.py,
# RESULTS.md). Only the answer uses them: the budgets counted in CP-SAT's work elsewhere (the
# generator, the open-hand deal model) keep the parameters their numbers were measured with.
ANSWER_PARAMS = {**TUNED_PARAMS, "cp_model_probing_level": 0, "cp_model_presolve": False}


@dataclass
class SolveResult:
    mission: str
    status: str  # "solvable" | "unsolvable" | "unknown"
    placements: list[Placement]
    optimal: bool
    scanned: list[str]
    seconds: float
    lower_bound: int | None = None
    stats: dict = field(default_factory=dict)

    @property
    def pieces_used(self) -> int | None:
        return len(self.placements) if self.status == "solvable" else None

    def to_json(self) -> dict:
        return {
            "mission": self.mission,
            "status": self.status,
            "pieces_used": self.pieces_used,
            "optimal": self.optimal,
            "placements": [p.to_json() for p in self.placements] if self.status == "solvable" else [],
            "scanned": self.scanned if self.status == "solvable" else [],
            "seconds": round(self.seconds, 3),
        }


@dataclass
class Candidates:
    """Placements that can matter: legal on the start board and covering a ring cell they do not spoil."""

    board: Board
    birds: list  # birds that can still be scanned
    pieces: list[Card]
    placements: dict[Card, list[int]]  # card -> list of cell masks


def candidate_placements(mission: Mission, catalog, exclude=()) -> Candidates:
    board = Board.start(mission)
    birds = [b for b in mission.birds if board.can_still_be_scanned(b)]
    marks = mission.mark_map
    exclude = set(exclude)
    pieces = [c for c in ALL_CARDS if c not in exclude and not board.is_used(c)]
    out: dict[Card, list[int]] = {}
    for card in pieces:
        col = int(card.colour)
        masks = []
        for cells in all_positions(catalog[card]):
            m = mask_of(cells)
            if not board.is_legal_mask(col, m):
                continue
            # A placement is useful if it covers a ring cell of a bird it does not spoil.
            spoiled = mask_of(c for c in cells if c in marks and marks[c] != card.colour)
            if any((m & b.ring) and not (spoiled & b.ring) for b in birds):
                masks.append(m)
        if masks:
            out[card] = masks
    return Candidates(board, birds, [c for c in pieces if c in out], out)


@dataclass
class PlacementModel:
    """The puzzle's variables inside a CP-SAT model: one Boolean per (piece, candidate placement)."""

    cand: Candidates
    x: dict[Card, list]  # card -> one Boolean per mask in cand.placements[card]
    used: dict[Card, cp_model.LinearExprT]  # card -> linear expression: 1 if the piece is placed
    scanned: dict[str, cp_model.IntVar]  # bird letter -> Boolean

    def chosen(self, value) -> list[Placement]:
        """The placements a solution picks (``value`` reads a variable's value)."""
        out = []
        for card in self.cand.pieces:
            for m, v in zip(self.cand.placements[card], self.x[card], strict=False):
                if value(v):
                    out.append(Placement(card, frozenset(cells_of(m))))
        return out


def add_placement_model(model, mission: Mission, cand: Candidates, available=None) -> PlacementModel:
    """Placement rules and the scan requirement; ``available`` maps a card to a literal or linear
    expression that must be 1 for its piece to be used (the open-hand model: the piece was selected)."""
    board, birds = cand.board, cand.birds
    marks = mission.mark_map
    # ------------------------------------------------------------ variables
    x: dict[Card, list] = {}
    for card in cand.pieces:
        x[card] = [model.new_bool_var(f"{card}#{k}") for k in range(len(cand.placements[card]))]
    used = {card: sum(x[card]) for card in cand.pieces}
    scanned = {b.letter: model.new_bool_var(f"scan_{b.letter}") for b in birds}

    # cell -> placements covering it, overall and per colour (and by which piece: a piece's own
    # placements are told apart by the piece, not by comparing the variables)
    cover: dict[int, list] = {}
    cover_col: dict[tuple[int, int], list] = {}
    cover_col_by: dict[tuple[int, int], dict[Card, list]] = {}
    halo_piece: dict[tuple[Card, int], list] = {}
    for card in cand.pieces:
        col = int(card.colour)
        for m, v in zip(cand.placements[card], x[card], strict=False):
            for c in cells_of(m):
                cover.setdefault(c, []).append(v)
                cover_col.setdefault((c, col), []).append(v)
                cover_col_by.setdefault((c, col), {}).setdefault(card, []).append(v)
            for c in cells_of(halo(m)):
                halo_piece.setdefault((card, c), []).append(v)

    # ------------------------------------------------------------ constraints
    for card in cand.pieces:
        if available is None:
            model.add_at_most_one(x[card])
        else:
            model.add(used[card] <= available[card])
    for vs in cover.values():
        if len(vs) > 1:
            model.add_at_most_one(vs)
    # No edge contact between two different pieces of one colour (pre-placed ones
    # were filtered out when the candidates were built).
    for (card, c), hs in halo_piece.items():
        others = [v for owner, vs in cover_col_by.get((c, int(card.colour)), {}).items() if owner is not card
                  for v in vs]
        if others:
            model.add_at_most_one(hs + others)
    for b in birds:
        s = scanned[b.letter]
        for c in cells_of(b.ring):
            if board.occupied >> c & 1:
                continue  # covered before play, and of the right colour (else the bird is not a candidate)
            need = cover_col.get((c, int(marks[c])), []) if c in marks else cover.get(c, [])
            model.add_bool_or([*need, s.negated()]) if need else model.add(s == 0)
    model.add(sum(scanned.values()) >= mission.clear)
    return PlacementModel(cand, x, used, scanned)


def solve_model(solver: cp_model.CpSolver, model: cp_model.CpModel,
                callback: cp_model.CpSolverSolutionCallback | None = None) -> cp_model.CpSolverStatus:
    """``solver.solve(model, callback)``, but Ctrl-C stays ours: an interrupted search raises
    KeyboardInterrupt instead of coming back as an ordinary "unknown" answer.

    CP-SAT's own SIGINT handler would stop the search and swallow the signal. Instead, Python's
    handler stays in force; Python notes the signal on a wake-up socket even while this thread
    is inside CP-SAT, a watcher thread reads it and stops the search at once, and the pending
    KeyboardInterrupt is raised as soon as Solve returns."""
    solver.parameters.catch_sigint_signal = False
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model, callback)  # signals are the main thread's business
    ours, theirs = socket.socketpair()
    ours.setblocking(True)
    theirs.setblocking(False)
    try:
        previous = signal.set_wakeup_fd(theirs.fileno(), warn_on_full_buffer=False)
    except ValueError:
        ours.close()
        theirs.close()
        return solver.solve(model, callback)

    def watch():
        while True:
            try:
                data = ours.recv(64)
            except OSError:
                return
            if not data or b"\xff" in data:
                return  # the solve is over
            if any(b == signal.SIGINT or b == signal.SIGTERM for b in data):
                solver.stop_search()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        return solver.solve(model, callback)
    finally:
        signal.set_wakeup_fd(previous)
        with contextlib.suppress(OSError):
            theirs.send(b"\xff")
        watcher.join(timeout=1)
        ours.close()
        theirs.close()


def tuned_solver(time_limit: float, workers: int = 1, params: dict | None = None) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.01, time_limit)
    solver.parameters.random_seed = SEED
    solver.parameters.num_workers = workers
    if workers > 1:
        solver.parameters.interleave_search = True  # deterministic multi-worker search
    for k, v in (TUNED_PARAMS if params is None else params).items():
        setattr(solver.parameters, k, v)
    return solver


def solve(mission: Mission, catalog, exclude=(), max_pieces: int | None = None,
          *, time_limit: float = DEFAULT_TIME_LIMIT, workers: int = 1, params: dict | None = None,
          symmetry: bool = False, players: int | None = None, budget: bool = True,
          require=(), work_limit: float | None = None, place=()) -> SolveResult:
    """Fewest new pieces that scan ``clear`` birds, within what a game can select (the spec's
    ``piece_budget``) and without the pieces out of the game with ``players`` (default: the
    mission's default table; buddy 2, party 4, where every piece is in the game); ``place``:
    pieces that must be among them (selected, to be placed)."""
    t0 = time.perf_counter()
    spec = GameSpec.of(mission, players or mission.default_players(), hands_last=False)
    exclude = tuple(exclude) + tuple(c for c in spec.removed if c not in exclude)
    if budget:  # off only to explain an unsolvable answer (puzzle/reasons.py)
        max_pieces = spec.piece_budget if max_pieces is None else min(max_pieces, spec.piece_budget)
    cand = candidate_placements(mission, catalog, exclude)

    def finish(status, placements=(), optimal=False, scanned=(), lb=None, stats=None):
        return SolveResult(mission.id, status, list(placements), optimal, list(scanned),
                           time.perf_counter() - t0, lb, stats or {})

    if len(cand.birds) < mission.clear:
        return finish("unsolvable", optimal=False)

    model = cp_model.CpModel()
    pm = add_placement_model(model, mission, cand)
    used = pm.used

    # Symmetry: pieces of the same colour and shape are interchangeable. Ordering them is off by
    # default: CP-SAT's own symmetry detection does this, and the extra constraints cost ~25 % on a
    # catalog full of duplicates (benchmarks/RESULTS.md).
    by_class: dict[tuple, list[Card]] = {}
    for card in cand.pieces:
        by_class.setdefault((card.colour, catalog[card].orientations()), []).append(card)
    for cards in by_class.values() if symmetry else ():
        for a, b in itertools.pairwise(cards):
            model.add(used[b] <= used[a])

    for card in place:  # these pieces must be placed
        if card not in used:
            return finish("unsolvable", optimal=False)
        model.add(used[card] == 1)
    for letter in require:  # these birds must be among the scanned ones
        if letter not in pm.scanned:
            return finish("unsolvable", optimal=False)
        model.add(pm.scanned[letter] == 1)
    total = sum(used.values())
    if max_pieces is not None:
        model.add(total <= max_pieces)

    # ------------------------------------------------------------ objective
    model.minimize(total)

    # ------------------------------------------------------------ solve
    solver = tuned_solver(time_limit - (time.perf_counter() - t0), workers, params)
    if work_limit is not None:  # CP-SAT's deterministic time: the same answer however busy the machine is
        solver.parameters.max_deterministic_time = work_limit
    code = solve_model(solver, model)
    stats = {"variables": sum(len(v) for v in pm.x.values()), "conflicts": solver.num_conflicts,
             "branches": solver.num_branches, "wall": solver.wall_time, "work": solver.deterministic_time}

    if code == cp_model.INFEASIBLE:
        return finish("unsolvable", optimal=False, stats=stats)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return finish("unknown", stats=stats)

    # ------------------------------------------------------------ answer, re-verified
    placements = pm.chosen(solver.value)
    _, got = check_placements(mission, catalog, placements)
    if len(got) < mission.clear:
        raise AssertionError(f"internal error: CP-SAT answer scans only {got} for {mission.id}")
    lb = int(solver.best_objective_bound)
    return finish("solvable", placements, code == cp_model.OPTIMAL, got, lb, stats)


def solve_for_players(mission: Mission, catalog, players: int, best: SolveResult | None = None,
                      time_limit: float = DEFAULT_TIME_LIMIT) -> SolveResult:
    """The answer for a table of ``players``: ``best`` (the answer with every piece in the game)
    when it is optimal and uses no piece that is out of this game, else a new solve."""
    gone = set(out_of_game(players))
    if best is not None and best.optimal and best.status == "solvable" and not gone & {p.card for p in best.placements}:
        return best
    return solve(mission, catalog, time_limit=time_limit, players=players)


# ------------------------------------------------------------ counting answers
@dataclass
class SolutionCount:
    pieces: int  # the size counted: the fewest new pieces
    count: int  # distinct answers found, at most the cap
    complete: bool  # every answer of that size was counted (proven)
    what: str  # "sets" (of pieces) or "placements" (arrangements)


def count_solutions(mission: Mission, catalog, pieces: int, cap: int = 1000, placements: bool = False,
                    exclude=(), players: int | None = None, time_limit: float = DEFAULT_TIME_LIMIT) -> SolutionCount:
    """How many distinct answers use exactly ``pieces`` new pieces (the fewest): sets of pieces, or
    with ``placements`` distinct arrangements, up to ``cap``; ``complete`` when the count is proven
    to be all of them. CP-SAT enumerates the arrangements (a set of pieces may lie in several);
    the count stops past the cap or at the time limit, and is then a lower bound."""
    t0 = time.perf_counter()
    spec = GameSpec.of(mission, players or mission.default_players(), hands_last=False)
    exclude = tuple(exclude) + tuple(c for c in spec.removed if c not in exclude)
    what = "placements" if placements else "sets"
    cand = candidate_placements(mission, catalog, exclude)
    if len(cand.birds) < mission.clear:
        return SolutionCount(pieces, 0, True, what)
    model = cp_model.CpModel()
    pm = add_placement_model(model, mission, cand)
    model.add(sum(pm.used.values()) == pieces)
    seen: set[frozenset] = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            chosen = pm.chosen(self.value)
            seen.add(frozenset((p.card, p.cells) for p in chosen) if placements else frozenset(p.card for p in chosen))
            if len(seen) > cap:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(0.05, time_limit - (time.perf_counter() - t0))
    code = solve_model(solver, model, Collect())  # CP-SAT's own Ctrl-C handler would outlive the count
    complete = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and len(seen) <= cap
    return SolutionCount(pieces, min(len(seen), cap), complete, what)
