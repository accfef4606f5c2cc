"""`kakapo play`: one game with simulated players, from its deal or from a logged moment.

A game from its deal is game ``game`` of `simulate --seed seed`. A game continued from a log
(`--from LOG --round R`) is the logged game replayed through the rules up to the start of round
R, then played on by the policy; the seats' random streams are those of the seed and game, moved
by the policy over the logged rounds as in the original (``game/resume.py``), so that the
original's policy and seed repeat the original's rounds R.. exactly.

The open-hand team sees every hand and plays an exact plan (an upper bound that cheats): from
the deal, the ceiling's plan for that deal; from a logged moment, the plan the deal solver
finds from that moment (``openhand.deal.from_moment``).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.codes import OPEN_HAND, PolicyId
from solver.core.errors import InputError
from solver.core.rules import Mission
from solver.core.spec import GameSpec
from solver.game.engine import Policy, log_events, play_game, play_out, round_event, round_lines
from solver.game.resume import replay
from solver.game.roster import make_policy
from solver.game.search import DEFAULT_SAMPLES
from solver.game.seeds import game_seeds
from solver.game.state import GameState, deal
from solver.io.gamelog import GameLog, write_log
from solver.openhand.ceiling import WITNESS_POLICIES
from solver.openhand.deal import CLEARABLE, NOT_CLEARABLE, DealSolver, from_moment
from solver.openhand.plan import PlanPolicy
from solver.play import terminal


@dataclass
class PlayedGame:
    state: GameState  # at the end
    events: list[dict]  # the whole game as a log
    note: str | None  # what the open-hand solver found, if it played
    first_round: int  # the first round this run played (1 unless continued from a log)


def meta(seed: int, game: int, policy: str, samples: int | None = None) -> dict:
    """What the setup line of a log records about the run that played it (the search player's
    samples too)."""
    out: dict = {"seed": seed, "game": game, "policy": policy}
    if policy == PolicyId.SEARCH.label:
        out["samples"] = samples
    return out


def open_hand_player(m: Mission, catalog, players: int, game_seed: int, time_limit: float):
    """The open-hand plan of this deal as a policy, and a line saying what the solver found.

    Without a plan it plays the first witness policy of the ceiling that clears the deal (so that
    it clears exactly the deals ``kakapo ceiling`` counts), else the heuristic."""
    answer = DealSolver(m, catalog, players, time_limit).decide(game_seed)
    fallback = make_policy("heuristic")
    if answer.plan is None:
        for name in WITNESS_POLICIES:
            if play_game(m, catalog, players, game_seed, make_policy(name)).cleared:
                fallback = make_policy(name)
                break
    return PlanPolicy(answer.plan, fallback), _note(answer, time_limit, fallback.name)


def open_hand_from(state: GameState, time_limit: float):
    """The open-hand plan from this moment (the start of a round) as a policy, and its note."""
    mission, start = from_moment(state)
    answer = DealSolver(mission, state.catalog, state.players, time_limit).decide_state(start)
    fallback = make_policy("heuristic")
    return PlanPolicy(answer.plan, fallback, first_round=state.round), _note(answer, time_limit, fallback.name)


def _note(answer, time_limit: float, fallback: str) -> str:
    if answer.result == CLEARABLE:
        return f"open hands: clearable ({answer.seconds:.2f} s); the plan follows"
    if answer.result == NOT_CLEARABLE:
        return f"open hands: proven not clearable ({answer.seconds:.2f} s); the heuristic plays it out"
    return f"open hands: undecided within {time_limit:g} s; {fallback} plays it out"


def dealt(m: Mission, catalog, players: int, seed: int, game: int) -> GameState:
    """The deal of game ``game`` of `simulate --seed seed`."""
    return deal(m, catalog, players, int(game_seeds(seed, game, 1)[0]))


def play(m: Mission, catalog, players: int, seed: int, game: int, policy: str, time_limit: float,
         samples: int = DEFAULT_SAMPLES) -> PlayedGame:
    """Game ``game`` of `simulate --seed seed`, played by ``policy`` (or the open-hand team)."""
    game_seed = int(game_seeds(seed, game, 1)[0])
    note = None
    player: Policy
    if policy == OPEN_HAND:
        player, note = open_hand_player(m, catalog, players, game_seed, time_limit)
    else:
        player = make_policy(policy, samples)
    state = play_out(deal(m, catalog, players, game_seed), player)
    return PlayedGame(state, log_events(state, meta(seed, game, policy, samples)), note, 1)


def resume(log: GameLog, m: Mission, catalog, round_: int | None, *, seed: int, game: int, policy: str,
           players: int | None = None, samples: int = DEFAULT_SAMPLES) -> tuple[GameState, Policy | None]:
    """The logged game at the start of round ``round_`` (default: after its last round), and the
    policy that replayed it (None for the open-hand team); InputError when it is over there."""
    if players is not None and players != log.players:
        raise InputError("--players", f"the game in {log.path} has {log.players} players, not {players}",
                         "leave --players out: a continued game keeps its table")
    spec = GameSpec.of(m, log.players, log.path)
    streams = deal(m, catalog, spec.players, int(game_seeds(seed, game, 1)[0]), spec).seat_rngs
    shadow = None if policy == OPEN_HAND else make_policy(policy, samples)
    state = replay(log, m, catalog, round_, streams, shadow)
    if state.is_over():
        raise InputError(log.path, f"the game is over: {state.result()} after round {state.rounds_played()}",
                         f"give --round R with R from 1 to {state.rounds_played()} to play on from an earlier round")
    return state, shadow


def play_from(log: GameLog, m: Mission, catalog, round_: int | None, *, seed: int, game: int, policy: str,
              time_limit: float, players: int | None = None, samples: int = DEFAULT_SAMPLES) -> PlayedGame:
    """The logged game from the start of round ``round_`` (default: after its last round), played on."""
    state, shadow = resume(log, m, catalog, round_, seed=seed, game=game, policy=policy, players=players,
                           samples=samples)
    first = state.round
    note = None
    player: Policy
    if policy == OPEN_HAND:
        player, note = open_hand_from(state, time_limit)
    else:
        assert shadow is not None
        player = shadow
    play_out(state, player)
    kept = {"human": list(log.human)} if log.human else {}  # the rounds a person played stay theirs
    return PlayedGame(state, log_events(state, {**meta(seed, game, policy, samples), **kept}), note, first)


# ---------------------------------------------------------------- a person at the table
def play_human(state: GameState, humans: list[int], policy: str, samples: int, console, log_path: str,
               meta_: dict) -> PlayedGame:
    """Play ``state`` on with a person in the ``humans`` seats and ``policy`` in the others; the log
    is written after every round, so that a game ended early (``GameAbandoned``) keeps its rounds."""
    bot = make_policy(policy, samples)
    seats: list[Policy] = [terminal.HumanSeat(console, make_policy(policy, samples)) if k in humans else bot
                           for k in range(state.players)]
    first = state.round
    meta_ = {**meta_, "human": sorted(set(humans) | set(meta_.get("human", ())))}

    def finished(s: GameState) -> None:
        write_log(log_path, log_events(s, meta_))
        event = round_event(s.history[-1])
        for line in round_lines(event, lambda seat: "you" if humans == [seat] else f"player {seat}"):
            console.say(line)

    write_log(log_path, log_events(state, meta_))
    try:
        play_out(state, seats, finished)
    except KeyboardInterrupt:
        raise terminal.GameAbandoned("Ctrl-C") from None
    return PlayedGame(state, log_events(state, meta_), None, first)

