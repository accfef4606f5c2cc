import sys

from solver.core.spec import GameSpec
from solver.game.fast import search as fsearch
from solver.game.fast import state as fs
from solver.game.fast.play import deal_game
from solver.game.fast.policies import reset_memory
from solver.game.planner import planner_library
from solver.game.seeds import game_seeds
from solver.game.tables import build_tables
from solver.io.catalog import load_catalog
from solver.io.missionfile import load_mission

cat = load_catalog()
mid, pl, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
m = load_mission(f"missions/{'buddy' if mid[0]=='b' else 'party'}/{mid}.toml", cat)
T = build_tables(m, cat, planner_library(m, cat))
spec = fs.spec_array(GameSpec.of(m, pl))
sm = fsearch.new_search_memory(spec, 16, T); sm.filter[0] = 8
S = fs.new_state(spec)
for seed in game_seeds(1, 0, n):
    deal_game(seed, S, T); reset_memory(sm.base)
    while S.info[fs.I_PHASE] != fs.OVER:
        seat = fs.current_player(S)
        code = fsearch.search_decide(fs.observe(S, seat), sm, T, S.rs[seat:seat+1])
        fs.apply_action(S, code, T)
print(mid, pl, "tries", sm.drawn[0], "accepted", sm.drawn[1], "share", sm.drawn[1]/sm.drawn[0])
