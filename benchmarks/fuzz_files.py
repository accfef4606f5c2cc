"""Fuzz the two file kinds at length: every file must load or be an InputError, quickly.

    python benchmarks/fuzz_files.py [--files 12000] [--seed 1]

Files are made from the bundled missions and catalog by random edits (characters, tokens,
whole lines, duplicated blocks) and by hostile generators (deep nesting, huge numbers, very
long names, control characters, unknown keys by the thousand, oversize files). Each is loaded
in this process (missions against the default catalog); an "escape" is any other exception, a
"slow" file one that takes over 1 s. Prints the counts and the slowest files; exit 1 on any escape.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.core.errors import InputError  # noqa: E402
from solver.io.catalog import load_catalog  # noqa: E402
from solver.io.missionfile import load_mission  # noqa: E402

TOKENS = ['"', "'", '"""', "[", "]", "{", "}", "=", "\n", "#", ",", ".", "A", "r", "p", "-", "0", "9" * 30,
          "[[placed]]", "cells", "piece", "clear", "all", "rounds", "skills", "mode", "inf", "nan", "1e999",
          "\x00", "\x1b[31m", "\u202e", "é", "\\u0000", "true", "name", "story", "board", "purple-1", "p9999"]


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 6)):
        kind = rng.random()
        i = rng.randint(0, len(text))
        if kind < 0.35:
            text = text[:i] + "".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 4))) + text[i:]
        elif kind < 0.55:
            j = min(len(text), i + rng.randint(1, 20))
            text = text[:i] + text[j:]
        elif kind < 0.7:
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[k])
            text = "\n".join(lines)
        elif kind < 0.85:
            j = min(len(text), i + rng.randint(1, 8))
            text = text[:i] + "".join(chr(rng.randint(0, 0x2FF)) for _ in range(j - i)) + text[j:]
        else:
            lines = text.split("\n")
            rng.shuffle(lines)
            text = "\n".join(lines)
    return text


def hostile(rng: random.Random, base: str) -> str:
    kind = rng.randrange(8)
    if kind == 0:
        d = rng.randint(5, 3000)
        return base + f"\nx = {'[' * d}{']' * d}\n"
    if kind == 1:
        d = rng.randint(5, 1000)
        return base + "\nx = " + "{a = " * d + "1" + "}" * d + "\n"
    if kind == 2:
        return base.replace("clear = ", f"clear = {'9' * rng.randint(10, 6000)}\n#", 1)
    if kind == 3:
        piece, cell = "9" * rng.randint(10, 6000), "a" * rng.randint(1, 9000)
        return base + f'\n[[placed]]\npiece = "p{piece}"\ncells = ["{cell}"]\n'
    if kind == 4:
        return "".join(f"k{i} = {i}\n" for i in range(rng.randint(100, 30000))) + base
    if kind == 5:
        return base + "# " + "x" * rng.randint(900_000, 1_200_000) + "\n"
    if kind == 6:
        return base.replace('name = "', 'name = "\\u0000\\u001b[2J' + "\\u0007" * rng.randint(1, 50), 1)
    return base + "\n[[placed]]\npiece = \"red-1\"\ncells = [" + ", ".join(['"a1"'] * rng.randint(0, 20000)) + "]\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=12000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    catalog = load_catalog()
    missions = [p.read_text() for p in sorted((ROOT / "missions").glob("*/*.toml"))]
    missions += [p.read_text() for p in sorted((ROOT / "tests/missions").glob("*/*.toml"))]
    cat_text = (ROOT / "missions/pieces.toml").read_text()
    counts = {"loaded": 0, "input_error": 0, "escape": 0, "slow": 0}
    slowest: list[tuple[float, str]] = []
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.files):
            is_catalog = rng.random() < 0.25
            base = cat_text if is_catalog else rng.choice(missions)
            text = hostile(rng, base) if rng.random() < 0.2 else mutate(base, rng)
            path = Path(tmp) / f"f{n}.toml"
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            t0 = time.perf_counter()
            try:
                load_catalog(path) if is_catalog else load_mission(path, catalog)
                counts["loaded"] += 1
            except InputError:
                counts["input_error"] += 1
            except Exception as e:
                counts["escape"] += 1
                keep = Path(tmp).parent / f"kakapo-fuzz-escape-{args.seed}-{n}.toml"
                keep.write_text(text, encoding="utf-8", errors="surrogatepass")
                print(f"ESCAPE {type(e).__name__}: {str(e)[:200]} (kept as {keep})", flush=True)
            took = time.perf_counter() - t0
            if took > 1.0:
                counts["slow"] += 1
            what = f"f{n} ({'catalog' if is_catalog else 'mission'}, {len(text)} chars)"
            slowest = sorted([*slowest, (took, what)])[-3:]
            path.unlink()
    total = time.perf_counter() - t_all
    print(f"{args.files} files in {total:.1f} s: {counts}")
    print("slowest: " + "; ".join(f"{name} {t:.3f} s" for t, name in reversed(slowest)))
    return 1 if counts["escape"] else 0


if __name__ == "__main__":
    sys.exit(main())
