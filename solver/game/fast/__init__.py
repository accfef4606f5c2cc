"""The Numba engine: a fast twin of the Python reference, module by module and kernel by kernel.

  fast module   reference             kernels (each named after its twin)
  rng           game/rng.py           rnext, below, mix
  cards         game/state.py         deal, legal_cards, decision_card, selection_options
  board         core/rules.py Board   is_legal, has_legal_position, is_scanned, is_spoiled, count_scanned, place
  state         game/state.py         FastState, start_game, current_player, legal_actions, is_legal_action,
                GameState             apply_action (next_piece, end_round), end_check, observe, copy_state
  heuristic     game/policies.py      refresh_view, score_mask, foot_score, usefulness, placed, is_fresh, first_legal,
                                      is_closed, is_dead_end, filler, smart_place, heuristic_card, heuristic_select
  planner       game/planner.py       spoil_solutions, live_solutions, plan_usefulness, planner_place
  policies      Policy.act            decide (random_action; sync, refresh_live, evaluate: the memory)
  play          game/engine.py        play_out, deal_game, play_many
  search        game/search.py        voids, sample_holders, determinize, plan_score, candidates,
                                      look_ahead (points), search_decide (copy_memory), table_games
  batch         -                     run: the entry point from Python (not a kernel)

tests/game/test_kernels.py checks each pair on its own (``TWINS`` below lists them); tests/game/test_engines.py
compares states after each action and whole games by their trace hash. The mission's geometry
comes as ``GameArrays`` (game/arrays.py, built from the rules module); masks are three 48-bit words
(runtime/bits.py). Codes are those of core/codes.py and game/actions.py, weights those of
game/weights.py, the numbers of a game those of core/spec.py (``state.spec_array``).
"""

from solver.game.fast.batch import run
from solver.game.fast.play import deal_game, play_out
from solver.game.fast.policies import new_memory, reset_memory
from solver.game.fast.state import FastState, clone_state, new_state

# kernel -> the reference it mirrors (module.function); tests/game/test_kernels.py has a test for each
TWINS = {
    "rng.rnext": "game.rng.SplitMix64.next", "rng.below": "game.rng.SplitMix64.below", "rng.mix": "game.rng.mix",
    "cards.deal": "game.state.deal", "cards.legal_cards": "game.state.legal_cards",
    "cards.decision_card": "game.state.decision_card", "cards.selection_options": "game.state.selection_options",
    "board.is_legal": "core.rules.Board.is_legal_mask", "board.has_legal_position": "game.state.legal_positions",
    "board.is_scanned": "core.rules.Board.is_scanned", "board.is_spoiled": "core.rules.Board.can_still_be_scanned",
    "board.count_scanned": "core.rules.Board.scanned", "board.place": "core.rules.Board.place",
    "state.start_game": "game.state.deal", "state.end_check": "game.state.end_of_round",
    "state.current_player": "game.state.GameState.current_player",
    "state.piece_to_place": "game.state.GameState.piece",
    "state.legal_actions": "game.state.GameState.legal_actions",
    "state.is_legal_action": "game.state.GameState.apply", "state.apply_action": "game.state.GameState.apply",
    "state.next_piece": "game.state.GameState._next_piece", "state.end_round": "game.state.GameState._end_round",
    "state.observe": "game.state.GameState.observation", "state.new_state": "game.state.GameState",
    "heuristic.refresh_view": "game.policies.BoardView", "heuristic.score_mask": "game.policies.BoardView.score",
    "heuristic.foot_score": "game.policies.BoardView.score",
    "heuristic.usefulness": "game.policies.BoardView.usefulness", "heuristic.placed": "game.policies.BoardView",
    "heuristic.is_fresh": "game.policies.BoardView.usefulness",
    "heuristic.first_legal": "game.policies.BoardView.usefulness",
    "heuristic.is_closed": "game.policies.BoardView.usefulness",
    "heuristic.is_dead_end": "game.policies.BoardView.is_dead_end",
    "heuristic.filler": "game.policies.SmartBase._filler",
    "heuristic.smart_place": "game.policies.SmartBase.place",
    "heuristic.heuristic_card": "game.policies.HeuristicPolicy.play_card",
    "heuristic.heuristic_select": "game.policies.HeuristicPolicy.select",
    "planner.spoil_solutions": "game.planner.conflicts", "planner.live_solutions": "game.planner.live_solutions",
    "planner.plan_usefulness": "game.planner.PlanBoardView.usefulness",
    "planner.planner_place": "game.planner.PlannerPolicy.place",
    "planner.selectable_pieces": "core.spec.selectable_pieces",
    "policies.new_memory": "game.policies.SmartBase", "policies.reset_memory": "game.policies.SmartBase",
    "policies.new_memory_with_boards": "game.policies.SmartBase", "policies.new_boards": "game.policies.SmartBase",
    "policies.board_slot": "game.policies.BoardView.usefulness",
    "policies.sync": "game.policies.SmartBase.view", "policies.refresh_live": "game.planner.PlannerPolicy.view",
    "policies.evaluate": "game.policies.BoardView.usefulness", "policies.random_action": "game.policies.RandomPolicy",
    "policies.decide": "game.policies.Policy.act", "policies.decide_call": "game.policies.Policy.act",
    "play.play_out": "game.engine.play_out", "play.deal_game": "game.state.deal",
    "play.play_many": "game.engine.play_game",
    "search.new_search_memory": "game.search.SearchPolicy", "search.copy_memory": "game.search.SearchPolicy",
    "search.voids": "game.search.voids", "search.sample_holders": "game.search.sample_holders",
    "search.determinize": "game.search.determinize", "search.plan_score": "game.planner.PlanBoardView.plan_score",
    "search.candidates": "game.search.candidates", "search.look_ahead": "game.search.look_ahead",
    "search.points": "game.search.look_ahead", "state.copy_state": "game.state.GameState.clone",
    "search.search_decide": "game.search.SearchPolicy.act",
    "search.table_games": "game.search.play_on",
}

__all__ = ["TWINS", "FastState", "clone_state", "deal_game", "new_memory", "new_state", "play_out", "reset_memory",
           "run"]
