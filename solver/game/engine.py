"""The plain Python reference engine: one complete game by the rules in RULES.md.

Each decision goes to the policy with only the deciding seat's observation.
The engine keeps a trace hash of every choice; the Numba engine computes the
same hash, which is how the tests show the two agree game by game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.board import position_index
from solver.core.errors import KakapoError
from solver.game.codes import RESULT_NAMES, TRACE_IN_CHARGE, TRACE_OPTION, TRACE_PLACEMENT
from solver.game.rng import FNV_OFFSET, mix
from solver.game.state import GameState, RoundRecord, deal, decision_card, legal_cards, observe, selection_options

RESULTS = RESULT_NAMES


class PolicyError(KakapoError):
    """A policy answered with a choice that was not offered."""


def end_of_round(unplaceable: bool, scanned: int, clear: int, rnd: int, rounds: int) -> str | None:
    """The result after a round's placements, or None if the game goes on (RULES.md, step 5)."""
    if unplaceable:
        return "unplaceable"
    if scanned >= clear:
        return "cleared"
    if rnd == rounds:
        return "rounds_exhausted"
    return None


@dataclass
class GameResult:
    result: str
    rounds_played: int
    scanned: list[str]
    trace: int
    events: list[dict] = field(default_factory=list)

    @property
    def cleared(self) -> bool:
        return self.result == "cleared"


def play_game(mission, catalog, players: int, seed: int, policy, log: bool = False,
              state: GameState | None = None) -> GameResult:
    """Play one game from the deal of ``seed`` (or from a prepared ``state``, for tests)."""
    state = state or deal(mission, catalog, players, seed)
    events: list[dict] = []
    if log:
        events.append({
            "event": "setup", "mission": mission.id, "players": players, "rounds": mission.rounds,
            "skills": mission.skills, "hands": [[str(c) for c in h] for h in state.dealt],
            "set_aside": [str(c) for c in state.set_aside], "removed": [str(c) for c in state.removed],
            "start_player": state.start_player,
        })
    trace = FNV_OFFSET
    result = None
    start = state.start_player
    for rnd in range(1, mission.rounds + 1):
        state.round = rnd
        trump = state.trump
        trick = []
        for seat in state.play_order(start):
            legal = legal_cards(state.hands[seat], trick[0][1].colour if trick else None)
            card = policy.play_card(observe(state, seat, trick), legal, state.seat_rngs[seat])
            if card not in legal:
                raise PolicyError(f"policy {policy.name} played {card}, not one of {', '.join(map(str, legal))}")
            state.hands[seat].remove(card)
            trick.append((seat, card))
            trace = mix(trace, card.index)
        in_charge, decision = decision_card(trick, trump)
        trace = mix(trace, TRACE_IN_CHARGE + in_charge)
        options = selection_options(mission, state.board, trick, decision, state.skills_left)
        k = policy.select(observe(state, in_charge, trick), options, state.seat_rngs[in_charge])
        if not 0 <= k < len(options):
            raise PolicyError(f"policy {policy.name} chose option {k} of {len(options)}")
        option = options[k]
        trace = mix(trace, TRACE_OPTION + k)
        if option.skill:
            state.skills_left -= 1
        placements = []
        for piece in option.pieces:
            shape = catalog[piece]
            legal = state.board.legal_placements(piece, shape)
            if not legal:
                result = "unplaceable"
                break
            i = policy.place(observe(state, in_charge, trick), piece, legal, state.seat_rngs[in_charge])
            if not 0 <= i < len(legal):
                raise PolicyError(f"policy {policy.name} chose placement {i} of {len(legal)}")
            placement = legal[i]
            state.board.place(placement, shape)
            placements.append(placement)
            trace = mix(trace, TRACE_PLACEMENT + piece.index * TRACE_PLACEMENT + position_index(shape)[placement.cells])
        # pieces in placing order; an unplaceable piece ends the list
        attempted = option.pieces[: len(placements) + (1 if result == "unplaceable" else 0)]
        state.history.append(RoundRecord(rnd, start, trump, tuple(trick), decision, in_charge, option.skill,
                                         attempted, tuple(placements)))
        start = in_charge
        scanned = state.board.scanned()
        result = end_of_round(result == "unplaceable", len(scanned), mission.clear, rnd, mission.rounds)
        if log:
            events.append({
                "event": "round", "round": rnd, "start_player": state.history[-1].start_player,
                "trump": str(trump), "plays": [{"player": p, "card": str(c)} for p, c in trick],
                "decision": str(decision), "in_charge": in_charge, "skill": option.skill,
                "pieces": [str(c) for c in attempted], "placements": [p.to_json() for p in placements],
                "skills_left": state.skills_left, "scanned": scanned,
            })
        if result:
            break
    scanned = state.board.scanned()
    if log:
        events.append({"event": "end", "result": result, "rounds_played": state.round, "scanned": scanned})
    return GameResult(result, state.round, scanned, trace, events)
