"""The `kakapo` command: each command parses its arguments, calls the application layer
(``solver/app/``) for the work and prints what it answers.

Command groups by what they are about: ``puzzle`` (solve, show, pieces, list), ``games`` (play,
review, rate, record), ``measure`` (simulate, chance, ceiling, ladder, validate, generate, report,
campaign), ``serve`` (studio), ``tables`` (calibrate) and ``printing`` (print, pack, unpack), each
imported when one of its commands runs (``group.LazyGroup``); ``common`` holds what they share.
Light modules are imported at start; each command imports the heavy ones it needs (OR-Tools,
Numba, pandas, matplotlib, Dask) when it runs, so that `kakapo --help` and the commands that do not
need them start at once.
"""

from solver.cli.common import band_line
from solver.cli.group import main

__all__ = ["band_line", "main"]
