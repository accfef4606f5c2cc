"""SPARTA belief filter experiment (issue 15), runs only at the commit that adds it: python benchmarks/exp_belief_filter.py MISSION PLAYERS GAMES SAMPLES TRIES_PER_SAMPLE."""
import sys
import time

import numpy as np

from solver.core.spec import GameSpec
from solver.game.fast import search as fsearch
from solver.game.fast import state as fs
from solver.game.planner import planner_library
from solver.game.seeds import game_seeds
from solver.game.tables import build_tables
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission

cat = load_catalog()
mid, pl, n, K, F = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
m = load_mission(f"missions/{'buddy' if mid[0]=='b' else 'party'}/{mid}.toml", cat)
T = build_tables(m, cat, planner_library(m, cat))
spec = fs.spec_array(GameSpec.of(m, pl))
seeds = game_seeds(1, 0, n)
out = [np.zeros(n, np.int64) for _ in range(3)] + [np.zeros(n, np.uint64)]
fsearch.search_many(seeds[:1], spec, 1, T, *[o[:1] for o in out], F)
t = time.process_time()
fsearch.search_many(seeds, spec, K, T, *out, F)
won = out[0] == 0
print(mid, pl, "filter", F, "rate", won.mean(), "cpu/game", round((time.process_time()-t)/n, 3), "won:", "".join("1" if w else "0" for w in won))
