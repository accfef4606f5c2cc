"""Codes and weights shared by the Python reference engine and its Numba twin (fast.py).

Plain module-level ints, so that Numba compiles them as constants; the tuples of names are
what the Python side and the JSON output use.
"""

# ---------------------------------------------------------------- game results
RESULT_NAMES = ("cleared", "rounds_exhausted", "unplaceable")
CLEARED, ROUNDS_EXHAUSTED, UNPLACEABLE_RESULT = 0, 1, 2
NOT_OVER = -1

# ---------------------------------------------------------------- skills (selection options)
SKILL_NAMES = (None, "double_scan", "wild_color", "shift_change")
NO_SKILL, DOUBLE_SCAN, WILD_COLOR, SHIFT_CHANGE = 0, 1, 2, 3

# ---------------------------------------------------------------- policies
POLICY_NAMES = ("heuristic", "random", "greedy", "planner")
HEURISTIC, RANDOM, GREEDY, PLANNER = 0, 1, 2, 3

# ---------------------------------------------------------------- cards (index = colour * 8 + value - 1)
PURPLE = 4
PURPLE_1, PURPLE_8 = 32, 39
TRUMP_ROUND_ONE = PURPLE

# ---------------------------------------------------------------- trace hash: what each choice adds
TRACE_IN_CHARGE = 64  # + player in charge
TRACE_OPTION = 128  # + index of the selection option
TRACE_PLACEMENT = 4096  # + piece index * 4096 + position index

# ---------------------------------------------------------------- policy weights (integers, see docs/policies.md)
UNPLACEABLE = -1  # usefulness of a piece that fits nowhere
W_UNPLACEABLE = -60  # worth of a card whose piece fits nowhere
SKILL_COST = 3  # usefulness a skill counter is worth
DEAD_END_CHECKS = 12  # best placements checked for dead ends
COMPLETION_BONUS = 10  # score for finishing a bird
SPOIL_PENALTY = 40  # score for covering a coloured side with the wrong colour

# ---------------------------------------------------------------- planner weights (see docs/policies.md)
PLAN_SOLUTIONS = 256  # library solutions the planner steers by (the smallest)
PLAN_WORTH_SHIFT = 16  # a piece's worth: solution value << 16, plus the heuristic's usefulness
PLAN_SKILL_COST = 64 << PLAN_WORTH_SHIFT  # what a counter costs while solutions are live
W_UNPLACEABLE_PLAN = -(1 << 40)  # worth of a card whose piece fits nowhere
ALIGN_BASE = 2  # score bonus for putting a piece where a live solution has it ...
ALIGN_STEP = 4  # ... plus this per piece of that solution already on the board
