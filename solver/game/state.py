"""The game as a state: the whole truth of one game, its legal actions, and the seat's view.

``GameState`` holds everything, hidden cards included, and is the only place where the rules
of play (RULES.md, A round) are applied: ``legal_actions()``, ``apply(action)``, ``clone()``,
``is_over()``, ``result()``. What happens without a decision (the decision card and who is in
charge, the end of a round, a selected piece that fits nowhere) happens inside ``apply``.

Policies never see the state: ``observation(seat)`` builds an ``Observation`` holding only
what that seat may know (its own hand, the public cards, the board, the counters, the round,
the mission) and copies what it shows, so a policy cannot reach the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.core.board import Shape, all_positions, position_index, position_masks
from solver.core.cards import ALL_CARDS, Card, Colour
from solver.core.codes import Result, Skill
from solver.core.errors import KakapoError
from solver.core.rules import Board, Mission, Placement
from solver.core.spec import GameSpec
from solver.game.actions import IN_CHARGE_EVENT, Action, ActionKind, Phase
from solver.game.rng import FNV_OFFSET, SplitMix64, mix, seat_seed


class IllegalAction(KakapoError):
    """An action the state does not allow now. ``code`` names the rule it breaks (one of
    ``REFUSALS``) and ``facts`` what broke it (the seat, the card, the colour led, the round...), so
    that a front end says it in a person's words (``app/refusals.py``); ``str()`` is the engine's
    own sentence (what a log replayed says)."""

    def __init__(self, code: str, message: str, **facts: Any):
        super().__init__(message)
        self.code = code
        self.facts = facts

    def __reduce__(self):  # pickled whole (an answer from a worker process), facts included
        return (_illegal, (self.code, str(self), self.facts))


def _illegal(code: str, message: str, facts: dict[str, Any]) -> IllegalAction:
    return IllegalAction(code, message, **facts)


# the rules an action can break, as IllegalAction's codes (game/recorded.py raises the last five)
REFUSALS = ("wrong_phase", "game_over", "not_in_hand", "must_follow", "no_option", "wrong_selection",
            "skill_not_allowed", "wrong_piece", "no_position", "not_its_shape", "placement_illegal", "must_place",
            "not_leader", "not_your_turn", "card_removed", "card_gone", "hand_count")


@dataclass(frozen=True)
class Option:
    """A piece selection the player in charge may choose: a skill (or none) and pieces in placing order."""

    skill: Skill
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
    skill: Skill
    pieces: tuple[Card, ...]  # selected, in placing order; an unplaceable piece ends the list
    placements: tuple[Placement, ...]
    skills_left: int  # after the round
    scanned: tuple[str, ...]  # every bird scanned after the round


@dataclass(frozen=True)
class Observation:
    """What one seat knows. Built fresh for each decision; holds copies only."""

    seat: int
    spec: GameSpec
    mission: Mission
    catalog: Any
    round: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    start_player: int  # of this round
    trump: Colour
    trick: tuple[tuple[int, Card], ...]  # cards revealed so far this round
    history: tuple[RoundRecord, ...]
    board: Board
    skills_left: int
    removed: tuple[Card, ...]  # public: purple-1 with 3 players
    phase: Phase
    options: tuple[Option, ...]  # this round's selection options (once the trick is complete)
    piece: Card | None  # the piece to place now (phase PLACE)
    legal: tuple[Action, ...]  # this seat's legal actions if it is to act, else none
    option: int  # the option taken this round (-1 before the selection)
    placed: tuple[Placement, ...]  # this round's placements so far
    moves: tuple[Action, ...]  # every action of the game so far (all public)

    @property
    def num_players(self) -> int:
        return self.spec.players

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

    def placements(self) -> list[Placement]:
        """The legal placements of ``piece``, in the order of ``legal`` (phase PLACE)."""
        assert self.piece is not None
        positions = all_positions(self.catalog[self.piece])
        return [Placement(self.piece, positions[a.index]) for a in self.legal]


# ---------------------------------------------------------------- the card rules
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


def selection_options(spec: GameSpec, board: Board, plays, decision: Card, skills_left: int) -> list[Option]:
    """Every legal selection, in a fixed order: no skill, double scan (both orders), wild colour, shift change."""
    return _options(spec.skill_kinds, board, plays, decision, skills_left)


def _options(kinds, board: Board, plays, decision: Card, skills_left: int, one_colour: bool = True) -> list[Option]:
    """The selections with the skills ``kinds``; ``one_colour`` False: double scan whatever the
    colours revealed (what a selection refused would have been)."""

    def unused(card):
        return not board.is_used(card)

    options = [Option(Skill.NONE, (decision,) if unused(decision) else ())]
    if skills_left <= 0:
        return options
    cards = [c for _, c in plays]
    if Skill.DOUBLE_SCAN in kinds and (len({c.colour for c in cards}) == 1 or not one_colour):
        lowest = min(cards, key=lambda c: c.value)
        if unused(lowest):
            if unused(decision):
                options.append(Option(Skill.DOUBLE_SCAN, (decision, lowest)))
                options.append(Option(Skill.DOUBLE_SCAN, (lowest, decision)))
            else:
                options.append(Option(Skill.DOUBLE_SCAN, (lowest,)))
    if Skill.WILD_COLOR in kinds:
        for colour in Colour:
            alt = Card(colour, decision.value)
            if colour != decision.colour and unused(alt):
                options.append(Option(Skill.WILD_COLOR, (alt,)))
    if Skill.SHIFT_CHANGE in kinds:
        for value in (decision.value - 1, decision.value + 1):
            if 1 <= value <= 8 and unused(Card(decision.colour, value)):
                options.append(Option(Skill.SHIFT_CHANGE, (Card(decision.colour, value),)))
    return options


def selection_refused(spec: GameSpec, board: Board, plays, decision: Card, skills_left: int,
                      pieces: tuple[Card, ...], in_charge: int, rnd: int) -> IllegalAction:
    """Why no selection takes ``pieces``: a skill the pieces are read as (RULES.md: wild colour,
    shift change, double scan) that the rules do not allow now (``skill_not_allowed``: not in this
    mode, no counter left, the cards revealed not all one colour), else ``wrong_selection``."""
    offered = tuple((o.skill.json, o.pieces) for o in selection_options(spec, board, plays, decision, skills_left))
    facts = dict(pieces=pieces, decision=decision, seat=in_charge, round=rnd, offered=offered)
    read = next((o.skill for o in _options([k for k in Skill if k], board, plays, decision, 1, one_colour=False)
                 if o.pieces == pieces and o.skill), None)
    if read is not None:
        why = "not_in_mode" if read not in spec.skill_kinds else "no_counters" if skills_left <= 0 else "colours_differ"
        return IllegalAction("skill_not_allowed", f"the skill {read.json} is not allowed now ({why})", skill=read.json,
                             why=why, mode=spec.mode, **facts)
    return IllegalAction("wrong_selection", f"no selection takes {', '.join(map(str, pieces)) or 'no piece'}",
                         **facts)


def end_of_round(unplaceable: bool, scanned: int, clear: int, rnd: int, rounds: int) -> Result | None:
    """The result after a round's placements, or None if the game goes on (RULES.md, step 5)."""
    if unplaceable:
        return Result.UNPLACEABLE
    if scanned >= clear:
        return Result.CLEARED
    if rnd == rounds:
        return Result.ROUNDS_EXHAUSTED
    return None


