"""The `kakapo` command: it parses the arguments, calls the package for the work and prints.

Light modules (core, io, the terminal drawing) are imported here; each command imports the
heavy ones it needs (OR-Tools, Numba, pandas, matplotlib, Dask) when it runs, so that
`kakapo --help` and the commands that do not need them start at once.
"""

from __future__ import annotations

import csv
import datetime
import functools
import gc
import itertools
import json
import os
import sys
from importlib.metadata import version
from pathlib import Path

import click

from solver.analysis.workbench import place_in_campaign
from solver.core.board import parse_cell
from solver.core.cards import ALL_CARDS, Card, Colour
from solver.core.codes import BAND_POLICIES, DEFAULT_POLICY, OPEN_HAND, POLICY_NAMES, RESULT_NAMES, PolicyId
from solver.core.errors import InputError, KakapoError, ParseError
from solver.core.rules import Board, Mission, blocked_reason
from solver.core.spec import GameSpec
from solver.game.engine import round_lines
from solver.game.resume import board_mission, replay
from solver.game.search import DEFAULT_SAMPLES
from solver.io.catalog import DEFAULT_CATALOG, load_catalog
from solver.io.difficulty import campaign_listing
from solver.io.gamelog import GameLog, read_log, write_log
from solver.io.missionfile import check_file, load_mission
from solver.io.missionwrite import mission_json
from solver.io.paths import MISSIONS, mission_path
from solver.io.records import log_inputs
from solver.runtime.workers import default_workers
from solver.view.render import LEGEND, draw, shape_strip, use_colour

EXIT_OK, EXIT_NO, EXIT_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
POLICY_HELP = "; ".join(f"{p.label}: {p.summary}" for p in PolicyId)


