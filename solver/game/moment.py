"""A game from where a table stands, with the hidden cards dealt anew: the board in front of the
players (a mission whose `[[placed]]` pieces are those on the board and whose rounds and skill
counters are those left), the cards already gone (played: public), and the trump colour in force.

A deal gives the cards nobody has seen (every card but the gone and removed ones) out at random,
consistently with what is gone: the set-aside cards in Buddy, then every hand alike, as many as
the rounds played left in it. The gone cards are out of the game for everyone, as public as
purple-1 is with three players, so that each seat's player samples the other hands from the right
cards. Who leads the first round from here is drawn too (the last winner is not recorded): the
holder of purple-8 when it is still in a hand, as the players infer at a game's start.
"""

from __future__ import annotations

from dataclasses import replace

from solver.core.cards import ALL_CARDS, Card, Colour
from solver.core.errors import InputError
from solver.core.rules import Board, Mission
from solver.core.spec import TRUMP_ROUND_ONE, GameSpec
from solver.game.rng import SplitMix64, seat_seed
from solver.game.state import GameState


def moment_spec(m: Mission, players: int, gone: list[Card], trump: Colour | None) -> tuple[GameSpec, int]:
    """The spec of the game from here (the gone cards out of it, publicly; the trump in force) and
    the cards each hand holds; InputError when the cards gone are not whole rounds' cards or the
    hands cannot last the rounds left."""
    spec = GameSpec.of(m, players, m.id, hands_last=False)
    per_round = spec.reveals_per_round
    gone_set = set(gone)
    if len(gone_set) != len(gone):
        raise InputError("--exclude", "a card is named twice among the cards gone", "name each card once")
    if gone_set & set(spec.removed):
        raise InputError("--exclude", f"{', '.join(map(str, sorted(gone_set & set(spec.removed))))} is out of the "
                         f"game with {players} players already", "leave it out of the cards gone")
    if len(gone) % per_round:
        raise InputError("--exclude", f"{len(gone)} card(s) gone: a round of {players} players reveals {per_round}, "
                         "so the cards gone are a multiple of that", f"mark the {per_round} cards of every round "
                         "played as gone")
    held = spec.hand_size - len(gone) // players
    if held < m.rounds * spec.cards_per_round:
        raise InputError("rounds", f"{m.rounds} round(s) left need {m.rounds * spec.cards_per_round} card(s) in "
                         f"each hand, but {held} are left after {len(gone) // per_round} round(s)",
                         f"lower the rounds left to at most {held // spec.cards_per_round}")
    spec = replace(spec, removed=tuple(sorted(set(spec.removed) | gone_set)),
                   trump_round_one=TRUMP_ROUND_ONE if trump is None else trump)
    return spec, held


def check_hand(spec: GameSpec, held: int, hand: list[Card]) -> list[Card]:
    """The asking seat's hand (seat 0's in every deal): InputError when it overlaps the cards gone
    or out of the game, names a card twice, or is not as many cards as a hand holds now."""
    if len(set(hand)) != len(hand):
        raise InputError("--hand", "a card is named twice in the hand", "name each card once")
    out = sorted(set(hand) & set(spec.removed))
    if out:
        raise InputError("--hand", f"{', '.join(map(str, out))} is gone (or out of the game), so it cannot be in "
                         "the hand", "leave the cards gone out of the hand, or out of --exclude")
    if len(hand) != held:
        raise InputError("--hand", f"the hand has {len(hand)} card(s); with the cards gone, each hand holds {held} "
                         "now", f"give the {held} cards you hold")
    return sorted(hand)


def deal_moment(m: Mission, catalog, spec: GameSpec, held: int, seed: int,
                hand: list[Card] | None = None) -> GameState:
    """One deal of the unseen cards from the moment (see the module docstring); ``hand``: seat 0
    holds it in every deal, and only the other cards nobody at seat 0 has seen are dealt."""
    rng = SplitMix64(seed)
    mine = set(hand or ())
    deck = [c for c in ALL_CARDS if c not in spec.removed and c not in mine]
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    aside = sorted(deck[:spec.set_aside])
    if hand is None:
        hands = [sorted(deck[spec.set_aside + k * held: spec.set_aside + (k + 1) * held])
                 for k in range(spec.players)]
    else:
        hands = [sorted(hand)] + [sorted(deck[spec.set_aside + k * held: spec.set_aside + (k + 1) * held])
                                  for k in range(spec.players - 1)]
    # who leads: as at a game's start (the engine's players infer that its leader held purple-8 when
    # that card is still unseen, so the leader is its holder; else drawn)
    holders = [k for k in range(spec.players) if spec.start_card in hands[k]]
    start = holders[0] if holders else rng.below(spec.players)
    streams = [SplitMix64(seat_seed(seed, k)) for k in range(spec.players)]
    return GameState(spec, m, catalog, hands, aside, start, streams, Board.start(m), m.skills,
                     dealt=[list(h) for h in hands])
