"""The studio's Tables tab as a family uses it: *Learn from every table's games* over its 10 games,
*Rate this table* after one more game, and *Learn* again; each a job of the studio's job manager
(its own process, as the page starts it), timed from the request to its answer. Usage:

    python benchmarks/bench_tables_jobs.py [--games 10] [--workers 2] [--policy heuristic] [--tree DIR]

The family's games: two people (their names in the logs) playing Buddy missions b03 to b12 with
``--policy`` in both seats, deal I of seed 31. The studio's folder is new, so the first job
replays every game; the replays are kept in its database, so the next jobs replay only what is
new. The figures are wall seconds on this machine (say its load with them). ``--tree DIR``: the
studio of another checkout (the version before a change), on the same games.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]).resolve() if "--tree" in sys.argv else ROOT
sys.path.insert(0, str(TREE))

from solver.game.engine import play_game  # noqa: E402
from solver.game.roster import make_policy  # noqa: E402
from solver.game.seeds import game_seeds  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402
from solver.io.paths import bundled_mission  # noqa: E402

try:
    from solver.io.loginputs import setup_keys
except ImportError:  # a checkout from before the log's inputs had their module
    from solver.io.records import record_keys as setup_keys  # type: ignore[no-redef]


def family_logs(games: int, policy: str) -> list[str]:
    catalog = load_catalog()
    out = []
    for i in range(games):
        m = load_mission(bundled_mission(f"b{3 + i % 10:02d}"), catalog)
        seed = int(game_seeds(31, i, 1)[0])
        events = play_game(m, catalog, 2, seed, make_policy(policy), log=True).events
        events[0].update(setup_keys(m, catalog, [0, 1]), names={"0": "Ann", "1": "Ben"})
        out.append("".join(json.dumps(e) + "\n" for e in events))
    return out


def run_job(manager, request: dict) -> tuple[float, dict]:
    t0 = time.perf_counter()
    job = manager.submit(request, request["kind"])
    while job.state not in ("done", "failed", "cancelled"):
        time.sleep(0.05)
    if job.state != "done":
        raise SystemExit(f"the {request['kind']} job {job.state}: {job.error}")
    return time.perf_counter() - t0, job.result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--tree", type=Path, default=ROOT)
    args = ap.parse_args()
    from solver import __version__
    try:
        from solver.studio.jobqueue import JobManager
    except ImportError:  # a checkout from before the job queue had its name
        from solver.studio.jobs import JobManager  # type: ignore[no-redef]
    from solver.studio.store import Store

    logs = family_logs(args.games + 1, args.policy)
    folder = Path(tempfile.mkdtemp(prefix="kakapo-tables-"))
    store = Store(folder, __version__)
    manager = JobManager(None, args.workers, warm=False, store=store)
    try:
        def request(kind: str, n: int) -> dict:
            ids = [f"game-{k:02d}" for k in range(n)]
            return {"kind": kind, "names": ids, "texts": logs[:n], "games": 0, "seed": 1, "folder": str(folder)}

        seconds, doc = run_job(manager, request("calibrate", args.games))
        print(f"Learn, {args.games} games, a new folder: {seconds:.1f} s "
              f"({doc['calibration']['games']} games learned from)")
        seconds, doc = run_job(manager, request("rate", args.games + 1))
        print(f"Rate this table after one more game ({args.games + 1} games, the new one replayed): {seconds:.1f} s")
        seconds, doc = run_job(manager, request("calibrate", args.games + 1))
        print(f"Learn again, {args.games + 1} games (every replay kept): {seconds:.1f} s")
        fresh = Path(tempfile.mkdtemp(prefix="kakapo-tables-"))
        one = {**request("rate", 1), "folder": str(fresh)}
        seconds, _ = run_job(manager, one)
        print(f"Rate this table, one game, a new folder: {seconds:.1f} s")
    finally:
        manager.shutdown()
        store.close()


if __name__ == "__main__":
    main()
