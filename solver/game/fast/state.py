"""Twin of game/state.py's GameState: the state of a game as one named record of arrays
(``FastState``), and the kernels that list the legal actions, apply one, and build a seat's
observation (``FastObs``) from it.

Actions are their integer codes (game/actions.py). ``apply_action`` does everything that
follows without a decision, as ``GameState.apply`` does: the decision card and the seat in
charge when a trick is complete, the end of a round, a selected piece that fits nowhere.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from solver.core.codes import NOT_OVER, Result
from solver.core.spec import (
    SPEC_ASIDE,
    SPEC_BUDDY,
    SPEC_BUDGET,
    SPEC_HAND,
    SPEC_PER_ROUND,
    SPEC_PLAYERS,
    SPEC_REMOVED,
    SPEC_REVEALS,
    SPEC_ROUNDS,
    SPEC_SIZE,
    SPEC_SKILL_KINDS,
    SPEC_SKILLS,
    SPEC_START_CARD,
    SPEC_TRUMP1,
    GameSpec,
)
from solver.game.actions import IN_CHARGE_EVENT, PLACE_BASE, SELECT_BASE, Phase
from solver.game.fast.board import count_scanned, has_legal_position, is_legal, place
from solver.game.fast.cards import MAX_OPTIONS, OPT_A, OPT_N, OPT_SKILL, decision_card, legal_cards, selection_options
from solver.game.fast.rng import FNV_OFFSET, mix
from solver.game.state import GameState, Observation
from solver.game.state import decision_card as reference_decision
from solver.runtime.bits import copy_into, copy_into_2d, split
from solver.runtime.jit import kernel

REVEAL, SELECT, PLACE, OVER = (int(p) for p in Phase)
CLEARED, ROUNDS_EXHAUSTED, UNPLACEABLE_RESULT = (int(r) for r in Result)
MAX_TRICK = 5  # cards of a round (4 at most) and one more for the policies' what-if
MAX_MOVES = 128  # actions of a game: at most 13 rounds of 4 cards, a selection and 2 placements

# slots of FastState.info, the state's scalars
I_ROUND, I_PHASE, I_LEADER, I_START, I_TRUMP, I_SKILLS, I_NT, I_IN_CHARGE = 0, 1, 2, 3, 4, 5, 6, 7
I_WIN, I_NOPT, I_OPTION, I_NPLACED, I_RESULT, I_NMOVES = 8, 9, 10, 11, 12, 13
INFO_SIZE = 14

FastState = namedtuple("FastState", [
    "spec",  # int64[SPEC_SIZE]: spec_array(GameSpec)
    "info",  # int64[INFO_SIZE]: round, phase, round's start player, ... (slots I_*)
    "hand",  # int64[players, 40]: 1 where the seat holds the card
    "hand_count",  # int64[players]
    "set_aside",  # int64[40]
    "removed",  # int64[40]: out of the game (public)
    "seen",  # int64[40]: revealed so far, this round's cards included (public)
    "pile",  # int64[40]: decision cards so far (public)
    "trick", "trick_player",  # int64[MAX_TRICK]: this round's cards and who revealed them
    "opts",  # int64[MAX_OPTIONS, 4]: this round's selection options (cards.OPT_* columns)
    "occ", "cm", "used",  # the board: occupied words, words per colour, pieces used
    "rs",  # uint64[players + 1]: each seat's random stream (game/seeds.py); rs[players] the deal's
    "trace",  # uint64[1]: the trace hash so far
    "moves",  # int64[MAX_MOVES]: the action codes so far (public)
    # what a seat is handed at a decision, in arrays of their own: a copy of its hand row
    # (``observe``) and of its random stream (play.play_out), never a view of ``hand`` or ``rs``
    "own_hand",  # int64[40]
    "own_rs",  # uint64[1]
])
FastState.__doc__ = "One game's whole truth, as the Numba kernels read and write it (see the module docstring)."

# What a seat sees (``observe``): a copy of its own hand row and the public arrays of the state;
# no other hand, no set-aside card and no random stream. Its own stream is handed to its policy
# beside the observation, copied into ``own_rs`` (play.play_out), never a slice of ``rs``.
FastObs = namedtuple("FastObs", ["seat", "spec", "info", "hand", "hand_count", "removed", "seen", "pile", "trick",
                                 "trick_player", "opts", "occ", "cm", "used", "moves"])


def spec_array(spec: GameSpec) -> np.ndarray:
    """The spec as an int64 array with core/spec.py's ``SPEC_*`` slots, as the kernels read it."""
    a = np.zeros(SPEC_SIZE, np.int64)
    a[SPEC_PLAYERS], a[SPEC_BUDDY], a[SPEC_HAND], a[SPEC_ASIDE] = spec.players, spec.buddy, spec.hand_size, \
        spec.set_aside
    a[SPEC_PER_ROUND], a[SPEC_REVEALS], a[SPEC_ROUNDS] = spec.cards_per_round, spec.reveals_per_round, spec.rounds
    a[SPEC_SKILLS], a[SPEC_BUDGET], a[SPEC_TRUMP1] = spec.skills, spec.piece_budget, int(spec.trump_round_one)
    a[SPEC_START_CARD] = spec.start_card.index
    a[SPEC_SKILL_KINDS] = sum(1 << int(k) for k in spec.skill_kinds)
    a[SPEC_REMOVED] = sum(1 << c.index for c in spec.removed)
    return a


