"""The numbers of a game (RULES.md, Setup and A round), derived once from a mission's mode and the
number of players: ``GameSpec``.

The engines, the CP-SAT solver, the open-hand ceiling, the generator and validation all read
these numbers from here; none writes them out again. The Numba engine reads the same spec as
an int64 array (``game.fast.state.spec_array``, slots ``SPEC_*``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from solver.core.cards import Card, Colour
from solver.core.codes import Skill
from solver.core.errors import InputError


class MissionSettings(Protocol):
    """What a spec reads of a mission (core.rules.Mission, which imports this module, has them)."""

    @property
    def id(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def rounds(self) -> int: ...
    @property
    def skills(self) -> int: ...


BUDDY, PARTY = "buddy", "party"
MODES = (BUDDY, PARTY)
DECK_SIZE = 40


@dataclass(frozen=True)
class ModeRules:
    """What a mode fixes, whatever the mission says."""

    players: tuple[int, ...]  # the table sizes it is played by
    rounds: int  # default rounds of a mission
    skills: int  # default skill counters
    cards_per_round: int  # cards each player reveals in a round
    set_aside: int  # cards dealt to nobody, face down
    skill_kinds: tuple[Skill, ...]  # the skills its players may use


MODE_RULES = {
    BUDDY: ModeRules(players=(2,), rounds=8, skills=5, cards_per_round=2, set_aside=8,
                     skill_kinds=(Skill.DOUBLE_SCAN, Skill.WILD_COLOR, Skill.SHIFT_CHANGE)),
    PARTY: ModeRules(players=(3, 4), rounds=10, skills=3, cards_per_round=1, set_aside=0,
                     skill_kinds=(Skill.DOUBLE_SCAN,)),
}
START_CARD = Card(Colour.PURPLE, 8)  # its holder starts; random start when it is set aside
TRUMP_ROUND_ONE = Colour.PURPLE  # the decision pile is empty in round one
MAX_SKILLS = 40  # no mission needs more counters (bounded input)


def out_of_game(players: int) -> tuple[Card, ...]:
    """Cards (and so pieces) not in the game: purple-1 with 3 players."""
    return (Card(Colour.PURPLE, 1),) if players == 3 else ()


def mode_of_players(players: int) -> str | None:
    for mode, rules in MODE_RULES.items():
        if players in rules.players:
            return mode
    return None


def hand_size(mode: str, players: int) -> int:
    """Cards dealt to each player: what is left after the set-aside and removed cards, shared out."""
    return (DECK_SIZE - MODE_RULES[mode].set_aside - len(out_of_game(players))) // players


def max_rounds(mode: str, players: int | None = None) -> int:
    """The most rounds the hands allow (each round takes ``cards_per_round`` of every hand); with
    ``players`` None, the most for any table of the mode."""
    counts = MODE_RULES[mode].players if players is None else (players,)
    return max(hand_size(mode, n) for n in counts) // MODE_RULES[mode].cards_per_round


def selectable_pieces(rounds: int, skills: int) -> int:
    """The most new pieces ``rounds`` rounds can select with ``skills`` counters: one a round,
    two in a round with a double scan (which spends a counter). The piece budget of a game,
    and of the rest of a game from any round."""
    return rounds + min(skills, rounds)


# slots of the spec as the Numba engine reads it (game.fast.state.spec_array)
SPEC_PLAYERS, SPEC_BUDDY, SPEC_HAND, SPEC_ASIDE, SPEC_PER_ROUND, SPEC_REVEALS = 0, 1, 2, 3, 4, 5
SPEC_ROUNDS, SPEC_SKILLS, SPEC_BUDGET, SPEC_TRUMP1, SPEC_START_CARD = 6, 7, 8, 9, 10
SPEC_SKILL_KINDS, SPEC_REMOVED = 11, 12  # bit masks: of Skill values, of card indices
SPEC_SIZE = 13


@dataclass(frozen=True)
class GameSpec:
    """Everything about a game that follows from the mission and the number of players."""

    mode: str
    players: int
    hand_size: int
    set_aside: int  # how many cards are set aside face down
    removed: tuple[Card, ...]  # out of the game, publicly
    cards_per_round: int  # each player's cards in a round
    rounds: int
    skills: int  # skill counters at the start
    skill_kinds: tuple[Skill, ...]
    trump_round_one: Colour = TRUMP_ROUND_ONE
    start_card: Card = START_CARD

    @classmethod
    def of(cls, mission: MissionSettings, players: int, source: str = "", hands_last: bool = True) -> GameSpec:
        """The spec of ``mission`` played by ``players``; InputError (naming ``source``, else the
        mission) when that table cannot play it. ``hands_last=False`` skips the check that the hands
        last the rounds (the puzzle side asks about pieces, not cards)."""
        return cls.for_mode(mission.mode, players, mission.rounds, mission.skills, source or mission.id, hands_last)

    @classmethod
    def for_mode(cls, mode: str, players: int, rounds: int, skills: int, source: str = "",
                 hands_last: bool = True) -> GameSpec:
        rules = MODE_RULES[mode]
        if players not in rules.players:
            counts = " or ".join(str(n) for n in rules.players)
            exactly = "exactly " if len(rules.players) == 1 else ""
            raise InputError(source, f"a {mode} mission is played by {exactly}{counts} players, not {players}",
                             f"use {' or '.join(f'--players {n}' for n in rules.players)}"
                             + (" (or leave it out)" if len(rules.players) == 1 else ""))
        hand = hand_size(mode, players)
        if hands_last and rounds * rules.cards_per_round > hand:
            raise InputError(source, f"rounds = {rounds} needs {rounds * rules.cards_per_round} cards per player, "
                             f"but {players} players hold {hand} each",
                             f"lower rounds to at most {hand // rules.cards_per_round}")
        return cls(mode, players, hand, rules.set_aside, out_of_game(players), rules.cards_per_round, rounds, skills,
                   rules.skill_kinds)

    @property
    def buddy(self) -> bool:
        return self.mode == BUDDY

    @property
    def reveals_per_round(self) -> int:
        return self.players * self.cards_per_round

    @property
    def piece_budget(self) -> int:
        """The most new pieces a game can select (``selectable_pieces`` of the whole game)."""
        return selectable_pieces(self.rounds, self.skills)

    def play_order(self, start: int) -> tuple[int, ...]:
        """Who reveals the cards of a round, in order: clockwise from the start player, once per
        card each player reveals (Buddy: start, other, start, other)."""
        return tuple((start + i) % self.players for _ in range(self.cards_per_round) for i in range(self.players))
