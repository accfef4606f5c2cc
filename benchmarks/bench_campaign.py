"""The bundled campaign measured for another catalog (`kakapo campaign --pieces FILE`), on this
machine's processes and on a Dask LocalCluster (2 worker processes, 1 thread each, on 127.0.0.1):
the wall time of each, and whether the two documents are the same (they must be: same seed).

The catalog is the bundled one with two pieces no bundled mission places redrawn (green-6 and
blue-5), so that every mission fits it and its planner libraries are built anew, as a user's are.

    python benchmarks/bench_campaign.py [--games 500] [--precision P] [--workers 2] [--only local|cluster]
                                        [--tree DIR] [--out DIR]

``--tree DIR``: the command of another checkout (its sources first on the path), e.g. the version
before a change, timed on the same machine (locally; the cluster's workers run this checkout's);
``--precision`` is passed only when given (an older version has none). The catalog's libraries
are removed from the cache first (``--keep-libraries`` keeps them), so that each run builds them
as a user's first run does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.io.catalog import DEFAULT_CATALOG, load_catalog  # noqa: E402

REDRAWN = {("green", "6"): '"###/##."', ("blue", "5"): '"#../###/..#"'}


def other_catalog(folder: Path) -> Path:
    lines, colour = [], None
    for line in DEFAULT_CATALOG.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            colour = stripped[1:-1]
        key = stripped.split("=", 1)[0].strip()
        if (colour, key) in REDRAWN and "=" in stripped:
            line = f"{key} = {REDRAWN[(colour, key)]}"
        lines.append(line)
    path = folder / "my-copy.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert load_catalog(path).digest != load_catalog().digest
    return path


def forget_libraries(pieces: Path, tree: Path) -> None:
    """The catalog's planner and deal-solver libraries out of the cache (of ``tree``'s package)."""
    code = ("import sys; from pathlib import Path; from solver.app.campaign import campaign_missions;"
            "from solver.io.catalog import load_catalog; from solver.io.missionfile import load_mission;"
            "from solver.puzzle import librarystore as s; c = load_catalog(sys.argv[1]);"
            "[s.library_path(load_mission(p, c), c, k).unlink(missing_ok=True) for p in campaign_missions(None)"
            " for k in ('planner', 'deal-2', 'deal-3', 'deal-4')]")
    subprocess.run([sys.executable, "-c", code, str(pieces)], check=True, env={**os.environ, "PYTHONPATH": str(tree)},
                   cwd=tree)


def run(pieces: Path, out: Path, games: int, workers: int, scheduler: str | None, tree: Path = ROOT,
        precision: float | None = None) -> tuple[dict, float]:
    cmd = [sys.executable, "-m", "solver.cli", "campaign", "--pieces", str(pieces), "--out", str(out), "--games",
           str(games), "--workers", str(workers), "--json"]
    if scheduler:
        cmd += ["--scheduler", scheduler]
    if precision is not None:
        cmd += ["--precision", str(precision)]
    t0 = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree)
    wall = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(res.stderr[-3000:])
    return json.loads(res.stdout), wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--precision", type=float, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", choices=["local", "cluster"], default=None)
    ap.add_argument("--tree", type=Path, default=ROOT)
    ap.add_argument("--keep-libraries", action="store_true")
    ap.add_argument("--out", type=Path, default=Path("/tmp/kakapo-bench-campaign"))
    args = ap.parse_args()
    args.out = args.out.resolve()
    args.tree = args.tree.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    pieces = other_catalog(args.out)
    docs = {}
    if args.only in (None, "local"):
        if not args.keep_libraries:
            forget_libraries(pieces, args.tree)
        doc, wall = run(pieces, args.out / "local", args.games, args.workers, None, args.tree, args.precision)
        docs["local"] = doc
        print(f"local, {args.workers} processes: {len(doc['rows'])} rows in {wall:.0f} s", flush=True)
        (args.out / "local.json").write_text(json.dumps(doc, indent=1))
    if args.only in (None, "cluster"):
        import distributed

        cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                           host="127.0.0.1", dashboard_address=None)
        try:
            if not args.keep_libraries:
                forget_libraries(pieces, args.tree)
            doc, wall = run(pieces, args.out / "cluster", args.games, args.workers, cluster.scheduler_address,
                            args.tree, args.precision)
        finally:
            cluster.close()
        docs["cluster"] = doc
        print(f"LocalCluster, {args.workers} workers x 1 thread: {len(doc['rows'])} rows in {wall:.0f} s", flush=True)
        (args.out / "cluster.json").write_text(json.dumps(doc, indent=1))
    if len(docs) == 2:  # apart from the file each wrote (another folder)
        same = {k: v for k, v in docs["local"].items() if k != "file"} == \
            {k: v for k, v in docs["cluster"].items() if k != "file"}
        print("the same document on the cluster as locally (but the file it names):", same)
        print("the same difficulty.json, byte for byte:", (args.out / "local" / "difficulty.json").read_bytes()
              == (args.out / "cluster" / "difficulty.json").read_bytes())
    for name, doc in docs.items():
        print(f"{name}: digest {doc['pieces_digest']}, the easiest {doc['order'][:3]}, the hardest {doc['order'][-3:]}")


if __name__ == "__main__":
    main()
