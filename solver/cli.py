"""The `kakapo` command. Heavy libraries are imported inside the commands that need them."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from solver.core.codes import OPEN_HAND, POLICY_NAMES
from solver.core.errors import KakapoError

EXIT_OK, EXIT_NO, EXIT_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def user_errors(fn):
    """Turn our errors into a clear message on stderr and exit code 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from solver.core.errors import InputError

        try:
            return fn(*args, **kwargs)
        except BrokenPipeError:
            quiet_stdout()  # the reader went away (`kakapo play ... | head -1`): stop quietly
            sys.exit(EXIT_OK)
        except KeyboardInterrupt:  # never an answer: no "unknown", nothing saved
            click.echo("interrupted: no unfinished result was printed or saved", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except KakapoError as e:
            report_error(e, kwargs.get("as_json", False))
        except OSError as e:  # an output that cannot be written after all (full disk, a race)
            path = e.filename or "output"
            report_error(InputError(path, f"cannot write: {e.strerror or e}",
                                    "choose a path in an existing folder you can write to"), kwargs.get("as_json", False))

    return wrapper


def report_error(e: Exception, as_json: bool) -> None:
    """Exit 2 with the message on stderr; with --json also one {"error": ...} document on stdout."""
    if as_json:
        every = [x.to_json() for x in e.all()] if hasattr(e, "all") else [{"file": None, "line": None,
                                                                          "message": str(e), "fix": ""}]
        doc = {"error": every[0], **({"errors": every} if len(every) > 1 else {})}
        click.echo(json.dumps(doc, indent=2))
    click.echo(f"error: {e}", err=True)
    sys.exit(EXIT_INPUT)


def quiet_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that Python's final flush does not complain
    except (OSError, ValueError):
        pass


def load_inputs(mission_path: str, pieces: str | None, warnings: list | None = None):
    from solver.io.catalog import load_catalog
    from solver.io.missionfile import load_mission

    catalog = load_catalog(pieces)
    return catalog, load_mission(mission_path, catalog, warnings)


def check_output_path(path: str | None, inputs: list[str], suffix: str, option: str) -> None:
    from solver.core.errors import InputError

    if path is None:
        return
    if suffix and Path(path).suffix.lower() != suffix:
        raise InputError(path, f"{option} expects a {suffix} file name", f"give a name ending in {suffix}")
    for i in inputs:
        if i and Path(i).resolve() == Path(path).resolve():
            raise InputError(path, f"{option} would overwrite an input file", "choose another output name")
    check_writable(path, option)


def check_writable(path: str, option: str, folder: bool = False) -> None:
    """Refuse, before any work, an output that cannot be written: a missing or read-only
    folder, a folder where a file is wanted, or the reverse."""
    import os

    from solver.core.errors import InputError

    p = Path(path)
    if folder:
        if p.exists() and not p.is_dir():
            raise InputError(path, f"{option} names a file, not a folder", "give a folder (it is created if missing)")
        probe = p if p.exists() else next((q for q in p.parents if q.exists()), Path("."))
        if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
            raise InputError(path, f"{option}: cannot create or write this folder ({probe} is not writable)",
                             "choose a folder you can write to")
        return
    if p.is_dir():
        raise InputError(path, f"{option} names a folder, not a file", "give a file name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(path, f"{option}: the folder {parent} does not exist", "create the folder or choose another path")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InputError(path, f"{option}: cannot write here (permission denied)", "choose a path you can write to")


def emit_json(doc) -> None:
    click.echo(json.dumps(doc, indent=2))


def write_csv(path: str, header: list[str], rows) -> None:
    import csv

    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


pieces_option = click.option("--pieces", "pieces", type=click.Path(dir_okay=False), default=None,
                             help="Piece catalog TOML (default: missions/pieces.toml).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kakapo")
def main():
    """kakapo: mission solver and difficulty analyzer for The KAKAPO Buddy & Party."""


@main.command()
@click.argument("mission", type=click.Path())
@pieces_option
@click.option("--exclude", multiple=True, metavar="PIECE[,PIECE...]", help="Pieces that may not be used.")
@click.option("--max-pieces", type=click.IntRange(min=0), default=None, help="Use at most N new pieces.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Seconds for the search.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--png", type=click.Path(dir_okay=False), default=None, help="Save a picture of the solution.")
@click.option("--players", type=int, default=None,
              help="2 for buddy; 3 or 4 for party (default 2 / 4); with 3 players purple-1 is out of the game.")
@user_errors
def solve(mission, pieces, exclude, max_pieces, time_limit, as_json, png, players):
    """Find the fewest new pieces that clear MISSION, and prove it minimal.

    Exit 0 solvable, 1 proven unsolvable, 3 unknown within the time limit.

    \b
    Example: kakapo solve missions/buddy/b07.toml --png b07.png
    """
    from solver.core.cards import Card
    from solver.core.errors import InputError, ParseError

    check_output_path(png, [mission, pieces], ".png", "--png")
    catalog, m = load_inputs(mission, pieces)
    excluded = []
    for item in exclude:
        for name in item.split(","):
            if name.strip():
                try:
                    excluded.append(Card.parse(name))
                except ParseError as e:
                    raise InputError("--exclude", str(e), "name pieces like red-5 or p8, separated by commas") from None

    from solver.core.rules import check_placements
    from solver.puzzle.cpsat import solve as cpsat_solve

    players = resolve_players(m, players, mission)
    result = cpsat_solve(m, catalog, exclude=excluded, max_pieces=max_pieces, time_limit=time_limit, players=players)
    board, _ = check_placements(m, catalog, result.placements)
    reasons = []
    if result.status == "unsolvable":
        from solver.puzzle.reasons import explain

        reasons = explain(m, catalog, players, excluded, max_pieces, time_limit=max(1.0, time_limit / 3))
    if as_json:
        emit_json({**result.to_json(), "players": players, **({"reasons": reasons} if reasons else {})})
    else:
        from solver.view.render import LEGEND, draw, use_colour

        click.echo(f"{m.name} ({m.id}), {m.mode}: scan {'all' if m.clear_all else m.clear} of {len(m.birds)} bird(s)")
        if result.status == "solvable":
            proof = "proven minimal" if result.optimal else f"not proven minimal (lower bound {result.lower_bound})"
            click.echo(f"solvable with {result.pieces_used} new piece(s), {proof}; scans {', '.join(result.scanned) or '-'}")
            for p in result.placements:
                click.echo(f"  {p}")
        elif result.status == "unsolvable":
            from solver.core.spec import GameSpec

            budget = GameSpec.of(m, players).piece_budget
            limit = budget if max_pieces is None else min(max_pieces, budget)
            click.echo(f"unsolvable: no set of available pieces scans enough birds with at most {limit} new "
                       f"piece(s) (a game selects at most {budget}: {m.rounds} rounds, "
                       f"{m.skills} skill counter(s) for double scans)")
            for r in reasons:
                click.echo(f"  why: {r['message']}")
        else:
            click.echo(f"unknown: no answer within {time_limit:g} s (try a longer --time-limit)")
        click.echo(draw(board, use_colour(), new=result.placements))
        click.echo(LEGEND)
        click.echo(f"{result.seconds:.2f} s")
    if png:  # after the answer is printed: a failed picture never loses it
        from solver.view.plot import save_png

        what = (f"solvable with {result.pieces_used} new piece(s)" if result.status == "solvable"
                else result.status)
        from solver.core.board import parse_cell

        save_png(board, png, f"{m.name} ({m.id}): {what}", new=result.placements,
                 culprits=[parse_cell(c) for r in reasons for c in r["cells"]],
                 culprit_birds=[b for r in reasons for b in r["birds"]])
    sys.exit({"solvable": EXIT_OK, "unsolvable": EXIT_NO}.get(result.status, EXIT_UNKNOWN))


@main.command()
@click.argument("mission", type=click.Path())
@pieces_option
@click.option("--png", type=click.Path(dir_okay=False), default=None, help="Save a picture of the mission.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def show(mission, pieces, png, as_json):
    """Draw MISSION in the terminal (and with --png save a picture).

    \b
    Example: kakapo show missions/party/p02.toml --png p02.png
    """
    from solver.core.board import cell_name
    from solver.core.rules import Board, blocked_reason
    from solver.view.render import LEGEND, draw, use_colour

    check_output_path(png, [mission, pieces], ".png", "--png")
    catalog, m = load_inputs(mission, pieces)
    board = Board.start(m)
    if png:
        from solver.view.plot import save_png

        save_png(board, png, f"{m.name} ({m.id})")
    if as_json:
        emit_json({
            "mission": m.id, "name": m.name, "mode": m.mode, "clear": m.clear, "rounds": m.rounds,
            "skills": m.skills,
            "birds": [{"bird": b.letter, "cells": [cell_name(c) for c in sorted(b.cells)],
                       "blocked": blocked_reason(m, b)} for b in m.birds],
            "marks": {cell_name(c): str(col) for c, col in m.marks},
            "placed": [p.to_json() for p in m.placed],
            "scanned": board.scanned(),
        })
        return
    click.echo(f"{m.name} ({m.id}), {m.mode}: scan {'all' if m.clear_all else m.clear} of {len(m.birds)} bird(s) "
               f"in {m.rounds} rounds, {m.skills} skill counters")
    click.echo(draw(board, use_colour()))
    click.echo(LEGEND)
    for b in m.birds:
        why = blocked_reason(m, b)
        if why:
            click.echo(f"bird {b.letter} can never be scanned: {why}")




def open_hand_player(m, catalog, players: int, game_seed: int, time_limit: float):
    """The open-hand plan of this deal as a policy, and a line saying what the solver found.

    Without a plan it plays the first witness policy of the ceiling that clears the deal (so that
    it clears exactly the deals ``kakapo ceiling`` counts), else the heuristic."""
    from solver.game.engine import play_game
    from solver.game.roster import make_policy
    from solver.openhand.ceiling import WITNESS_POLICIES
    from solver.openhand.deal import CLEARABLE, NOT_CLEARABLE, DealSolver
    from solver.openhand.plan import PlanPolicy

    answer = DealSolver(m, catalog, players, time_limit).decide(game_seed)
    fallback = make_policy("heuristic")
    if answer.plan is None:
        for name in WITNESS_POLICIES:
            if play_game(m, catalog, players, game_seed, make_policy(name)).cleared:
                fallback = make_policy(name)
                break
    if answer.result == CLEARABLE:
        note = f"open hands: clearable ({answer.seconds:.2f} s); the plan follows"
    elif answer.result == NOT_CLEARABLE:
        note = f"open hands: proven not clearable ({answer.seconds:.2f} s); the heuristic plays it out"
    else:
        note = f"open hands: undecided within {time_limit:g} s; {fallback.name} plays it out"
    return PlanPolicy(answer.plan, fallback), note


def resolve_players(m, players: int | None, source: str) -> int:
    from solver.core.spec import GameSpec

    players = players if players is not None else m.default_players()
    GameSpec.of(m, players, source)
    return players


@main.command()
@click.argument("mission", type=click.Path())
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--games", type=click.IntRange(min=1), default=10000, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--policy", type=click.Choice(POLICY_NAMES), default="heuristic", show_default=True,
              help="heuristic (cooperative strategy), random, or greedy (random cards, best placement).")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@click.option("--engine", type=click.Choice(["numba", "python"]), default="numba", show_default=True)
@pieces_option
@click.option("--results", "results_path", type=click.Path(dir_okay=False), default=None,
              help="Write one CSV row per game: game,result,rounds.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def simulate(mission, players, games, seed, policy, workers, engine, pieces, results_path, as_json):
    """Play many games of MISSION with simulated players and estimate the clear rate.

    \b
    Example: kakapo simulate missions/party/p05.toml --players 3 --games 20000 --policy planner
    """
    from solver.analysis.simulate import play_games, summarise
    from solver.core.codes import RESULT_NAMES
    from solver.runtime.workers import default_workers

    check_output_path(results_path, [mission, pieces], ".csv", "--results")
    catalog, m = load_inputs(mission, pieces)
    players = resolve_players(m, players, mission)
    workers = workers or default_workers()
    bar = ProgressBar("games", enabled=not as_json)
    try:
        out = play_games(m, catalog, players, games, seed, policy, engine, workers, progress=bar.update)
    finally:
        bar.close()
    doc = summarise(m, players, policy, games, seed, out, engine, workers)
    if as_json:
        emit_json(doc)
    else:
        print_simulation(m, doc, players, policy, games, seed, engine, workers)
    if results_path:  # after the answer is printed: a failed write never loses it
        write_csv(results_path, ["game", "result", "rounds"],
                  ([i, RESULT_NAMES[r], int(n)] for i, (r, n) in enumerate(zip(out.results, out.rounds))))


def print_simulation(m, doc, players, policy, games, seed, engine, workers) -> None:
    lo, hi = doc["ci95"]
    click.echo(f"{m.name} ({m.id}), {players} players, policy {policy}, {games} games, seed {seed}")
    click.echo(f"cleared {doc['cleared']} ({doc['clear_rate']:.1%}; 95% interval {lo:.1%} .. {hi:.1%})")
    f = doc["failures"]
    click.echo(f"failed: rounds ran out {f['rounds_exhausted']}, piece could not be placed {f['unplaceable']}")
    if doc["mean_rounds_when_cleared"] is not None:
        click.echo(f"mean rounds when cleared: {doc['mean_rounds_when_cleared']:.2f}")
    click.echo(f"{doc['games_per_second']:.0f} games/s ({engine} engine, {workers} worker(s))")


@main.command()
@click.argument("mission", type=click.Path())
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--game", "game_index", type=click.IntRange(min=0), default=0, show_default=True,
              help="Play game I of `simulate` with the same seed (the same deal).")
@click.option("--policy", type=click.Choice(POLICY_NAMES + (OPEN_HAND,)), default="heuristic", show_default=True,
              help="A simulated player, or open-hand: the plan of a team that sees every hand (an upper bound "
                   "that cheats).")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Seconds for the open-hand solver.")
@pieces_option
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game as JSON Lines to this file.")
@user_errors
def play(mission, players, seed, game_index, policy, time_limit, pieces, log_path):
    """Play one game of MISSION and tell it round by round. Exit 0 when cleared, 1 otherwise.

    \b
    Example: kakapo play missions/buddy/b05.toml --seed 7 --game 3 --log game.jsonl
    """
    from solver.core.rules import check_placements
    from solver.game.engine import play_game
    from solver.game.roster import make_policy
    from solver.game.seeds import game_seeds
    from solver.view.render import draw, use_colour

    check_output_path(log_path, [mission, pieces], None, "--log")
    catalog, m = load_inputs(mission, pieces)
    players = resolve_players(m, players, mission)
    game_seed = int(game_seeds(seed, game_index, 1)[0])
    note = None
    if policy == OPEN_HAND:
        player, note = open_hand_player(m, catalog, players, game_seed, time_limit)
    else:
        player = make_policy(policy)
    game = play_game(m, catalog, players, game_seed, player, log=True)
    if log_path:
        with open(log_path, "w", encoding="utf-8") as f:
            for e in game.events:
                f.write(json.dumps(e) + "\n")
    setup = game.events[0]
    label = f"{policy} (sees every hand: an upper bound that cheats, not a player)" if policy == OPEN_HAND else policy
    click.echo(f"{m.name} ({m.id}): {players} players, policy {label}, seed {seed}, game {game_index}; "
               f"scan {'all' if m.clear_all else m.clear} of {len(m.birds)} bird(s) in {m.rounds} rounds")
    if note:
        click.echo(f"  {note}")
    for k, hand in enumerate(setup["hands"]):
        click.echo(f"  player {k} holds {' '.join(hand)}")
    if setup["set_aside"]:
        click.echo(f"  set aside: {' '.join(setup['set_aside'])}")
    click.echo(f"  player {setup['start_player']} starts")
    placements = []
    for e in game.events[1:-1]:
        plays = ", ".join(f"P{p['player']} {p['card']}" for p in e["plays"])
        click.echo(f"round {e['round']} (trump {e['trump']}): {plays} -> {e['decision']} by P{e['in_charge']}")
        if e["skill"]:
            click.echo(f"  skill {e['skill']} ({e['skills_left']} left)")
        for p in e["placements"]:
            click.echo(f"  places {p['piece']} at {' '.join(p['cells'])}")
        if len(e["pieces"]) > len(e["placements"]):
            click.echo(f"  {e['pieces'][-1]} fits nowhere")
        elif not e["pieces"]:
            click.echo("  nothing to place (piece already used)")
        click.echo(f"  scanned: {', '.join(e['scanned']) or '-'}")
        placements += e["placements"]
    from solver.core.rules import Placement

    board, _ = check_placements(m, catalog, [Placement.parse(p["piece"], p["cells"]) for p in placements])
    click.echo(draw(board, use_colour(), new=list(board.pieces.values())[len(m.placed):]))
    end = game.events[-1]
    words = {"cleared": "CLEARED", "rounds_exhausted": "failed: the rounds ran out",
             "unplaceable": "failed: a selected piece could not be placed"}
    click.echo(f"{words[end['result']]} after {end['rounds_played']} round(s)")
    sys.exit(EXIT_OK if end["result"] == "cleared" else EXIT_NO)


@main.command()
@click.argument("mission", type=click.Path())
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@pieces_option
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Seconds per deal for the exact solver.")
@click.option("--results", "results_path", type=click.Path(dir_okay=False), default=None,
              help="Write one CSV row per deal: game,result.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def ceiling(mission, players, games, seed, workers, pieces, time_limit, results_path, as_json):
    """The open-hand ceiling: how many deals a team that sees every hand could clear.

    Decides each of the first N deals of `simulate` with the same seed exactly (clearable,
    not clearable, or undecided within the time limit). An upper bound on any real table.

    \b
    Example: kakapo ceiling missions/buddy/b12.toml --games 200
    """
    from solver.openhand.ceiling import ceiling as run_ceiling
    from solver.runtime.workers import default_workers

    check_output_path(results_path, [mission, pieces], ".csv", "--results")
    catalog, m = load_inputs(mission, pieces)
    players = resolve_players(m, players, mission)
    workers = workers or default_workers()
    bar = ProgressBar("deals", enabled=not as_json)
    try:
        doc = run_ceiling(m, catalog, players, games, seed, workers, time_limit, progress=bar.update)
    finally:
        bar.close()
    answers = doc.pop("answers")
    if as_json:
        emit_json(doc)
    else:
        lo, hi = doc["ci95"]
        click.echo(f"{m.name} ({m.id}), {players} players, {games} deals, seed {seed}: open-hand ceiling "
                   "(a team that sees every hand; an upper bound, not a player)")
        click.echo(f"clearable {doc['clearable']} ({doc['clear_rate']:.1%}; 95% interval {lo:.1%} .. {hi:.1%}), "
                   f"not clearable {doc['not_clearable']}, undecided {doc['undecided']}")
        click.echo(f"{doc['cleared_by_policies']} deals were cleared by the simulated players already; "
                   f"{doc['seconds']:.1f} s")
    if results_path:  # after the answer is printed: a failed write never loses it
        write_csv(results_path, ["game", "result"], enumerate(answers))


@main.command()
@click.option("--mode", type=click.Choice(["buddy", "party"]), required=True)
@click.option("--band", "band", required=True, metavar="LOW-HIGH",
              help="Target clear rate of the policy, e.g. 0.30-0.50.")
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--policy", type=click.Choice(POLICY_NAMES), default="heuristic", show_default=True)
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True, help="Missions to write.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="generated", show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes for the games.")
@pieces_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def generate(mode, band, players, policy, count, seed, out_dir, workers, pieces, as_json):
    """Write new valid, solvable missions whose clear rate lies in a band.

    Random candidates are solved, measured and steered (harder when too easy, easier when
    too hard) until the policy's clear rate lies in the band. Never overwrites a file.
    Exit 0 when COUNT missions were written, 3 when fewer were found.

    \b
    Example: kakapo generate --mode party --band 0.30-0.40 --count 3 --out my_missions
    """
    from solver.analysis.generate import MAX_CANDIDATES
    from solver.analysis.generate import generate as run_generate
    from solver.core.errors import InputError
    from solver.io.catalog import load_catalog

    try:
        low, high = (float(x) for x in band.split("-"))
    except ValueError:
        raise InputError("--band", f"cannot read {band!r}", "give two rates like 0.30-0.50") from None
    if not 0 <= low < high <= 1:
        raise InputError("--band", f"{band!r} is not a range of clear rates", "give 0 <= LOW < HIGH <= 1, e.g. 0.30-0.50")
    players = players if players is not None else (2 if mode == "buddy" else 4)
    if (mode == "buddy") != (players == 2) or players not in (2, 3, 4):
        raise InputError("--players", f"{mode} missions are not played by {players} players",
                         "use 2 for buddy, 3 or 4 for party")
    catalog = load_catalog(pieces)
    check_writable(out_dir, "--out", folder=True)
    bar = ProgressBar(f"candidates (of at most {MAX_CANDIDATES})", enabled=not as_json)
    try:
        found = run_generate(mode, low, high, players, policy, count, seed, Path(out_dir), catalog, workers,
                             progress=lambda tried, kept: bar.update(tried, MAX_CANDIDATES, f"{kept} of {count} kept"))
    finally:
        bar.close()
    docs = [{"file": str(f.path), "clear_rate": f.clear_rate, "ci95": list(f.ci95), "min_pieces": f.min_pieces}
            for f in found]
    if as_json:
        emit_json(docs)
    else:
        for d in docs:
            click.echo(f"{d['file']}: {policy} clears {d['clear_rate']:.1%} with {players} players; "
                       f"fewest pieces {d['min_pieces']}")
        click.echo(f"{len(found)} of {count} mission(s) written to {out_dir}")
    sys.exit(EXIT_OK if len(found) >= count else EXIT_UNKNOWN)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@pieces_option
@click.option("--games", type=click.IntRange(min=0), default=2000, show_default=True,
              help="Games per player count for the difficulty estimate (0: skip it).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--policy", type=click.Choice(POLICY_NAMES), default="heuristic", show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Seconds for the solver, per file.")
@click.option("--ceiling-games", type=click.IntRange(min=0), default=50, show_default=True,
              help="Deals for the open-hand ceiling of the band (0: skip it).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def validate(files, pieces, games, seed, policy, workers, time_limit, ceiling_games, as_json):
    """Check fan missions: errors, warnings, solvability, fewest pieces, difficulty.

    Exit 0 when every file is valid and solvable, 1 when one is valid but
    unsolvable, 2 when one is invalid, 3 when solvability stays undecided.

    \b
    Example: kakapo validate my_mission.toml --ceiling-games 100
    """
    from solver.io.catalog import load_catalog

    try:
        catalog = load_catalog(pieces)
    except KakapoError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(EXIT_INPUT)
    from solver.analysis.validate import bundled_rates, placement_phrase, validate_file
    from solver.runtime.workers import default_workers

    workers = workers or default_workers()
    baseline = bundled_rates(catalog, games, seed, policy, workers) if games > 0 else None
    docs = [validate_file(f, catalog, time_limit, games, seed, policy, workers, baseline, ceiling_games)
            for f in files]
    if any(not d["valid"] for d in docs):
        code = EXIT_INPUT
    elif any(d["status"] == "unsolvable" for d in docs):
        code = EXIT_NO
    elif any(d["status"] != "solvable" for d in docs):
        code = EXIT_UNKNOWN
    else:
        code = EXIT_OK
    if as_json:
        emit_json({"files": docs, "ok": code == EXIT_OK})
        sys.exit(code)
    for d in docs:
        click.echo(f"== {d['file']}")
        for e in d["errors"]:
            where = e["file"] if e["line"] is None else f"{e['file']}, line {e['line']}"
            click.echo(f"error: {where}: {e['message']}" + (f"\n  fix: {e['fix']}" if e["fix"] else ""), err=True)
        if not d["valid"]:
            click.echo("invalid")
            continue
        for w in d["warnings"]:
            click.echo(f"warning: {w}")
        if d["status"] == "solvable":
            proof = "proven" if d["optimal"] else "not proven minimal"
            click.echo(f"valid, solvable with at least {d['min_pieces']} new piece(s) ({proof})")
        elif d["status"] == "unsolvable":
            click.echo("valid but UNSOLVABLE: no set of pieces scans enough birds")
            for r in d.get("reasons", []):
                click.echo(f"  why: {r['message']}")
        else:
            click.echo(f"valid; solvability unknown within {time_limit:g} s")
        for e in d["difficulty"]:
            lo, hi = e["ci95"]
            line = f"  {e['players']} players: clears {e['clear_rate']:.1%} ({lo:.1%} .. {hi:.1%}, {e['games']} games)"
            if "of" in e:
                line += f"; {placement_phrase(e)}"
            click.echo(line)
            band = e["band"]
            parts = [f"{name} {band[name]['clear_rate']:.0%}" for name in ("greedy", "heuristic", "planner")]
            if "ceiling" in band:
                c = band["ceiling"]
                undecided = f", {c['undecided']} undecided" if c["undecided"] else ""
                parts.append(f"open-hand ceiling {c['clear_rate']:.0%} of {c['games']} deals{undecided}")
            click.echo(f"    band: {' <= '.join(parts)}")
    sys.exit(code)


@main.command()
@click.argument("targets", nargs=-1, type=click.Path())
@click.option("--games", type=click.IntRange(min=1), default=10000, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--players", "players_list", default=None, metavar="LIST",
              help="Player counts to include, e.g. 2,3 (default: those of each mission's mode).")
@click.option("--policy", type=click.Choice(POLICY_NAMES), default="heuristic", show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="reports", show_default=True)
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Seconds for the solver, per mission.")
@click.option("--baseline", is_flag=True, help="Add the band: greedy (the naive floor), heuristic and planner rates.")
@click.option("--ceiling-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Add the open-hand ceiling over this many deals (0: none).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run the work on a Dask cluster, e.g. tcp://127.0.0.1:8786 (needs the cluster extra).")
@pieces_option
@user_errors
def report(targets, games, seed, players_list, policy, workers, out_dir, time_limit, baseline, ceiling_games,
           scheduler, pieces):
    """Batch difficulty report of missions (files or folders; default: the bundled ones).

    Writes report.csv, report.md, report.html and PNG plots into --out. Interrupted
    work is kept; the same command again finishes it.

    \b
    Example: kakapo report missions --baseline --ceiling-games 200 --out reports
    """
    import datetime
    from importlib.metadata import version

    from solver.analysis.report import PROGRESS, plan_report, rows_of, run_plan, write_outputs
    from solver.analysis.validate import BUNDLED
    from solver.core.errors import InputError
    from solver.io.catalog import DEFAULT_CATALOG, load_catalog
    from solver.runtime.workers import default_workers

    catalog = load_catalog(pieces)
    wanted = None
    if players_list:
        try:
            wanted = {int(x) for x in players_list.split(",") if x.strip()}
        except ValueError:
            raise InputError("--players", f"cannot read {players_list!r}", "give counts like 2,3,4") from None
        if not wanted or not wanted <= {2, 3, 4}:
            raise InputError("--players", f"{players_list!r}: player counts are 2 (buddy), 3 or 4 (party)",
                             "give counts like 2,3,4")
    paths = find_report_missions(targets, BUNDLED)
    check_writable(out_dir, "--out", folder=True)
    out = Path(out_dir)
    plan = plan_report(paths, catalog, Path(pieces or DEFAULT_CATALOG).read_bytes(), games, seed, wanted, policy,
                       time_limit, baseline, ceiling_games)
    if not plan.rows:
        raise InputError(out_dir, "no (mission, players) pair matches --players", "check --players and the missions")
    bar = ProgressBar("report")
    state = {"done": 0, "total": 0}

    def tick(done, total, label):
        if label is None and done:
            click.echo(f"resuming: {done} of {total} results already in {out / PROGRESS}", err=True)
        state.update(done=done, total=total)
        bar.update(done, total, label)

    try:
        progress = run_plan(plan, out, workers or default_workers(), scheduler, tick)
    except KeyboardInterrupt:
        bar.close()
        click.echo(f"interrupted: {state['done']} of {state['total']} results kept in {out / PROGRESS}; "
                   "run the same command again to finish the report", err=True)
        sys.exit(EXIT_INTERRUPTED)
    bar.close()
    meta = {"policy": policy, "seed": seed, "date": datetime.date.today().isoformat(), "version": version("kakapo"),
            "command": "kakapo " + " ".join(sys.argv[1:]) if sys.argv[0].endswith("kakapo") else ""}
    for f in write_outputs(rows_of(plan, progress), out, {m.id: m for _, m in plan.missions}, meta):
        click.echo(str(f))


def find_report_missions(targets, bundled):
    from solver.analysis.report import find_missions

    return find_missions(list(targets), bundled)


class ProgressBar:
    """A progress bar with rate and time left on a terminal (stderr); nothing when it is not one."""

    def __init__(self, label: str, enabled: bool = True):
        self.label = label
        self.bar = None
        self.shown = 0
        self.enabled = enabled and sys.stderr.isatty()  # nothing extra when piped or with --json

    def update(self, done: int, total: int, item: str | None = None) -> None:
        if not self.enabled or total <= 0:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr, show_eta=True,
                                         show_pos=True, item_show_func=lambda x: x)
            self.bar.__enter__()
        self.bar.update(max(0, done - self.shown), item)
        self.shown = max(done, self.shown)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


if __name__ == "__main__":
    main()
