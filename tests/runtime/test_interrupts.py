"""Interruptions are never answers, and no worker outlives the command."""

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from solver.analysis.report import compute_rows
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission
from solver.puzzle import cpsat
from solver.view.report_files import write_outputs
from tests.helpers.paths import ROOT
from tests.helpers.processes import children_of


@contextlib.contextmanager
def ctrl_c_until_stopped(delay: float, again: float = 0.5):
    """Ctrl-C after ``delay`` seconds, and again every ``again`` seconds until the block ends: a
    SIGINT that lands while Python runs a weakref or GC callback is swallowed there ("Exception
    ignored in ..."), as a person's key press would be, and the person presses it again."""
    stop = threading.Event()

    def press():
        if not stop.wait(delay):
            while not stop.is_set():
                os.kill(os.getpid(), signal.SIGINT)
                stop.wait(again)

    t = threading.Thread(target=press, daemon=True)
    t.start()
    try:
        yield
    finally:
        try:
            stop.set()
            t.join()
            time.sleep(0.05)  # a press that raced the end of the block is handled here
        except KeyboardInterrupt:
            pass


def test_ctrl_c_stops_a_solve_promptly_and_is_not_unknown():
    catalog = load_catalog()
    m = load_mission(ROOT / "missions/party/p20.toml", catalog)
    t0 = time.perf_counter()
    with ctrl_c_until_stopped(0.1), pytest.raises(KeyboardInterrupt):
        cpsat.solve(m, catalog, time_limit=60, params={})  # untuned: seconds of search
    assert time.perf_counter() - t0 < 5  # stopped at once (a few tenths of a second), not after the 60 s


def test_ctrl_c_still_stops_a_solve_after_a_solution_count():
    """Counting solutions once left CP-SAT's own SIGINT handler behind it (restored to the default
    action at the C level), so the next Ctrl-C killed the process instead of raising."""
    catalog = load_catalog()
    b01 = load_mission(ROOT / "tests/missions/buddy/b01.toml", catalog)
    assert cpsat.count_solutions(b01, catalog, cpsat.solve(b01, catalog).pieces_used).complete
    m = load_mission(ROOT / "missions/party/p20.toml", catalog)
    with ctrl_c_until_stopped(0.1), pytest.raises(KeyboardInterrupt):
        cpsat.solve(m, catalog, time_limit=60, params={})


@pytest.mark.slow
def test_report_interrupted_mid_solve_then_rerun_equals_a_straight_run(tmp_path, monkeypatch):
    catalog = load_catalog()
    paths = [ROOT / "tests/missions/buddy/b01.toml", ROOT / "tests/missions/buddy/b04.toml",
             ROOT / "tests/missions/party/p01.toml"]
    cat_bytes = (ROOT / "missions/pieces.toml").read_bytes()
    head, args = (catalog, cat_bytes, 100), dict(seed=3, players_filter=None, policy="heuristic", workers=1,
                                                 time_limit=30.0)
    straight = compute_rows(paths, *head, **args, out_dir=tmp_path / "straight")
    for moment in (1, 3):  # the 1st and 3rd solve of a run receive Ctrl-C while CP-SAT works
        real = cpsat.solve_model
        calls = {"n": 0}

        def interrupted(solver, model, moment=moment, real=real, calls=calls):
            calls["n"] += 1
            if calls["n"] == moment:
                os.kill(os.getpid(), signal.SIGINT)
            return real(solver, model)

        monkeypatch.setattr(cpsat, "solve_model", interrupted)
        with pytest.raises(KeyboardInterrupt):
            compute_rows(paths, *head, **args, out_dir=tmp_path / "cut")
        monkeypatch.setattr(cpsat, "solve_model", real)
        kept = (tmp_path / "cut" / "report.progress.jsonl")
        assert "unknown" not in (kept.read_text() if kept.exists() else "")
    resumed = compute_rows(paths, *head, **args, out_dir=tmp_path / "cut")
    assert resumed == straight
    write_outputs(straight, tmp_path / "straight")
    write_outputs(resumed, tmp_path / "cut")
    assert (tmp_path / "straight/report.csv").read_text() == (tmp_path / "cut/report.csv").read_text()


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_no_worker_survives_the_main_process(tmp_path, how):
    code = ("import sys; sys.argv = ['kakapo', 'report', sys.argv[1], '--games', '400000', '--workers', '2', "
            "'--out', sys.argv[2], '--time-limit', '5']; from solver.cli import main; main()")
    proc = subprocess.Popen([sys.executable, "-c", code, str(ROOT / "tests/missions/party/p02.toml"),
                             str(tmp_path / "out")], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    deadline = time.time() + 120
    while time.time() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = children_of(proc.pid)
    assert len(workers) >= 2, "the report started no workers"
    time.sleep(1.0)
    os.kill(proc.pid, how)  # the main process alone, not its group
    proc.wait(timeout=30)
    assert proc.returncode == (130 if how == signal.SIGINT else -how)  # Ctrl-C: the kept-rows message, 130
    deadline = time.time() + 10
    while time.time() < deadline and any(alive(w) for w in workers):
        time.sleep(0.2)
    assert not any(alive(w) for w in workers), [w for w in workers if alive(w)]
