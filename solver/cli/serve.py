"""`kakapo studio`: the browser studio (solver/studio/), served on this machine."""

from __future__ import annotations

import click

from solver.cli.common import pieces_option, user_errors
from solver.cli.group import main
from solver.core.errors import InputError
from solver.io.catalog import load_catalog
from solver.runtime.workers import default_workers


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
@click.option("--bot-pace", type=click.FloatRange(min=0, max=10), default=None,
              help="At a table of people, the least seconds between a bot's move and the move before it (so that "
                   "how long it thought tells nothing of its hand; default 0.15); 0 shows the bots' moves at once.")
@user_errors
def studio(host, port, directory, pieces, workers, no_browser, bot_pace):
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
    serve(host, port, directory, pieces, workers=workers or default_workers(), open_browser=not no_browser,
          say=lambda text: click.echo(text), warn=lambda text: click.echo(text, err=True), bot_pace=bot_pace)
