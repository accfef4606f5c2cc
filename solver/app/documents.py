"""The shapes the application layer answers in and is told its progress by."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Doc = dict[str, Any]  # a JSON document (what a command prints with --json, what the studio serves)
Counted = Callable[[int, int], None]  # progress(done, total)
Fraction = Callable[[float], None]  # progress(fraction done, 0 .. 1)
Rungs = Callable[[str, int, int], None]  # progress(label of the rung or part, done, total)
Ticked = Callable[[int, int, str | None], None]  # progress(done, total, the task just done: None before any)
Said = Callable[[str], None]  # a line said while the work goes on
Shown = Callable[[dict[str, Any]], None]  # a piece of the answer shown before the whole (a decision judged)
