"""Twin of game/engine.py: ``play_out`` finishes a game from any state; a whole game is a deal
followed by ``play_out``; ``play_many`` plays one game per seed, and ``run`` is the entry point
from Python."""

from __future__ import annotations

import contextlib
import sys

import numpy as np

from solver.core.codes import PolicyId
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
from solver.runtime.jit import errors, kernel


@kernel(hot=True)
def play_out(S, policy, mem, T):
    """engine.play_out: each decision goes to the policy with only the seat's observation and its
    own random stream. Returns the result code."""
    while S.info[I_PHASE] != OVER:
        seat = current_player(S)
        code = decide(policy, observe(S, seat), mem, T, S.rs[seat:seat + 1])
        if not is_legal_action(S, code, T):
            raise ValueError("a policy chose an action that is not legal")
        apply_action(S, code, T)
    return S.info[I_RESULT]


@kernel()
def deal_game(seed, S, T):
    """state.deal into S: the cards, the seats' random streams and the starting state."""
    start = deal(seed, S.spec, S.rs, S.hand, S.hand_count, S.set_aside, S.removed)
    start_game(S, start, T)


@kernel()
def play_many(seeds, spec, policy, T, results, rounds_played, scanned, traces):
    """engine.play_game for each seed: the deal, then play_out (state and memory reused)."""
    S = new_state(spec)
    mem = new_memory(T)
    for i in range(seeds.shape[0]):
        deal_game(seeds[i], S, T)
        reset_memory(mem)
        results[i] = play_out(S, policy, mem, T)
        rounds_played[i] = S.info[I_ROUND]
        scanned[i] = count_scanned(S.occ, S.cm, T)
        traces[i] = S.trace[0]


def run(tables, spec, seeds: np.ndarray, policy: str):
    """Play one game per seed; ``spec`` is ``spec_array(GameSpec)``. Returns (result codes, rounds
    played, birds scanned, trace hashes)."""
    n = len(seeds)
    results = np.zeros(n, np.int64)
    rounds_played = np.zeros(n, np.int64)
    scanned = np.zeros(n, np.int64)
    traces = np.zeros(n, np.uint64)
    if tables.bird_ring.shape[0] == 0:
        raise ValueError("mission has no birds")
    args = (np.asarray(seeds, np.uint64), np.asarray(spec, np.int64), int(PolicyId.parse(policy)), tables, results,
            rounds_played, scanned, traces)
    for attempt in range(3):
        try:
            play_many(*args)
            break
        except errors.TypingError:
            raise
        except Exception:  # most likely a damaged cache file: drop it and compile afresh
            if attempt == 2:
                raise
            if attempt == 0:  # the top kernel's own cache first: its callees still load from theirs
                play_many._cache.flush()
            else:
                flush_caches()
    return results, rounds_played, scanned, traces


def flush_caches() -> None:
    """Forget every cached compilation of the engine's kernels (a damaged index is overwritten)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(("solver.game.fast", "solver.runtime.bits")):
            continue
        for obj in list(vars(module).values()):
            cache = getattr(obj, "_cache", None)
            if cache is not None and hasattr(cache, "flush"):
                with contextlib.suppress(OSError):
                    cache.flush()
