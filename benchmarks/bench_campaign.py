"""The bundled campaign measured for another catalog (`kakapo campaign --pieces FILE`), on this
machine's processes and on a Dask LocalCluster (2 worker processes, 1 thread each, on 127.0.0.1):
the wall time of each, and whether the two documents are the same (they must be: same seed).

The catalog is the bundled one with two pieces no bundled mission places redrawn (green-6 and
blue-5), so that every mission fits it and its planner libraries are built anew, as a user's are.

    python benchmarks/bench_campaign.py [--games 200] [--workers 2] [--only local|cluster] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
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


def run(pieces: Path, out: Path, games: int, workers: int, scheduler: str | None) -> tuple[dict, float]:
    cmd = [sys.executable, "-m", "solver.cli", "campaign", "--pieces", str(pieces), "--out", str(out), "--games",
           str(games), "--workers", str(workers), "--json"]
    if scheduler:
        cmd += ["--scheduler", scheduler]
    t0 = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(res.stderr[-3000:])
    return json.loads(res.stdout), wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", choices=["local", "cluster"], default=None)
    ap.add_argument("--out", type=Path, default=Path("/tmp/kakapo-bench-campaign"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    pieces = other_catalog(args.out)
    docs = {}
    if args.only in (None, "local"):
        doc, wall = run(pieces, args.out / "local", args.games, args.workers, None)
        docs["local"] = doc
        print(f"local, {args.workers} processes: {len(doc['rows'])} rows in {wall:.0f} s", flush=True)
        (args.out / "local.json").write_text(json.dumps(doc, indent=1))
    if args.only in (None, "cluster"):
        import distributed

        cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                           host="127.0.0.1", dashboard_address=None)
        try:
            doc, wall = run(pieces, args.out / "cluster", args.games, args.workers, cluster.scheduler_address)
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