@kernel()
def new_state(spec):
    """Arrays for one game of this spec (``spec_array``); ``deal_game`` deals into them."""
    players = spec[SPEC_PLAYERS]
    return FastState(spec.copy(), np.zeros(INFO_SIZE, np.int64), np.zeros((players, 40), np.int64),
                     np.zeros(players, np.int64), np.zeros(40, np.int64), np.zeros(40, np.int64),
                     np.zeros(40, np.int64), np.zeros(40, np.int64), np.zeros(MAX_TRICK, np.int64),
                     np.zeros(MAX_TRICK, np.int64), np.zeros((MAX_OPTIONS, 4), np.int64), np.zeros(3, np.int64),
                     np.zeros((5, 3), np.int64), np.zeros(40, np.int64), np.zeros(players + 1, np.uint64),
                     np.zeros(1, np.uint64), np.zeros(MAX_MOVES, np.int64), np.zeros(40, np.int64),
                     np.zeros(1, np.uint64))


@kernel(entry=True)
def new_state_py(spec):
    """``new_state`` for Python callers (kernels call ``new_state``, kept as IR: runtime/linkonly.py)."""
    return new_state(spec)


@kernel()
def start_game(S, start, T):
    """The state right after the deal (``GameState`` as ``state.deal`` makes it): the mission's
    board, round 1, the spec's counters and trump."""
    copy_into(S.occ, T.occupied)
    copy_into_2d(S.cm, T.colour_masks)
    copy_into(S.used, T.used)
    S.seen[:] = 0
    S.pile[:] = 0
    S.info[:] = 0
    S.info[I_ROUND] = 1
    S.info[I_PHASE] = REVEAL
    S.info[I_LEADER] = start
    S.info[I_START] = start
    S.info[I_TRUMP] = S.spec[SPEC_TRUMP1]
    S.info[I_SKILLS] = S.spec[SPEC_SKILLS]
    S.info[I_IN_CHARGE] = -1
    S.info[I_OPTION] = -1
    S.info[I_RESULT] = NOT_OVER
    S.trace[0] = FNV_OFFSET


@kernel(hot=True)
def end_check(unplaceable, scanned, clear, rnd, rounds):
    """state.end_of_round: unplaceable, cleared, out of rounds, or go on (NOT_OVER)."""
    if unplaceable:
        return UNPLACEABLE_RESULT
    if scanned >= clear:
        return CLEARED
    if rnd == rounds:
        return ROUNDS_EXHAUSTED
    return NOT_OVER


@kernel(hot=True)
def current_player(S):
    """GameState.current_player: -1 once the game is over."""
    phase = S.info[I_PHASE]
    if phase == REVEAL:
        players = S.spec[SPEC_PLAYERS]
        return (S.info[I_LEADER] + S.info[I_NT]) % players  # spec.play_order: clockwise, round and round
    if phase == OVER:
        return -1
    return S.info[I_IN_CHARGE]


@kernel(hot=True)
def piece_to_place(S):
    """GameState.piece: the selected piece to place now."""
    return S.opts[S.info[I_OPTION], OPT_A + S.info[I_NPLACED]]


@kernel(hot=True)
def legal_actions(S, T, out):
    """GameState.legal_actions into out (codes, in the same order); returns how many."""
    phase = S.info[I_PHASE]
    if phase == REVEAL:
        seat = current_player(S)
        lead = S.trick[0] // 8 if S.info[I_NT] > 0 else -1
        return legal_cards(S.hand[seat], lead, out)
    if phase == SELECT:
        for k in range(S.info[I_NOPT]):
            out[k] = SELECT_BASE + k
        return S.info[I_NOPT]
    if phase == PLACE:
        piece = piece_to_place(S)
        col = piece // 8
        pm, ph, ba = T.pos_mask, T.pos_halo, T.bird_all
        n = 0
        for g in range(T.pos_start[piece], T.pos_start[piece + 1]):
            if is_legal(g, col, S.occ, S.cm, pm, ph, ba):
                out[n] = PLACE_BASE * (piece + 1) + g - T.pos_start[piece]
                n += 1
        return n
    return 0


