"""The commands about games: `kakapo play` (bots, the open-hand team, a person in the terminal),
`review` and `rate`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from solver.app.inputs import (
    LoggedGame,
    logged_game,
    rated_seats,
)
from solver.app.outputs import check_output_path
from solver.app.playing import people_game, play_bots, play_people, seat_people
from solver.app.policychoices import BATCH_DEFAULT, PLAY_POLICIES, TABLE_DEFAULT
from solver.app.reviewing import review as review_game
from solver.app.sheets import game_of_sheet_file, read_game_file, sheet_of
from solver.app.tables import rate as run_rate
from solver.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_NO,
    EXIT_OK,
    POLICY_HELP,
    ProgressBar,
    cluster_options,
    cluster_status,
    emit_json,
    from_option,
    json_option,
    no_workers_exit,
    pieces_option,
    print_answer,
    round_option,
    samples_option,
    say_note,
    seed_option,
    user_errors,
    workers_option,
)
from solver.cli.group import main
from solver.core.codes import OPEN_HAND
from solver.core.errors import InputError
from solver.core.rules import Mission
from solver.game.engine import round_lines
from solver.io.gamelog import write_log
from solver.io.safefiles import write_output
from solver.runtime.workers import default_workers
from solver.view.render import draw, use_colour


# ---------------------------------------------------------------- play
@main.command()
@click.argument("mission", required=False, type=click.Path())
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the deal (default 1; with --from, the log's).")
@click.option("--game", "game_index", type=click.IntRange(min=0), default=None,
              help="Play game I of `simulate` with the same seed (the same deal; default 0, with --from the log's).")
@click.option("--policy", type=click.Choice(PLAY_POLICIES), default=None,
              help=f"The simulated players (default {BATCH_DEFAULT}; with --human, {TABLE_DEFAULT}, the stronger "
                   f"advisor; with --from, the log's): {POLICY_HELP}; "
                   "or open-hand: the plan of a team that sees every hand (an upper bound that cheats).")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Budget for the open-hand solver, in seconds of CP-SAT's deterministic time (the same plan on "
                   "any machine).")
@samples_option
@pieces_option
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game as JSON Lines to this file.")
@from_option
@round_option
@click.option("--human", "human", default=None, metavar="SEAT[,SEAT]",
              help="Seats (from 0) played by you; the others by --policy (default planner). The screen shows "
                   "only your seat's hand. The game is logged after every round (--log, default "
                   "MISSION-game-N.jsonl); the log holds the whole deal, every hand included, so reading it during "
                   "play is reading the other hands.")
@user_errors
def play(*, mission, players, seed, game_index, policy, time_limit, samples, pieces, log_path, from_log, from_round,
         human):
    """Play one game of MISSION and tell it round by round. Exit 0 when cleared, 1 otherwise.

    With --from LOG the logged game is replayed up to the start of --round R (default: after its
    last round) and played on; with the original's policy and seed it repeats the original.
    MISSION may then be left out when the game was played on a bundled mission.

    With --human SEAT you take that seat: each decision is a question with numbered choices, best
    first by the other seats' policy; a placement may also be given by its cells (c3 c4 d4).
    Ctrl-C or end of input ends the game (exit 130), keeping the log of the rounds played.

    \b
    Example: kakapo play b05 --seed 7 --game 3 --log game.jsonl
    Example: kakapo play --from game.jsonl --round 4 --policy planner --log game2.jsonl
    Example: kakapo play b01 --human 0
    """
    if mission is None and from_log is None:
        raise click.UsageError("give MISSION (a mission file or a bundled mission's id), or --from LOG")
    if from_round is not None and from_log is None:
        raise click.UsageError("--round goes with --from LOG")
    if human is not None:
        return play_as_human(mission, players, seed, game_index, policy=policy, samples=samples, pieces=pieces,
                             log_path=log_path, from_log=from_log, from_round=from_round, human=human)
    check_output_path(log_path, [mission, pieces, from_log], None, "--log")
    bots = play_bots(mission, pieces, players=players, seed=seed, game=game_index, policy=policy, samples=samples,
                     time_limit=time_limit, from_log=from_log, from_round=from_round, noted=say_note)
    game, run = bots.played, bots.run
    if log_path:
        write_log(log_path, game.events)
    print_game(bots.mission, game, bots.players, run.label(), run.seed, run.game, from_log)
    sys.exit(EXIT_OK if game.state.result() == "cleared" else EXIT_NO)


def play_as_human(mission, players, seed, game_index, *, policy, samples, pieces, log_path, from_log, from_round,
                  human) -> None:
    """`play --human`: a person in some seats, --policy in the others (``app.playing.play_people``)."""
    tg = people_game(mission, pieces, players=players, seed=seed, game=game_index, policy=policy, samples=samples,
                     from_log=from_log, from_round=from_round, noted=say_note)
    table = seat_people(tg, human, log_path)
    check_output_path(table.log_path, [mission, pieces, from_log], None, "--log")
    m, run, console, log_path = tg.mission, tg.run, table.console, table.log_path
    others = table.bot_seats()
    console.say(f"{m.name} ({m.id}): {tg.players} players; you play seat(s) {', '.join(map(str, table.seats))}"
                + (f", {run.label()} plays seat(s) {', '.join(map(str, others))}" if others else "")
                + f"; scan {'all' if m.clear_all else m.clear} of {len(m.birds)} bird(s) in {m.rounds} rounds; "
                f"seed {run.seed}, game {run.game}")
    console.say(f"the game is logged to {Path(log_path).resolve()} after every round; the log contains the whole "
                "deal (every hand), so do not read it before the game ends")
    outcome = play_people(table)
    if outcome.played is None:
        how = "at the end of input" if outcome.ended_by == "end of input" else "by Ctrl-C"
        click.echo(f"game ended {how} in round {outcome.round}: the log of the {outcome.rounds_done} finished "
                   f"round(s) is in {log_path}; `kakapo play --from {log_path} --human {human}` goes on from there",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    game = outcome.played
    board = game.state.board
    click.echo(draw(board, console.colour, new=list(board.pieces.values())[len(m.placed):]))
    events = game.events
    click.echo(end_line(m, events[-1], events[1:-1]))
    sys.exit(EXIT_OK if game.state.result() == "cleared" else EXIT_NO)


def read_logged(log_path: str, mission: str | None, pieces: str | None) -> LoggedGame:
    """A log and what it was played on; the note of an older log said on stderr."""
    lg = logged_game(log_path, mission, pieces)
    if lg.note:
        click.echo(lg.note, err=True)
    return lg


def print_game(m: Mission, game, players: int, policy: str, seed: int, game_index: int, from_log) -> None:
    setup, rounds = game.events[0], game.events[1:]
    assert rounds and rounds[-1]["event"] == "end"  # a game played to its end
    rounds, end = rounds[:-1], rounds[-1]
    label = f"{policy} (sees every hand: an upper bound that cheats, not a player)" if policy == OPEN_HAND else policy
    click.echo(f"{m.name} ({m.id}): {players} players, policy {label}, seed {seed}, game {game_index}; "
               f"scan {'all' if m.clear_all else m.clear} of {len(m.birds)} bird(s) in {m.rounds} rounds")
    if game.note:
        click.echo(f"  {game.note}")
    for k, hand in enumerate(setup["hands"]):
        click.echo(f"  player {k} holds {' '.join(hand)}")
    if setup["set_aside"]:
        click.echo(f"  set aside: {' '.join(setup['set_aside'])}")
    click.echo(f"  player {setup['start_player']} starts")
    for e in rounds:
        if from_log and e["round"] == game.first_round:
            click.echo(f"-- round {e['round']} on: {policy} plays on (rounds before from {from_log})")
        for line in round_lines(e):
            click.echo(line)
    board = game.state.board
    click.echo(draw(board, use_colour(), new=list(board.pieces.values())[len(m.placed):]))
    click.echo(end_line(m, end, rounds))


def end_line(m: Mission, end: dict, rounds: list[dict]) -> str:
    """How a game ended, and for a lost game why, in one line."""
    n = end["rounds_played"]
    if end["result"] == "cleared":
        return f"CLEARED after {n} round(s)"
    scanned = list(end["scanned"])
    still = [b.letter for b in m.birds if b.letter not in scanned]
    where = f"{len(scanned)} of the {m.clear} bird(s) needed scanned" + (f" ({', '.join(scanned)})" if scanned else "")
    where += f"; not scanned: {', '.join(still)}" if still else ""
    if end["result"] == "unplaceable":
        piece = rounds[-1]["pieces"][-1] if rounds and rounds[-1]["pieces"] else "a selected piece"
        return f"failed in round {n}: {piece} fits nowhere on the board, and a selected piece must be placed; {where}"
    return f"failed: the rounds ran out after {n} round(s) with {where}"


# ---------------------------------------------------------------- review
@main.command()
@click.argument("log_file", metavar="LOG", type=click.Path())
@click.option("--mission", "mission", type=click.Path(), default=None,
              help="The mission file the game was played on (default: the bundled mission the log names).")
@pieces_option
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Budget of the open-hand solver per round, in seconds of CP-SAT's deterministic time.")
@click.option("--samples", type=click.IntRange(min=0, max=4096), default=None, metavar="K",
              help="The search player's look-ahead deals per decision (default 8; 0: the planner, which "
                   "draws no random numbers, so its rate from a moment is 0 % or 100 %).")
@click.option("--playouts", type=click.IntRange(min=1, max=10000), default=None, metavar="N",
              help="Continuations of each moment the search player plays (default 24).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Seed of the continuations' random streams.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes that play the continuations (default: all cores; the same review for any number).")
@click.option("--careful", is_flag=True,
              help="Measure every decision on all the continuations, and every loss of 5 points or more on "
                   "three times as many (slower; by default a decision stops being measured once its class "
                   "is settled, at 95 %).")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="Also write a page with the board of each round.")
@user_errors
def review(*, log_file, mission, pieces, time_limit, samples, playouts, seed, workers, careful, as_json, html_path):
    """Where a logged game was won or lost, round by round. Exit 0.

    For each round: could a team that sees every hand still clear the deal from its start
    (clearable, not clearable, or undecided within --time-limit); how often the search player in
    every seat clears it from there (each seat decides from its own view; the continuations are
    played on the true deal, the hidden cards as they were dealt); and the decision of the round
    that cost most, with the search player's alternative. Names the first round from which the
    deal is lost. --samples 0 uses the planner instead (no look-ahead; one game a moment).
    Works on any log: a bot's (play --log), a person's (play --human) or one written by hand
    (docs/logs.md).

    \b
    Example: kakapo review game.jsonl
    Example: kakapo review game.jsonl --html review.html
    """
    from solver.view.review_html import review_html  # heavy: with the review
    from solver.view.review_text import review_lines  # heavy: Numba's search player and the OR-Tools deal solver

    lg = read_logged(log_file, mission, pieces)
    check_output_path(html_path, [log_file, mission, pieces], ".html", "--html")
    progress = None if as_json else (lambda text: click.echo(text, err=True))
    rv = review_game(lg, time_limit, samples, playouts, seed=seed, progress=progress,
                     workers=workers or default_workers(), careful=careful)
    if html_path:
        write_output(html_path, review_html(rv))
    if as_json:
        emit_json(rv.to_json())
    else:
        for line in review_lines(rv):
            click.echo(line)
        if html_path:
            click.echo(f"page: {html_path}")


# ---------------------------------------------------------------- rate
@main.command()
@click.argument("logs", metavar="LOG...", nargs=-1, required=True, type=click.Path())
@click.option("--seat", "seats", default=None, metavar="S[,S]",
              help="The seats to rate (default: the logs' human seats, else every seat).")
@click.option("--plays", type=click.IntRange(min=1, max=10000), default=20, show_default=True,
              help="Replays of each logged deal per rung (other streams for the seats each time).")
@click.option("--mission", "missions", multiple=True, metavar="M",
              help="A mission to predict this table's clear rate for (repeatable; a bundled id or a file).")
@seed_option
@workers_option
@cluster_options("the replays made kept")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), default=None,
              help="Draw the log-likelihood and the agreement across the rungs.")
@json_option
@user_errors
def rate(logs, seats, plays, missions, *, seed, workers, scheduler, worker_timeout, png_path, as_json):
    """Which rung of the ladder a table plays like, from its games, and its clear rate elsewhere.

    The logs are games of one table (any missions). For each rung (greedy, heuristic, planner,
    the search player with 2 to 64 samples) every logged deal is played again --plays times with
    the rated seats played by the rung and the others by the policy the log names; the likelihood
    of the table's results names the best rung and the rungs it cannot rule out; the agreement is
    the share of the rated seats' decisions the rung makes too. --mission M: the clear rate to
    expect from this table at M. docs/rate.md says how to read it.

    \b
    Example: kakapo rate games/*.jsonl --mission b14
    """
    from solver.view.rate_text import likelihood_plot, rate_lines  # heavy: Numba

    check_output_path(png_path, list(logs), ".png", "--png")
    rated = None if seats is None else rated_seats(seats)
    with ProgressBar("rate", enabled=not as_json) as bar, no_workers_exit():
        doc = run_rate(list(logs), rated, plays, missions, seed=seed, workers=workers or default_workers(),
                       progress=bar.update, scheduler=scheduler, worker_timeout=worker_timeout, status=cluster_status)
    print_answer(doc, as_json, rate_lines)
    if png_path:
        likelihood_plot(doc, Path(png_path))


@main.command()
@click.argument("sheet", metavar="SHEET", required=False, type=click.Path())
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game's log here (default: standard output).")
@click.option("--sheet-of", "sheet_of_log", type=click.Path(), default=None, metavar="LOG",
              help="Instead: print the sheet of a game's log (or sheet).")
@json_option
@user_errors
def record(sheet, log_path, sheet_of_log, as_json):
    """Record a game played with the printed cards from its sheet, as a log.

    The sheet is the game written down as it is played: the mission, the names in seat order,
    one line per round (the cards in the order they were played, then the pieces placed with
    their cells) and the cards each person still holds at the end (docs/logs.md). It is checked
    against the rules (the hands are the cards played plus the cards left); an impossible sheet
    is exit 2 naming the line, the round, the person and the rule. Every command that reads a log
    also reads a sheet.

    \b
    Example: kakapo record game.txt --log game.jsonl
    Example: kakapo record --sheet-of game.jsonl
    """
    if sheet_of_log is not None:
        if sheet is not None:
            raise InputError(sheet, "give a SHEET or --sheet-of LOG, not both", "kakapo record --sheet-of game.jsonl")
        click.echo(sheet_of(read_game_file(sheet_of_log)), nl=False)
        return
    if sheet is None:
        raise InputError("SHEET", "no sheet given", "kakapo record game.txt --log game.jsonl")
    check_output_path(log_path, [sheet], None, "--log")
    rec = game_of_sheet_file(sheet)
    if log_path:
        write_log(log_path, rec.events)
    if as_json:
        emit_json(rec.summary(log_path))
    elif log_path:
        result = (rec.state.result() or "not ended").replace("_", " ")
        click.echo(f"recorded {rec.state.rounds_played()} round(s) of {', '.join(rec.names)}: {result}; "
                   f"log: {log_path}")
    else:
        click.echo(rec.text, nl=False)
