"""Named codes every layer shares, the Numba kernels included: game results, skills, policies,
open-hand verdicts and the reasons a mission is unsolvable.

Each is an IntEnum (the Numba kernels compile their integer values as constants) with a
``label``: the name the JSON, CSV and log files use. Nothing else spells these names out.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

from solver.core.errors import ParseError


class _Labelled(IntEnum):
    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str):
        for member in cls:
            if member.label == text:
                return member
        raise ParseError(f"unknown {cls.__name__.lower()} {text!r}; one of {', '.join(m.label for m in cls)}")

    @classmethod
    def labels(cls) -> tuple[str, ...]:
        return tuple(m.label for m in cls)


class Result(_Labelled):
    """How a game ended (RULES.md, a round, steps 4-5)."""

    CLEARED = 0
    ROUNDS_EXHAUSTED = 1
    UNPLACEABLE = 2


NOT_OVER = -1  # the result of a game still in play (Numba kernels)
RESULT_NAMES = Result.labels()


class Skill(_Labelled):
    """A selection option's skill; NONE (0, falsy) is the plain selection."""

    NONE = 0
    DOUBLE_SCAN = 1
    WILD_COLOR = 2
    SHIFT_CHANGE = 3

    @property
    def json(self) -> str | None:
        """The name in logs and plans: null for no skill."""
        return None if self is Skill.NONE else self.label

    @classmethod
    def from_json(cls, text: str | None) -> Skill:
        return cls.NONE if text is None else cls.parse(text)


class PolicyId(_Labelled):
    """The simulated players both engines have (``open-hand`` is not one: it plays a plan)."""

    HEURISTIC = 0
    RANDOM = 1
    GREEDY = 2
    PLANNER = 3
    SEARCH = 4  # looks ahead with the planner: Numba whole games only (game/search.py, game/fast/search.py)

    @property
    def summary(self) -> str:
        return _POLICY_SUMMARY[self]


_POLICY_SUMMARY = {  # plain words: the studio shows them beside its menus (docs/policies.md, Glossary)
    PolicyId.HEURISTIC: "a careful beginner: each card and piece chosen for what helps the birds now, avoiding "
                        "dead ends",
    PolicyId.RANDOM: "any legal choice at random: a table that does not try",
    PolicyId.GREEDY: "the weakest real table: random cards, each piece where it helps most right now",
    PolicyId.PLANNER: "the heuristic steered toward the ways the whole board can be finished",
    PolicyId.SEARCH: "the planner trying each move ahead on guesses of the hidden cards (more guesses: stronger "
                     "and slower)",
}
# the one-ply players that ``game.fast.policies.decide`` plays (the search player plays them ahead)
ONE_PLY = (PolicyId.HEURISTIC, PolicyId.RANDOM, PolicyId.GREEDY, PolicyId.PLANNER)
POLICY_NAMES = PolicyId.labels()
OPEN_HAND = "open-hand"  # sees every hand: an upper bound that cheats, never a difficulty estimate
DEFAULT_POLICY = PolicyId.HEURISTIC.label  # until the planner clears as often on every bundled mission
BAND_POLICIES = (PolicyId.GREEDY.label, PolicyId.HEURISTIC.label, PolicyId.PLANNER.label)  # naive .. strong


class Verdict(_Labelled):
    """The open-hand answer for one deal."""

    CLEARABLE = 0
    NOT_CLEARABLE = 1
    UNDECIDED = 2


class Reason(StrEnum):
    """Why a mission is unsolvable (``solve``'s JSON ``reasons[].code``)."""

    BIRD_ON_EDGE = "bird_on_edge"
    BIRD_TOUCHING = "bird_touching"
    SIDE_SPOILED = "side_spoiled"
    SIDE_UNCOVERABLE = "side_uncoverable"
    CELL_UNCOVERABLE = "cell_uncoverable"
    TOO_FEW_BIRDS = "too_few_birds"
    PIECE_BUDGET = "piece_budget"
    PIECES_UNAVAILABLE = "pieces_unavailable"
    BIRDS_CONFLICT = "birds_conflict"
