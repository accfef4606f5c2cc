"""Simulated players. A policy sees one seat's Observation and the seat's own PRNG, nothing else,
and returns an action (``Policy.act``); it holds no game loop.

``random``: uniform over the legal choices.
``greedy``: random card play and no skills, but places each piece where it
covers the most open bird sides right now (the naive baseline).
``heuristic``: the cooperative strategy described in docs/policies.md.

Every score is an integer and every tie is broken by a fixed order, so the
Numba engine (solver/game/fast.py) reproduces each decision exactly.
"""

from __future__ import annotations

from solver.core.board import all_positions
from solver.core.cards import ALL_CARDS, Card
from solver.core.rules import Board, Placement, blocked_reason, cells_of, grow, mask_of
from solver.game.actions import Action, Phase
from solver.game.rng import SplitMix64
from solver.game.state import Observation, Option, decision_card
from solver.game.weights import (
    COMPLETION_BONUS,
    DEAD_END_CHECKS,
    FILLER_NEED_PENALTY,
    SKILL_COST,
    SPOIL_PENALTY,
    UNPLACEABLE,
    W_UNPLACEABLE,
    W_UNPLACEABLE_OPTION,
)


def popcount(m: int) -> int:
    return m.bit_count()


class Policy:
    """A simulated player: ``act`` answers the decision the observation asks for. Subclasses say
    which card to reveal, which option to take and where to place a piece."""

    name = "policy"

    def act(self, obs: Observation, rng: SplitMix64) -> Action:
        if obs.phase == Phase.REVEAL:
            card = self.play_card(obs, [a.card for a in obs.legal], rng)
            return Action.reveal(card)
        if obs.phase == Phase.SELECT:
            return Action.select(self.select(obs, list(obs.options), rng))
        return obs.legal[self.place(obs, obs.piece, obs.placements(), rng)]

    def play_card(self, obs: Observation, legal: list, rng: SplitMix64) -> Card:
        raise NotImplementedError

    def select(self, obs: Observation, options: list[Option], rng: SplitMix64) -> int:
        raise NotImplementedError

    def place(self, obs: Observation, piece, legal: list[Placement], rng: SplitMix64) -> int:
        raise NotImplementedError


class RandomPolicy(Policy):
    name = "random"

    def play_card(self, obs, legal, rng):
        return legal[rng.below(len(legal))]

    def select(self, obs, options, rng):
        return rng.below(len(options))

    def place(self, obs, piece, legal, rng):
        return rng.below(len(legal))


class MissionArrays:
    """Public, static facts about a mission and catalog that the smart policies look up."""

    def __init__(self, mission, catalog):
        self.mission = mission
        self.live = [b for b in mission.birds if blocked_reason(mission, b) is None]
        ring_union = 0
        for b in self.live:
            ring_union |= b.ring
        birds = mission.bird_mask
        self.mark_colour = [0] * 5  # marked cells per colour
        for c, col in mission.marks:
            self.mark_colour[col] |= 1 << c
        self.mark_all = sum(self.mark_colour)
        self.positions = {card: [mask_of(p) for p in all_positions(catalog[card])] for card in ALL_CARDS}
        # placements that can touch a live bird's ring (others never score)
        self.candidates = {card: [(i, m) for i, m in enumerate(ms) if m & ring_union and not m & birds]
                           for card, ms in self.positions.items()}
        self.cover: dict[int, list[tuple[Card, int]]] = {}
        for card in ALL_CARDS:
            for m in self.positions[card]:
                if m & birds:
                    continue
                mm = m & ring_union
                while mm:
                    low = mm & -mm
                    self.cover.setdefault(low.bit_length() - 1, []).append((card, m))
                    mm ^= low


class BoardView:
    """Integer evaluations of one board position (public information only)."""

    def __init__(self, t: MissionArrays, board: Board):
        self.t = t
        self.board = board
        self.targets = [b for b in t.live if not board.is_scanned(b) and board.can_still_be_scanned(b)]
        need = 0
        for b in self.targets:
            need |= b.ring
        self.need = need & ~board.occupied
        self._u: dict[Card, int] = {}

    def score(self, colour: int, m: int) -> int:
        """How much a legal placement advances the scan (negative if it spoils a bird)."""
        occ = self.board.occupied
        wrong = self.t.mark_all & ~self.t.mark_colour[colour]
        gain = 0
        for b in self.targets:
            ring = b.ring
            cov = m & ring & ~occ
            if not cov:
                continue
            if cov & wrong:
                gain -= SPOIL_PENALTY
                continue
            gain += 2 * popcount(cov) + 2 * popcount(cov & self.t.mark_colour[colour])
            if not (ring & ~occ & ~m):
                gain += COMPLETION_BONUS
        return gain

    def usefulness(self, card: Card) -> int:
        """Best score of the piece now (>= 0), or UNPLACEABLE (-1) if it fits nowhere. Used pieces give 0."""
        if card in self._u:
            return self._u[card]
        board = self.board
        col = int(card.colour)
        if board.is_used(card):
            u = 0
        else:
            u = UNPLACEABLE
            for _, m in self.t.candidates[card]:
                if board.is_legal_mask(col, m):
                    s = self.score(col, m)
                    u = max(u, s, 0)
            if u == UNPLACEABLE:
                for m in self.t.positions[card]:
                    if board.is_legal_mask(col, m):
                        u = 0
                        break
        self._u[card] = u
        return u

    def is_dead_end(self, colour: int, card: Card, m: int) -> bool:
        """Would this placement leave fewer than `clear` birds that can still be scanned?

        A bird still can be when no coloured side is spoiled and every open cell around it can be
        covered legally, now, by some unused piece (of the side's colour where it is marked)."""
        after = self.board.copy()
        after.place(Placement(card, frozenset(cells_of(m))))
        marks = self.t.mission.mark_map
        alive = 0
        for b in self.t.live:
            if not after.can_still_be_scanned(b):
                continue
            ok = True
            for c in cells_of(b.ring & ~after.occupied):
                want = marks.get(c)
                ok = any(not after.is_used(r) and (want is None or r.colour == want)
                         and after.is_legal_mask(int(r.colour), pm) for r, pm in self.t.cover.get(c, ()))
                if not ok:
                    break
            if ok:
                alive += 1
        return alive < self.t.mission.clear


