"""`kakapo calibrate`: what the tables' games say, each table's level and what to play next,
and whether the predictions come true."""

from __future__ import annotations

from pathlib import Path

import click

from solver.app.calibrating import LATEST
from solver.app.calibrating import calibrate as run_calibrate
from solver.app.outputs import check_output_path
from solver.cli.common import (
    ProgressBar,
    cluster_options,
    cluster_status,
    json_option,
    no_workers_exit,
    print_answer,
    say_err,
    seed_option,
    user_errors,
)
from solver.cli.group import main
from solver.runtime.workers import default_workers


@main.command()
@click.argument("tables", metavar="TABLE...", nargs=-1, required=True, type=click.Path())
@click.option("--target", type=click.FloatRange(0, 1), default=0.6, show_default=True,
              help="The clear rate to aim at: each table's next missions, nearest it first.")
@click.option("--plays", type=click.IntRange(min=1, max=10000), default=20, show_default=True,
              help="Replays of each logged deal per rung (other streams for the seats each time).")
@seed_option
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes (default: all cores; the same figures for any number).")
@cluster_options("the replays made kept")
@click.option("--latest", type=click.IntRange(min=0), default=LATEST, show_default=True, metavar="N",
              help="Learn from each table's latest N finished games (by the files' modification times); the older "
                   "ones are left out, and said so. 0: every game.")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), default=None,
              help="Draw the reliability diagram: predicted against observed clear rates.")
@json_option
@user_errors
def calibrate(tables, target, plays, seed, *, workers, scheduler, worker_timeout, latest, png_path, as_json):
    """Each table's level from all its games, checked against what it then did, and what to play next.

    Each TABLE is a folder of one table's finished games (logs or sheets) or one log or sheet;
    games whose logs name who played are grouped by those names. Each table is rated on the
    ladder as `kakapo rate` does; what it should expect comes from its level: its rung, how
    closely its results follow the deal (mistakes and mixed play follow it less) and its shift
    beyond the rung. Every game's clear rate is predicted from the table's other games only and
    set against its result (Brier score, reliability bins), beside a baseline that ignores the
    table; the missions a table has not cleared are listed nearest --target first, from the
    campaign measured for the catalog its games were played with (the bundled one, or the one
    `kakapo campaign` measured, found beside the games or in a campaign/ folder there); the
    missions' difficulty is fitted from every table's games, the ladder as the prior.
    docs/rate.md says how to read it. Before the work starts, stderr says how many games it
    learns from and about how long that takes.

    \b
    Example: kakapo calibrate thursday/ sunday/ --png calibration.png
    """
    check_output_path(png_path, list(tables), ".png", "--png")
    with ProgressBar("calibrate", enabled=not as_json) as bar, no_workers_exit():
        doc = run_calibrate(list(tables), plays, seed, workers or default_workers(), target=target, progress=bar.update,
                            latest=latest, said=None if as_json else say_err, scheduler=scheduler,
                            worker_timeout=worker_timeout, status=cluster_status)
    from solver.view.calibrate_text import calibrate_lines, reliability_plot  # heavy: Numba (the fit's modules)

    print_answer(doc, as_json, calibrate_lines)
    if png_path:
        reliability_plot(doc, Path(png_path))