def user_errors(fn):
    """Turn our errors into a clear message on stderr and exit code 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
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
                                    "choose a path in an existing folder you can write to"),
                         kwargs.get("as_json", False))

    return wrapper


def report_error(e: Exception, as_json: bool) -> None:
    """Exit 2 with the message on stderr; with --json also one {"error": ...} document on stdout."""
    if as_json:
        every = [x.to_json() for x in e.all()] if isinstance(e, InputError) else \
            [{"file": None, "line": None, "message": str(e), "fix": ""}]
        doc = {"error": every[0], **({"errors": every} if len(every) > 1 else {})}
        click.echo(json.dumps(doc, indent=2))
    click.echo(f"error: {e}", err=True)
    sys.exit(EXIT_INPUT)


def quiet_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that Python's final flush does not complain
    except (OSError, ValueError):
        pass


def load_inputs(mission: str, pieces: str | None, warnings: list | None = None) -> tuple:
    """The catalog and the mission (a file, or a bundled mission's id)."""
    catalog = load_catalog(pieces)
    return catalog, load_mission(mission_path(mission), catalog, warnings)


def table(m: Mission, players: int | None, source: str) -> int:
    """The number of players: the one asked for if the mission's mode allows it, else its default."""
    return GameSpec.of(m, players if players is not None else m.default_players(), source).players


def check_output_path(path: str | None, inputs: list, suffix: str | None, option: str) -> None:
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
        raise InputError(path, f"{option}: the folder {parent} does not exist",
                         "create the folder or choose another path")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InputError(path, f"{option}: cannot write here (permission denied)", "choose a path you can write to")


def emit_json(doc) -> None:
    click.echo(json.dumps(doc, indent=2))


def write_csv(path: str, header: list[str], rows) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def parse_pieces(items) -> list[Card]:
    out = []
    for item in items:
        for name in item.split(","):
            if name.strip():
                try:
                    out.append(Card.parse(name))
                except ParseError as e:
                    raise InputError("--exclude", str(e), "name pieces like red-5 or p8, separated by commas") from None
    return out


def log_and_mission(log_path: str, mission: str | None, pieces: str | None) -> tuple:
    """A log, the catalog and the mission it was played on: the ones it carries (format 2), else
    MISSION or the bundled mission it names, said on stderr (io/records.py)."""
    log = read_log(log_path)
    inputs = log_inputs(log, mission, pieces)
    if inputs.note:
        click.echo(inputs.note, err=True)
    return log, inputs.catalog, inputs.mission


pieces_option = click.option("--pieces", "pieces", type=click.Path(dir_okay=False), default=None,
                             help="Piece catalog TOML (default: the bundled missions/pieces.toml).")
from_option = click.option("--from", "from_log", type=click.Path(dir_okay=False), default=None, metavar="LOG",
                           help="A game log (`play --log`): start from the moment of --round in it.")
samples_option = click.option("--samples", type=click.IntRange(min=0, max=4096), default=None, metavar="K",
                               help=f"The search player's look-ahead deals per decision (default {DEFAULT_SAMPLES}; "
                                    "0 plays the planner itself).")


def samples_for(policy: str | None, samples: int | None) -> int:
    """--samples goes with --policy search; its default otherwise."""
    if samples is not None and policy != PolicyId.SEARCH.label:
        raise click.UsageError("--samples goes with --policy search")
    return DEFAULT_SAMPLES if samples is None else samples


round_option = click.option("--round", "from_round", type=click.IntRange(min=1), default=None,
                            help="With --from: the round to start at (default: after the log's last round).")


def count_line(tally, cap: int) -> str:
    """`solve --count` in words."""
    what = "sets of pieces" if tally.what == "sets" else "arrangements"
    if tally.complete:
        if tally.count == 1:
            return f"count: one answer with {tally.pieces} new piece(s): one intended answer (all counted)"
        return f"count: {tally.count} distinct {what} of {tally.pieces} new piece(s) (all counted)"
    why = "the cap; --cap N counts further" if tally.count >= cap else "the time limit"
    return f"count: at least {tally.count} distinct {what} of {tally.pieces} new piece(s) ({why})"


def band_line(parts: list[tuple[str, float]]) -> str:
    """The band's rates joined by the true relation of the unrounded rates ("<=" or ">")."""
    out = parts[0][0]
    for (_, before), (text, rate) in itertools.pairwise(parts):
        out += f" {'<=' if before <= rate else '>'} {text}"
    return out


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kakapo")
def main():
    """kakapo: mission solver and difficulty analyzer for The KAKAPO Buddy & Party."""
    # Numba's first compile allocates millions of short-lived objects: with Python's default
    # thresholds the cycle collector runs every 700 allocations, 7 % of a first `simulate`
    # (benchmarks/RESULTS.md). A command is a short process: collect less often.
    gc.set_threshold(100_000, 50, 100)


# ---------------------------------------------------------------- solve
@main.command()
@click.argument("mission", required=False, type=click.Path())
@pieces_option
@click.option("--exclude", multiple=True, metavar="PIECE[,PIECE...]", help="Pieces that may not be used.")
@click.option("--max-pieces", type=click.IntRange(min=0), default=None, help="Use at most N new pieces.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Seconds for the search.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--png", type=click.Path(dir_okay=False), default=None, help="Save a picture of the solution.")
@click.option("--players", type=int, default=None,
              help="2 for buddy; 3 or 4 for party (default 2 / 4); with 3 players purple-1 is out of the game.")
@click.option("--count", "count", is_flag=True,
              help="Also count the distinct sets of pieces of the fewest size that clear the mission.")
@click.option("--cap", type=click.IntRange(min=1), default=1000, show_default=True,
              help="With --count: stop counting past this many.")
@click.option("--placements", "count_placements", is_flag=True,
              help="With --count: count distinct arrangements (pieces and cells) instead of sets of pieces.")
@from_option
@round_option
@user_errors
def solve(mission, pieces, exclude, max_pieces, time_limit, as_json, png, players, count, cap, count_placements,
          from_log, from_round):
    """Find the fewest new pieces that clear MISSION, and prove it minimal.

    With --from LOG --round R: the board at the start of round R of a logged game, with the
    pieces placed so far, the rounds and the skill counters left. MISSION may then be left
    out when the game was played on a bundled mission.

    Exit codes: 0 solvable; 1 proven unsolvable (the reasons are printed); 2 bad input or
    usage (a broken file, an unknown piece, a wrong player count, an output that cannot be
    written); 3 unknown within the time limit; 130 interrupted (Ctrl-C).

    \b
    Example: kakapo solve b07 --png b07.png
    """
    from solver.puzzle.answer import answer  # heavy: OR-Tools

    if mission is None and from_log is None:
        raise click.UsageError("give MISSION (a mission file or a bundled mission's id), or --from LOG")
    check_output_path(png, [mission, pieces, from_log], ".png", "--png")
    excluded = parse_pieces(exclude)
    moment = ""
    if from_log:
        log, catalog, game_mission = log_and_mission(from_log, mission, pieces)
        if players is not None and players != log.players:
            raise InputError("--players", f"the game in {from_log} has {log.players} players, not {players}",
                             "leave --players out with --from")
        state = replay(log, game_mission, catalog, from_round)
        m, players = board_mission(state), log.players
        moment = f"; the board of round {state.round} of {from_log}" if not state.is_over() else \
            f"; the board after the game of {from_log}"
    else:
        if from_round is not None:
            raise click.UsageError("--round goes with --from LOG")
        catalog, m = load_inputs(mission, pieces)
        players = table(m, players, mission)
    a = answer(m, catalog, players, excluded, max_pieces, time_limit)
    result = a.result
    tally = None
    if count or count_placements:
        from solver.puzzle.cpsat import SolutionCount, count_solutions  # heavy: OR-Tools

        what = "placements" if count_placements else "sets"
        if result.status == "solvable" and result.optimal:
            tally = count_solutions(m, catalog, result.pieces_used, cap, count_placements, excluded, players,
                                    time_limit)
        else:  # proven unsolvable: none at all; no proven fewest size: nothing counted, not complete
            tally = SolutionCount(result.pieces_used or 0, 0, result.status == "unsolvable", what)
    if as_json:
        doc = a.to_json()
        if tally is not None:
            doc.update({"solution_count": tally.count, "count_complete": tally.complete, "count_of": tally.what})
        if from_log:
            doc.update({"from": from_log, "round": state.round, "rounds_left": m.rounds, "skills_left": m.skills})
        emit_json(doc)
    else:
        click.echo(f"{m.name} ({m.id}), {m.mode}: scan {'all' if m.clear_all else m.clear} of {len(m.birds)} "
                   f"bird(s){moment}")
        if from_log:
            click.echo(f"  {len(m.placed)} piece(s) on the board, {m.rounds} round(s) and {m.skills} skill "
                       "counter(s) left")
        if result.status == "solvable":
            proof = "proven minimal" if result.optimal else f"not proven minimal (lower bound {result.lower_bound})"
            click.echo(f"solvable with {result.pieces_used} new piece(s), {proof}; "
                       f"scans {', '.join(result.scanned) or '-'}")
            for p in result.placements:
                click.echo(f"  {p}")
        elif result.status == "unsolvable":
            click.echo(f"unsolvable: no set of available pieces scans enough birds with at most {a.limit} new "
                       f"piece(s) (a game selects at most {a.budget}: {m.rounds} rounds, "
                       f"{m.skills} skill counter(s) for double scans)")
            for r in a.reasons:
                click.echo(f"  why: {r['message']}")
        else:
            click.echo(f"unknown: no answer within {time_limit:g} s (try a longer --time-limit)")
        click.echo(draw(a.board, use_colour(), new=result.placements))
        click.echo(LEGEND)
        if tally is not None:
            click.echo(count_line(tally, cap) if result.status == "solvable" and result.optimal else
                       "count: 0 (no answer)" if tally.complete else
                       "count: none (no fewest answer was proven within the time limit)")
        click.echo(f"solver time: {result.seconds:.2f} s (wall clock)")
    if png:  # after the answer is printed: a failed picture never loses it
        from solver.view.plot import save_png  # heavy: matplotlib

        what = f"solvable with {result.pieces_used} new piece(s), scanning {', '.join(result.scanned) or '-'}" \
            if result.status == "solvable" else result.status
        save_png(a.board, png, f"{m.name} ({m.id}): {what}", new=result.placements,
                 culprits=[parse_cell(c) for r in a.reasons for c in r["cells"]],
                 culprit_birds=[b for r in a.reasons for b in r["birds"]])
    sys.exit({"solvable": EXIT_OK, "unsolvable": EXIT_NO}.get(result.status, EXIT_UNKNOWN))


# ---------------------------------------------------------------- show
@main.command()
@click.argument("mission", type=click.Path())
@pieces_option
@click.option("--png", type=click.Path(dir_okay=False), default=None, help="Save a picture of the mission.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def show(mission, pieces, png, as_json):
    """Draw MISSION in the terminal (and with --png save a picture).

    \b
    Example: kakapo show p02 --png p02.png
    """
    check_output_path(png, [mission, pieces], ".png", "--png")
    _, m = load_inputs(mission, pieces)
    board = Board.start(m)
    if png:
        from solver.view.plot import save_png  # heavy: matplotlib

        save_png(board, png, f"{m.name} ({m.id})")
    if as_json:
        emit_json(mission_json(m))
        return
    click.echo(f"{m.name} ({m.id}), {m.mode}: scan {'all' if m.clear_all else m.clear} of {len(m.birds)} bird(s) "
               f"in {m.rounds} rounds, {m.skills} skill counters")
    click.echo(draw(board, use_colour()))
    click.echo(LEGEND)
    for b in m.birds:
        why = blocked_reason(m, b)
        if why:
            click.echo(f"bird {b.letter} can never be scanned: {why}")


@main.command()
@pieces_option
@click.option("--json", "as_json", is_flag=True, help="Print the catalog as JSON: one entry per piece.")
@click.option("--png", type=click.Path(dir_okay=False), default=None, help="Save a picture of the catalog.")
@user_errors
def pieces(pieces, as_json, png):
    """Draw every scanner piece of the catalog, by colour and value.

    \b
    Example: kakapo pieces
    Example: kakapo pieces --pieces my_copy.toml --png pieces.png
    """
    catalog = load_catalog(pieces)
    check_output_path(png, [pieces], ".png", "--png")
    if as_json:
        emit_json([{"piece": str(c), "cells": len(catalog[c].cells), "shape": catalog[c].format()} for c in ALL_CARDS])
    else:
        click.echo(f"piece catalog: {catalog.source}")
        colour = use_colour()
        for col in Colour:
            cards = [c for c in ALL_CARDS if c.colour == col]
            click.echo("")
            click.echo(shape_strip([(str(c), catalog[c]) for c in cards], colour,
                                   colours=[col] * len(cards)))
    if png:
        from solver.view.plot import save_pieces_png  # heavy: matplotlib

        save_pieces_png(catalog, png, f"piece catalog: {Path(catalog.source).name}")
        if not as_json:
            click.echo(f"picture: {png}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but loopback lets anyone on that network use the page.")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=8765, show_default=True,
              help="Port to listen on (0 picks a free one).")
@click.option("--dir", "directory", type=click.Path(file_okay=False), default=".", show_default=True,
              help="The folder whose missions the studio lists, opens and saves.")
@pieces_option
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes a job uses (default: all cores).")
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
@user_errors
def studio(host, port, directory, pieces, workers, no_browser):
    """Serve the studio: draw a mission in the browser and see it checked, solved and rated.

    Prints `kakapo studio: http://HOST:PORT/` once it serves; Ctrl-C (or SIGTERM) stops it
    and every job it runs. Saved missions go into --dir, never over a file without being asked.

    \b
    Example: kakapo studio --dir my_missions
    Example: kakapo studio --port 0 --no-browser
    """
    try:
        from solver.studio.server import serve  # heavy: FastAPI, uvicorn
    except ImportError as e:
        raise InputError("kakapo studio", f"the studio's packages are not installed ({e.name})",
                         'install them: python -m pip install "kakapo[studio]" (or -e ".[studio]" in a checkout)') \
            from None
    load_catalog(pieces)  # a broken catalog is said before anything is served
    serve(host, port, directory, pieces, workers or default_workers(), not no_browser,
          say=lambda text: click.echo(text), warn=lambda text: click.echo(text, err=True))


@main.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def list_missions(as_json):
    """The bundled missions in campaign order: id, name, mode, player counts, fewest new pieces
    and difficulty (the shortfall per player count: the share of the clearable deals that tables
    from naive to strong miss, 0 = every table clears them; docs/policies.md).

    Any command takes a bundled mission by its id, from any directory (kakapo solve b01).

    \b
    Example: kakapo list --json
    """
    rows = campaign_listing(load_catalog())
    if as_json:
        emit_json({"missions": rows})
        return

    def per_table(values: dict) -> str:
        shown = ["-" if v is None else (f"{v:.2f}" if isinstance(v, float) else str(v)) for v in values.values()]
        return " / ".join(shown)

    width = max(len(r["name"]) for r in rows)
    click.echo(f"{'id':<4} {'name':<{width}}  {'mode':<5}  {'players':<7}  {'fewest pieces':<13}  "
               "shortfall (party: with 3 / 4 players)")
    for r in rows:
        players = ",".join(str(p) for p in r["players"])
        click.echo(f"{r['id']:<4} {r['name']:<{width}}  {r['mode']:<5}  {players:<7}  "
                   f"{per_table(r['min_pieces']):<13}  {per_table(r['shortfall'])}")


# ---------------------------------------------------------------- simulate
@main.command()
@click.argument("mission", type=click.Path())
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--games", type=click.IntRange(min=1), default=10000, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--policy", type=click.Choice(POLICY_NAMES), default=DEFAULT_POLICY, show_default=True,
              help=f"The simulated players ({POLICY_HELP}).")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@click.option("--engine", type=click.Choice(["numba", "python"]), default="numba", show_default=True)
