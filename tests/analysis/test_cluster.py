"""`kakapo report --scheduler`: the same tasks on a Dask cluster (real worker processes on
127.0.0.1), the same numbers as locally, and a report begun locally finished on the cluster."""

import pytest

from solver.analysis.report import Progress, compute_rows, plan_report
from solver.io.catalog import load_catalog
from tests.helpers.paths import ROOT

pytestmark = pytest.mark.slow  # the full suite only (CI runs it)

distributed = pytest.importorskip("distributed")  # the cluster extra; .ci/run installs it


@pytest.fixture(scope="module")
def scheduler():
    # the engine compiled (or loaded) here first, so the workers load it from the cache, not compile it each
    from solver.analysis.simulate import play_games
    from solver.io.missionfile import load_mission
    from solver.io.paths import mission_path
    from solver.openhand.ceiling import decide_deals

    catalog = load_catalog()
    play_games(load_mission(ROOT / "tests/missions/buddy/b01.toml", catalog), catalog, 2, 1, 1, "search", samples=1)
    # and the deal solver's, which the ceiling's tasks use on each worker
    decide_deals(load_mission(mission_path("b19"), catalog), catalog, 2, 4, [0], time_limit=1.0)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None)
    yield cluster.scheduler_address
    cluster.close()


def test_cluster_report_equals_local_and_resumes(tmp_path, scheduler):
    catalog = load_catalog()
    paths = [ROOT / "tests/missions/buddy/b01.toml", ROOT / "tests/missions/party/p01.toml"]
    cat_bytes = (ROOT / "missions/pieces.toml").read_bytes()
    head, args = (catalog, cat_bytes, 300), dict(seed=5, players_filter=None, policy="heuristic", workers=1,
                                                 time_limit=20.0)
    local = compute_rows(paths, *head, **args, out_dir=tmp_path / "local", baseline=True, ceiling_games=3,
                         ladder_games=4)
    assert "search16_rate" in local[0] and "shortfall" in local[0]
    # begun locally (two tasks done), finished on the cluster (every other task played there): the same rows
    plan = plan_report(paths, catalog, cat_bytes, 300, seed=5, players_filter=None, policy="heuristic",
                       time_limit=20.0, baseline=True, ceiling_games=3, ladder_games=4)
    whole = Progress(tmp_path / "local" / "report.progress.jsonl")
    (tmp_path / "mixed").mkdir()
    part = Progress(tmp_path / "mixed" / "report.progress.jsonl")
    for task in plan.tasks()[:2]:
        part.put(task.key, whole.get(task.key))
    mixed = compute_rows(paths, *head, **args, out_dir=tmp_path / "mixed", baseline=True, ceiling_games=3,
                         ladder_games=4,
                         scheduler=scheduler)
    assert mixed == local


def test_unreachable_scheduler_is_an_input_error(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from solver.analysis import cluster
    from solver.cli import main

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "2s")  # nothing listens there: no need to wait 10 s

    res = CliRunner().invoke(main, ["report", str(ROOT / "tests/missions/buddy/b01.toml"), "--games", "50", "--out",
                                    str(tmp_path), "--scheduler", "tcp://127.0.0.1:9"])
    assert res.exit_code == 2 and "scheduler" in res.output and "Traceback" not in res.output


TIMING = ("seconds", "games_per_second", "workers", "cpu_seconds", "elapsed", "estimate_seconds")


def _without_timing(doc):
    if isinstance(doc, dict):
        return {k: _without_timing(v) for k, v in doc.items() if k not in TIMING}
    if isinstance(doc, list):
        return [_without_timing(v) for v in doc]
    return doc


