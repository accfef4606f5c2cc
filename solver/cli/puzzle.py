"""The puzzle's commands: `kakapo solve`, `show`, `pieces` and `list`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from solver.app.catalogs import piece_rows
from solver.app.inputs import excluded_pieces
from solver.app.listing import mission_list
from solver.app.outputs import check_output_path
from solver.app.solving import solve_request
from solver.cli.common import (
    EXIT_NO,
    EXIT_OK,
    EXIT_UNKNOWN,
    count_line,
    emit_json,
    from_option,
    json_option,
    pieces_option,
    read_inputs,
    round_option,
    say_note,
    say_notes,
    user_errors,
)
from solver.cli.group import main
from solver.core.board import parse_cell
from solver.core.cards import ALL_CARDS, Colour
from solver.core.rules import Board, blocked_reason
from solver.io.catalog import load_catalog
from solver.io.missionwrite import mission_json
from solver.view.render import LEGEND, draw, shape_strip, use_colour


# ---------------------------------------------------------------- solve
@main.command()
@click.argument("mission", required=False, type=click.Path())
@pieces_option
@click.option("--exclude", multiple=True, metavar="PIECE[,PIECE...]", help="Pieces that may not be used.")
@click.option("--max-pieces", type=click.IntRange(min=0), default=None, help="Use at most N new pieces.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Seconds for the search.")
@json_option
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
def solve(*, mission, pieces, exclude, max_pieces, time_limit, as_json, png, players, count, cap, count_placements,
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
    if mission is None and from_log is None:
        raise click.UsageError("give MISSION (a mission file or a bundled mission's id), or --from LOG")
    check_output_path(png, [mission, pieces, from_log], ".png", "--png")
    excluded = excluded_pieces(exclude)
    if from_round is not None and not from_log:
        raise click.UsageError("--round goes with --from LOG")
    solved = solve_request(mission, pieces, players=players, exclude=excluded, max_pieces=max_pieces,
                           time_limit=time_limit, count=count, cap=cap, placements=count_placements,
                           from_log=from_log, from_round=from_round, noted=say_note)
    m, state = solved.mission, solved.state
    moment = "" if state is None else f"; the board of round {state.round} of {from_log}" if not state.is_over() \
        else f"; the board after the game of {from_log}"
    a, result, tally = solved.answer, solved.answer.result, solved.tally
    if as_json:
        emit_json(solved.to_json())
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
@json_option
@user_errors
def show(mission, pieces, png, as_json):
    """Draw MISSION in the terminal (and with --png save a picture).

    \b
    Example: kakapo show p02 --png p02.png
    """
    check_output_path(png, [mission, pieces], ".png", "--png")
    _, m = read_inputs(mission, pieces)
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
        emit_json(piece_rows(catalog))
    else:
        click.echo(f"piece catalog: {catalog.source}")
        click.echo(f"digest: {catalog.digest}  (a mission made with it says  pieces_digest = \"{catalog.digest}\")")
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


@main.command(name="list")
@click.argument("directory", required=False, type=click.Path())
@pieces_option
@click.option("--observed", type=click.Path(dir_okay=False), default=None,
              help="A `kakapo calibrate --json` document: each mission's difficulty as tables found it, beside the "
                   "ladder's (where it rests on 5 games or more from 2 tables or more).")
@json_option
@user_errors
def list_missions(directory, pieces, observed, as_json):
    """The missions of DIRECTORY (a folder or a pack; the bundled ones, in campaign order, when
    left out): id, name, mode, player counts, fewest new pieces and difficulty (the shortfall per
    player count: the share of the clearable deals that tables from naive to strong miss, 0 =
    every table clears them; docs/policies.md), from the campaign measured for the catalog in use.

    Any command takes a bundled mission by its id, from any directory (kakapo solve b01). With
    --pieces, every mission is listed, and one that does not fit that catalog (a pre-placed piece
    whose cells are not its shape there) says why; the figures are those of the campaign measured
    for that catalog (kakapo campaign), found in the missions' folder, the catalog's folder or a
    campaign/ folder beside the catalog; never those of other shapes.

    \b
    Example: kakapo list --json
    Example: kakapo list --pieces my_box/mine.toml
    Example: kakapo list my_box --pieces my_box/mine.toml
    Example: kakapo calibrate club/*/ --json > observed.json && kakapo list --observed observed.json
    """
    listed = mission_list(directory, pieces, observed, noted=lambda note: say_notes([note]))
    if as_json:
        emit_json(listed.summary())
        return
    rows = listed.rows

    def per_table(values: dict) -> str:
        shown = ["-" if v is None else (f"{v:.2f}" if isinstance(v, float) else str(v)) for v in values.values()]
        return " / ".join(shown) or "-"

    width = max(len(r["name"] or "") for r in rows)
    ids = max(4, *(len(r["id"]) for r in rows))
    click.echo(f"{'id':<{ids}} {'name':<{width}}  {'mode':<5}  {'players':<7}  {'fewest pieces':<13}  "
               "shortfall (party: with 3 / 4 players)")
    for r in rows:
        players = ",".join(str(p) for p in r["players"])
        click.echo(f"{r['id']:<{ids}} {r['name'] or '':<{width}}  {r['mode'] or '':<5}  {players:<7}  "
                   f"{per_table(r['min_pieces']):<13}  {per_table(r['shortfall'])}")
        if not r["fits"]:
            said = "does not fit this catalog" if r["mode"] else "does not read"
            click.echo(f"     {said}: {r['why']}")
        for p, o in (r.get("observed") or {}).items():
            if o:
                click.echo(f"     tables, {p} players: cleared {100 * o['observed']:.0f} % of {o['games']} games "
                           f"({o['tables']} tables), learned {100 * o['learned']:.0f} %; the ladder expected "
                           f"{100 * o['expected']:.0f} %")
    if listed.source is None:
        click.echo(f"\n{listed.no_campaign}; the figures of the bundled shapes are left out")
    elif listed.source != "bundled":
        click.echo(f"\nthe figures: your campaign, measured for this catalog ({listed.source})")