@samples_option
@pieces_option
@click.option("--results", "results_path", type=click.Path(dir_okay=False), default=None,
              help="Write one CSV row per game: game,result,rounds.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def simulate(mission, players, games, seed, policy, workers, engine, samples, pieces, results_path, as_json):
    """Play many games of MISSION with simulated players and estimate the clear rate.

    \b
    Example: kakapo simulate p05 --players 3 --games 20000 --policy planner
    """
    from solver.analysis.simulate import play_games, summarise  # heavy: Numba

    samples = samples_for(policy, samples)
    check_output_path(results_path, [mission, pieces], ".csv", "--results")
    catalog, m = load_inputs(mission, pieces)
    players = table(m, players, mission)
    workers = workers or default_workers()
    bar = ProgressBar("games", enabled=not as_json)
    try:
        out = play_games(m, catalog, players, games, seed, policy, engine, workers, progress=bar.update,
                         samples=samples)
    finally:
        bar.close()
    doc = summarise(m, players, policy, games, seed, out, engine, workers, samples)
    if as_json:
        emit_json(doc)
    else:
        lo, hi = doc["ci95"]
        named = f"{policy} ({samples} samples)" if doc["samples"] is not None else policy
        click.echo(f"{m.name} ({m.id}), {players} players, policy {named}, {games} games, seed {seed}")
        click.echo(f"cleared {doc['cleared']} ({doc['clear_rate']:.1%}; 95% interval {lo:.1%} .. {hi:.1%})")
        f = doc["failures"]
        click.echo(f"failed: rounds ran out {f['rounds_exhausted']}, piece could not be placed {f['unplaceable']}")
        if doc["mean_rounds_when_cleared"] is not None:
            click.echo(f"mean rounds when cleared: {doc['mean_rounds_when_cleared']:.2f}")
        click.echo(f"{doc['games_per_second']:.0f} games/s ({engine} engine, {workers} worker(s))")
    if results_path:  # after the answer is printed: a failed write never loses it
        write_csv(results_path, ["game", "result", "rounds"],
                  ([i, RESULT_NAMES[r], int(n)] for i, (r, n) in enumerate(zip(out.results, out.rounds, strict=True))))


# ---------------------------------------------------------------- play
@main.command()
@click.argument("mission", required=False, type=click.Path())
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the deal (default 1; with --from, the log's).")
@click.option("--game", "game_index", type=click.IntRange(min=0), default=None,
              help="Play game I of `simulate` with the same seed (the same deal; default 0, with --from the log's).")
@click.option("--policy", type=click.Choice((*POLICY_NAMES, OPEN_HAND)), default=None,
              help=f"The simulated players (default {DEFAULT_POLICY}; with --human, planner, the stronger "
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
def play(mission, players, seed, game_index, policy, time_limit, samples, pieces, log_path, from_log, from_round,
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
        return play_as_human(mission, players, seed, game_index, policy, samples, pieces, log_path, from_log,
                             from_round, human)
    from solver.analysis import play as games  # heavy: the open-hand solver's OR-Tools

    check_output_path(log_path, [mission, pieces, from_log], None, "--log")
    if from_log:
        log, catalog, m = log_and_mission(from_log, mission, pieces)
        seed, game_index, policy = _defaults_from(log, seed, game_index, policy)
        if samples is None and policy == PolicyId.SEARCH.label and policy == log.meta.get("policy"):
            samples = log.meta.get("samples")  # the original's, so that it repeats
        samples = samples_for(policy, samples)
        game = games.play_from(log, m, catalog, from_round, seed, game_index, policy, time_limit, players, samples)
        players = log.players
    else:
        catalog, m = load_inputs(mission, pieces)
        players = table(m, players, mission)
        seed, game_index, policy = 1 if seed is None else seed, game_index or 0, policy or DEFAULT_POLICY
        samples = samples_for(policy, samples)
        game = games.play(m, catalog, players, seed, game_index, policy, time_limit, samples)
    if log_path:
        write_log(log_path, game.events)
    print_game(m, game, players, policy if policy != PolicyId.SEARCH.label else f"search ({samples} samples)", seed,
               game_index, from_log)
    sys.exit(EXIT_OK if game.state.result() == "cleared" else EXIT_NO)


def human_seats(text: str, players: int) -> list[int]:
    """The seats of --human: numbers from 0, comma-separated, each once."""
    seats = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 0 <= int(part) < players:
            raise InputError("--human", f"{part!r} is not a seat of this {players}-player game",
                             f"give seat numbers from 0 to {players - 1}, e.g. --human 0 or --human 0,2")
        if int(part) in seats:
            raise InputError("--human", f"seat {part} is named twice", "name each seat once")
        seats.append(int(part))
    return seats


def free_log_name(mission_id: str) -> str:
    """MISSION-game-N.jsonl in the current folder, the first N not taken (nothing is overwritten)."""
    n = 1
    while Path(f"{mission_id}-game-{n}.jsonl").exists():
        n += 1
    return f"{mission_id}-game-{n}.jsonl"


def play_as_human(mission, players, seed, game_index, policy, samples, pieces, log_path, from_log, from_round,
                  human) -> None:
    """`play --human`: a person in some seats, --policy in the others (module analysis/human.py)."""
    from solver.analysis import play as games  # heavy: the open-hand solver's OR-Tools

    if policy == OPEN_HAND:
        raise InputError("--policy", "the open-hand team plans every seat with every hand in view; it cannot share "
                         "a table with a person", "give another --policy (default planner)")
    if from_log:
        log, catalog, m = log_and_mission(from_log, mission, pieces)
        seed, game_index, _ = _defaults_from(log, seed, game_index, policy)
        logged = log.meta.get("policy")
        policy = policy or (logged if logged in POLICY_NAMES else PolicyId.PLANNER.label)
        samples = samples_for(policy, samples)
        state, _ = games.resume(log, m, catalog, from_round, seed, game_index, policy, players, samples)
        players = log.players
        earlier = list(log.human)
    else:
        catalog, m = load_inputs(mission, pieces)
        players = table(m, players, mission)
        seed, game_index = 1 if seed is None else seed, game_index or 0
        policy = policy or PolicyId.PLANNER.label
        samples = samples_for(policy, samples)
        state = games.dealt(m, catalog, players, seed, game_index)
        earlier = []
    seats = human_seats(human, players)
    log_path = log_path or free_log_name(m.id)
    check_output_path(log_path, [mission, pieces, from_log], None, "--log")
    console = games.human.console_for()
    others = [k for k in range(players) if k not in seats]
    label = policy if policy != PolicyId.SEARCH.label else f"search ({samples} samples)"
    console.say(f"{m.name} ({m.id}): {players} players; you play seat(s) {', '.join(map(str, seats))}"
                + (f", {label} plays seat(s) {', '.join(map(str, others))}" if others else "")
                + f"; scan {'all' if m.clear_all else m.clear} of {len(m.birds)} bird(s) in {m.rounds} rounds; "
                f"seed {seed}, game {game_index}")
    console.say(f"the game is logged to {Path(log_path).resolve()} after every round; the log contains the whole "
                "deal (every hand), so do not read it before the game ends")
    try:
        game = games.play_human(state, seats, policy, samples, console, log_path,
                                {**games.meta(seed, game_index, policy, samples), "human": earlier})
    except games.human.GameAbandoned as e:
        done = state.rounds_played()
        how = "at the end of input" if str(e) == "end of input" else "by Ctrl-C"
        click.echo(f"game ended {how} in round {state.round}: the log of the {done} finished round(s) is in "
                   f"{log_path}; `kakapo play --from {log_path} --human {human}` goes on from there", err=True)
        sys.exit(EXIT_INTERRUPTED)
    board = game.state.board
    click.echo(draw(board, console.colour, new=list(board.pieces.values())[len(m.placed):]))
    events = game.events
    click.echo(end_line(m, events[-1], events[1:-1]))
    sys.exit(EXIT_OK if game.state.result() == "cleared" else EXIT_NO)


def _defaults_from(log: GameLog, seed, game, policy):
    """--seed, --game and --policy of a continued game: as given, else as the log records them."""
    logged = log.meta.get("policy")
    return (log.meta.get("seed", 1) if seed is None else seed, log.meta.get("game", 0) if game is None else game,
            policy or (logged if logged in (*POLICY_NAMES, OPEN_HAND) else DEFAULT_POLICY))


def print_game(m: Mission, game, players: int, policy: str, seed: int, game_index: int, from_log) -> None:
    setup, rounds, end = game.events[0], game.events[1:], None
    if rounds and rounds[-1]["event"] == "end":
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
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None,
              help="Also write a page with the board of each round.")
@user_errors
def review(log_file, mission, pieces, time_limit, samples, playouts, seed, as_json, html_path):
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
    from solver.analysis.review import (  # heavy: Numba's search player and the OR-Tools deal solver
        REVIEW_PLAYOUTS,
        REVIEW_SAMPLES,
        review_game,
        review_html,
        review_lines,
    )

    log, catalog, m = log_and_mission(log_file, mission, pieces)
    check_output_path(html_path, [log_file, mission, pieces], ".html", "--html")
    progress = None if as_json else (lambda text: click.echo(text, err=True))
    rv = review_game(log, m, catalog, time_limit, REVIEW_SAMPLES if samples is None else samples,
                     REVIEW_PLAYOUTS if playouts is None else playouts, seed, progress)
    if html_path:
        Path(html_path).write_text(review_html(rv), encoding="utf-8")
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
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), default=None,
              help="Draw the log-likelihood and the agreement across the rungs.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def rate(logs, seats, plays, missions, seed, workers, png_path, as_json):
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
    from solver.analysis.rate import likelihood_plot, rate_lines  # heavy: Numba
    from solver.analysis.rate import rate as run_rate  # heavy: Numba

    check_output_path(png_path, list(logs), ".png", "--png")
    rated = None
    if seats is not None:
        rated = tuple(rate_seats(seats))
    for m in missions:
        if not mission_path(m).exists():
            raise InputError("--mission", f"{m!r} is neither a mission file nor a bundled mission",
                             "give a bundled id (kakapo list) or a mission file")
    bar = ProgressBar("rate", enabled=not as_json)
    try:
        doc = run_rate(list(logs), rated, plays, missions, seed, workers or default_workers(), bar.update)
    finally:
        bar.close()
    if as_json:
        emit_json(doc)
    else:
        for line in rate_lines(doc):
            click.echo(line)
    if png_path:
        likelihood_plot(doc, Path(png_path))


def rate_seats(text: str) -> list[int]:
    """--seat: seat numbers from 0, comma-separated, each once."""
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit():
            raise InputError("--seat", f"{part!r} is not a seat number",
                             "give seats from 0, e.g. --seat 0 or --seat 0,2")
        if int(part) in out:
            raise InputError("--seat", f"seat {part} is named twice", "name each seat once")
        out.append(int(part))
    return out


# ---------------------------------------------------------------- ceiling
@main.command()
@click.argument("mission", type=click.Path())
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@pieces_option
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Budget per deal for the exact solver, in seconds of CP-SAT's deterministic time (a count of "
                   "work: the same answer on any machine, however busy).")
@click.option("--results", "results_path", type=click.Path(dir_okay=False), default=None,
              help="Write one CSV row per deal: game,result.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def ceiling(mission, players, games, seed, workers, pieces, time_limit, results_path, as_json):
    """The open-hand ceiling: how many deals a team that sees every hand could clear.

    Decides each of the first N deals of `simulate` with the same seed exactly (clearable,
    not clearable, or undecided within the time limit). An upper bound on any real table.

    \b
    Example: kakapo ceiling b12 --games 200
    """
    from solver.openhand.ceiling import ceiling as run_ceiling  # heavy: OR-Tools and Numba

    check_output_path(results_path, [mission, pieces], ".csv", "--results")
    catalog, m = load_inputs(mission, pieces)
    players = table(m, players, mission)
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


# ---------------------------------------------------------------- ladder
@main.command()
@click.argument("mission", type=click.Path())
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--games", type=click.IntRange(min=1), default=500, show_default=True, help="Deals per rung.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@pieces_option
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Budget per deal for the open-hand ceiling's exact solver, in seconds of CP-SAT's "
                   "deterministic time (the same answer on any machine).")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), default=None, help="Draw the curve into this PNG.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def ladder(mission, players, games, seed, workers, pieces, time_limit, png_path, as_json):
    """The clear rate on the same deals for tables of growing strength.

    Rungs: greedy, heuristic, planner, and the search player with 2, 4, 8, 16, 32 and 64 samples
    (32 and 64 on the first 200 deals at most); above them the open-hand ceiling (a team that sees
    every hand: an upper bound, not a player). The shortfall sums the curve up: the share of the
    clearable deals a rung misses, on average (0 = every rung clears every clearable deal). The
    search rungs take most of the time.

    \b
    Example: kakapo ladder p15 --players 4 --games 200 --png p15-ladder.png
    """
    from solver.analysis.ladder import ladder as run_ladder  # heavy: Numba and OR-Tools

    check_output_path(png_path, [mission, pieces], ".png", "--png")
    catalog, m = load_inputs(mission, pieces)
    players = table(m, players, mission)
    workers = workers or default_workers()
    bars = RungBars(enabled=not as_json)
    try:
        doc = run_ladder(m, catalog, players, games, seed, workers, progress=bars.update, time_limit=time_limit)
    finally:
        bars.close()
    from solver.analysis.validate import placement_phrase  # heavy: OR-Tools

    place_in_campaign(doc, m, catalog, players)  # where it falls in the campaign, by its own measured figures
    if as_json:
        emit_json(doc)
    else:
        click.echo(f"{m.name} ({m.id}), {players} players, {games} deals per rung, seed {seed}")
        for r in doc["rungs"]:
            name = r["policy"] if r["samples"] is None else f"{r['policy']} {r['samples']} samples"
            lo, hi = r["ci95"]
            fewer = f", the first {r['games']} deals" if r["games"] != games else ""
            click.echo(f"  {name:<20} {r['clear_rate']:>7.1%}  (95% interval {lo:.1%} .. {hi:.1%}{fewer})")
        c = doc["ceiling"]
        undecided = f", {c['undecided']} undecided" if c["undecided"] else ""
        click.echo(f"  {'open-hand ceiling':<20} {c['clear_rate']:>7.1%}  (cheats: sees every hand{undecided})")
        d = doc["difficulty"]
        click.echo(f"{d['name']}: {d['value']:.2f} (the share of clearable deals a rung misses, on average)")
        if "campaign" in d:
            click.echo(f"in the campaign: {placement_phrase(d['campaign'])}")
    if png_path:  # after the answer is printed: a failed write never loses it
        from solver.analysis.report_plots import ladder_plot  # heavy: matplotlib

        ladder_plot(doc, f"{m.name} ({m.id}), {players} players", Path(png_path))


