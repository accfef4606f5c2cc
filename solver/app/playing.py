"""One game at a time: `kakapo play` (the bots, the open-hand team) and `play --human` (people in
the terminal, the other seats by a policy), from a deal or from a logged moment."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from solver.app.documents import Said
from solver.app.inputs import LoggedGame, game_inputs, person_seats, samples_for, seat_numbers, table_size
from solver.app.policychoices import BATCH_DEFAULT, PLAY_POLICIES, POLICIES, TABLE_DEFAULT
from solver.core.codes import OPEN_HAND, PolicyId
from solver.core.errors import InputError
from solver.core.rules import Mission
from solver.game.state import GameState
from solver.io.catalog import Catalog
from solver.io.gamelog import GameLog
from solver.play import terminal

if TYPE_CHECKING:  # heavy at run time: OR-Tools
    from solver.play.playthrough import PlayedGame


@dataclass(frozen=True)
class Run:
    """Who plays a game and on which deal: ``seed`` and ``game`` name game I of `simulate --seed S`."""

    seed: int
    game: int
    policy: str
    samples: int

    def label(self) -> str:
        return self.policy if self.policy != PolicyId.SEARCH.label else f"search ({self.samples} samples)"


def run_of(log: GameLog | None, seed: int | None, game: int | None, policy: str | None, samples: int | None,
           default: str = BATCH_DEFAULT, known: tuple[str, ...] = PLAY_POLICIES) -> Run:
    """--seed, --game, --policy and --samples as given, else as the log records them (a continued
    game repeats the original), else their defaults."""
    logged = None if log is None else log.meta.get("policy")
    if log is not None:
        seed = log.meta.get("seed", 1) if seed is None else seed
        game = log.meta.get("game", 0) if game is None else game
    policy = policy or (logged if logged in known else default)
    if log is not None and samples is None and policy == PolicyId.SEARCH.label and policy == logged:
        samples = log.meta.get("samples")  # the original's, so that it repeats
    return Run(1 if seed is None else seed, game or 0, policy, samples_for(policy, samples))


def play(m: Mission, catalog: Catalog, players: int, run: Run, time_limit: float) -> PlayedGame:
    """Game ``run.game`` of `simulate --seed`, played by ``run.policy`` (or the open-hand team)."""
    from solver.play import playthrough  # heavy: the open-hand solver's OR-Tools

    return playthrough.play(m, catalog, players, run.seed, run.game, run.policy, time_limit, run.samples)


def play_from(lg: LoggedGame, round_: int | None, run: Run, time_limit: float, players: int | None) -> PlayedGame:
    """The logged game from the start of round ``round_`` (default: after its last round), played on."""
    from solver.play import playthrough  # heavy: the open-hand solver's OR-Tools

    return playthrough.play_from(lg.log, lg.mission, lg.catalog, round_, seed=run.seed, game=run.game,
                                 policy=run.policy, time_limit=time_limit, players=players, samples=run.samples)


@dataclass
class BotsGame:
    """`kakapo play`'s game: played by ``run`` on ``mission`` with ``players`` seats."""

    mission: Mission
    players: int
    run: Run
    played: PlayedGame


def play_bots(mission: str | None, pieces: str | None, *, players: int | None, seed: int | None, game: int | None,
              policy: str | None, samples: int | None, time_limit: float, from_log: str | None = None,
              from_round: int | None = None, noted: Said | None = None) -> BotsGame:
    """`kakapo play` without people: game ``game`` of `simulate --seed`, or the logged game
    ``from_log`` from the start of round ``from_round``, played on by the bots (with the original's
    policy and seed it repeats the original); ``noted(note)`` as in ``inputs.game_inputs``."""
    catalog, m, lg = game_inputs(mission, pieces, from_log, noted)
    if lg is not None:
        run = run_of(lg.log, seed, game, policy, samples)
        return BotsGame(m, lg.log.players, run, play_from(lg, from_round, run, time_limit, players))
    n = table_size(m, players, str(mission))
    run = run_of(None, seed, game, policy, samples)
    return BotsGame(m, n, run, play(m, catalog, n, run, time_limit))


@dataclass
class TerminalGame:
    """A game a person takes seats of, in the terminal, where it starts: the deal, or a logged moment."""

    mission: Mission
    catalog: Catalog
    players: int
    run: Run
    state: GameState
    earlier: list[int]  # the seats people played in the rounds before (a continued game)


