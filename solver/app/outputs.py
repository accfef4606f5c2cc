"""The outputs a request names, refused before any work when they cannot be written: a missing or
read-only folder, a folder where a file is wanted (or the reverse), a link or a device at the name,
an input file named as the output."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from solver.core.errors import InputError
from solver.io.safefiles import UnsafeTarget, check_output


def check_output_path(path: str | None, inputs: Sequence[str | None], suffix: str | None, option: str) -> None:
    """Refuse, before any work, an output ``path`` (None: none asked) that is not named ``*suffix``,
    that names one of the ``inputs``, or that cannot be written (``check_writable``)."""
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
    try:  # a link, a FIFO or a device at the name: never written through, never replaced
        check_output(p)
    except UnsafeTarget as e:
        raise InputError(path, f"{option}: {e.strerror}", "give the name of a plain file (new, or one to replace)") \
            from None
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(path, f"{option}: the folder {parent} does not exist",
                         "create the folder or choose another path")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InputError(path, f"{option}: cannot write here (permission denied)", "choose a path you can write to")
