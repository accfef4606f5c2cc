"""The plain Python reference engine: a game is a deal followed by ``play_out``.

``play_out`` finishes a game from any state: it asks the seat to act with only its
observation and its own random stream, checks the answer is legal and applies it. The state
keeps the trace hash of every action; the Numba engine computes the same hash, which is how
the tests show the two agree game by game. ``log_events`` writes a game (whole or so far) as
the JSON Lines log of `kakapo play --log` (docs/logs.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from solver.core.errors import KakapoError
from solver.game.actions import Action
from solver.game.rng import SplitMix64
from solver.game.state import GameState, Observation, deal
from solver.io.loginputs import setup_keys


class PolicyError(KakapoError):
    """A policy answered with an action that was not legal."""


class Policy(Protocol):
    name: str

    def act(self, obs: Observation, rng: SplitMix64) -> Action: ...


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


def seat_policies(policy: Policy | Sequence[Policy], players: int) -> list[Policy]:
    """One policy for every seat, or one per seat."""
    if isinstance(policy, Sequence):
        if len(policy) != players:
            raise ValueError(f"{len(policy)} policies for {players} seats")
        return list(policy)
    return [policy] * players


def play_out(state: GameState, policy: Policy | Sequence[Policy],
             on_round: Callable[[GameState], None] | None = None,
             stream: Callable[[GameState, int], SplitMix64] | None = None) -> GameState:
    """Play ``state`` to the end: each decision goes to the seat's policy with only that seat's
    observation and random stream (``stream(state, seat)`` if given, else the seat's own).
    ``on_round(state)`` is called after each finished round."""
    seats = seat_policies(policy, state.players)
    while not state.is_over():
        seat = state.current_player()
        obs = state.observation(seat)
        action = seats[seat].act(obs, state.seat_rngs[seat] if stream is None else stream(state, seat))
        if action not in obs.legal:
            raise PolicyError(f"policy {seats[seat].name} chose {action}, which is not legal now "
                              f"(round {state.round}, seat {seat})")
        finished = len(state.history)
        state.apply(action)
        if on_round is not None and len(state.history) > finished:
            on_round(state)
    return state


def result_of(state: GameState, log: bool = False, meta: dict | None = None) -> GameResult:
    assert state.outcome is not None
    return GameResult(state.outcome.label, state.rounds_played(), state.board.scanned(), state.trace,
                      log_events(state, meta) if log else [])


def play_game(mission, catalog, players: int, seed: int, policy: Policy | Sequence[Policy], log: bool = False,
              state: GameState | None = None, meta: dict | None = None) -> GameResult:
    """Play one game from the deal of ``seed`` (or from a prepared ``state``)."""
    state = state or deal(mission, catalog, players, seed)
    return result_of(play_out(state, policy), log, meta)


# ---------------------------------------------------------------- the log
def setup_event(state: GameState, meta: dict | None = None) -> dict[str, Any]:
    """The setup line: the deal, what played it (``meta``: seed, game, policy, human seats) and, so
    that the log reads the same anywhere, the mission's and catalog's texts (format 2)."""
    spec = state.spec
    meta = dict(meta or {})
    carried = setup_keys(state.mission, state.catalog, meta.pop("human", ()))
    return {"event": "setup", "format": carried.pop("format"), "mission": state.mission.id, "players": spec.players,
            "rounds": spec.rounds, "skills": spec.skills, "hands": [[str(c) for c in h] for h in state.dealt],
            "set_aside": [str(c) for c in state.set_aside], "removed": [str(c) for c in spec.removed],
            "start_player": state.start_player, **meta, **carried}


def round_event(r) -> dict[str, Any]:
    return {"event": "round", "round": r.round, "start_player": r.start_player, "trump": str(r.trump),
            "plays": [{"player": p, "card": str(c)} for p, c in r.plays], "decision": str(r.decision),
            "in_charge": r.in_charge, "skill": r.skill.json, "pieces": [str(c) for c in r.pieces],
            "placements": [p.to_json() for p in r.placements], "skills_left": r.skills_left,
            "scanned": list(r.scanned)}


def round_lines(e: dict, name: Callable[[int], str] | None = None) -> list[str]:
    """A finished round in words (a round line of the log); ``name(seat)``: how a seat is called
    (default "player N"; "you" for a person's seat)."""
    name = name or (lambda seat: f"player {seat}")
    plays = ", ".join(f"{name(p['player'])} {p['card']}" for p in e["plays"])
    owner = name(e["in_charge"])
    out = [f"round {e['round']} (trump {e['trump']}): {plays} -> {e['decision']} wins, {owner} in charge"]
    if e["skill"]:
        out.append(f"  {owner} used the skill {e['skill'].replace('_', ' ')} ({e['skills_left']} left)")
    for p in e["placements"]:
        out.append(f"  {owner} placed {p['piece']} at {' '.join(p['cells'])}")
    if len(e["pieces"]) > len(e["placements"]):
        out.append(f"  {e['pieces'][-1]} fits nowhere")
    elif not e["pieces"]:
        out.append("  nothing to place (piece already used)")
    out.append(f"  scanned: {', '.join(e['scanned']) or '-'}")
    return out


def log_events(state: GameState, meta: dict | None = None) -> list[dict[str, Any]]:
    """The game so far as a log (docs/logs.md): setup, one event per finished round, and the end once it is over.
    ``meta`` adds keys to the setup event (the seed, game and policy that played it)."""
    events = [setup_event(state, meta)] + [round_event(r) for r in state.history]
    if state.is_over():
        events.append({"event": "end", "result": state.result(), "rounds_played": state.rounds_played(),
                       "scanned": state.board.scanned()})
    return events
