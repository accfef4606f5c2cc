"""Where the search player's games spend their time, kernel by kernel, with Linux ``perf``.

    perf record -F 4000 -o /tmp/kernels.data python benchmarks/perf_kernels.py run [--mission b19] [--games 60]
    python benchmarks/perf_kernels.py report /tmp/kernels.data

``run`` compiles the kernels afresh (an empty kernel cache of its own: a kernel loaded from the
cache has no names to give), writes ``/tmp/perf-PID.map`` (the map ``perf report`` reads for JIT
code) and a copy of the compiled functions' bytes, then plays the games. ``report`` prints each
compiled function's share of the samples, and the share spent moving words to and from the stack
(``push``, ``mov`` to or from ``rsp``): how the always-inlined calls were found (issue 41), a
call passing every array of its records as words on the stack.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import os
import pickle
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = Path(tempfile.gettempdir()) / "kakapo-perf-kernels.pkl"
STACK = re.compile(r"push|mov +%r\w+,0x[0-9a-f]+\(%rsp\)|mov +0x[0-9a-f]+\(%rsp\),%r")


def run(mission: str, players: int, samples: int, games: int) -> None:
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="perf-kernel-cache-")  # not "kakapo-": a kernel folder
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_search_cost import search_games

    from solver.game.fast import search as fs

    play = search_games(mission, players, samples, games, seed=1)
    functions = []
    for compiled in fs.table_games_py.overloads.values():
        library = compiled.library
        for f in library._final_module.functions:
            if not f.is_declaration and (address := library.get_pointer_to_function(f.name)):
                functions.append((address, f.name))
    functions.sort()
    regions = []  # the mapped ranges: a function's bytes are read up to the next one or its mapping's end
    for line in Path("/proc/self/maps").read_text().splitlines():
        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
        regions.append((lo, hi))
    code = {}
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out_map:
        for i, (address, name) in enumerate(functions):
            end = next((hi for lo, hi in regions if lo <= address < hi), address)
            size = min(functions[i + 1][0] if i + 1 < len(functions) else end, end) - address
            short = re.sub(r"B\d+v\d+.*", "", name.split("fast", 1)[-1])
            out_map.write(f"{address:x} {size:x} {short}\n")
            if 0 < size < 1 << 20:
                code[short] = (address, ctypes.string_at(address, size))
    CODE.write_bytes(pickle.dumps(code))
    t0 = time.process_time()
    play()
    print(f"{games} games of {mission} with search-{samples}: {time.process_time() - t0:.1f} CPU s")


def report(data: Path) -> None:
    code = pickle.loads(CODE.read_bytes())
    ips = collections.Counter(int(x, 16) for x in subprocess.run(
        ["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True, check=True).stdout.split())
    rows = []
    for name, (address, body) in code.items():
        hits = {ip: n for ip, n in ips.items() if address <= ip < address + len(body)}
        if not hits:
            continue
        dump = Path(tempfile.gettempdir()) / "kakapo-perf-function.bin"
        dump.write_bytes(body)
        text = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={address}",
                               str(dump)], capture_output=True, text=True, check=True).stdout
        stack = 0
        for line in text.splitlines():
            m = re.match(r"\s*([0-9a-f]+):", line)
            if m and STACK.search(line):
                stack += hits.get(int(m.group(1), 16), 0)
        rows.append((sum(hits.values()), stack, name))
    total = sum(r[0] for r in rows) or 1
    print("| kernel (compiled function) | share of the kernels' samples | of it, words to and from the stack |")
    print("|---|---|---|")
    for samples, stack, name in sorted(rows, reverse=True)[:15]:
        print(f"| {name} | {100 * samples / total:.1f} % | {100 * stack / max(samples, 1):.0f} % |")


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run")
    r.add_argument("--mission", default="b19")
    r.add_argument("--players", type=int, default=2)
    r.add_argument("--samples", type=int, default=16)
    r.add_argument("--games", type=int, default=60)
    p = sub.add_parser("report")
    p.add_argument("data", type=Path)
    args = ap.parse_args()
    if args.what == "run":
        run(args.mission, args.players, args.samples, args.games)
    else:
        report(args.data)


if __name__ == "__main__":
    main()
