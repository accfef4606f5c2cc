"""What every command shares: turning errors into exit 2 with a message (never a traceback), the
JSON and CSV writers, the options, the progress bars and the exit codes (the outputs are checked
before any work by ``app.outputs``)."""

from __future__ import annotations

import contextlib
import csv
import functools
import itertools
import json
import os
import sys
from collections.abc import Callable
from typing import Any

import click

from solver.app.inputs import load_inputs
from solver.core.codes import PolicyId
from solver.core.errors import InputError, KakapoError, NoWorkers
from solver.game.search import DEFAULT_SAMPLES
from solver.io.safefiles import replacing
from solver.runtime.workers import WORKER_TIMEOUT

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


def say_notes(notes: list[str]) -> None:
    """What the reader should know about the inputs (a catalog read from beside a mission), on
    stderr: stdout stays the answer (one JSON document with --json)."""
    for note in notes:
        click.echo(f"note: {note}", err=True)


def say_note(note: str) -> None:
    """One note about the inputs (``say_notes``), as the application layer tells them."""
    say_notes([note])


def say_err(text: str) -> None:
    """A line about the work going on, on stderr (stdout stays the answer)."""
    click.echo(text, err=True)


def read_inputs(mission: str, pieces: str | None):
    """The catalog and mission of a command (``app.inputs.load_inputs``), its notes said."""
    notes: list[str] = []
    out = load_inputs(mission, pieces, notes=notes)
    say_notes(notes)
    return out


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


def emit_json(doc) -> None:
    click.echo(json.dumps(doc, indent=2))


def print_answer(doc: dict, as_json: bool, lines) -> None:
    """A command's answer: its document with --json, else ``lines(doc)``, a line each."""
    if as_json:
        emit_json(doc)
        return
    for line in lines(doc):
        click.echo(line)


def write_csv(path: str, header: list[str], rows) -> None:
    with replacing(path, newline="") as f:  # whole or not at all, never through a link
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


pieces_option = click.option("--pieces", "pieces", type=click.Path(dir_okay=False), default=None,
                             help="Piece catalog TOML (default: the bundled missions/pieces.toml).")
from_option = click.option("--from", "from_log", type=click.Path(dir_okay=False), default=None, metavar="LOG",
                           help="A game log (`play --log`): start from the moment of --round in it.")
seed_option = click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
workers_option = click.option("--workers", type=click.IntRange(min=1), default=None,
                              help="Processes (default: all cores).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
samples_option = click.option("--samples", type=click.IntRange(min=0, max=4096), default=None, metavar="K",
                               help=f"The search player's look-ahead deals per decision (default {DEFAULT_SAMPLES}; "
                                    "0 plays the planner itself).")


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


class ProgressBar:
    """A progress bar with rate and time left on a terminal (stderr); nothing when it is not one.
    Closed when its ``with`` block ends, however it ends. ``total`` may change as the work goes (a
    campaign foresees its batches as their results come): the time left follows the work foreseen."""

    def __init__(self, label: str, enabled: bool = True):
        self.label = label
        self.bar: Any = None  # click's progress bar, once there is something to show
        self.shown = 0
        self.enabled = enabled and sys.stderr.isatty()  # nothing extra when piped or with --json

    def update(self, done: int, total: int, item: str | None = None) -> None:
        if not self.enabled or total <= 0:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr, show_eta=True,
                                         show_pos=True, item_show_func=lambda x: x)
            self.bar.__enter__()
        if self.bar.length != total:
            self.bar.length = total
            self.bar.finished = self.shown >= total
        self.bar.update(max(0, done - self.shown), item)
        self.shown = max(done, self.shown)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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

    def __enter__(self) -> RungBars:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def cluster_status(text: str | None) -> None:
    click.echo(text or "a worker is connected again", err=True)


@contextlib.contextmanager
def no_workers_exit():
    """No Dask worker for the whole --worker-timeout: say so and how to go on, exit 2."""
    try:
        yield
    except NoWorkers as e:
        click.echo(f"error: {e}", err=True)
        click.echo(f"  fix: start workers (`dask worker {e.address}`) and run the same command again, or run it "
                   "without --scheduler", err=True)
        sys.exit(2)



def cluster_options(kept: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--scheduler and --worker-timeout, as every command that runs on Dask takes them; ``kept``:
    what a command that gives up keeps, in words."""
    def add(command: Callable[..., Any]) -> Callable[..., Any]:
        command = click.option("--worker-timeout", type=click.FloatRange(min=0, min_open=True),
                               default=WORKER_TIMEOUT, show_default=True, metavar="SECONDS",
                               help=f"With --scheduler: give up (exit 2{', ' + kept if kept else ''}) when no worker "
                                    "has been connected this long.")(command)
        return click.option("--scheduler", default=None, metavar="ADDRESS",
                            help="Run the work on a Dask cluster, e.g. tcp://127.0.0.1:8786 (needs the cluster "
                                 "extra); the same numbers as here.")(command)
    return add
