"""Fuzz the file kinds at length: every mission, catalog and game log must load or be an InputError, quickly.

    python benchmarks/fuzz_files.py [--files 12000] [--seed 1]

The generators and the loop are tests/helpers/fuzzfiles.py (the test suite runs them briefly). Prints
the counts and the slowest files; an escape is kept in the temp folder; exit 1 on any escape.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.fuzzfiles import fuzz  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=12000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    def keep(n, text, e):
        path = Path(tempfile.gettempdir()) / f"kakapo-fuzz-escape-{args.seed}-{n}"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        print(f"ESCAPE {type(e).__name__}: {str(e)[:200]} (kept as {path})", flush=True)

    counts, slowest, total = fuzz(args.files, args.seed, keep)
    print(f"{args.files} files in {total:.1f} s: {counts}")
    print("slowest: " + "; ".join(f"{name} {t:.3f} s" for t, name in reversed(slowest)))
    return 1 if counts["escape"] else 0


if __name__ == "__main__":
    sys.exit(main())