@kernel(hot=True)
def is_legal_action(S, code, T):
    """Would ``apply_action`` accept this code now?"""
    phase = S.info[I_PHASE]
    if phase == REVEAL:
        if not 0 <= code < 40:
            return False
        seat = current_player(S)
        if not S.hand[seat, code]:
            return False
        if S.info[I_NT] == 0 or code // 8 == S.trick[0] // 8:
            return True
        lead = S.trick[0] // 8
        for c in range(lead * 8, lead * 8 + 8):
            if S.hand[seat, c]:
                return False  # must follow
        return True
    if phase == SELECT:
        return SELECT_BASE <= code < SELECT_BASE + S.info[I_NOPT]
    if phase == PLACE:
        piece = piece_to_place(S)
        if code // PLACE_BASE != piece + 1:
            return False
        g = T.pos_start[piece] + code % PLACE_BASE
        return g < T.pos_start[piece + 1] and is_legal(g, piece // 8, S.occ, S.cm, T.pos_mask, T.pos_halo,
                                                       T.bird_all)
    return False


@kernel(hot=True)
def end_round(S, unplaceable, T):
    """GameState._end_round: the clear check, then the next round or the end."""
    info = S.info
    decision = S.trick[info[I_WIN]]
    result = end_check(unplaceable, count_scanned(S.occ, S.cm, T), T.clear, info[I_ROUND], S.spec[SPEC_ROUNDS])
    info[I_TRUMP] = decision // 8
    info[I_LEADER] = info[I_IN_CHARGE]
    info[I_NT] = 0
    info[I_NOPT] = 0
    info[I_OPTION] = -1
    info[I_NPLACED] = 0
    info[I_IN_CHARGE] = -1
    info[I_WIN] = 0
    if result != NOT_OVER:
        info[I_RESULT] = result
        info[I_PHASE] = OVER
    else:
        info[I_ROUND] += 1
        info[I_PHASE] = REVEAL


@kernel(hot=True)
def next_piece(S, T):
    """GameState._next_piece: the next selected piece, or the end of the round."""
    info = S.info
    done = info[I_NPLACED] == S.opts[info[I_OPTION], OPT_N]
    if not done and has_legal_position(piece_to_place(S), S.occ, S.cm, T):
        info[I_PHASE] = PLACE
    else:
        # a piece that fits nowhere: placing is compulsory, the mission fails at once. One call
        # with a variable: literal True and False would compile end_round twice
        end_round(S, not done, T)


@kernel(hot=True, always_inline=True)
def apply_action(S, code, T):
    """GameState.apply: take the action (a code, legal: ``is_legal_action``) and what follows."""
    info = S.info
    phase = info[I_PHASE]
    if phase == REVEAL:
        seat = current_player(S)
        nt = info[I_NT]
        S.hand[seat, code] = 0
        S.hand_count[seat] -= 1
        S.trick[nt] = code
        S.trick_player[nt] = seat
        S.seen[code] = 1
        nt += 1
        info[I_NT] = nt
        S.trace[0] = mix(S.trace[0], code)
        if nt == S.spec[SPEC_REVEALS]:
            wi = decision_card(S.trick, nt, info[I_TRUMP])
            info[I_WIN] = wi
            info[I_IN_CHARGE] = S.trick_player[wi]
            S.pile[S.trick[wi]] = 1
            S.trace[0] = mix(S.trace[0], IN_CHARGE_EVENT + S.trick_player[wi])
            info[I_NOPT] = selection_options(S.spec, S.used, S.trick, nt, S.trick[wi], info[I_SKILLS], S.opts)
            info[I_PHASE] = SELECT
    elif phase == SELECT:
        k = code - SELECT_BASE
        info[I_OPTION] = k
        S.trace[0] = mix(S.trace[0], code)
        if S.opts[k, OPT_SKILL] != 0:
            info[I_SKILLS] -= 1
        info[I_NPLACED] = 0
        next_piece(S, T)
    else:
        piece = piece_to_place(S)
        g = T.pos_start[piece] + code % PLACE_BASE
        place(T.pos_mask[g], piece, S.occ, S.cm, S.used)
        S.trace[0] = mix(S.trace[0], code)
        info[I_NPLACED] += 1
        next_piece(S, T)
    S.moves[info[I_NMOVES]] = code
    info[I_NMOVES] += 1


# inlined where it is called: the record it returns holds views made here, which a kernel without
# reference counting (play_out) may hold only when no call returns them
@kernel(inline=True, entry=True)
def observe(S, seat):
    """GameState.observation: the seat's own hand (copied into ``own_hand``: no view of the hands'
    array, whose other rows are the other seats') and the public arrays, nothing else."""
    for c in range(40):
        S.own_hand[c] = S.hand[seat, c]
    return FastObs(seat, S.spec, S.info, S.own_hand, S.hand_count, S.removed, S.seen, S.pile, S.trick,
                   S.trick_player, S.opts, S.occ, S.cm, S.used, S.moves)


