"""The exact model of a deal from any moment of a game, the middle of a round included: whether a
team that sees every hand can still clear it, and what the cards can still do (select a piece,
win a trick, lead a round), with every rule of the card play or with one of them left out.

A moment in a round's card play (some cards revealed, or the trick complete and the selection to
make) is the deal model from the start of that round with the cards revealed so far fixed in its
first round (the lead first). A moment of placing (the selection made, a piece or two still to
place) is the deal model from the start of the next round, the pieces still to place selected
whatever the cards do (the round is over for the cards: the player in charge leads next, under
the decision card's colour). The pieces on the board are the mission's pieces placed before
play, so the answer is the same as from the start of a game with that board.

Every question is CP-SAT on one model per moment (one with the puzzle, one of the card play alone)
with the question's literals fixed, budgeted in CP-SAT's deterministic time (``Work``): the same answers on any
machine, however busy; a question not answered within the budget is ``None``, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from solver.core.cards import Card
from solver.core.rules import Board, Mission, Placement
from solver.game.actions import Phase
from solver.game.resume import board_mission
from solver.game.rng import SplitMix64
from solver.game.state import GameState
from solver.openhand.deal import (
    NOT_CLEARABLE,
    UNDECIDED,
    WALL_GUARD,
    Work,
    clear_by_model,
    with_fixed,
)
from solver.openhand.model import DealModel, RoundChoice
from solver.puzzle.cpsat import Candidates, candidate_placements, solve, solve_model, tuned_solver

# CP-SAT's parameters for a moment, in two stages (measured on the moments of lost campaign games,
# benchmarks/RESULTS.md): first no presolve and no LP relaxation, which finds a clear where there is
# one in a tenth of a second or so (the deal solver's DEAL_PARAMS took up to 40 times as long);
# then, for what FIRST_WORK leaves undecided, presolve and the full LP relaxation, which prove in
# half a second what neither the first stage nor DEAL_PARAMS proved in 30 deterministic seconds
MOMENT_PARAMS = {"linearization_level": 0, "cp_model_presolve": False}
PROOF_PARAMS = {"linearization_level": 2, "cp_model_presolve": True}
FIRST_WORK = 0.5
FEWEST_WORK = 2.0  # the puzzle's fewest pieces from a board (the campaign's: a few tenths of a second)


@dataclass(frozen=True)
class Moment:
    """A game's moment as the deal model sees it (the module docstring)."""

    mission: Mission  # the board as it stands, the rounds and skill counters left from ``first_round``
    start: GameState  # the model's first round: the hands at its start, its start player, its trump
    prefix: tuple[Card, ...]  # the first round's cards revealed already, the lead first
    pending: tuple[Card, ...]  # pieces selected and not placed yet
    first_round: int  # the game's number of the model's first round


def moment_of(state: GameState) -> Moment:
    """The deal from ``state`` (not over) as the deal model's game."""
    assert not state.is_over()
    mission = board_mission(state)
    if state.phase == Phase.PLACE:  # the cards of this round are played: the model starts at the next
        assert state.decision is not None
        mission = replace(mission, rounds=mission.rounds - 1)
        hands = [list(h) for h in state.hands]
        leader, trump = state.in_charge, state.decision.colour
        prefix: tuple[Card, ...] = ()
        pending = tuple(state.options[state.option].pieces[len(state.placed):])
        first = state.round + 1
    else:  # revealing or selecting: from the round's start, the cards revealed fixed
        hands = [sorted([*h, *(c for p, c in state.trick if p == seat)]) for seat, h in enumerate(state.hands)]
        leader, trump = state.leader, state.trump
        prefix = tuple(c for _, c in state.trick)
        pending = ()
        first = state.round
    spec = replace(state.spec, rounds=mission.rounds, skills=mission.skills, trump_round_one=trump)
    start = GameState(spec, mission, state.catalog, hands, list(state.set_aside), leader,
                      [SplitMix64(r.state) for r in state.seat_rngs], Board.start(mission), spec.skills,
                      dealt=[list(h) for h in hands])
    return Moment(mission, start, prefix, pending, first)