def terminal_game(m: Mission | None, catalog: Catalog | None, players: int | None, source: str, *,
                  lg: LoggedGame | None, round_: int | None, seed: int | None, game: int | None, policy: str | None,
                  samples: int | None) -> TerminalGame:
    """`play --human`: the game a person plays, the other seats by the table's policy (default the
    planner; never the open-hand team, which sees every hand)."""
    from solver.play import playthrough  # heavy: the open-hand solver's OR-Tools

    if policy == OPEN_HAND:
        raise InputError("--policy", "the open-hand team plans every seat with every hand in view; it cannot share "
                         "a table with a person", f"give another --policy (default {TABLE_DEFAULT})")
    if lg is not None:
        run = run_of(lg.log, seed, game, policy, samples, TABLE_DEFAULT, POLICIES)
        state, _ = playthrough.resume(lg.log, lg.mission, lg.catalog, round_, seed=run.seed, game=run.game,
                                      policy=run.policy, players=players, samples=run.samples)
        return TerminalGame(lg.mission, lg.catalog, lg.log.players, run, state, list(lg.log.human))
    assert m is not None and catalog is not None
    n = table_size(m, players, source)
    run = run_of(None, seed, game, policy, samples, TABLE_DEFAULT, POLICIES)
    return TerminalGame(m, catalog, n, run, playthrough.dealt(m, catalog, n, run.seed, run.game), [])


# ---------------------------------------------------------------- people in the terminal
def people_game(mission: str | None, pieces: str | None, *, players: int | None, seed: int | None,
                game: int | None, policy: str | None, samples: int | None, from_log: str | None = None,
                from_round: int | None = None, noted: Said | None = None) -> TerminalGame:
    """`play --human`'s game where the people sit down: the deal of game ``game`` of `simulate
    --seed`, or the logged game ``from_log`` at the start of round ``from_round`` (``terminal_game``);
    ``noted(note)`` as in ``inputs.game_inputs``."""
    catalog, m, lg = game_inputs(mission, pieces, from_log, noted)
    if lg is not None:
        return terminal_game(None, None, players, str(from_log), lg=lg, round_=from_round, seed=seed, game=game,
                             policy=policy, samples=samples)
    return terminal_game(m, catalog, players, str(mission), lg=None, round_=None, seed=seed, game=game, policy=policy,
                         samples=samples)


@dataclass
class PeopleAtTable:
    """`play --human`: a game with people in ``seats`` (the others played by ``game.run``'s policy),
    logged to ``log_path`` after every round, asked and told through ``console``."""

    game: TerminalGame
    seats: list[int]
    log_path: str
    console: terminal.Console

    def bot_seats(self) -> list[int]:
        return [k for k in range(self.game.players) if k not in self.seats]


def free_log_name(mission_id: str) -> str:
    """MISSION-game-N.jsonl in the current folder, the first N not taken (nothing is overwritten)."""
    n = 1
    while Path(f"{mission_id}-game-{n}.jsonl").exists():
        n += 1
    return f"{mission_id}-game-{n}.jsonl"


def seat_people(tg: TerminalGame, human: str, log_path: str | None) -> PeopleAtTable:
    """The people's seats (``human``: "0" or "0,2", as `--human` gives them) at the game ``tg``, the
    log's name (default ``free_log_name``) and the terminal's console (plain unless standard input
    is a terminal); InputError for seats the table does not have."""
    seats = person_seats(seat_numbers(human, "--human"), tg.players)
    return PeopleAtTable(tg, seats, log_path or free_log_name(tg.mission.id), terminal.console_for())


@dataclass
class PeopleOutcome:
    """How a people's game ended: ``played`` to its end, or ended by them (``ended_by``: "end of
    input" or "Ctrl-C") in round ``round`` with ``rounds_done`` rounds finished and logged."""

    played: PlayedGame | None
    ended_by: str | None
    round: int
    rounds_done: int


def play_people(table: PeopleAtTable) -> PeopleOutcome:
    """Play the game on, each person asked on the console for their seat's decisions (seeing only
    that seat's observation), the log written after every round so that a game the people end
    keeps its finished rounds."""
    from solver.play import playthrough  # heavy: the open-hand solver's OR-Tools

    tg, run, state = table.game, table.game.run, table.game.state
    meta = {**playthrough.meta(run.seed, run.game, run.policy, run.samples), "human": tg.earlier}
    try:
        played = playthrough.play_human(state, table.seats, run.policy, run.samples, table.console, table.log_path,
                                        meta)
    except playthrough.terminal.GameAbandoned as e:
        return PeopleOutcome(None, str(e), state.round, state.rounds_played())
    return PeopleOutcome(played, None, played.state.round, played.state.rounds_played())