@kernel()
def copy_state(src, dst):
    """dst := src, array by array, without allocating (GameState.clone into a state kept for reuse)."""
    copy_into(dst.spec, src.spec)
    copy_into(dst.info, src.info)
    copy_into_2d(dst.hand, src.hand)
    copy_into(dst.hand_count, src.hand_count)
    copy_into(dst.set_aside, src.set_aside)
    copy_into(dst.removed, src.removed)
    copy_into(dst.seen, src.seen)
    copy_into(dst.pile, src.pile)
    copy_into(dst.trick, src.trick)
    copy_into(dst.trick_player, src.trick_player)
    copy_into_2d(dst.opts, src.opts)
    copy_into(dst.occ, src.occ)
    copy_into_2d(dst.cm, src.cm)
    copy_into(dst.used, src.used)
    copy_into(dst.rs, src.rs)
    copy_into(dst.trace, src.trace)
    copy_into(dst.moves, src.moves)
    copy_into(dst.own_hand, src.own_hand)
    copy_into(dst.own_rs, src.own_rs)


def clone_state(S: FastState) -> FastState:
    """An independent copy (GameState.clone)."""
    return FastState(*(a.copy() for a in S))


def _public_into(S: FastState, view: GameState | Observation, leader: int, start: int, in_charge: int,
                 decision) -> None:
    """The public arrays and scalars of a moment into S, from a state or an observation (both
    have these fields): counters, the trick, the pile, the options, the board, the moves."""
    info = S.info
    info[I_ROUND], info[I_PHASE], info[I_LEADER], info[I_START] = view.round, view.phase, leader, start
    info[I_TRUMP], info[I_SKILLS], info[I_NT] = int(view.trump), view.skills_left, len(view.trick)
    info[I_IN_CHARGE], info[I_OPTION], info[I_NPLACED] = in_charge, view.option, len(view.placed)
    info[I_RESULT] = NOT_OVER
    info[I_NMOVES] = len(view.moves)
    for c in view.removed:
        S.removed[c.index] = 1
    for r in view.history:
        S.pile[r.decision.index] = 1
        for _, c in r.plays:
            S.seen[c.index] = 1
    for i, (seat, c) in enumerate(view.trick):
        S.trick[i], S.trick_player[i] = c.index, seat
        S.seen[c.index] = 1
    if decision is not None:
        S.pile[decision.index] = 1
        info[I_WIN] = [c for _, c in view.trick].index(decision)
    info[I_NOPT] = len(view.options)
    for k, o in enumerate(view.options):
        S.opts[k, OPT_SKILL], S.opts[k, OPT_N] = int(o.skill), len(o.pieces)
        for j, c in enumerate(o.pieces):
            S.opts[k, OPT_A + j] = c.index
    S.occ[:] = split(view.board.occupied)
    for col in range(5):
        S.cm[col] = split(view.board.colour_masks[col])
    for c in view.board.pieces:
        S.used[c.index] = 1
    for i, a in enumerate(view.moves):
        S.moves[i] = a.code


def fast_state(state: GameState) -> FastState:
    """The FastState of a reference state, at any moment of the game (the deal's own random
    stream, which nothing uses after the deal, is 0)."""
    S = new_state_py(spec_array(state.spec))
    _public_into(S, state, state.leader, state.start_player, state.in_charge, state.decision)
    if state.outcome is not None:
        S.info[I_RESULT] = int(state.outcome)
    for k, hand in enumerate(state.hands):
        S.hand_count[k] = len(hand)
        for c in hand:
            S.hand[k, c.index] = 1
    for c in state.set_aside:
        S.set_aside[c.index] = 1
    for k, r in enumerate(state.seat_rngs):
        S.rs[k] = r.state
    S.trace[0] = state.trace
    return S


def fast_observation(obs: Observation) -> FastObs:
    """The FastObs of a reference observation: what ``observe`` gives that seat in the
    FastState of the same moment (built from the observation alone, so a policy that calls a
    kernel with it still sees only its seat's view)."""
    S = new_state_py(spec_array(obs.spec))
    in_charge, decision = reference_decision(obs.trick, obs.trump) if obs.phase in (SELECT, PLACE) else (-1, None)
    start = obs.history[0].start_player if obs.history else obs.start_player
    _public_into(S, obs, obs.start_player, start, in_charge, decision)
    S.hand_count[:] = obs.hand_sizes
    for c in obs.hand:
        S.hand[obs.seat, c.index] = 1
    return observe(S, obs.seat)