@pytest.mark.parametrize("command, mission, players, games", [
    ("ladder", str(ROOT / "tests/missions/party/p01.toml"), 3, 30),
    ("ceiling", "b19", 2, 12),  # deals the simulated players do not clear: the deal solver works on the workers
], ids=["ladder", "ceiling"])
def test_ladder_and_ceiling_on_a_cluster_give_the_local_document(scheduler, tmp_path, command, mission, players,
                                                                 games):
    import json

    from click.testing import CliRunner

    from solver.cli import main

    args = [command, mission, "--players", players, "--games", games, "--seed", "4", "--time-limit", "2", "--json"]
    args = [str(a) for a in args]
    local = CliRunner().invoke(main, [*args, "--workers", "1"])
    remote = CliRunner().invoke(main, [*args, "--scheduler", scheduler])
    assert local.exit_code == 0 and remote.exit_code == 0, (local.output + remote.output)[-2000:]
    a, b = json.loads(local.stdout), json.loads(remote.stdout)
    assert _without_timing(a) == _without_timing(b)
    if command == "ceiling":
        assert a["clearable"] + a["not_clearable"] + a["undecided"] == games
        assert a["clearable"] > a["cleared_by_policies"]


def test_a_ladder_with_no_worker_gives_up_with_exit_2(tmp_path):
    from click.testing import CliRunner

    from solver.cli import main

    cluster = distributed.LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=":0")
    try:
        res = CliRunner().invoke(main, ["ladder", "b01", "--games", "5", "--scheduler", cluster.scheduler_address,
                                        "--worker-timeout", "1"])
    finally:
        cluster.close()
    assert res.exit_code == 2 and "no Dask worker" in res.output and "Traceback" not in res.output, res.output


def test_a_campaign_on_the_cluster_gives_the_local_numbers(tmp_path, scheduler):
    """`kakapo campaign --scheduler`: the campaign measured for another catalog, on the cluster's
    workers, is the local one."""
    import json
    import shutil

    from click.testing import CliRunner

    from solver.cli import main
    from tests.helpers.catalogs import folder_with_catalog

    d = folder_with_catalog(tmp_path)
    other = tmp_path / "other"
    shutil.copytree(d, other)
    local = CliRunner().invoke(main, ["campaign", str(d), "--pieces", str(d / "mine.toml"), "--games", "3",
                                      "--workers", "1", "--json"])
    remote = CliRunner().invoke(main, ["campaign", str(other), "--pieces", str(other / "mine.toml"), "--games", "3",
                                       "--scheduler", scheduler, "--json"])
    assert local.exit_code == 0 and remote.exit_code == 0, (local.output, remote.output)
    assert {**json.loads(remote.output), "file": None} == {**json.loads(local.output), "file": None}


@pytest.mark.parametrize("command", ["rate", "calibrate"])
def test_rate_and_calibrate_on_a_cluster_give_the_local_figures(scheduler, tmp_path, command):
    """`rate` and `calibrate --scheduler`: the replays made on the cluster's workers, the same
    document as here (each copy of the logs in a folder of its own: nothing kept from the other)."""
    import json
    import shutil

    from click.testing import CliRunner

    from solver.cli import main
    from tests.helpers.commands import bot_logs

    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    bot_logs(here, "b05", "planner", 2)
    shutil.copytree(here, there)

    def args(folder):
        logs = [str(folder)] if command == "calibrate" else sorted(str(p) for p in folder.glob("*.jsonl"))
        return [command, *logs, "--plays", "2", "--json"]

    local = CliRunner().invoke(main, [*args(here), "--workers", "1"])
    remote = CliRunner().invoke(main, [*args(there), "--scheduler", scheduler])
    assert local.exit_code == 0 and remote.exit_code == 0, (local.output + remote.output)[-2000:]
    a, b = json.loads(local.stdout), json.loads(remote.stdout)
    if command == "calibrate":  # the folders' names and places differ, not the figures
        for doc in (a, b):
            for t in doc["tables"]:
                t.pop("table")
                for e in t["predictions"]:
                    e.pop("game")
    assert _without_timing(a) == _without_timing(b)


def test_a_rating_with_no_worker_gives_up_with_exit_2(tmp_path):
    from click.testing import CliRunner

    from solver.cli import main
    from tests.helpers.commands import bot_logs

    logs = bot_logs(tmp_path, "b01", "planner", 1)
    cluster = distributed.LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=":0")
    try:
        res = CliRunner().invoke(main, ["rate", *map(str, logs), "--plays", "2", "--scheduler",
                                        cluster.scheduler_address, "--worker-timeout", "1"])
    finally:
        cluster.close()
    assert res.exit_code == 2 and "no Dask worker" in res.output and "Traceback" not in res.output, res.output
