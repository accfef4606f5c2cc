"""A game played with the printed cards and recorded as it went (its sheet, or the Record tab's
taps): nobody wrote the deal down, so its hands are revealed as they are played.

``RecordedGame`` keeps a ``GameState`` whose hands hold only what is known. A card revealed is
taken as held since the deal: each earlier play of its holder must have been legal with it in
hand (must follow), and its holder led round one if it is purple-8. The cards a person still
holds at the end (``keep``) complete that hand, under the same checks; ``finish`` gives the state
with the hands as dealt and the set-aside cards (what a log's setup line says).

Every refusal is the state's ``IllegalAction`` with its code and facts (``game/state.py``), so a
sheet and the Record tab refuse the same things alike (``app/refusals.py`` says them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.core.cards import ALL_CARDS, Card
from solver.core.rules import Board, Mission
from solver.core.spec import GameSpec
from solver.game.actions import Action, Phase
from solver.game.rng import SplitMix64
from solver.game.state import GameState, IllegalAction, legal_cards


@dataclass
class RecordedGame:
    """The game so far: the state (its hands: the cards kept, all that is known and not played),
    the cards each seat keeps to the end, and whether who led round one is known yet."""

    state: GameState
    kept: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    leader_known: bool = True

    @classmethod
    def start(cls, mission: Mission, catalog, players: int, leader: int | None = None,
              where: str = "the recording") -> RecordedGame:
        """A game about to begin; ``leader`` None: whoever reveals the first card (or keeps
        purple-8) led round one. InputError (``where``) when the mission is not played by ``players``."""
        spec = GameSpec.of(mission, players, where)
        state = GameState(spec, mission, catalog, [[] for _ in range(players)], [], leader or 0,
                          [SplitMix64(k) for k in range(players)], Board.start(mission), spec.skills,
                          dealt=[[] for _ in range(players)])
        return cls(state, {}, leader is not None)

    def clone(self) -> RecordedGame:
        return RecordedGame(self.state.clone(), dict(self.kept), self.leader_known)

    # ------------------------------------------------------------ reading
    def revealed(self, seat: int) -> list[Card]:
        """The cards ``seat`` has revealed, in order."""
        s = self.state
        return [c for r in s.history for p, c in r.plays if p == seat] + [c for p, c in s.trick if p == seat]

    def known(self, seat: int) -> list[Card]:
        """Every card ``seat`` is known to have been dealt: revealed or kept."""
        return self.revealed(seat) + list(self.kept.get(seat, ()))

    def gone(self) -> list[Card]:
        """The cards revealed so far, and those kept."""
        s = self.state
        out = [c for r in s.history for _, c in r.plays] + [c for _, c in s.trick]
        return out + [c for cards in self.kept.values() for c in cards]

    def missing(self) -> dict[int, int]:
        """The seats whose hand is not all known yet, with how many of their cards are not."""
        size = self.state.spec.hand_size
        need = {k: size - len(self.known(k)) for k in range(self.state.players)}
        return {k: n for k, n in need.items() if n}

    # ------------------------------------------------------------ recording
    def reveal(self, card: Card, seat: int | None = None) -> None:
        """``seat`` (None: whoever is to play) reveals ``card``."""
        s = self.state
        if s.phase != Phase.REVEAL:
            raise s.not_now(Action.reveal(card))
        now = s.current_player()
        if seat is None:
            seat = now
        elif not self.leader_known:
            self._leads(seat)
            now = seat
        if seat != now:
            if s.trick:
                raise IllegalAction("not_your_turn", f"player {now} reveals the next card, not player {seat}",
                                    seat=seat, leader=now, round=s.round)
            held = s.spec.start_card if s.round == 1 and s.spec.start_card in s.hands[now] else None
            raise IllegalAction("not_leader", f"player {now} leads round {s.round}, not player {seat}", seat=seat,
                                leader=now, held=held, round=s.round)
        self._may_hold(seat, card)
        if len(self.known(seat)) >= s.spec.hand_size:
            raise self._count(seat, len(self.revealed(seat)) + 1, len(self.kept.get(seat, ())), s.round)
        self._held_since_the_deal(seat, card)
        before = list(s.hands[seat])
        s.hold(seat, [card])
        try:
            s.apply(Action.reveal(card))
        except IllegalAction:  # must follow the cards kept: the card is not taken
            s.hands[seat] = before
            raise

    def select(self, pieces: tuple[Card, ...], cut: bool = False) -> None:
        """The player in charge selects ``pieces`` (in placing order; ``cut``: the last fit nowhere)."""
        self.state.apply(self.state.selection_of(pieces, cut))

    def place(self, piece: Card, cells: frozenset) -> None:
        self.state.apply(self.state.placement_of(piece, cells))

    def keep(self, seat: int, cards: list[Card]) -> None:
        """``seat`` still holds ``cards`` at the end: held since the deal, never revealed. Once the
        game is over they complete the hand (a sheet gives them ahead: then at most complete it)."""
        s = self.state
        for k, card in enumerate(cards):
            if card in cards[:k]:
                raise IllegalAction("card_gone", f"{card} is kept twice by player {seat}", card=card, seat=seat,
                                    kept_by=seat, round=None)
            self._may_hold(seat, card, keeping=True)
        revealed, held = len(self.revealed(seat)), len(self.kept.get(seat, ())) + len(cards)
        if revealed + held > s.spec.hand_size or (s.is_over() and revealed + held != s.spec.hand_size):
            raise self._count(seat, revealed, held, None)
        for card in cards:
            self._held_since_the_deal(seat, card)
        self.kept[seat] = tuple(sorted([*self.kept.get(seat, ()), *cards]))
        s.hold(seat, cards)

    def finish(self) -> GameState:
        """The state with its hands as dealt (every card of every hand known: ``hand_count`` else)."""
        s = self.state
        for seat in self.missing():
            raise self._count(seat, len(self.revealed(seat)), len(self.kept.get(seat, ())), None)
        s.dealt = [sorted(self.known(k)) for k in range(s.players)]
        held = {c for h in s.dealt for c in h}
        s.set_aside = sorted(c for c in ALL_CARDS if c not in held and c not in s.spec.removed)
        return s

    # ------------------------------------------------------------ the checks
    def _leads(self, seat: int) -> None:
        """``seat`` led round one (the first card revealed, or purple-8 kept, says so)."""
        self.state.start_player = self.state.leader = seat
        self.leader_known = True

    def _may_hold(self, seat: int, card: Card, keeping: bool = False) -> None:
        """``card`` may be ``seat``'s: in the game, neither revealed nor kept already."""
        s = self.state
        rnd = None if keeping else s.round
        if card in s.spec.removed:
            raise IllegalAction("card_removed", f"{card} is out of the game with {s.players} players", card=card,
                                seat=seat, players=s.players, round=rnd)
        for r in [*s.history, None]:
            for p, c in (r.plays if r is not None else s.trick):
                if c == card:
                    raise IllegalAction("card_gone", f"{card} was revealed already", card=card, seat=seat,
                                        by=p, played_in=r.round if r is not None else s.round, round=rnd)
        for k, cards in self.kept.items():
            if card in cards:
                raise IllegalAction("card_gone", f"{card} is kept by player {k}", card=card, seat=seat, kept_by=k,
                                    round=rnd)

    def _held_since_the_deal(self, seat: int, card: Card) -> None:
        """``seat`` held ``card`` from the deal on: each of its plays before was legal with it in
        hand (must follow), and if it is purple-8, ``seat`` led round one."""
        s = self.state
        if card == s.spec.start_card:
            if not self.leader_known:
                self._leads(seat)
            elif seat != s.start_player:
                raise IllegalAction("not_leader", f"player {seat} held {card}, so leads round 1, not player "
                                    f"{s.start_player}", seat=s.start_player, leader=seat, held=card, round=1)
        for rnd, plays in [(r.round, r.plays) for r in s.history] + [(s.round, tuple(s.trick))]:
            lead = plays[0][1].colour if plays else None
            for p, c in plays:
                if p == seat and c not in legal_cards([c, card], lead):
                    raise IllegalAction("must_follow", f"player {seat} revealed {c} holding {card}: must follow "
                                        f"{lead}", seat=seat, card=c, led=lead, held=card, round=rnd)

    def _count(self, seat: int, revealed: int, held: int, rnd: int | None) -> IllegalAction:
        spec = self.state.spec
        return IllegalAction("hand_count", f"player {seat} played {revealed} card(s) and holds {held}, not "
                             f"{spec.hand_size}", seat=seat, played=revealed, held=held, hand_size=spec.hand_size,
                             players=spec.players, mode=spec.mode, round=rnd)
