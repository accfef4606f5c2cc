"""A logged game as a state: replay a log (``io/gamelog.py``) through the rules up to the start of a
round, so that a game can go on from there (`play --from`) or its board be solved (`solve --from`).

Every logged move is checked by ``GameState.apply``, and the keys the rules decide (the decision
card, who is in charge, the trump, the counters left, the birds scanned) against what the rules
say; the first disagreement is an InputError naming the line. A log of another mission, an edited
one or a truncated one cannot be continued, and says why.

Random streams: a policy that draws random numbers (random, greedy) continues a game exactly as
the original went on only if its seat streams are where they were. ``replay`` therefore lets the
continuing policy decide every logged move as well (its answers are not used): with the
original's policy and seed, its streams end where the original's were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from solver.core.cards import ALL_CARDS
from solver.core.errors import InputError
from solver.core.rules import Board, Mission
from solver.core.spec import GameSpec
from solver.game.actions import Action
from solver.game.engine import Policy, seat_policies
from solver.game.rng import SplitMix64
from solver.game.state import GameState, IllegalAction, Phase, position_of
from solver.io.gamelog import FIX, GameLog, LoggedRound


def check_setup(log: GameLog, mission: Mission) -> GameSpec:
    """The spec of the logged game; InputError when the log is not a game of this mission."""
    if log.mission != mission.id:
        raise InputError(log.path, f"this is a game of mission {log.mission!r}, not of {mission.id!r}",
                         f"give the mission the game was played on ({log.mission}), or another log", 1)
    spec = GameSpec.of(mission, log.players, log.path)
    for key, logged, real in (("rounds", log.rounds, spec.rounds), ("skills", log.skills, spec.skills)):
        if logged is not None and logged != real:
            raise InputError(log.path, f"the log says {key} = {logged}, the mission file {real}: the mission was "
                             "edited since this game", "give the mission file the game was played with", 1)
    dealt = [c for h in log.hands for c in h] + list(log.set_aside) + list(log.removed)
    if sorted(dealt) != sorted(ALL_CARDS) or len(set(dealt)) != len(dealt):
        raise InputError(log.path, "the hands, set-aside and removed cards are not the 40 cards, each once", FIX, 1)
    if tuple(log.removed) != spec.removed or len(log.set_aside) != spec.set_aside or \
            any(len(h) != spec.hand_size for h in log.hands):
        raise InputError(log.path, f"{spec.players} players of a {spec.mode} game hold {spec.hand_size} cards each"
                         f" with {spec.set_aside} set aside and {len(spec.removed)} removed; the setup line differs",
                         FIX, 1)
    holders = [k for k, h in enumerate(log.hands) if spec.start_card in h]
    if holders and log.start_player != holders[0]:
        raise InputError(log.path, f"player {holders[0]} holds {spec.start_card} and starts, not player "
                         f"{log.start_player}", FIX, 1)
    return spec


def start_of_log(log: GameLog, mission: Mission, catalog, seat_rngs: Sequence[SplitMix64] | None = None) -> GameState:
    """The state right after the logged deal; ``seat_rngs``: the seats' random streams (default:
    streams seeded by the seat number, for a log that says nothing of its seed)."""
    spec = check_setup(log, mission)
    hands = [sorted(h) for h in log.hands]
    rngs = list(seat_rngs) if seat_rngs is not None else [SplitMix64(k) for k in range(spec.players)]
    return GameState(spec, mission, catalog, hands, sorted(log.set_aside), log.start_player, rngs,
                     Board.start(mission), spec.skills, dealt=[list(h) for h in hands])


def replay(log: GameLog, mission: Mission, catalog, until: int | None = None,
           seat_rngs: Sequence[SplitMix64] | None = None, policy: Policy | Sequence[Policy] | None = None) -> GameState:
    """The logged game at the start of round ``until`` (default: after the last logged round).
    ``policy`` is asked every logged decision too, so that its random streams move as they did."""
    last = len(log.rounds_logged)
    if until is None:
        until = last + 1
    if not 1 <= until <= last + 1:
        raise InputError(log.path, f"the log holds rounds 1..{last}; round {until} cannot be started from it",
                         f"give --round from 1 to {last + 1}")
    state = start_of_log(log, mission, catalog, seat_rngs)
    seats = seat_policies(policy, state.players) if policy is not None else None
    for r in log.rounds_logged[: until - 1]:
        if state.is_over():
            raise InputError(log.path, f"the game ended after round {state.round} ({state.result()}), yet the log "
                             f"goes on", FIX, r.line)
        _replay_round(state, r, log.path, seats)
    if until == last + 1 and log.end is not None and not state.is_over():
        raise InputError(log.path, f"the log says the game ended ({log.end['result']}), but by the rules it goes on "
                         f"after round {last}", FIX, log.end["line"])
    if state.is_over() and log.end is not None and log.end["result"] != state.result():
        raise InputError(log.path, f"the log says {log.end['result']}, the rules say {state.result()}", FIX,
                         log.end["line"])
    return state


def _take(state: GameState, action: Action, seats, path: str, line: int) -> None:
    if seats is not None:  # the continuing policy decides too, so that its streams move as they did
        seat = state.current_player()
        seats[seat].act(state.observation(seat), state.seat_rngs[seat])
    try:
        state.apply(action)
    except IllegalAction as e:
        raise InputError(path, f"round {state.round}: {e}", FIX, line) from None


def _replay_round(state: GameState, r: LoggedRound, path: str, seats) -> None:
    def bad(problem: str) -> InputError:
        return InputError(path, f"round {r.round}: {problem}", FIX, r.line)

    if r.start_player is not None and r.start_player != state.leader:
        raise bad(f"player {state.leader} starts this round (the last round's player in charge), not "
                  f"{r.start_player}")
    if r.trump is not None and r.trump != state.trump:
        raise bad(f"the trump is {state.trump}, not {r.trump}")
    if len(r.plays) != state.spec.reveals_per_round:
        raise bad(f"a round has {state.spec.reveals_per_round} cards, not {len(r.plays)}")
    for seat, card in r.plays:
        if seat != state.current_player():
            raise bad(f"player {state.current_player()} reveals the next card, not player {seat}")
        _take(state, Action.reveal(card), seats, path, r.line)
    if r.decision is not None and r.decision != state.decision:
        raise bad(f"the decision card is {state.decision}, not {r.decision}")
    if r.in_charge is not None and r.in_charge != state.in_charge:
        raise bad(f"player {state.in_charge} is in charge, not player {r.in_charge}")
    placed = tuple(p.card for p in r.placements)
    pieces = r.pieces if r.pieces is not None else placed
    if pieces[: len(placed)] != placed:
        raise bad("the placements are not of the selected pieces, in their order")
    matches = [k for k, o in enumerate(state.options) if o.skill == r.skill and o.pieces == pieces]
    if not matches:
        offered = "; ".join(f"{o.skill.json or 'no skill'}: {', '.join(map(str, o.pieces)) or 'nothing'}"
                            for o in state.options)
        raise bad(f"no selection with {r.skill.json or 'no skill'} takes {', '.join(map(str, pieces)) or 'nothing'}"
                  f" (offered: {offered})")
    _take(state, Action.select(matches[0]), seats, path, r.line)
    for p in r.placements:
        if state.phase != Phase.PLACE:
            raise bad(f"{p.card} is placed, but {'the game is over' if state.is_over() else 'no piece is to place'}")
        try:
            position = position_of(p, state.catalog)
        except KeyError:
            raise bad(f"the cells of {p.card} ({' '.join(p.cell_names())}) are not its shape "
                      f"({state.catalog[p.card].format()}) in any rotation or reflection") from None
        _take(state, Action.place(p.card, position), seats, path, r.line)
    if len(pieces) > len(placed) and state.result() != "unplaceable":
        raise bad(f"{pieces[len(placed)]} is not placed, but it fits on the board")
    if state.phase == Phase.PLACE:
        raise bad(f"{state.piece} is selected but not placed")
    record = state.history[-1]
    if r.skills_left is not None and r.skills_left != record.skills_left:
        raise bad(f"{record.skills_left} skill counter(s) are left, not {r.skills_left}")
    if r.scanned is not None and sorted(r.scanned) != sorted(record.scanned):
        raise bad(f"the birds scanned are {', '.join(record.scanned) or 'none'}, not {', '.join(r.scanned) or 'none'}")


def board_mission(state: GameState) -> Mission:
    """The mission as it stands: the pieces on the board as pieces placed before play, and the rounds
    and skill counters left (what `solve --from` answers; the same as a mission file holding them)."""
    placed = tuple(state.board.pieces.values())
    rounds_left = state.spec.rounds - state.round + (0 if state.is_over() else 1)
    return replace(state.mission, placed=placed, rounds=rounds_left, skills=state.skills_left, source="")
