"""Helpers of the twin tests: reference games cut into moments, and both engines at one moment."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np

from solver.game.arrays import build_arrays
from solver.game.fast.state import (
    I_NMOVES,
    I_NOPT,
    I_NT,
    I_PHASE,
    MAX_MOVES,
    PLACE,
    SELECT,
    fast_state,
)
from solver.game.planner import PlannerPolicy
from solver.game.roster import make_policy
from solver.game.state import deal
from solver.puzzle.library import build_library
from tests.helpers.doors import doors

legal_actions = doors("solver.game.fast.state").legal_actions
new_memory = doors("solver.game.fast.policies").new_memory
reset_memory = doors("solver.game.fast.policies").reset_memory

LIBRARY_BUDGET = 20000  # search nodes: a small library, quick to build (parity holds for any library)


_CACHE: dict = {}


def twin(*kernels):
    """Marks a test as the parity test of these kernels (module.kernel, as in fast.TWINS); the
    marks are read from the test files' text by ``named_twins`` (tests/game/test_kernels.py checks
    that every kernel has one)."""
    return lambda f: f


def named_twins(folder: Path) -> set[str]:
    """The kernels named by a ``@twin(...)`` mark in the test files under ``folder``, read from
    their text (a test file imports no other test file): each argument a string, or ``*NAME`` of
    a tuple of strings assigned at the top of that file."""
    out: set[str] = set()
    for path in sorted(folder.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                     for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(tree):
            for mark in getattr(node, "decorator_list", []):
                if isinstance(mark, ast.Call) and isinstance(mark.func, ast.Name) and mark.func.id == "twin":
                    for arg in mark.args:
                        if isinstance(arg, ast.Starred):
                            out.update(ast.literal_eval(constants[arg.value.id]))
                        else:
                            out.add(ast.literal_eval(arg))
    return out


def small_library(mission, catalog) -> tuple:
    key = ("library", mission, id(catalog))
    if key not in _CACHE:
        _CACHE[key] = tuple(build_library(mission, catalog, budget=LIBRARY_BUDGET)[:256])
    return _CACHE[key]


def arrays_for(mission, catalog, with_library: bool):
    key = ("tables", mission, id(catalog), with_library)
    if key not in _CACHE:
        _CACHE[key] = build_arrays(mission, catalog, small_library(mission, catalog) if with_library else ())
    return _CACHE[key]


def reference_policy(name: str, mission, catalog):
    """The Python policy of that name (the planner with the small library)."""
    return PlannerPolicy(small_library(mission, catalog)) if name == "planner" else make_policy(name)


def moments(mission, catalog, players: int, policy: str, seed: int):
    """(state, action) at every decision of one reference game: the state before the action
    (a clone) and the action the policy took there."""
    pol = reference_policy(policy, mission, catalog)
    state = deal(mission, catalog, players, seed)
    out = []
    while not state.is_over():
        seat = state.current_player()
        before = state.clone()
        action = pol.act(state.observation(seat), state.seat_rngs[seat])
        out.append((before, action))
        state.apply(action)
    return out, state


def canonical(S) -> dict:
    """The arrays of a FastState that say something about the game (no stale scratch past the counts)."""
    out = {name: np.array(a) for name, a in zip(S._fields, S, strict=True)}
    nt, nopt, n = int(S.info[I_NT]), int(S.info[I_NOPT]), int(S.info[I_NMOVES])
    if int(S.info[I_PHASE]) not in (SELECT, PLACE):
        nopt = 0
    out["trick"][nt:] = 0
    out["trick_player"][nt:] = 0
    out["opts"][nopt:] = 0
    for k in range(nopt):  # the pieces past a row's count
        out["opts"][k, 2 + out["opts"][k, 1]:] = 0
    out["moves"][n:] = 0
    out["rs"][-1] = 0  # the deal's own stream: used only by the deal
    del out["own_hand"], out["own_rs"]  # what the last seat to decide was handed: scratch
    return out


def assert_same_state(state, S, where=""):
    want, got = canonical(fast_state(state)), canonical(S)
    for name in want:
        assert np.array_equal(want[name], got[name]), f"{where}: {name} differs: {want[name]} != {got[name]}"


def fast_legal(S, T) -> list[int]:
    out = np.zeros(2048, np.int64)
    return sorted(int(x) for x in out[: legal_actions(S, T, out)])


def fresh_memory(T):
    mem = new_memory(T)
    reset_memory(mem)
    return mem


__all__ = [
    "MAX_MOVES",
    "arrays_for",
    "assert_same_state",
    "canonical",
    "fast_legal",
    "fresh_memory",
    "moments",
    "named_twins",
    "reference_policy",
    "small_library",
    "twin",
]
