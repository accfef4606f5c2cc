"""What a costly decision made impossible or harder on the board and in the puzzle, from the exact
puzzle before and after it (the reasons `kakapo solve` proves, asked of the game's moment). A
review knows every hand once the game is over; the puzzle at a moment is:

- the board as it stands (the pieces on it placed before play) with the rounds and skill counters
  left;
- the pieces that can still come to the board: those whose card is still in a hand or in the
  trick being played (as if any such card could yet win a trick: who holds it, who must follow and who leads
  are the exact deal's questions, ``review_deal``), with, while skill counters are left, the
  pieces a skill reaches from them (another colour of the same value, one value up or down in the
  same colour), and the pieces selected but not placed yet; every other piece is out of reach.

Compared before and after the move, in this order, the first that applies:
1. a bird that could be scanned before and cannot after (its coloured side covered by another
   colour, a side or cell no piece still within reach can cover: which piece is in the way);
2. too few birds left for the mission;
3. the puzzle itself: no set of the pieces within reach clears it any more, or it needs more new
   pieces than the rounds left can bring, or more than before;
4. the cards: a piece a clear needed can no longer be won;
5. else nothing (``puzzle_reasons``); ``reasons`` then says the generic sentence (``chance``), and
   the review first asks the exact deal and the continuations (``review_explain``).
"""

from __future__ import annotations

from typing import Any

from solver.core.board import all_positions, cell_name, parse_cell
from solver.core.cards import ALL_CARDS, Card
from solver.core.rules import Mission, grow, mask_of
from solver.core.spec import selectable_pieces
from solver.game.actions import Action, ActionKind
from solver.game.resume import board_mission
from solver.game.state import GameState, Phase

SOLVE_WORK = 1.0  # the exact puzzle at one moment, in CP-SAT's deterministic seconds (the same answer however
# busy the machine is); a reason not proven within it is not said
SOLVE_SECONDS = 20.0  # a wall-clock net under it


def within_reach(state: GameState) -> set[Card]:
    """The pieces that can still come to the board from this moment (the module docstring)."""
    # the cards on the table can still win only while the trick is being played (after it, the
    # selection's pieces are the ones it gives)
    held = {c for h in state.hands for c in h} | ({c for _, c in state.trick} if state.phase == Phase.REVEAL else set())
    reach = set(held)
    if state.skills_left > 0:
        for c in held:
            reach |= {Card(col, c.value) for col in type(c.colour)}
            reach |= {Card(c.colour, v) for v in (c.value - 1, c.value + 1) if 1 <= v <= 8}
    if state.phase == Phase.SELECT:
        reach |= {p for o in state.options for p in o.pieces}
    if state.phase == Phase.PLACE:
        reach |= set(state.options[state.option].pieces[len(state.placed):])
    return {c for c in reach if not state.board.is_used(c) and c not in state.spec.removed}


class Puzzle:
    """The exact puzzle at a game's moments, solved once per board and reach."""

    def __init__(self, catalog, players: int):
        self.catalog, self.players = catalog, players
        self._solved: dict[tuple, Any] = {}

    def of(self, state: GameState) -> tuple[Mission, tuple[Card, ...]]:
        mission = board_mission(state)
        reach = within_reach(state)
        return mission, tuple(c for c in ALL_CARDS if c not in reach and not state.board.is_used(c))

    def dead(self, state: GameState) -> dict[str, dict]:
        from solver.puzzle.reasons import dead_birds  # heavy: OR-Tools

        mission, out_of_reach = self.of(state)
        return dead_birds(mission, self.catalog, self.players, out_of_reach, "can no longer be won")

    def fewest(self, state: GameState):
        """The fewest new pieces within reach that clear the mission from here (no budget)."""
        from solver.puzzle.cpsat import solve  # heavy: OR-Tools

        mission, out_of_reach = self.of(state)
        pending = tuple(pending_pieces(state))
        key = (state.board.occupied, tuple(sorted(p.card.index for p in state.board.pieces.values())), out_of_reach,
               pending)
        if key not in self._solved:
            self._solved[key] = solve(mission, self.catalog, exclude=out_of_reach, players=self.players, budget=False,
                                      time_limit=SOLVE_SECONDS, work_limit=SOLVE_WORK, place=pending)
        return self._solved[key]


def pending_pieces(state: GameState) -> list[Card]:
    """The pieces selected and not placed yet: they must be placed (placing is compulsory)."""
    return list(state.options[state.option].pieces[len(state.placed):]) if state.phase == Phase.PLACE else []


