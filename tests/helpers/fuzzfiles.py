"""File fuzzing: every mutated or hostile file must load or be an InputError, quickly.

Files are made from the bundled missions, the catalog and game logs by random edits
(characters, tokens, whole lines, duplicated blocks) and by hostile generators (deep nesting,
huge numbers, very long names, control characters, unknown keys by the thousand, oversize
files). ``fuzz`` loads each in this process (missions against the default catalog; logs are
replayed through the rules); an "escape" is any other exception, a "slow" file one that takes
over ``slow_after`` seconds (1 s in the benchmark, which measures; far more in the test, which
must not fail on a slower or busier machine). tests/io/test_fuzz_input.py runs it briefly,
benchmarks/fuzz_files.py at length.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path

from solver.core.errors import InputError
from solver.game.engine import log_events, play_out
from solver.game.resume import replay
from solver.game.roster import make_policy
from solver.game.state import deal
from solver.io.catalog import load_catalog
from solver.io.gamelog import read_log
from solver.io.missionfile import load_mission
from tests.helpers.paths import ROOT

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
    kind = rng.randrange(11)
    deep = ".".join(rng.choice(["a", "b", '"q"', "placed"]) for _ in range(rng.randint(9, 20000)))
    if kind == 8:
        return base + f"\n[{deep}]\nx = 1\n"  # a table header with no brackets inside
    if kind == 9:
        return f"{deep} = 1\n" + base  # a dotted key
    if kind == 10:
        return base + f"\n[[{deep}]]\n"  # an array of tables
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


def game_logs(catalog, count: int = 6) -> list[tuple[str, object]]:
    """A few logs of real games (their text, and the mission they were played on)."""
    out = []
    for k, path in enumerate(sorted((ROOT / "missions").glob("*/*.toml"))[::7][:count]):
        m = load_mission(path, catalog)
        state = play_out(deal(m, catalog, m.default_players(), k), make_policy("heuristic"))
        out.append(("".join(json.dumps(e) + "\n" for e in log_events(state)), m))
    return out


def hostile_log(rng: random.Random, base: str) -> str:
    kind = rng.randrange(5)
    lines = base.splitlines()
    if kind == 0:
        return "[" * rng.randint(5, 200000) + "\n"
    if kind == 1:
        k = rng.randrange(1, len(lines))
        event = json.loads(lines[k])
        key = rng.choice(sorted(event))
        event[key] = rng.choice([None, -1, 10**40, "x" * 5000, [], {}, [[["deep"]]], True, 3.5, "purple-99"])
        lines[k] = json.dumps(event)
        return "\n".join(lines) + "\n"
    if kind == 2:
        return "\n".join(lines[: rng.randrange(len(lines) + 1)]) + "\n"
    if kind == 3:
        return base + base
    plays = '{"player": 0, "card": "red-1"},' * rng.randint(1, 20000)
    return "\n".join(lines) + "\n" + '{"event": "round", "round": 99, "plays": [' + plays + "{}]}\n"


def fuzz(files: int, seed: int, on_escape=None,
         slow_after: float = 1.0) -> tuple[dict, list[tuple[float, str]], float]:
    """Counts (loaded, input_error, escape, slow), the three slowest files and the total seconds."""
    rng = random.Random(seed)
    catalog = load_catalog()
    missions = [p.read_text() for p in sorted((ROOT / "missions").glob("*/*.toml"))]
    missions += [p.read_text() for p in sorted((ROOT / "tests/missions").glob("*/*.toml"))]
    cat_text = (ROOT / "missions/pieces.toml").read_text()
    logs = game_logs(catalog)
    counts = {"loaded": 0, "input_error": 0, "escape": 0, "slow": 0}
    slowest: list[tuple[float, str]] = []
    t_all = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(files):
            pick = rng.random()
            kind = "catalog" if pick < 0.2 else "log" if pick < 0.35 else "mission"
            if kind == "log":
                base, mission = rng.choice(logs)
                text = hostile_log(rng, base) if rng.random() < 0.3 else mutate(base, rng)
            else:
                base = cat_text if kind == "catalog" else rng.choice(missions)
                text = hostile(rng, base) if rng.random() < 0.2 else mutate(base, rng)
            path = Path(tmp) / f"f{n}.{'jsonl' if kind == 'log' else 'toml'}"
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            t0 = time.perf_counter()
            try:
                if kind == "catalog":
                    load_catalog(path)
                elif kind == "mission":
                    load_mission(path, catalog)
                else:
                    replay(read_log(path), mission, catalog)
                counts["loaded"] += 1
            except InputError as e:
                counts["input_error"] += 1
                if "line None" in str(e) and on_escape:  # every message names a line or none at all
                    on_escape(n, text, e)
            except Exception as e:  # what the fuzzer hunts
                counts["escape"] += 1
                if on_escape:
                    on_escape(n, text, e)
            took = time.perf_counter() - t0
            if took > slow_after:
                counts["slow"] += 1
            slowest = sorted([*slowest, (took, f"f{n} ({kind}, {len(text)} chars)")])[-3:]
            path.unlink()
    return counts, slowest, time.perf_counter() - t_all
