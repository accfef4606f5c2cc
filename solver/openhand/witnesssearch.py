"""Fast search for an open-hand plan, guided by the solution library.

Depth-first over rounds. A move is a card meant to win the round and a selection (no skill,
double scan, wild colour, shift change); moves go best first by how many library solutions
still within reach (their missing pieces obtainable in the rounds left) contain the selected
pieces. The trick itself is built by a small search that lets that card win, playing each
player's least wanted legal cards (pieces no live solution needs, low values first). A plan
is found when every piece of some library solution is selected and the other selected
pieces fit beside it. The search is not exhaustive (it tries one trick per move): a deal it
does not clear goes to the exact model.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.core.cards import ALL_CARDS, Card, Colour
from solver.core.codes import Skill
from solver.core.spec import selectable_pieces
from solver.game.state import GameState, decision_card
from solver.openhand.model import RoundChoice
from solver.openhand.plan import place_fillers

MAX_TRICK_LEAVES = 2000


def _bit(c: Card) -> int:
    return 1 << c.index


def _pop(m: int) -> int:
    return bin(m).count("1")


@dataclass
class Found:
    rounds: list[RoundChoice]
    placements: list  # every selected piece's placement


class WitnessSearch:
    def __init__(self, state: GameState, catalog, library, node_budget: int = 400):
        self.state = state
        self.mission = state.mission
        self.catalog = catalog
        self.players = state.players
        self.spec = state.spec
        self.buddy = Skill.WILD_COLOR in state.spec.skill_kinds  # skills that select pieces of unrevealed cards
        self.library = [s for s in library if not any(p.card in state.removed for p in s.placements)]
        self.target_cards = [s.cards for s in self.library]
        self.holder = {c: p for p, h in enumerate(state.hands) for c in h}
        self.budget = node_budget
        self.failed: dict = {}  # state -> largest discrepancy allowance that failed from it
        self.exhausted = True  # no move was cut off by the allowance in the last pass

    # ------------------------------------------------------------ what can still be had
    def obtainable(self, hands: list[int], used: int, skills: int) -> int:
        cards = 0
        for h in hands:
            cards |= h
        out = cards
        if self.buddy and skills > 0:
            for c in ALL_CARDS:
                if cards >> c.index & 1:
                    for k in Colour:
                        out |= _bit(Card(k, c.value))
                    for v in (c.value - 1, c.value + 1):
                        if 1 <= v <= 8:
                            out |= _bit(Card(c.colour, v))
        return out & ~used

    def live(self, hands, used, skills, rounds_left) -> list[int]:
        """Indices of library solutions still within reach."""
        cap = selectable_pieces(rounds_left, skills)
        ob = self.obtainable(hands, used, skills)
        out = []
        for i, t in enumerate(self.target_cards):
            missing = t & ~used
            if missing & ~ob:
                continue
            if _pop(missing) <= cap:
                out.append(i)
        return out

    # ------------------------------------------------------------ one trick
    def build_trick(self, hands, start, trump, w: Card, low: Card | None, wanted: int):
        """Plays (player, card) in order in which ``w`` is the decision card, each player playing
        its least wanted legal cards; None if there is none. With ``low`` (a double scan) every
        card is of w's colour and ``low`` is the lowest of them."""
        mono = low is not None
        order = list(self.spec.play_order(start))
        wp = self.holder[w]
        last_turn_of_wp = max(i for i, seat in enumerate(order) if seat == wp)
        last_turn_of_lp = -1 if low is None else max(i for i, seat in enumerate(order) if seat == self.holder[low])
        remaining = [[c for c in ALL_CARDS if h >> c.index & 1] for h in hands]
        leaves = [0]

        def key(c):
            return (c != w and c != low, bool(wanted >> c.index & 1), c.value, c.colour)

        def rec(i, trick):
            if i == len(order):
                leaves[0] += 1
                return list(trick) if decision_card(trick, trump)[1] == w else None
            if leaves[0] > MAX_TRICK_LEAVES:
                return None
            seat = order[i]
            hand = remaining[seat]
            lead = trick[0][1].colour if trick else None
            legal = [c for c in hand if c.colour == lead] if lead is not None else []
            legal = legal or list(hand)
            w_played = any(c == w for _, c in trick)
            for c in sorted(legal, key=key):
                if low is not None and (c.colour != w.colour or c.value < low.value):
                    continue
                if mono and i == last_turn_of_lp and c != low and all(x != low for _, x in trick):
                    continue  # low's holder has no later turn
                if seat == wp and i == last_turn_of_wp and not w_played and c != w:
                    continue  # w's holder has no later turn
                nxt = [*trick, (seat, c)]
                if w_played or c == w:
                    if decision_card(nxt, trump)[1] != w:
                        continue
                elif decision_card([*nxt, (wp, w)], trump)[1] != w:
                    continue  # w could no longer win
                remaining[seat] = [x for x in hand if x != c]
                got = rec(i + 1, nxt)
                remaining[seat] = hand
                if got is not None:
                    return got
            return None

        return rec(0, [])

    # ------------------------------------------------------------ moves
    def options(self, w: Card, used: int, skills: int, in_hands: int, wanted: int):
        """(skill, pieces, lowest card of a double scan or None) selections a round won by w can give."""
        w_free = not used >> w.index & 1
        out: list[tuple[Skill, tuple[Card, ...], Card | None]] = [(Skill.NONE, (w,) if w_free else (), None)]
        if skills <= 0:
            return out
        for v in range(1, w.value):  # double scan with a wanted lowest card still in a hand
            low = Card(w.colour, v)
            if in_hands >> low.index & 1 and wanted >> low.index & 1 and not used >> low.index & 1:
                out.append((Skill.DOUBLE_SCAN, (w, low) if w_free else (low,), low))
        if self.buddy:
            for k in Colour:
                alt = Card(k, w.value)
                if k != w.colour and not used >> alt.index & 1:
                    out.append((Skill.WILD_COLOR, (alt,), None))
            for v in (w.value - 1, w.value + 1):
                if 1 <= v <= 8 and not used >> Card(w.colour, v).index & 1:
                    out.append((Skill.SHIFT_CHANGE, (Card(w.colour, v),), None))
        return out

    def run(self) -> Found | None:
        """Limited discrepancy search: first the path of best moves, then paths that leave it
        once, twice, ... anywhere, until the node budget is spent."""
        s = self.state
        pre = sum(_bit(p.card) for p in self.mission.placed)
        hands = [sum(_bit(c) for c in h) for h in s.hands]
        for allowance in range(0, 64):
            self.exhausted = True
            got = self.dfs(1, hands, s.start_player, s.spec.trump_round_one, skills=s.spec.skills, used=pre,
                           selected=[], rounds=[], allowance=allowance)
            if got is not None or self.budget <= 0 or self.exhausted:
                return got
        return None

    def dfs(self, rnd, hands, start, trump, *, skills, used, selected, rounds, allowance):
        R = self.spec.rounds
        if rnd > R or self.budget <= 0:
            return None
        key = (tuple(hands), start, trump, skills, used)
        if self.failed.get(key, -1) >= allowance:
            return None
        self.budget -= 1
        live = self.live(hands, used, skills, R - rnd + 1)
        if not live:
            self.failed[key] = 1 << 30
            return None
        cap_next = selectable_pieces(R - rnd, skills)
        missing = [self.target_cards[i] & ~used for i in live]
        wanted = 0
        for m in missing:
            wanted |= m
        junk_ok = any(_pop(m) <= cap_next for m in missing)  # a round may select nothing useful
        in_hands = 0
        for h in hands:
            in_hands |= h
        moves = []
        for w in ALL_CARDS:
            if not in_hands >> w.index & 1:
                continue
            for skill, pieces, low in self.options(w, used, skills, in_hands, wanted):
                bits = sum(_bit(c) for c in pieces)
                left = skills - (skill != Skill.NONE)
                cap = selectable_pieces(R - rnd, left)
                if bits and not bits & ~wanted:
                    # solutions that contain the pieces and stay within reach after this round
                    score = sum(1 for m in missing if m & bits == bits and _pop(m & ~bits) <= cap)
                    if score == 0:
                        continue
                elif junk_ok:
                    score = -1
                else:
                    continue
                # best first: solutions kept, then two pieces before one, no skill, low cards
                moves.append((-score, -len(pieces), skill != Skill.NONE, w.value, w, skill, pieces, low))
        moves.sort(key=lambda m: m[:5])
        tried = 0
        for _, _, _, _, w, skill, pieces, low in moves:
            trick = self.build_trick(hands, start, trump, w, low, wanted)
            if trick is None:
                continue
            if tried > allowance:
                self.exhausted = False
                break
            cost = tried
            tried += 1
            new_hands = list(hands)
            for seat, c in trick:
                new_hands[seat] &= ~_bit(c)
            new_used = used | sum(_bit(c) for c in pieces)
            cards = {q: [c for seat, c in trick if seat == q] for q in range(self.players)}
            choice = RoundChoice(start, trick[0][1], cards, w, skill, list(pieces))
            new_selected = selected + list(pieces)
            done = self.finish(new_used, new_selected)
            if done is not None:
                return Found([*rounds, choice], done)
            got = self.dfs(rnd + 1, new_hands, self.holder[w], w.colour, skills=skills - (skill != Skill.NONE),
                           used=new_used, selected=new_selected, rounds=[*rounds, choice], allowance=allowance - cost)
            if got is not None or self.budget <= 0:
                return got
        self.failed[key] = max(self.failed.get(key, -1), allowance)
        return None

    def finish(self, used: int, selected: list[Card]):
        """Placements of every selected piece if a library solution is complete, else None."""
        for i, t in enumerate(self.target_cards):
            if t & ~used:
                continue
            sol = self.library[i]
            in_sol = {p.card for p in sol.placements}
            fillers = place_fillers(self.mission, self.catalog, list(sol.placements),
                                    [c for c in selected if c not in in_sol])
            if fillers is not None:
                return list(sol.placements) + fillers
        return None
