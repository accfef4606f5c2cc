"""The studio's API fuzzed (issue 38): schemathesis generates requests from `/api/openapi.json`
(every operation, bodies, paths and query strings in and out of their schemas) and sends them to
a real `kakapo studio` process on 127.0.0.1; no answer may be a 5xx, and the server must still
answer when it is over.

    python benchmarks/fuzz_api.py [--requests 10000] [--seed 1]

Prints the requests sent, by operation and by status, the 5xx seen (with a request to reproduce
each), and the seconds. Exit 1 on any 5xx or a server that no longer answers.
"""

from __future__ import annotations

import argparse
import collections
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def send_cases(op, count: int, seed_: int, url: str, statuses, by_op, errors) -> None:
    """``count`` generated requests of one operation."""
    from hypothesis import HealthCheck, given, seed, settings

    name = f"{op.method.upper()} {op.path}"

    @seed(seed_)
    @settings(max_examples=count, suppress_health_check=list(HealthCheck), deadline=None, database=None)
    @given(case=op.as_strategy())
    def send(case):
        res = case.call(base_url=url, timeout=60)
        statuses[res.status_code] += 1
        by_op[name] += 1
        if res.status_code >= 500:
            errors.append(f"{res.status_code} {case.as_curl_command()}"[:500])

    send()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    import schemathesis

    folder = Path(tempfile.mkdtemp())
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "studio", "--port", "0", "--no-browser",
                             "--dir", str(folder), "--workers", "1"], stdout=subprocess.PIPE, text=True)
    url = re.search(r"http://\S+", proc.stdout.readline()).group(0).rstrip("/")
    assert url.startswith(("http://127.0.0.1:", "http://[::1]:"))  # loopback only
    statuses: collections.Counter = collections.Counter()
    by_op: collections.Counter = collections.Counter()
    errors: list[str] = []
    t0 = time.perf_counter()
    try:
        schema = schemathesis.openapi.from_url(f"{url}/api/openapi.json")
        ops = [op.ok() for op in schema.get_all_operations()]
        rounds = 0
        while sum(statuses.values()) < args.requests:  # operations without parameters give one request a round
            left = args.requests - sum(statuses.values())
            per_op = max(20, -(-left // len(ops)))
            for op in ops:
                send_cases(op, per_op, args.seed + rounds, url, statuses, by_op, errors)
            rounds += 1
        with urllib.request.urlopen(f"{url}/api/status", timeout=30) as r:
            alive = r.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
    total = sum(statuses.values())
    print(f"{total} requests over {len(by_op)} operations in {time.perf_counter() - t0:.0f} s; "
          f"server still answering: {alive}")
    print("by status: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
    for op, n in sorted(by_op.items()):
        print(f"  {op}: {n}")
    print(f"5xx: {len(errors)}")
    for e in errors[:10]:
        print("  " + e)
    return 0 if alive and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