# ---------------------------------------------------------------- generate
@main.command()
@click.option("--mode", type=click.Choice(["buddy", "party"]), required=True)
@click.option("--band", "band", required=True, metavar="LOW-HIGH",
              help="Target clear rate of the policy, e.g. 0.30-0.50.")
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--policy", type=click.Choice(POLICY_NAMES), default=DEFAULT_POLICY, show_default=True)
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
    from solver.analysis import generate as generator  # heavy: OR-Tools and Numba

    try:
        low, high = (float(x) for x in band.split("-"))
    except ValueError:
        raise InputError("--band", f"cannot read {band!r}", "give two rates like 0.30-0.50") from None
    if not 0 <= low < high <= 1:
        raise InputError("--band", f"{band!r} is not a range of clear rates",
                         "give 0 <= LOW < HIGH <= 1, e.g. 0.30-0.50")
    players = players if players is not None else (2 if mode == "buddy" else 4)
    if (mode == "buddy") != (players == 2) or players not in (2, 3, 4):
        raise InputError("--players", f"{mode} missions are not played by {players} players",
                         "use 2 for buddy, 3 or 4 for party")
    catalog = load_catalog(pieces)
    check_writable(out_dir, "--out", folder=True)
    most = generator.MAX_CANDIDATES
    bar = ProgressBar(f"candidates (of at most {most})", enabled=not as_json)
    try:
        found = generator.generate(mode, low, high, players, policy, count, seed, Path(out_dir), catalog, workers,
                                   progress=lambda tried, kept: bar.update(tried, most, f"{kept} of {count} kept"))
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


