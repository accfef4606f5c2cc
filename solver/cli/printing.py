"""From the screen to the table: `kakapo print` (mission cards, blank game sheets) and `kakapo pack`
/ `unpack` (a folder of missions as one file to share)."""

from __future__ import annotations

from pathlib import Path

import click

from solver.app.outputs import check_output_path, check_writable
from solver.app.packs import make_pack, mission_sources, output_error, refuse_existing, unpack, write_output
from solver.app.printed import PAPERS, SOLVE_SECONDS, check_layout, print_cards, print_sheets
from solver.cli.common import (
    emit_json,
    json_option,
    pieces_option,
    user_errors,
)
from solver.cli.group import main
from solver.core.errors import InputError


@main.command(name="print")
@click.argument("missions", nargs=-1, required=True, type=click.Path())
@click.option("--pdf", "pdf_path", required=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="The PDF to write (an existing file is kept unless --force).")
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True)
@click.option("--per-page", type=click.Choice(["1", "2", "4"]), default="1", show_default=True,
              help="Cards on a page (cut lines between them).")
@click.option("--sheet", is_flag=True, help="A blank game sheet per mission instead, laid out as `kakapo record` reads "
              "it.")
@click.option("--players", type=int, default=None, help="With --sheet: the table's size (default the mission's).")
@pieces_option
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=SOLVE_SECONDS, show_default=True,
              help="Seconds to solve each mission for its fewest new pieces.")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@json_option
@user_errors
def print_missions(*, missions, pdf_path, paper, per_page, sheet, players, pieces, time_limit, force, as_json):
    """Print MISSIONs for the table: a card per mission to set up the board (the board to scale
    with its birds, coloured sides and placed pieces; name, story, mode, table sizes, rounds,
    birds to clear, fewest new pieces and difficulty), or with --sheet a blank game sheet to
    write a game on as it is played.

    A MISSION is a bundled id, a mission file, a folder of missions, a pack (every mission in
    it) or PACK/ID (one of them).

    \b
    Example: kakapo print b01 b02 b03 b04 --per-page 4 --pdf first-four.pdf
    Example: kakapo print club.kakapo --paper letter --pdf club.pdf
    Example: kakapo print p05 --sheet --players 3 --pdf p05-sheet.pdf
    """
    if players is not None and not sheet:
        raise click.UsageError("--players goes with --sheet")
    check_layout(paper, int(per_page), sheet)
    check_output_path(pdf_path, [*missions, pieces], ".pdf", "--pdf")
    if not force:
        refuse_existing(Path(pdf_path), "--pdf")
    sources = [s for arg in missions for s in mission_sources(arg, pieces)]
    printed = print_sheets(sources, players, paper) if sheet else print_cards(sources, paper, int(per_page), time_limit)
    try:
        write_output(Path(pdf_path), printed.pdf, overwrite=force)
    except OSError as e:
        raise output_error(Path(pdf_path), e) from None
    if as_json:
        emit_json(printed.summary(pdf_path))
        return
    what = "game sheet(s)" if sheet else "card(s)"
    click.echo(f"{len(sources)} {what} on {printed.pages} page(s), {paper}: {pdf_path}")
    for doc in printed.missions:
        if sheet:
            s = doc["sheet"]
            click.echo(f"  {doc['id']}: {s['players']} players, {s['rounds']} rounds (mission: {s['mission']}"
                       + (f", pieces: {s['pieces']}" if s["pieces"] else "") + ")")
        else:
            click.echo(f"  {doc['id']} {doc['name']}: fewest new pieces {doc['fewest']}; {doc['difficulty']}")


@main.command()
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="The pack to write (FILE.kakapo; an existing file is kept unless --force).")
@pieces_option
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@json_option
@user_errors
def pack(directory, out_path, pieces, force, as_json):
    """Make DIRECTORY's missions one file to share (a zip): the missions, the catalog they were
    made with (--pieces adds one from elsewhere), the campaign measured for it (difficulty.json)
    and a README. Every mission must read with its catalog.

    Every command that takes a folder of missions takes the pack (validate, campaign, print;
    PACK/ID where one mission is asked for); `kakapo unpack` writes it out.

    \b
    Example: kakapo pack my_box --out my_box.kakapo
    """
    check_writable(out_path, "--out")
    if not force:
        refuse_existing(Path(out_path), "--out")
    packed = make_pack(directory, pieces)
    try:
        write_output(Path(out_path), packed.data, overwrite=force)
    except OSError as e:
        raise output_error(Path(out_path), e) from None
    if as_json:
        emit_json({"pack": out_path, **packed.summary()})
        return
    for note in packed.notes:
        click.echo(f"note: {note}", err=True)
    click.echo(f"{out_path}: {len(packed.missions)} mission(s)"
               + (f", catalog {', '.join(packed.catalogs)}" if packed.catalogs else ", the bundled pieces")
               + (f", the campaign ({packed.campaign})" if packed.campaign else ", no campaign measured")
               + f"; {len(packed.data)} bytes")


@main.command(name="unpack")
@click.argument("pack_file", metavar="PACK", type=click.Path(dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), metavar="DIR",
              help="The folder to write the pack's files into (created if missing).")
@click.option("--force", is_flag=True, help="Replace files of the same name in DIR.")
@json_option
@user_errors
def unpack_pack(pack_file, out_dir, force, as_json):
    """Write a pack's files into DIR: never outside it, never over a file without --force. A pack
    with a member named with '..' or an absolute name, a link, or a member past the size limits
    is refused whole (exit 2, naming the member) before anything is written.

    \b
    Example: kakapo unpack club.kakapo --out club
    """
    check_writable(out_dir, "--out", folder=True)
    if Path(out_dir).resolve() == Path(pack_file).resolve():
        raise InputError(out_dir, "--out is the pack itself", "give a folder")
    written = unpack(pack_file, out_dir, force)
    if as_json:
        emit_json({"pack": pack_file, "out": out_dir, "files": written})
        return
    click.echo(f"{len(written)} file(s) written into {out_dir}: {', '.join(written)}")
