"""True game state, public records and the per-seat observation.

The state object holds everything, hidden cards included. Policies never see
it: ``observe(state, seat)`` builds an ``Observation`` holding only what that
seat may know (its own hand, public cards, board, counters, round, mission).
The observation copies what it shows, so a policy cannot reach the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.cards import ALL_CARDS, TRUMP_ROUND_ONE, Card, Colour
from solver.core.errors import InputError
from solver.core.rules import Board, Mission, Placement, out_of_game
from solver.game.codes import SKILL_NAMES
from solver.game.rng import SplitMix64

PURPLE_8 = Card(Colour.PURPLE, 8)
PURPLE_1 = Card(Colour.PURPLE, 1)
SKILLS = SKILL_NAMES[1:]


@dataclass(frozen=True)
class Option:
    """A piece selection the player in charge may choose: a skill (or None) and pieces in placing order."""

    skill: str | None
    pieces: tuple[Card, ...]


@dataclass(frozen=True)
class RoundRecord:
    """Everything public about a finished round."""

    round: int
    start_player: int
    trump: Colour
    plays: tuple[tuple[int, Card], ...]
    decision: Card
    in_charge: int
    skill: str | None
    pieces: tuple[Card, ...]
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class Observation:
    """What one seat knows. Built fresh for each decision; holds copies only."""

    seat: int
    num_players: int
    mission: Mission
    catalog: object
    round: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    start_player: int
    trump: Colour
    trick: tuple[tuple[int, Card], ...]  # cards revealed so far this round
    history: tuple[RoundRecord, ...]
    board: Board
    skills_left: int
    removed: tuple[Card, ...]  # public: purple-1 with 3 players

    @property
    def lead(self) -> Colour | None:
        return self.trick[0][1].colour if self.trick else None

    def public_cards(self) -> set[Card]:
        seen = {c for _, c in self.trick}
        for r in self.history:
            seen.update(c for _, c in r.plays)
        return seen

    def unseen(self) -> set[Card]:
        """Cards this seat has not seen: other hands and (Buddy) the set-aside cards."""
        return set(ALL_CARDS) - set(self.hand) - self.public_cards() - set(self.removed)


def game_shape(mission: Mission, players: int, source: str = "") -> tuple[int, int]:
    """(hand size, set-aside count) for this mode and player count; InputError if not allowed."""
    if mission.mode == "buddy":
        if players != 2:
            raise InputError(source or mission.id, f"a buddy mission is played by exactly 2 players, not {players}",
                             "use --players 2 (or leave it out)")
        hand, aside = 16, 8
    else:
        if players not in (3, 4):
            raise InputError(source or mission.id, f"a party mission is played by 3 or 4 players, not {players}",
                             "use --players 3 or --players 4")
        hand, aside = (13, 0) if players == 3 else (10, 0)
    cards_per_round = 2 if mission.mode == "buddy" else 1
    if mission.rounds * cards_per_round > hand:
        raise InputError(source or mission.id,
                         f"rounds = {mission.rounds} needs {mission.rounds * cards_per_round} cards per player, "
                         f"but {players} players hold {hand} each",
                         f"lower rounds to at most {hand // cards_per_round}")
    return hand, aside


@dataclass
class GameState:
    """The whole truth of one game."""

    mission: Mission
    catalog: object
    players: int
    hands: list[list[Card]]
    set_aside: list[Card]
    removed: list[Card]
    start_player: int
    seat_rngs: list[SplitMix64]
    board: Board
    skills_left: int
    round: int = 1
    history: list[RoundRecord] = field(default_factory=list)
    dealt: list[list[Card]] = field(default_factory=list)

    @property
    def trump(self) -> Colour:
        return self.history[-1].decision.colour if self.history else TRUMP_ROUND_ONE

    def play_order(self, start: int) -> list[int]:
        if self.mission.mode == "buddy":
            other = 1 - start
            return [start, other, start, other]
        return [(start + k) % self.players for k in range(self.players)]


def deal(mission: Mission, catalog, players: int, seed: int) -> GameState:
    """Shuffle with the game's PRNG and deal; draws: shuffle, (start player), one seed per seat."""
    hand_size, aside = game_shape(mission, players)
    rng = SplitMix64(seed)
    removed = list(out_of_game(players))
    deck = [c for c in ALL_CARDS if c not in removed]
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    set_aside = sorted(deck[:aside])
    hands = [sorted(deck[aside + k * hand_size: aside + (k + 1) * hand_size]) for k in range(players)]
    holders = [k for k in range(players) if PURPLE_8 in hands[k]]
    start = holders[0] if holders else rng.below(players)
    seat_rngs = [SplitMix64(rng.next()) for _ in range(players)]
    return GameState(mission, catalog, players, hands, set_aside, removed, start, seat_rngs,
                     Board.start(mission), mission.skills, dealt=[list(h) for h in hands])


def observe(state: GameState, seat: int, trick: list[tuple[int, Card]]) -> Observation:
    return Observation(
        seat=seat,
        num_players=state.players,
        mission=state.mission,
        catalog=state.catalog,
        round=state.round,
        hand=tuple(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        start_player=state.start_player,
        trump=state.trump,
        trick=tuple(trick),
        history=tuple(state.history),
        board=state.board.copy(),
        skills_left=state.skills_left,
        removed=tuple(state.removed),
    )


def legal_cards(hand, lead: Colour | None) -> list[Card]:
    """Must follow: cards of the lead colour if the hand holds any, else the whole hand."""
    if lead is not None:
        follow = [c for c in hand if c.colour == lead]
        if follow:
            return follow
    return list(hand)


def decision_card(plays, trump: Colour) -> tuple[int, Card]:
    """Highest trump if any trump was revealed, else the highest card of the lead colour."""
    trumps = [(p, c) for p, c in plays if c.colour == trump]
    if trumps:
        return max(trumps, key=lambda pc: pc[1].value)
    lead = plays[0][1].colour
    return max(((p, c) for p, c in plays if c.colour == lead), key=lambda pc: pc[1].value)


def selection_options(mission: Mission, board: Board, plays, decision: Card, skills_left: int) -> list[Option]:
    """Every legal selection, in a fixed order: no skill, double scan (both orders), wild colour, shift change."""
    def unused(card):
        return not board.is_used(card)

    options = [Option(None, (decision,) if unused(decision) else ())]
    if skills_left <= 0:
        return options
    cards = [c for _, c in plays]
    if len({c.colour for c in cards}) == 1:
        lowest = min(cards, key=lambda c: c.value)
        if unused(lowest):
            if unused(decision):
                options.append(Option("double_scan", (decision, lowest)))
                options.append(Option("double_scan", (lowest, decision)))
            else:
                options.append(Option("double_scan", (lowest,)))
    if mission.mode == "buddy":
        for colour in Colour:
            alt = Card(colour, decision.value)
            if colour != decision.colour and unused(alt):
                options.append(Option("wild_color", (alt,)))
        for value in (decision.value - 1, decision.value + 1):
            if 1 <= value <= 8 and unused(Card(decision.colour, value)):
                options.append(Option("shift_change", (Card(decision.colour, value),)))
    return options