def budget_left(state: GameState) -> int:
    """The most new pieces the rounds and skill counters left can still bring (the pieces selected
    and not placed yet included)."""
    pending = len(pending_pieces(state))
    rounds = state.spec.rounds - state.round + (1 if state.phase in (Phase.REVEAL, Phase.SELECT) else 0)
    return pending + selectable_pieces(max(0, rounds), state.skills_left)


def reasons(puzzle: Puzzle, before: GameState, action: Action, rate_played: float, rate_best: float,
            best: str) -> list[dict]:
    """What ``action`` at ``before`` made impossible or harder: ``[{"kind", "bird", "cells", "text"}]``
    (the generic sentence when nothing did)."""
    return puzzle_reasons(puzzle, before, action) or [chance(rate_played, rate_best, best)]


def chance(rate_played: float, rate_best: float, best: str) -> dict:
    """The generic sentence: nothing became impossible that the review can name."""
    return {"kind": "chance", "bird": None, "cells": [],
            "text": f"nothing became impossible, but the move left fewer ways to win the tricks and pieces "
                    f"still needed: a careful table clears {100 * rate_played:.0f} % after it, "
                    f"{100 * rate_best:.0f} % after {best}"}


def puzzle_reasons(puzzle: Puzzle, before: GameState, action: Action) -> list[dict]:
    """What ``action`` at ``before`` made impossible or harder on the board or in the puzzle (rules 1
    to 4 of the module docstring), or nothing."""
    after = before.clone()
    after.apply(action)
    placed = _placed_cells(before, action)
    out = []
    dead_before, dead_after = puzzle.dead(before), puzzle.dead(after)
    for letter, r in dead_after.items():
        if letter in dead_before:
            continue
        text = r["message"]
        near = _in_the_way(placed, r["cells"])
        if near:
            text += f" ({action.card}, placed at {' '.join(sorted(placed))}, is in the way)"
        out.append({"kind": r["code"], "bird": letter, "cells": list(r["cells"]) or [], "text": text})
    m = before.mission
    live_before = len(m.birds) - len(dead_before)
    live_after = len(m.birds) - len(dead_after)
    if live_after < m.clear <= live_before:
        out.append({"kind": "too_few_birds", "bird": None, "cells": [],
                    "text": f"only {live_after} bird(s) can still be scanned; the mission needs {m.clear}"})
    if out:
        return out
    if not after.is_over() or after.result() != "cleared":
        was, now = puzzle.fewest(before), puzzle.fewest(after)
        need_before = was.pieces_used
        need_after = now.pieces_used
        left = budget_left(after)
        forced = ", ".join(map(str, pending_pieces(after)))
        must = f"{forced} must now be placed, and " if forced and action.kind == ActionKind.SELECT else ""
        if now.status == "unsolvable" and was.status == "solvable":
            return [{"kind": "birds_conflict", "bird": None, "cells": [],
                     "text": must + ("wherever it goes, " if must else "") + "no set of the pieces still within reach "
                             "can scan the birds the mission needs any more (before it, one could)"}]
        if need_after is not None and need_before is not None:
            if need_after > left >= need_before:
                return [{"kind": "piece_budget", "bird": None, "cells": [],
                         "text": must + f"a clear now needs at least {need_after} new pieces, and the rounds left "
                                 f"bring at most {left} (before it, {need_before} would do)"}]
            if need_after > need_before:
                return [{"kind": "more_pieces", "bird": None, "cells": [],
                         "text": must + f"a clear now needs at least {need_after} new pieces, not {need_before}, with "
                                 f"{left} still to come"}]
        lost = within_reach(before) - within_reach(after) - set(after.board.pieces)  # placed is not lost
        needed = {p.card for p in getattr(was, "placements", [])}
        if lost & needed:
            names = ", ".join(map(str, sorted(lost & needed)))
            return [{"kind": "cards", "bird": None, "cells": [],
                     "text": f"{names}, a piece of the quickest clear, can no longer be won"}]
    return []


def _placed_cells(state: GameState, action: Action) -> set[str]:
    if action.kind != ActionKind.PLACE or action.card is None:
        return set()
    return {cell_name(c) for c in all_positions(state.catalog[action.card])[action.index]}


def _in_the_way(placed: set[str], cells: list[str]) -> bool:
    """Whether a piece placed on ``placed`` covers or touches one of ``cells``."""
    return bool(grow(mask_of(parse_cell(c) for c in cells)) & mask_of(parse_cell(c) for c in placed))