def legal_positions(board: Board, piece: Card, shape: Shape) -> list[int]:
    """Numbers (in ``all_positions`` order) of the piece's legal positions now; none if it is used."""
    if board.is_used(piece):
        return []
    col = int(piece.colour)
    return [i for i, m in enumerate(position_masks(shape)) if board.is_legal_mask(col, m)]


# ---------------------------------------------------------------- the state
@dataclass
class GameState:
    """The whole truth of one game (see the module docstring)."""

    spec: GameSpec
    mission: Mission
    catalog: Any
    hands: list[list[Card]]  # sorted
    set_aside: list[Card]
    start_player: int  # of the game (who held purple-8, or drawn)
    seat_rngs: list[SplitMix64]
    board: Board
    skills_left: int
    dealt: list[list[Card]]
    round: int = 1
    phase: Phase = Phase.REVEAL
    leader: int = -1  # start player of this round
    trick: list[tuple[int, Card]] = field(default_factory=list)
    in_charge: int = -1
    decision: Card | None = None
    options: list[Option] = field(default_factory=list)
    option: int = -1  # the chosen option
    placed: list[Placement] = field(default_factory=list)  # this round's placements
    history: list[RoundRecord] = field(default_factory=list)
    moves: list[Action] = field(default_factory=list)
    trace: int = FNV_OFFSET
    outcome: Result | None = None
    _legal: list[Action] | None = field(default=None, repr=False, compare=False)  # of this moment, once asked

    def __post_init__(self) -> None:
        if self.leader < 0:
            self.leader = self.start_player

    # ------------------------------------------------------------ reading
    @property
    def players(self) -> int:
        return self.spec.players

    @property
    def removed(self) -> tuple[Card, ...]:
        return self.spec.removed

    @property
    def trump(self) -> Colour:
        return self.history[-1].decision.colour if self.history else self.spec.trump_round_one

    @property
    def piece(self) -> Card | None:
        """The selected piece to place now (phase PLACE)."""
        if self.phase != Phase.PLACE:
            return None
        return self.options[self.option].pieces[len(self.placed)]

    def current_player(self) -> int:
        """The seat that decides now; -1 once the game is over."""
        if self.phase == Phase.REVEAL:
            return self.spec.play_order(self.leader)[len(self.trick)]
        if self.phase in (Phase.SELECT, Phase.PLACE):
            return self.in_charge
        return -1

    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def result(self) -> str | None:
        """``cleared``, ``rounds_exhausted``, ``unplaceable``, or None while the game goes on."""
        return None if self.outcome is None else self.outcome.label

    def returns(self) -> float:
        """1 for a cleared game, else 0 (the team's one reward)."""
        return 1.0 if self.outcome == Result.CLEARED else 0.0

    def rounds_played(self) -> int:
        return len(self.history)

    def legal_actions(self) -> list[Action]:
        """The current player's legal actions, in a fixed order (cards by index, options by
        number, positions by number); none once the game is over."""
        if self._legal is None:
            self._legal = self._list_legal()
        return list(self._legal)

    def _list_legal(self) -> list[Action]:
        if self.phase == Phase.REVEAL:
            seat = self.current_player()
            lead = self.trick[0][1].colour if self.trick else None
            return [Action.reveal(c) for c in legal_cards(self.hands[seat], lead)]
        if self.phase == Phase.SELECT:
            return [Action.select(k) for k in range(len(self.options))]
        if self.phase == Phase.PLACE:
            piece = self.piece
            assert piece is not None
            return [Action.place(piece, i) for i in legal_positions(self.board, piece, self.catalog[piece])]
        return []

    def observation(self, seat: int) -> Observation:
        legal = tuple(self.legal_actions()) if seat == self.current_player() else ()
        return Observation(
            seat=seat, spec=self.spec, mission=self.mission, catalog=self.catalog, round=self.round,
            hand=tuple(self.hands[seat]), hand_sizes=tuple(len(h) for h in self.hands), start_player=self.leader,
            trump=self.trump, trick=tuple(self.trick), history=tuple(self.history), board=self.board.copy(),
            skills_left=self.skills_left, removed=self.removed, phase=self.phase, options=tuple(self.options),
            piece=self.piece, legal=legal, option=self.option, placed=tuple(self.placed), moves=tuple(self.moves))

    def clone(self) -> GameState:
        """An independent copy (random streams included): try two actions from the same moment."""
        return GameState(
            self.spec, self.mission, self.catalog, [list(h) for h in self.hands], list(self.set_aside),
            self.start_player, [SplitMix64(r.state) for r in self.seat_rngs], self.board.copy(), self.skills_left,
            self.dealt, self.round, self.phase, self.leader, list(self.trick), self.in_charge, self.decision,
            list(self.options), self.option, list(self.placed), list(self.history), list(self.moves), self.trace,
            self.outcome)

    # ------------------------------------------------------------ acting
    def hold(self, seat: int, cards) -> None:
        """``seat`` holds ``cards`` too: a recorded game's hands grow as its cards are revealed
        (game/recorded.py); a dealt game's never do."""
        self.hands[seat] = sorted([*self.hands[seat], *cards])
        self._legal = None

    def apply(self, action: Action) -> None:
        """Take ``action`` for the current player, then everything that follows without a decision."""
        self._legal = None
        if self.phase == Phase.REVEAL and action.kind == ActionKind.REVEAL:
            self._reveal(action)
        elif self.phase == Phase.SELECT and action.kind == ActionKind.SELECT:
            self._select(action)
        elif self.phase == Phase.PLACE and action.kind == ActionKind.PLACE:
            self._place(action)
        else:
            raise self.not_now(action)
        self.moves.append(action)

    def not_now(self, action: Action) -> IllegalAction:
        """An action of another phase: ``game_over`` once it is over, else ``wrong_phase``."""
        if self.is_over():
            return IllegalAction("game_over", f"{action} is not allowed now (the game is over, {self.result()})",
                                 result=self.result(), rounds=self.rounds_played())
        return IllegalAction("wrong_phase", f"{action} is not allowed now ({self.phase.name.lower()} phase, "
                             f"round {self.round})", action=action.kind.name.lower(), card=action.card,
                             phase=self.phase.name.lower(), seat=self.current_player(), piece=self.piece,
                             round=self.round)

    def selection_of(self, pieces: tuple[Card, ...], cut: bool = False) -> Action:
        """The selection that takes ``pieces`` in this order (the skill is read from them); ``cut``:
        the last of them fit nowhere, so the selection may hold more. IllegalAction otherwise
        (``wrong_phase``, ``skill_not_allowed``, ``wrong_selection``)."""
        if self.phase != Phase.SELECT:
            raise self.not_now(Action.select(-1))
        for k, o in enumerate(self.options):
            if o.pieces == pieces or (cut and o.pieces[: len(pieces)] == pieces):
                return Action.select(k)
        assert self.decision is not None
        raise selection_refused(self.spec, self.board, self.trick, self.decision, self.skills_left, pieces,
                                self.in_charge, self.round)

    def placement_of(self, piece: Card, cells: frozenset) -> Action:
        """The action that places ``piece`` on ``cells``: IllegalAction when it is not the piece to
        place now (``wrong_phase``, ``wrong_piece``) or the cells are not its shape (``not_its_shape``);
        whether the place is legal, ``apply`` says."""
        if self.phase != Phase.PLACE:
            raise self.not_now(Action.place(piece, -1))
        if piece != self.piece:
            raise IllegalAction("wrong_piece", f"the piece to place is {self.piece}, not {piece}", card=piece,
                                piece=self.piece, seat=self.in_charge, round=self.round)
        try:
            return Action.place(piece, position_of(Placement(piece, cells), self.catalog))
        except KeyError:
            raise IllegalAction("not_its_shape", f"the cells of {piece} are not its shape", piece=piece,
                                cells=cells, shape=self.catalog[piece].format(), seat=self.in_charge,
                                round=self.round) from None

    def fits_nowhere(self, piece: Card) -> None:
        """``piece`` said to fit nowhere (a sheet's ``PIECE -``): IllegalAction ``must_place`` while
        it is the piece to place (it fits: placing is compulsory), else as ``placement_of``."""
        if self.phase != Phase.PLACE or piece != self.piece:
            self.placement_of(piece, frozenset())
        raise IllegalAction("must_place", f"{piece} fits on the board, so it must be placed", piece=piece,
                            places=len(self.legal_actions()), seat=self.in_charge, round=self.round)

    def _reveal(self, action: Action) -> None:
        seat = self.current_player()
        card = action.card
        lead = self.trick[0][1].colour if self.trick else None
        assert card is not None
        if card not in legal_cards(self.hands[seat], lead):
            if card not in self.hands[seat]:
                raise IllegalAction("not_in_hand", f"player {seat} cannot reveal {card}: not in the hand", seat=seat,
                                    card=card, round=self.round)
            follow = next(c for c in self.hands[seat] if c.colour == lead)
            raise IllegalAction("must_follow", f"player {seat} cannot reveal {card}: must follow {lead}", seat=seat,
                                card=card, led=lead, held=follow, round=self.round)
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.trace = mix(self.trace, action.code)
        if len(self.trick) == self.spec.reveals_per_round:
            self.in_charge, self.decision = decision_card(self.trick, self.trump)
            self.trace = mix(self.trace, IN_CHARGE_EVENT + self.in_charge)
            self.options = selection_options(self.spec, self.board, self.trick, self.decision, self.skills_left)
            self.phase = Phase.SELECT

    def _select(self, action: Action) -> None:
        if not 0 <= action.index < len(self.options):
            raise IllegalAction("no_option", f"there is no option {action.index} (options 0..{len(self.options) - 1})",
                                option=action.index, options=len(self.options), seat=self.in_charge, round=self.round)
        self.option = action.index
        self.trace = mix(self.trace, action.code)
        if self.options[self.option].skill:
            self.skills_left -= 1
        self.placed = []
        self._next_piece()

    def _place(self, action: Action) -> None:
        piece = self.piece
        assert piece is not None
        if action.card != piece:
            raise IllegalAction("wrong_piece", f"the piece to place is {piece}, not {action.card}", card=action.card,
                                piece=piece, seat=self.in_charge, round=self.round)
        shape = self.catalog[piece]
        positions = all_positions(shape)
        if not 0 <= action.index < len(positions):
            raise IllegalAction("no_position", f"{piece} has no position {action.index}", piece=piece,
                                position=action.index, seat=self.in_charge, round=self.round)
        placement = Placement(piece, positions[action.index])
        problem = self.board.placement_problem(placement)
        if problem:
            raise IllegalAction("placement_illegal", f"cannot place {placement}: {problem}", piece=piece,
                                cells=placement.cells, rule=problem, seat=self.in_charge, round=self.round)
        self.board.place(placement)
        self.placed.append(placement)
        self.trace = mix(self.trace, action.code)
        self._next_piece()

    def _next_piece(self) -> None:
        """On to the next selected piece; the round ends after the last, or at once when a piece
        fits nowhere (RULES.md, step 4: placing is compulsory)."""
        pieces = self.options[self.option].pieces
        if len(self.placed) == len(pieces):
            self._end_round(unplaceable=False)
            return
        piece = pieces[len(self.placed)]
        positions = legal_positions(self.board, piece, self.catalog[piece])
        if not positions:
            self._end_round(unplaceable=True)
            return
        self.phase = Phase.PLACE
        self._legal = [Action.place(piece, i) for i in positions]

    def _end_round(self, unplaceable: bool) -> None:
        option = self.options[self.option]
        attempted = option.pieces[: len(self.placed) + (1 if unplaceable else 0)]
        scanned = tuple(self.board.scanned())
        assert self.decision is not None
        self.history.append(RoundRecord(self.round, self.leader, self.trump, tuple(self.trick), self.decision,
                                        self.in_charge, option.skill, attempted, tuple(self.placed),
                                        self.skills_left, scanned))
        self.outcome = end_of_round(unplaceable, len(scanned), self.mission.clear, self.round, self.spec.rounds)
        self.leader = self.in_charge
        self.trick, self.options, self.option, self.placed, self.decision = [], [], -1, [], None
        self.in_charge = -1
        if self.outcome is not None:
            self.phase = Phase.OVER
        else:
            self.round += 1
            self.phase = Phase.REVEAL


def deal(mission: Mission, catalog, players: int, seed: int, spec: GameSpec | None = None) -> GameState:
    """Shuffle with the game's PRNG and deal; draws: shuffle, (start player). Each seat's stream
    comes from a one-way hash of (seed, seat), not from the deal's stream (game/seeds.py)."""
    spec = spec or GameSpec.of(mission, players)
    rng = SplitMix64(seed)
    deck = [c for c in ALL_CARDS if c not in spec.removed]
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    aside, size = spec.set_aside, spec.hand_size
    set_aside = sorted(deck[:aside])
    hands = [sorted(deck[aside + k * size: aside + (k + 1) * size]) for k in range(players)]
    holders = [k for k in range(players) if spec.start_card in hands[k]]
    start = holders[0] if holders else rng.below(players)
    seat_rngs = [SplitMix64(seat_seed(seed, k)) for k in range(players)]
    return GameState(spec, mission, catalog, hands, set_aside, start, seat_rngs, Board.start(mission), spec.skills,
                     dealt=[list(h) for h in hands])


def position_of(placement: Placement, catalog) -> int:
    """The position number of a placement (its index in ``all_positions`` of the piece's shape)."""
    return position_index(catalog[placement.card])[placement.cells]
