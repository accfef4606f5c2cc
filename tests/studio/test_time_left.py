"""The time left, on every long command and job: the command's bar follows the work foreseen as it
grows (a campaign foresees its batches as their results come), and a studio job says its time left
once its progress tells it."""

from __future__ import annotations

import time

from solver.studio.jobqueue import Job


def test_a_running_job_says_its_time_left_from_its_progress():
    job = Job("j1", "calibrate", {"kind": "calibrate"}, state="running", progress=0.25)
    job.started = time.monotonic() - 30.0
    left = job.left_seconds()
    assert left is not None and 85 <= left <= 95  # a quarter in 30 s: about 90 s to go
    assert job.snapshot()["left_s"] == left
    job.progress = 0.01  # too little done to tell
    assert job.left_seconds() is None
    job.state, job.progress = "done", 1.0
    assert job.snapshot()["left_s"] is None


def test_the_bar_follows_a_total_that_grows(monkeypatch):
    import sys

    from solver.cli.common import ProgressBar

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    bar = ProgressBar("campaign")
    bar.update(10, 100, "first")
    bar.update(40, 400, "more foreseen")
    assert bar.bar.length == 400 and bar.bar.pos == 40 and not bar.bar.finished
    bar.update(400, 400, "done")
    assert bar.bar.finished
    bar.close()
