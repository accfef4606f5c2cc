"""A fingerprint of the project's behaviour: clear counts and trace hashes of every policy on every
campaign row (Numba engine), reference-engine traces of a few games per row, the solver's fewest
pieces, and the ceiling's answers on a few deals. A refactoring that must not change behaviour
writes the same fingerprint before and after:

    python benchmarks/fingerprint.py --out before.json
    ... change ...
    python benchmarks/fingerprint.py --out after.json --compare before.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POLICIES = ("heuristic", "random", "greedy", "planner")


def imports():
    """The functions the fingerprint needs, wherever the package keeps them."""
    try:
        from solver.analysis.simulate import play_games
        from solver.game.engine import play_game
        from solver.game.roster import make_policy
        from solver.game.seeds import game_seeds
        from solver.io.catalog import load_catalog
        from solver.io.missionfile import load_mission
        from solver.openhand.ceiling import ceiling
        from solver.puzzle.cpsat import solve
    except ImportError:
        from solver.catalog import load_catalog
        from solver.cpsat import solve
        from solver.game.engine import play_game
        from solver.game.policies import make_policy
        from solver.game.simulate import game_seeds, play_games
        from solver.missionfile import load_mission
        from solver.openhand.ceiling import ceiling
    return load_catalog, load_mission, play_games, play_game, make_policy, game_seeds, solve, ceiling


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000, help="Numba games per policy and row")
    ap.add_argument("--python-games", type=int, default=3, help="reference-engine games per policy and row")
    ap.add_argument("--ceiling-deals", type=int, default=4)
    ap.add_argument("--deals", type=int, default=1000, help="deals hashed per row (hands, set-aside, start)")
    ap.add_argument("--only", default="", help="comma-separated mission ids (default: all)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--compare", default=None)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    load_catalog, load_mission, play_games, play_game, make_policy, game_seeds, solve, ceiling = imports()
    from solver.game.state import deal
    catalog = load_catalog()
    only = {x for x in args.only.split(",") if x}
    doc: dict = {}
    t0 = time.time()
    for path in sorted((ROOT / "missions").glob("*/*.toml")):
        if only and path.stem not in only:
            continue
        m = load_mission(path, catalog)
        for players in m.player_counts():
            row = {}
            r = solve(m, catalog, players=players)
            row["solve"] = [r.status, r.pieces_used, r.optimal]
            dealt = [deal(m, catalog, players, int(s)) for s in game_seeds(1, 0, args.deals)]
            row["deals"] = hashlib.sha256(repr([(d.dealt, d.set_aside, d.start_player) for d in dealt])
                                          .encode()).hexdigest()[:16]  # the deals alone, whatever the policies
            for pol in POLICIES:
                out = play_games(m, catalog, players, args.games, 1, pol, "numba", args.workers)
                h = hashlib.sha256(out.traces.tobytes() + out.results.tobytes() + out.rounds.tobytes()).hexdigest()
                row[pol] = [int((out.results == 0).sum()), h[:16]]
                seeds = game_seeds(1, 0, args.python_games)
                row[pol + "_python"] = [play_game(m, catalog, players, int(s), make_policy(pol)).trace for s in seeds]
                py = [int(t) for t in out.traces[: args.python_games]]
                if py != row[pol + "_python"]:
                    print(f"ENGINES DISAGREE {m.id}/{players} {pol}", flush=True)
            if args.ceiling_deals:
                c = ceiling(m, catalog, players, args.ceiling_deals, 1, 1)
                row["ceiling"] = c["answers"]
            doc[f"{m.id}/{players}"] = row
            print(f"{m.id}/{players} {time.time() - t0:.0f}s " + " ".join(f"{p}={row[p][0]}" for p in POLICIES),
                  flush=True)
    Path(args.out).write_text(json.dumps(doc, indent=1, sort_keys=True))
    if args.compare:
        before = json.loads(Path(args.compare).read_text())
        diffs = [(k, f, before[k].get(f), doc[k].get(f)) for k in doc if k in before for f in doc[k]
                 if before[k].get(f) != doc[k].get(f)]
        for d in diffs:
            print("DIFFERS", *d)
        print(f"{len(diffs)} differences over {len(doc)} rows")
        sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