# ---------------------------------------------------------------- validate
@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@pieces_option
@click.option("--games", type=click.IntRange(min=0), default=2000, show_default=True,
              help="Games per player count for the difficulty estimate (0: skip it).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--policy", type=click.Choice(POLICY_NAMES), default=DEFAULT_POLICY, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Seconds for the solver, per file.")
@click.option("--ceiling-games", type=click.IntRange(min=0), default=50, show_default=True,
              help="Deals for the open-hand ceiling of the band (0: skip it).")
@click.option("--ladder-games", type=click.IntRange(min=0), default=40, show_default=True,
              help="Deals for the ladder's search rungs, 2 to 64 samples (32 and 64 on at most 200 of them; 0: skip "
                   "them; they take the longest).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@user_errors
def validate(files, pieces, games, seed, policy, workers, time_limit, ceiling_games, ladder_games, as_json):
    """Check fan missions: errors, warnings, solvability, fewest pieces, difficulty.

    Exit 0 when every file is valid and solvable, 1 when one is valid but
    unsolvable, 2 when one is invalid, 3 when solvability stays undecided.

    \b
    Example: kakapo validate my_mission.toml --ceiling-games 100
    """
    try:
        catalog = load_catalog(pieces)
    except KakapoError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(EXIT_INPUT)
    paths = [mission_path(f) for f in files]
    invalid = {i: d for i, p in enumerate(paths) if (d := check_file(p, catalog)) is not None}  # before any work
    if not as_json:
        for i in sorted(invalid):
            print_invalid(invalid[i])
    from solver.analysis.validate import (  # heavy: OR-Tools, Numba
        bundled_rates,
        bundled_shortfalls,
        placement_phrase,
        validate_file,
    )

    docs: list = [invalid.get(i) for i in range(len(paths))]
    if len(invalid) < len(paths):
        workers = workers or default_workers()
        baseline = bundled_rates(catalog, games, seed, policy, workers) if games > 0 else None
        shortfalls = bundled_shortfalls(catalog) if games > 0 else None
        bars = RungBars(enabled=not as_json)
        try:
            docs = [d or validate_file(paths[i], catalog, time_limit, games, seed, policy, workers, baseline,
                                       ceiling_games, ladder_games if games > 0 else 0, bars.update, shortfalls)
                    for i, d in enumerate(docs)]
        finally:
            bars.close()
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
        if not d["valid"]:
            continue  # said before the work began
        click.echo(f"== {d['file']}")
        for w in d["warnings"]:
            click.echo(f"warning: {w}")
        if d["status"] == "solvable":
            proof = "proven minimal" if d["optimal"] else "not proven minimal"  # the words of `solve`
            click.echo(f"valid, solvable with {d['min_pieces']} new piece(s), {proof}")
            if "solution_count" in d:
                n, done = d["solution_count"], d["count_complete"]
                click.echo("  one intended answer: a single set of pieces does it" if (n, done) == (1, True) else
                           f"  {'' if done else 'at least '}{n} distinct sets of {d['min_pieces']} pieces do it")
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
            parts = [(f"{name} {band[name]['clear_rate']:.1%}", band[name]["clear_rate"]) for name in BAND_POLICIES]
            if "ceiling" in band:
                c = band["ceiling"]
                undecided = f", {c['undecided']} undecided" if c["undecided"] else ""
                parts.append((f"open-hand ceiling {c['clear_rate']:.1%} of {c['games']} deals{undecided}",
                              c["clear_rate"]))
            click.echo(f"    band: {band_line(parts)}")
            if "ladder" in e:
                steps = [f"{r['samples']} samples {r['clear_rate']:.0%}"
                         + (f" (of {r['games']})" if r["games"] != e["ladder"]["games"] else "")
                         for r in e["ladder"]["rungs"]]
                click.echo(f"    ladder, search player on {e['ladder']['games']} deals: {', '.join(steps)}")
            if "shortfall" in e:
                click.echo(f"    difficulty: shortfall {e['shortfall']:.2f} (the share of clearable deals a rung of "
                           "the ladder misses, on average; 0 = every rung clears them all)")
                if "shortfall_place" in e:
                    click.echo(f"    by its shortfall: {placement_phrase(e['shortfall_place'])}")
    sys.exit(code)


def print_invalid(d: dict) -> None:
    """`validate`'s block for a file that does not load: every error with its line and fix."""
    click.echo(f"== {d['file']}")
    for e in d["errors"]:
        where = e["file"] if e["line"] is None else f"{e['file']}, line {e['line']}"
        click.echo(f"error: {where}: {e['message']}" + (f"\n  fix: {e['fix']}" if e["fix"] else ""), err=True)
    click.echo("invalid")


# ---------------------------------------------------------------- report
@main.command()
@click.argument("targets", nargs=-1, type=click.Path())
@click.option("--games", type=click.IntRange(min=1), default=10000, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--players", "players_list", default=None, metavar="LIST",
              help="Player counts to include, e.g. 2,3 (default: those of each mission's mode).")
@click.option("--policy", type=click.Choice(POLICY_NAMES), default=DEFAULT_POLICY, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Processes (default: all cores).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="reports", show_default=True,
              help="The report's folder. One that holds a report of other missions or settings is refused.")
@click.option("--force", is_flag=True, help="Replace the report files of another report in --out.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Seconds for the solver, per mission.")
@click.option("--baseline", is_flag=True, help="Add the band: greedy (the naive floor), heuristic and planner rates.")
@click.option("--ceiling-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Add the open-hand ceiling over this many deals (0: none).")
@click.option("--ladder-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Add the ladder's search rungs (2 to 64 samples; 32 and 64 on at most 200 deals) over this many "
                   "deals (0: none); with --baseline the page draws each mission's curve.")
@samples_option
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run the work on a Dask cluster, e.g. tcp://127.0.0.1:8786 (needs the cluster extra).")
@click.option("--worker-timeout", type=click.FloatRange(min=0, min_open=True), default=300.0, show_default=True,
              metavar="SECONDS", help="With --scheduler: give up (exit 2, finished rows kept) when no worker has "
                                      "been connected this long.")
@pieces_option
@user_errors
def report(targets, games, seed, players_list, policy, workers, out_dir, force, time_limit, baseline, ceiling_games,
           ladder_games, samples, scheduler, worker_timeout, pieces):
    """Batch difficulty report of missions (files or folders; default: the bundled ones).

    Writes report.csv, report.md, report.html and PNG plots into --out. Interrupted
    work is kept; the same command again finishes it. A folder holding a report of
    other missions or settings is refused (exit 2) unless --force.

    \b
    Example: kakapo report --baseline --ceiling-games 200 --out campaign-report
    Example: kakapo report p15 p20 --baseline --ladder-games 200 --ceiling-games 200 --out ladder
    """
    from solver.analysis.cluster import NoWorkers  # heavy: with the task runners
    from solver.analysis.report import (  # heavy: pandas, the engines
        PROGRESS,
        claim_folder,
        find_missions,
        plan_report,
        report_identity,
        rows_of,
        run_plan,
        write_outputs,
    )

    samples = samples_for(policy, samples)
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
    paths = find_missions([str(mission_path(t)) for t in targets], MISSIONS)
    check_writable(out_dir, "--out", folder=True)
    out = Path(out_dir)
    plan = plan_report(paths, catalog, Path(pieces or DEFAULT_CATALOG).read_bytes(), games, seed, wanted, policy,
                       time_limit, baseline, ceiling_games, ladder_games, samples)
    if not plan.rows:
        raise InputError(out_dir, "no (mission, players) pair matches --players", "check --players and the missions")
    claim_folder(out, report_identity(plan), force)
    bar = ProgressBar("report")
    state = {"done": 0, "total": 0}

    def tick(done, total, label):
        if label is None and done:
            click.echo(f"resuming: {done} of {total} results already in {out / PROGRESS}", err=True)
        state.update(done=done, total=total)
        bar.update(done, total, label)

    def status(text):
        if text:
            click.echo(text, err=True)
        else:
            click.echo("a worker is connected again", err=True)

    try:
        progress = run_plan(plan, out, workers or default_workers(), scheduler, tick, worker_timeout, status)
    except NoWorkers as e:
        bar.close()
        click.echo(f"error: {e}; {state['done']} of {state['total']} results are kept in {out / PROGRESS}", err=True)
        click.echo(f"  fix: start workers (`dask worker {e.address}`) and run the same command again, or run it "
                   "without --scheduler to finish the report here", err=True)
        sys.exit(2)
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


class RungBars:
    """One progress bar per rung of the ladder, each labelled with its rung."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.label: str | None = None
        self.bar: ProgressBar | None = None

    def update(self, label: str, done: int, total: int) -> None:
        if label != self.label:
            self.close()
            self.label, self.bar = label, ProgressBar(f"{label:<10}", self.enabled)
        assert self.bar is not None
        self.bar.update(done, total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


if __name__ == "__main__":
    main()
