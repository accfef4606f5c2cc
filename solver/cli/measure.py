"""The commands that measure: `kakapo simulate`, `chance`, `ceiling`, `ladder`, `validate`, `generate`,
`report` and `campaign`."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import click

from solver.app.inputs import samples_for, table_size
from solver.app.measuring import (
    band_of,
    generate_players,
    on_cluster,
    table_moment,
)
from solver.app.measuring import ceiling as run_ceiling
from solver.app.measuring import chance as run_chance
from solver.app.measuring import generate as run_generate
from solver.app.measuring import ladder as run_ladder
from solver.app.measuring import simulate as run_simulate
from solver.app.measuring import validate as run_validate
from solver.app.outputs import check_output_path, check_writable
from solver.app.policychoices import BATCH_DEFAULT, POLICIES
from solver.app.reporting import KeptWork, make_report
from solver.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNKNOWN,
    POLICY_HELP,
    ProgressBar,
    RungBars,
    band_line,
    cluster_options,
    cluster_status,
    emit_json,
    json_option,
    no_workers_exit,
    pieces_option,
    read_inputs,
    samples_option,
    say_err,
    say_note,
    seed_option,
    user_errors,
    workers_option,
    write_csv,
)
from solver.cli.group import main
from solver.core.codes import BAND_POLICIES, RESULT_NAMES
from solver.io.catalog import load_catalog
from solver.io.difficulty import PRECISION, campaign_line, placement_phrase
from solver.io.paths import mission_path
from solver.runtime.workers import default_workers


# ---------------------------------------------------------------- simulate
@main.command()
@click.argument("mission", type=click.Path())
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--games", type=click.IntRange(min=1), default=10000, show_default=True)
@seed_option
@click.option("--policy", type=click.Choice(POLICIES), default=BATCH_DEFAULT, show_default=True,
              help=f"The simulated players ({POLICY_HELP}).")
@workers_option
@click.option("--engine", type=click.Choice(["numba", "python"]), default="numba", show_default=True)
@samples_option
@pieces_option
@click.option("--results", "results_path", type=click.Path(dir_okay=False), default=None,
              help="Write one CSV row per game: game,result,rounds.")
@json_option
@user_errors
def simulate(mission, players, games, seed, *, policy, workers, engine, samples, pieces, results_path, as_json):
    """Play many games of MISSION with simulated players and estimate the clear rate.

    \b
    Example: kakapo simulate p05 --players 3 --games 20000 --policy planner
    """
    samples = samples_for(policy, samples)
    check_output_path(results_path, [mission, pieces], ".csv", "--results")
    catalog, m = read_inputs(mission, pieces)
    players = table_size(m, players, mission)
    workers = workers or default_workers()
    with ProgressBar("games", enabled=not as_json) as bar:
        doc, out = run_simulate(m, catalog, players, games, seed=seed, policy=policy, engine=engine, workers=workers,
                                samples=samples, progress=bar.update)
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


# ---------------------------------------------------------------- chance
@main.command()
@click.argument("mission", type=click.Path())
@click.option("--exclude", multiple=True, metavar="CARD[,CARD...]",
              help="The cards already gone (revealed in the rounds played), whole rounds of them.")
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--rounds", type=click.IntRange(min=1), default=None,
              help="The rounds left (default: the mission file's rounds).")
@click.option("--skills", type=click.IntRange(min=0), default=None,
              help="The skill counters left (default: the mission file's skills).")
@click.option("--trump", type=click.Choice(["red", "yellow", "green", "blue", "purple"]), default=None,
              help="The trump colour in force: the colour of the last decision card (default purple).")
@click.option("--hand", default=None, metavar="CARD[,CARD...]",
              help="The cards you hold: yours in every deal; only the other unseen cards are dealt anew.")
@click.option("--games", type=click.IntRange(min=1), default=200, show_default=True,
              help="Deals of the cards nobody has seen.")
@seed_option
@samples_option
@pieces_option
@json_option
@user_errors
def chance(mission, exclude, players, rounds, *, skills, trump, hand, games, seed, samples, pieces, as_json):
    """The chance a careful table clears a game from where it stands.

    MISSION is the board in front of the players: its [[placed]] pieces are those on the board,
    and --rounds and --skills (or the file's) those left. The cards nobody has seen are dealt
    anew --games times, consistently with the cards gone (--exclude), and the search player plays
    every seat to the end (`kakapo solve MISSION --exclude CARDS` says whether any play of the
    cards left can still clear it).

    \b
    Example: kakapo chance board.toml --exclude red-3,red-7,blue-2,red-1 --rounds 7 --skills 4
    Example: kakapo chance b05 --hand red-1,red-4,blue-2,blue-3,green-5,purple-2,purple-8,yellow-6
    """
    catalog, m = read_inputs(mission, pieces)
    at = table_moment(m, players, exclude, rounds, skills, trump, mission, None if hand is None else [hand])
    with ProgressBar("deals", enabled=not as_json) as bar:
        doc = run_chance(at.mission, catalog, at.players, at.gone, games=games, seed=seed, trump=at.trump,
                         samples=samples, progress=bar.update, hand=at.hand)
    if as_json:
        emit_json(doc)
        return
    lo, hi = doc["ci95"]
    gone = f"{len(at.gone)} card(s) gone" if at.gone else "no card gone yet"
    if at.hand is not None:
        gone += f", your hand {' '.join(map(str, at.hand))}"
    click.echo(f"{m.name} ({m.id}), {at.players} players, from here: {gone}, {at.mission.rounds} round(s) and "
               f"{at.mission.skills} skill counter(s) left, trump {doc['trump']}")
    click.echo(f"a careful table (the search player, {doc['samples']} samples, in every seat) clears "
               f"{doc['clear_rate']:.1%} (95% interval {lo:.1%} .. {hi:.1%}) of {games} deals of the unseen cards")




# ---------------------------------------------------------------- ceiling
@main.command()
@click.argument("mission", type=click.Path())
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@seed_option
@workers_option
@pieces_option
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Budget per deal for the exact solver, in seconds of CP-SAT's deterministic time (a count of "
                   "work: the same answer on any machine, however busy).")
@click.option("--results", "results_path", type=click.Path(dir_okay=False), default=None,
              help="Write one CSV row per deal: game,result.")
@cluster_options()
@json_option
@user_errors
def ceiling(mission, players, games, seed, *, workers, pieces, time_limit, results_path, scheduler, worker_timeout,
            as_json):
    """The open-hand ceiling: how many deals a team that sees every hand could clear.

    Decides each of the first N deals of `simulate` with the same seed exactly (clearable,
    not clearable, or undecided within the time limit). An upper bound on any real table.

    \b
    Example: kakapo ceiling b12 --games 200
    """
    check_output_path(results_path, [mission, pieces], ".csv", "--results")
    catalog, m = read_inputs(mission, pieces)
    players = table_size(m, players, mission)
    workers = workers or default_workers()
    cluster = on_cluster(scheduler, mission, catalog, players, seed, time_limit, worker_timeout, cluster_status)
    with ProgressBar("deals", enabled=not as_json) as bar, no_workers_exit():
        doc, answers = run_ceiling(m, catalog, players, games, seed=seed, workers=workers, time_limit=time_limit,
                                   progress=bar.update, cluster=cluster)
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
@seed_option
@workers_option
@pieces_option
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Budget per deal for the open-hand ceiling's exact solver, in seconds of CP-SAT's "
                   "deterministic time (the same answer on any machine).")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), default=None, help="Draw the curve into this PNG.")
@cluster_options()
@json_option
@user_errors
def ladder(mission, players, games, seed, *, workers, pieces, time_limit, png_path, scheduler, worker_timeout, as_json):
    """The clear rate on the same deals for tables of growing strength.

    Rungs: greedy, heuristic, planner, and the search player with 2, 4, 8, 16, 32 and 64 samples
    (32 and 64 on the first 200 deals at most); above them the open-hand ceiling (a team that sees
    every hand: an upper bound, not a player). The shortfall sums the curve up: the share of the
    clearable deals a rung misses, on average (0 = every rung clears every clearable deal). The
    search rungs take most of the time.

    \b
    Example: kakapo ladder p15 --players 4 --games 200 --png p15-ladder.png
    """
    check_output_path(png_path, [mission, pieces], ".png", "--png")
    catalog, m = read_inputs(mission, pieces)
    players = table_size(m, players, mission)
    workers = workers or default_workers()
    cluster = on_cluster(scheduler, mission, catalog, players, seed, time_limit, worker_timeout, cluster_status)
    # with where it falls in the campaign, by its own measured figures
    with RungBars(enabled=not as_json) as bars, no_workers_exit():
        doc = run_ladder(m, catalog, players, games, seed=seed, workers=workers, time_limit=time_limit,
                         progress=bars.update, cluster=cluster, folder=mission_path(mission).parent)
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
        if d.get("campaign"):
            click.echo(campaign_line(d["campaign"]))
        else:
            click.echo(d["campaign_text"])
    if png_path:  # after the answer is printed: a failed write never loses it
        from solver.view.report_plots import ladder_plot  # heavy: matplotlib

        ladder_plot(doc, f"{m.name} ({m.id}), {players} players", Path(png_path))


# ---------------------------------------------------------------- generate
@main.command()
@click.option("--mode", type=click.Choice(["buddy", "party"]), required=True)
@click.option("--band", "band", required=True, metavar="LOW-HIGH",
              help="Target clear rate of the policy, e.g. 0.30-0.50.")
@click.option("--players", type=int, default=None, help="2 for buddy; 3 or 4 for party (default 2 / 4).")
@click.option("--policy", type=click.Choice(POLICIES), default=BATCH_DEFAULT, show_default=True)
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True, help="Missions to write.")
@seed_option
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="generated", show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes for the games.")
@pieces_option
@json_option
@user_errors
def generate(mode, band, players, policy, *, count, seed, out_dir, workers, pieces, as_json):
    """Write new valid, solvable missions whose clear rate lies in a band.

    Random candidates are solved, measured and steered (harder when too easy, easier when
    too hard) until the policy's clear rate lies in the band. Never overwrites a file.
    Exit 0 when COUNT missions were written, 3 when fewer were found.

    \b
    Example: kakapo generate --mode party --band 0.30-0.40 --count 3 --out my_missions
    """
    low, high = band_of(band)
    players = generate_players(mode, players)
    catalog = load_catalog(pieces)
    check_writable(out_dir, "--out", folder=True)
    with ProgressBar("candidates", enabled=not as_json) as bar:

        def tried(done: int, most: int, kept: int) -> None:
            bar.label = f"candidates (of at most {most})"
            bar.update(done, most, f"{kept} of {count} kept")

        docs = run_generate(mode, low, high, players, policy=policy, count=count, seed=seed, out_dir=Path(out_dir),
                            catalog=catalog, workers=workers, progress=tried)
    found = docs
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
@seed_option
@click.option("--policy", type=click.Choice(POLICIES), default=BATCH_DEFAULT, show_default=True)
@workers_option
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Seconds for the solver, per file.")
@click.option("--ceiling-games", type=click.IntRange(min=0), default=50, show_default=True,
              help="Deals for the open-hand ceiling of the band (0: skip it).")
@click.option("--ladder-games", type=click.IntRange(min=0), default=40, show_default=True,
              help="Deals for the ladder's search rungs, 2 to 64 samples (32 and 64 on at most 200 of them; 0: skip "
                   "them; they take the longest).")
@json_option
@user_errors
def validate(files, pieces, games, seed, *, policy, workers, time_limit, ceiling_games, ladder_games, as_json):
    """Check fan missions: errors, warnings, solvability, fewest pieces, difficulty.

    Exit 0 when every file is valid and solvable, 1 when one is valid but
    unsolvable, 2 when one is invalid, 3 when solvability stays undecided.

    \b
    Example: kakapo validate my_mission.toml --ceiling-games 100
    """
    with RungBars(enabled=not as_json) as bars:  # the files that do not load are said before any work
        checked = run_validate(files, pieces, time_limit=time_limit, games=games, seed=seed, policy=policy,
                               workers=workers or default_workers(), ceiling_games=ceiling_games,
                               ladder_games=ladder_games, noted=say_note, broken=None if as_json else print_invalid,
                               progress=bars.update)
    docs, code = checked.docs, checked.exit_code()
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
        for entry in d["difficulty"]:
            lo, hi = entry["ci95"]
            line = (f"  {entry['players']} players: clears {entry['clear_rate']:.1%} ({lo:.1%} .. {hi:.1%}, "
                    f"{entry['games']} games)")
            if "of" in entry:
                line += f"; {placement_phrase(entry)}"
            click.echo(line)
            band = entry["band"]
            parts = [(f"{name} {band[name]['clear_rate']:.1%}", band[name]["clear_rate"]) for name in BAND_POLICIES]
            if "ceiling" in band:
                c = band["ceiling"]
                undecided = f", {c['undecided']} undecided" if c["undecided"] else ""
                parts.append((f"open-hand ceiling {c['clear_rate']:.1%} of {c['games']} deals{undecided}",
                              c["clear_rate"]))
            click.echo(f"    band: {band_line(parts)}")
            if "ladder" in entry:
                steps = [f"{r['samples']} samples {r['clear_rate']:.0%}"
                         + (f" (of {r['games']})" if r["games"] != entry["ladder"]["games"] else "")
                         for r in entry["ladder"]["rungs"]]
                click.echo(f"    ladder, search player on {entry['ladder']['games']} deals: {', '.join(steps)}")
            if "shortfall" in entry:
                click.echo(f"    difficulty: shortfall {entry['shortfall']:.2f} (the share of clearable deals a rung "
                           "of the ladder misses, on average; 0 = every rung clears them all)")
                if entry.get("shortfall_place"):
                    click.echo(f"    by its shortfall: {placement_phrase(entry['shortfall_place'])}")
            if entry.get("campaign") is None and entry.get("campaign_text"):
                click.echo(f"    {entry['campaign_text']}")
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
@seed_option
@click.option("--players", "players_list", default=None, metavar="LIST",
              help="Player counts to include, e.g. 2,3 (default: those of each mission's mode).")
@click.option("--policy", type=click.Choice(POLICIES), default=BATCH_DEFAULT, show_default=True)
@workers_option
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
@cluster_options("finished rows kept")
@pieces_option
@click.option("--observed", type=click.Path(dir_okay=False), default=None,
              help="A `kakapo calibrate --json` document: each mission's clear rate as tables found it, beside the "
                   "simulated players' (where it rests on 5 games or more from 2 tables or more).")
@user_errors
def report(targets, games, seed, players_list, *, policy, workers, out_dir, force, time_limit, baseline, ceiling_games,
           ladder_games, samples, scheduler, worker_timeout, pieces, observed):
    """Batch difficulty report of missions (files or folders; default: the bundled ones).

    Writes report.csv, report.md, report.html and PNG plots into --out. Interrupted
    work is kept; the same command again finishes it. A folder holding a report of
    other missions or settings is refused (exit 2) unless --force.

    \b
    Example: kakapo report --baseline --ceiling-games 200 --out campaign-report
    Example: kakapo report p15 p20 --baseline --ladder-games 200 --ceiling-games 200 --out ladder
    """
    command = "kakapo " + " ".join(sys.argv[1:]) if sys.argv[0].endswith("kakapo") else ""
    with ProgressBar("report") as bar, kept_work_exit(bar):
        files = make_report(targets, pieces=pieces, games=games, seed=seed, players=players_list, policy=policy,
                            workers=workers or default_workers(), out_dir=out_dir, force=force, time_limit=time_limit,
                            baseline=baseline, ceiling_games=ceiling_games, ladder_games=ladder_games,
                            samples=samples, scheduler=scheduler, worker_timeout=worker_timeout, observed=observed,
                            command=command, progress=bar.update, said=say_err, status=cluster_status,
                            noted=say_note)
    for f in files:
        click.echo(str(f))


@contextlib.contextmanager
def kept_work_exit(bar: ProgressBar) -> Iterator[None]:
    """A report's or campaign's run stopped, its work kept (``app.reporting.KeptWork``): no worker
    on the cluster is exit 2, Ctrl-C exit 130, each saying (below the closed ``bar``) how much is
    kept where and how to go on."""
    try:
        yield
    except KeptWork as e:
        bar.close()
        _kept_exit(e)


def _kept_exit(e: KeptWork) -> NoReturn:
    if e.no_workers is not None:
        click.echo(f"error: {e.no_workers}; {e.done} of {e.total} results are kept in {e.kept_in}", err=True)
        click.echo(f"  fix: start workers (`dask worker {e.no_workers.address}`) and run the same command again, or "
                   f"run it without --scheduler to finish the {e.what} here", err=True)
        sys.exit(2)
    click.echo(f"interrupted: {e.done} of {e.total} results kept in {e.kept_in}; "
               f"run the same command again to finish the {e.what}", err=True)
    sys.exit(EXIT_INTERRUPTED)


# ---------------------------------------------------------------- campaign
@main.command()
@click.argument("directory", required=False, type=click.Path())
@pieces_option
@click.option("--games", type=click.IntRange(min=1), default=500, show_default=True,
              help="The most deals a rung plays (a row stops sooner once its shortfall is known to --precision).")
@click.option("--precision", type=click.FloatRange(min=0, max=1), default=PRECISION, show_default=True,
              help="Each row's shortfall to within this (the half-width of its 95 % interval); 0: every rung "
                   "plays --games deals.")
@click.option("--players", "players", type=int, multiple=True,
              help="Measure only this table size (repeatable; default each mission's).")
@seed_option
@workers_option
@cluster_options("the work kept")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Where difficulty.json goes (default DIRECTORY; required for the bundled campaign).")
@click.option("--force", is_flag=True, help="Replace a difficulty.json measured for another catalog.")
@json_option
@user_errors
def campaign(directory, pieces, games, precision, *, players, seed, workers, scheduler, worker_timeout, out_dir, force,
             as_json):
    """Measure the campaign for your copy's pieces: the ladder of every mission of DIRECTORY (the
    bundled campaign when left out) for each player count, with --pieces FILE; the missions in
    order of shortfall; DIRECTORY/difficulty.json written with the catalog's digest inside.

    A mission that does not fit the catalog (a pre-placed piece whose cells are not its shape
    there) is skipped and listed with why; the others are measured. Ctrl-C keeps the finished
    work; the same command finishes the rest. From then on `list`, `ladder`, `validate`, `rate`,
    `calibrate` and the studio compare a mission with this campaign when they use that catalog
    (found in the missions' folder, the catalog's folder or a campaign/ folder beside it).
    DIRECTORY may be a pack (`kakapo pack`): its missions, with its catalog, measured into --out.

    \b
    Example: kakapo campaign my_box --pieces my_box/mine.toml --games 200
    Example: kakapo campaign --pieces my_box/mine.toml --out my_box/campaign
    """
    from solver.app.campaign import measure_campaign  # heavy: the ladder's analysis

    with ProgressBar("campaign", enabled=not as_json) as bar, kept_work_exit(bar):
        measured = measure_campaign(directory, pieces=pieces, games=games, players=players, seed=seed,
                                    workers=workers or default_workers(), scheduler=scheduler, out_dir=out_dir,
                                    force=force, precision=precision, worker_timeout=worker_timeout,
                                    progress=bar.update, said=None if as_json else say_err, noted=say_note,
                                    status=cluster_status)
    if as_json:
        emit_json(measured.summary())
        return
    doc, rows = measured.doc, measured.doc["rows"]
    click.echo(f"the campaign measured with {measured.catalog} (each shortfall to within its precision, 95 %; at "
               f"most {games} deals a rung; seed {seed}), easiest first:")
    for k, mid in enumerate(doc["order"], start=1):
        parts = [f"{r['players']}p {r['shortfall']:.3f} +/- {r['precision']:.3f}" for r in rows if r["mission"] == mid]
        click.echo(f"{k:>3}. {mid:<6} {measured.names[mid]:<28} shortfall {', '.join(parts)}")
    if doc["skipped"]:
        click.echo(f"skipped, {len(doc['skipped'])} mission(s) that do not fit this catalog (not measured):")
        for s in doc["skipped"]:
            click.echo(f"  {s['mission']}: {s['why']}")
    click.echo(str(measured.file))