class SmartBase(Policy):
    """Shared machinery: per-mission arrays and a per-board cache."""

    avoid_dead_ends = True

    def __init__(self) -> None:
        self._arrays: dict = {}
        self._view_key: tuple | None = None
        self._view: BoardView | None = None

    def view(self, obs) -> BoardView:
        key = (id(obs.mission), id(obs.catalog))
        t = self._arrays.get(key)
        if t is None:
            t = self._arrays[key] = MissionArrays(obs.mission, obs.catalog)
        bkey = (key, obs.board.occupied, frozenset(obs.board.pieces))
        if bkey != self._view_key or self._view is None:
            self._view_key, self._view = bkey, BoardView(t, obs.board)
        return self._view

    def place(self, obs, piece, legal, rng):
        v = self.view(obs)
        col = int(piece.colour)
        masks = [mask_of(p.cells) for p in legal]
        scores = [v.score(col, m) if m & v.need else 0 for m in masks]
        useful = sorted((i for i in range(len(legal)) if scores[i] > 0), key=lambda i: (-scores[i], i))
        if not self.avoid_dead_ends:
            return useful[0] if useful else self._filler(v, masks, scores)
        for i in useful[:DEAD_END_CHECKS]:
            if not v.is_dead_end(col, piece, masks[i]):
                return i
        f = self._filler(v, masks, scores)
        if f is None:
            return useful[0]  # every legal placement is useful
        if not useful or not v.is_dead_end(col, piece, masks[f]):
            return f
        return useful[0]

    @staticmethod
    def _filler(v: BoardView, masks, scores) -> int | None:
        """The legal placement that intrudes least on the cells around the birds still wanted
        (among those that do not score), or None if there is none."""
        zone = grow(grow(v.need))
        best, best_cost = None, None
        for i, m in enumerate(masks):
            if scores[i] > 0:
                continue
            cost = popcount(m & zone) + (FILLER_NEED_PENALTY if m & v.need else 0)
            if best_cost is None or cost < best_cost:
                best, best_cost = i, cost
        return best


class GreedyPolicy(SmartBase):
    """Naive baseline: random cards, no skills, best immediate placement."""

    name = "greedy"
    avoid_dead_ends = False

    def play_card(self, obs, legal, rng):
        return legal[rng.below(len(legal))]

    def select(self, obs, options, rng):
        return 0


class HeuristicPolicy(SmartBase):
    name = "heuristic"
    avoid_dead_ends = True

    @staticmethod
    def worth(v: BoardView, card: Card) -> int:
        """What it is worth to the team that this card becomes the decision card."""
        u = v.usefulness(card)
        return W_UNPLACEABLE if u == UNPLACEABLE else u

    def card_keys(self, obs, legal) -> list[tuple[int, int]]:
        """What each legal card is judged by, higher is better (play_card takes the first best;
        the human seat's advice ranks the cards by it)."""
        v = self.view(obs)
        trick = list(obs.trick)
        keys = []
        if not trick:
            unseen = obs.unseen()
            trump = obs.trump
            for c in legal:
                beaters = sum(1 for x in unseen if (x.colour == c.colour and x.value > c.value)
                              or (c.colour != trump and x.colour == trump))
                w = self.worth(v, c)
                value = (w * 4) // (4 + beaters) if w > 0 else w
                keys.append((value, -c.value))
            return keys
        for c in legal:
            _, winner = decision_card([*trick, (obs.seat, c)], obs.trump)
            value = self.worth(v, winner) * 4
            if winner != c:
                u = v.usefulness(c)
                if u > 0:
                    value -= 2 * u
            keys.append((value, -c.value))
        return keys

    def play_card(self, obs, legal, rng):
        keys = self.card_keys(obs, legal)
        return legal[max(range(len(legal)), key=keys.__getitem__)]  # the first of the best

    def option_values(self, obs, options) -> list[int]:
        """What each selection option is judged by, higher is better (select takes the first best)."""
        v = self.view(obs)
        values = []
        for o in options:
            total = 0
            for p in o.pieces:
                u = v.usefulness(p)
                total += W_UNPLACEABLE_OPTION if u == UNPLACEABLE else u
            val = 4 * total - (4 * SKILL_COST if o.skill else 0)
            if len(o.pieces) == 2 and v.usefulness(o.pieces[0]) >= v.usefulness(o.pieces[1]):
                val += 1
            values.append(val)
        return values

    def select(self, obs, options, rng):
        values = self.option_values(obs, options)
        return max(range(len(options)), key=values.__getitem__)
