"""The policies' integer weights, shared by the Python policies and their Numba twins
(docs/policies.md explains each). Plain module-level ints, so that Numba compiles them in."""

# ---------------------------------------------------------------- the heuristic
UNPLACEABLE = -1  # usefulness of a piece that fits nowhere
W_UNPLACEABLE = -60  # worth of a card whose piece fits nowhere
W_UNPLACEABLE_OPTION = -1000  # worth of a selection option's piece that fits nowhere
SKILL_COST = 3  # usefulness a skill counter is worth
DEAD_END_CHECKS = 12  # best placements checked for dead ends
COMPLETION_BONUS = 10  # score for finishing a bird
SPOIL_PENALTY = 40  # score for covering a coloured side with the wrong colour
FILLER_NEED_PENALTY = 100  # a filler's cost for each cell it takes of those the birds still need

# ---------------------------------------------------------------- the planner
PLAN_SOLUTIONS = 256  # library solutions the planner steers by (the smallest)
ALIGN_BASE = 2  # score bonus for putting a piece where a live solution has it ...
ALIGN_STEP = 4  # ... plus this per piece of that solution already on the board

# ---------------------------------------------------------------- the search player
SEARCH_WIN = 100  # points of a look-ahead game that clears ...
SEARCH_BIRD = 1  # ... plus this per bird scanned at its end (a little, to tell near misses apart)
SEARCH_MARGIN = 5  # points a sample by which a move must beat the planner's to replace it
PLACE_CANDIDATES = 6  # placements tried: the planner's and the best others by its score
SAMPLE_TRIES = 20  # dead ends of the sampler before it drops the voids