class MomentDeal:
    """The exact questions of one moment (the module docstring), sharing ``work``; ``shared``, what
    moments with the same board share (the puzzle's candidate placements and fewest pieces)."""

    def __init__(self, state: GameState, work: Work, shared: dict | None = None):
        self.state = state
        self.moment = moment_of(state)
        self.work = work
        self.shared = {} if shared is None else shared
        self._full: DealModel | None = None
        self._cards: DealModel | None = None
        self._lits: dict[tuple, cp_model.IntVar] = {}

    @property
    def rounds(self) -> int:
        return self.moment.mission.rounds

    def round_of(self, r: int) -> int:
        """The game's number of the model's round ``r`` (0 the first)."""
        return self.moment.first_round + r

    # ------------------------------------------------------------ the two models
    @property
    def cand(self) -> Candidates:
        key = ("cand", self.state.board.occupied)
        if key not in self.shared:
            m = self.moment
            self.shared[key] = candidate_placements(m.mission, self.state.catalog, m.start.spec.removed)
        return self.shared[key]

    def fewest(self) -> int | None:
        """The fewest new pieces (those still to place included) that clear the puzzle from this
        board, at least (None: not known within FEWEST_WORK; -1: none clears it)."""
        m = self.moment
        key = ("fewest", self.state.board.occupied, m.pending)
        if key not in self.shared:
            work = min(FEWEST_WORK, max(0.0, self.work.left()))
            answer = solve(m.mission, self.state.catalog, players=self.state.players, budget=False, place=m.pending,
                           time_limit=WALL_GUARD * work + 1.0, work_limit=work)
            self.work.spend(float(answer.stats.get("work", work)))
            if answer.status == "unsolvable":
                self.shared[key] = -1
            elif answer.status == "solvable":
                self.shared[key] = answer.pieces_used if answer.optimal else answer.lower_bound
            else:
                self.shared[key] = None
        return self.shared[key]

    @property
    def full(self) -> DealModel:
        if self._full is None:
            m = self.moment
            fewest = self.fewest()
            # redundant (as the deal solver's): no clear selects fewer pieces, a bound the search starts from
            self._full = DealModel(m.start, self.cand, min_pieces=fewest if fewest and fewest > 0 else None,
                                   prefix=m.prefix, pending=m.pending)
        return self._full

    @property
    def cards(self) -> DealModel:
        if self._cards is None:
            m = self.moment
            self._cards = DealModel(m.start, None, prefix=m.prefix, pending=m.pending, puzzle=False, rules=True)
        return self._cards

    # ------------------------------------------------------------ questions
    def clears(self, without: frozenset[Card] = frozenset()) -> tuple[str, list[RoundChoice] | None,
                                                                          list[Placement] | None]:
        """Whether a clear is still possible (selecting none of ``without``): the answer, with a
        clear's rounds and placements when there is one."""
        if self.fewest() == -1:  # no arrangement of any pieces (those still to place among them) clears it
            return NOT_CLEARABLE, None, None
        fixed = (self._lit(self.full, ("none of", without)),) if without else ()
        first = Work(min(FIRST_WORK, self.work.left()))
        answer = clear_by_model(self.full, self.moment.mission, self.state.catalog, first, fixed, MOMENT_PARAMS)
        self.work.spend(first.used)
        if answer[0] != UNDECIDED or self.work.left() <= 0:
            return answer
        return clear_by_model(self.full, self.moment.mission, self.state.catalog, self.work, fixed, PROOF_PARAMS)

    def can(self, *asks: tuple, leave_out: tuple = ()) -> bool | None:
        """Whether some order of play (with the card play's rules but ``leave_out``, see
        ``DealModel.rules``) does everything ``asks`` says: ``("all of", pieces)`` selected,
        ``("wins", card)`` (any round left) or ``("wins", card, r)``, ``("leads", seat)`` (a
        round whose lead is not revealed yet), ``("skills", k)`` (at least k counters used). None when
        not answered within the budget."""
        dm = self.cards
        return self._feasible(dm, [self._lit(dm, a) for a in asks] + dm.rules(leave_out))

    def _feasible(self, dm: DealModel, fixed: list) -> bool | None:
        if self.work.left() <= 0:
            return None
        solver = tuned_solver(WALL_GUARD * self.work.left() + 1.0, params=MOMENT_PARAMS)
        solver.parameters.max_deterministic_time = self.work.left()
        code = solve_model(solver, with_fixed(dm.model, tuple(fixed)))
        self.work.spend(solver.deterministic_time)
        if code == cp_model.INFEASIBLE:
            return False
        if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return True
        return None

    def _lit(self, dm: DealModel, ask: tuple) -> cp_model.IntVar:
        """A literal that, fixed true, makes ``ask`` hold (made once per model and question)."""
        key = (id(dm), ask)
        if key in self._lits:
            return self._lits[key]
        model = dm.model
        lit = model.new_bool_var(f"ask{len(self._lits)}")
        what = ask[0]
        if what == "none of":
            for p in ask[1]:
                model.add(dm.selected[p] == 0).only_enforce_if(lit)
        elif what == "all of":
            for p in ask[1]:
                model.add(dm.selected[p] >= 1).only_enforce_if(lit)
        elif what == "wins":
            card = ask[1]
            rounds = range(dm.R) if len(ask) == 2 else (ask[2],)
            if card in dm.holder:
                model.add(sum(dm.win[card, r] for r in rounds) >= 1).only_enforce_if(lit)
            else:
                model.add(lit == 0)
        elif what == "leads":
            seat = ask[1]
            mine = [c for c in dm.cards if dm.holder[c] == seat]
            begun = 1 if self.moment.prefix else 0  # a round whose lead is not played yet
            model.add(sum(dm.lead[c, r] for c in mine for r in range(begun, dm.R)) >= 1).only_enforce_if(lit)
        elif what == "skills":
            model.add(sum(dm.skill_used) >= ask[1]).only_enforce_if(lit)
        else:
            raise ValueError(f"no such question: {ask}")
        self._lits[key] = lit
        return lit

