"""A Dask cluster that loses its workers during `kakapo report --scheduler`: real scheduler and
worker processes on 127.0.0.1, killed with SIGKILL as a crash or a pulled cable would.

Every worker gone: the run says what it waits for, gives up after --worker-timeout with exit 2
naming the scheduler, keeps its finished rows, and the same command finishes the report once a
worker is back, equal to a local run. One worker of two gone in the middle: the lost task runs
again on the other and the report equals a local run."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

pytestmark = pytest.mark.slow  # the full suite only (CI runs it)

pytest.importorskip("distributed")  # the cluster extra; .ci/run installs it

MISSIONS = [ROOT / "tests/missions/buddy/b01.toml", ROOT / "tests/missions/buddy/b04.toml",
            ROOT / "tests/missions/party/p01.toml"]
SETTINGS = ["--games", "2000", "--baseline", "--time-limit", "20", "--players", "2,4"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, within: float = 60.0) -> None:
    end = time.monotonic() + within
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise TimeoutError(f"nothing listens on {port}")


class Cluster:
    def __init__(self):
        port = free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        self.procs: list[subprocess.Popen] = []
        self.scheduler = self._start(["dask", "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                      "--no-dashboard"])
        wait_for_port(port)

    def _start(self, cmd) -> subprocess.Popen:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.procs.append(p)
        return p

    def add_worker(self) -> subprocess.Popen:
        return self._start(["dask", "worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard"])

    def wait_for_workers(self, n: int, within: float = 60.0) -> None:
        from distributed import Client

        with Client(self.address, timeout="20s") as client:
            client.wait_for_workers(n, timeout=within)

    @staticmethod
    def kill(p: subprocess.Popen) -> None:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                self.kill(p)


@pytest.fixture
def cluster():
    c = Cluster()
    yield c
    c.close()


def report(out: Path, *extra) -> tuple[int, str, float]:
    """`kakapo report` in a process of its own, with a time limit: a run that waits for ever is a
    failure here, never a test suite that hangs."""
    t0 = time.monotonic()
    try:
        res = subprocess.run([sys.executable, str(ROOT / "cli.py"), "report", *map(str, MISSIONS), *SETTINGS,
                              "--out", str(out), *map(str, extra)], capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the report did not end within 300 s: {e.stderr!r}"[-2000:])
    return res.returncode, res.stdout + res.stderr, time.monotonic() - t0


@pytest.fixture(scope="module")
def local_csv(tmp_path_factory) -> str:
    """The report of a local run, once for the module: what every cluster run must equal."""
    out = tmp_path_factory.mktemp("local")
    code, output, _ = report(out, "--workers", 1)
    assert code == 0, output[-2000:]
    return (out / "report.csv").read_text()


def kill_after_first_result(out: Path, victims) -> threading.Thread:
    def watch():
        progress = out / "report.progress.jsonl"
        end = time.monotonic() + 240
        while time.monotonic() < end and not (progress.exists() and progress.read_text().count("\n") >= 1):
            time.sleep(0.05)
        for p in victims:  # after the first result (or, if none came, the report's own time limit fails the test)
            Cluster.kill(p)

    t = threading.Thread(target=watch, daemon=True)
    t.start()
    return t


def test_every_worker_lost_gives_up_keeps_rows_and_the_same_command_finishes(tmp_path, cluster, local_csv):
    worker = cluster.add_worker()
    cluster.wait_for_workers(1)
    out = tmp_path / "cluster"
    watcher = kill_after_first_result(out, [worker])
    code, output, took = report(out, "--scheduler", cluster.address, "--worker-timeout", 4)
    watcher.join()
    assert code == 2 and "Traceback" not in output, output[-2000:]
    assert f"no worker connected to {cluster.address} since" in output  # said while it waited
    assert f"no Dask worker has been connected to the scheduler at {cluster.address}" in output
    kept = (out / "report.progress.jsonl").read_text().count("\n")
    assert kept >= 1 and f"{kept} of" in output and "run the same command again" in output
    assert took < 4 + 60
    cluster.add_worker()
    cluster.wait_for_workers(1)
    code, output, _ = report(out, "--scheduler", cluster.address, "--worker-timeout", 30)
    assert code == 0, output[-2000:]
    assert "resuming" in output
    assert (out / "report.csv").read_text() == local_csv


def test_one_worker_lost_mid_task_changes_no_number(tmp_path, cluster, local_csv):
    first, second = cluster.add_worker(), cluster.add_worker()
    cluster.wait_for_workers(2)
    out = tmp_path / "cluster"
    watcher = kill_after_first_result(out, [first])  # the other tasks are under way on both
    code, output, _ = report(out, "--scheduler", cluster.address, "--worker-timeout", 60)
    watcher.join()
    assert code == 0, output[-2000:]
    assert second.poll() is None
    assert (out / "report.csv").read_text() == local_csv
