"""Twin of game/engine.py: ``play_out`` finishes a game from any state; a whole game is a deal
followed by ``play_out``; ``play_many`` plays one game per seed (``batch.run`` calls it)."""

from __future__ import annotations

from solver.game.fast.board import count_scanned
from solver.game.fast.cards import deal
from solver.game.fast.policies import decide, new_memory, reset_memory
from solver.game.fast.state import (
    I_PHASE,
    I_RESULT,
    I_ROUND,
    OVER,
    apply_action,
    current_player,
    is_legal_action,
    new_state,
    observe,
    start_game,
)
from solver.runtime.jit import kernel


@kernel(hot=True, always_inline=True)
def play_out(S, policy, mem, T):
    """engine.play_out: each decision goes to the policy with only the seat's observation and its
    own random stream, copied into an array of its own (``own_rs``, never a view of the state's
    streams) and copied back after. Returns the result code."""
    while S.info[I_PHASE] != OVER:
        seat = current_player(S)
        S.own_rs[0] = S.rs[seat]
        code = decide(policy, observe(S, seat), mem, T, S.own_rs)
        S.rs[seat] = S.own_rs[0]
        if not is_legal_action(S, code, T):
            raise ValueError("a policy chose an action that is not legal")
        apply_action(S, code, T)
    return S.info[I_RESULT]


@kernel()
def deal_game(seed, seat_seeds, S, T):
    """state.deal into S: the cards, the seats' random streams (``seat_seeds``: game/seeds.py's
    one-way hash of the seed and seat) and the starting state."""
    start = deal(seed, S.spec, S.rs, S.hand, S.hand_count, S.set_aside, S.removed)
    for k in range(seat_seeds.shape[0]):
        S.rs[k] = seat_seeds[k]
    start_game(S, start, T)


@kernel(entry=True)
def play_many(seeds, seat_seeds, spec, policy, T, out):
    """engine.play_game for each seed: the deal, then play_out (state and memory reused); result
    codes, rounds played, birds scanned and trace hashes into ``out`` (results, rounds_played,
    scanned, traces)."""
    results, rounds_played, scanned, traces = out
    S = new_state(spec)
    mem = new_memory(T)
    for i in range(seeds.shape[0]):
        deal_game(seeds[i], seat_seeds[i], S, T)
        reset_memory(mem)
        results[i] = play_out(S, policy, mem, T)
        rounds_played[i] = S.info[I_ROUND]
        scanned[i] = count_scanned(S.occ, S.cm, T)
        traces[i] = S.trace[0]
