"""The search player: the planner, improved by looking ahead at each of its own decisions.

At a decision the seat draws K samples of the cards it has not seen, consistent with what it
has seen (``sample_holders``: the hand sizes, the colours a player has shown it lacks, purple-1
out with 3 players, purple-8 with the start player), builds the game each sample makes
(``determinize``) and plays every candidate action (``candidates``) to the end with the planner
in every seat. The candidate with the best total (SEARCH_WIN a clear, SEARCH_BIRD a bird
scanned) is taken when it beats the planner's own move by more than SEARCH_MARGIN a sample;
otherwise the planner's move stays (SPARTA, Lerer et al. 2020: search over a fixed blueprint).

The seat sees only its observation and its own random stream; every sample and every stream of
a look-ahead game is drawn from that stream. This module is the reference of one decision;
whole games are played by its Numba twin (game/fast/search.py).
"""

from __future__ import annotations

from solver.core.cards import ALL_CARDS
from solver.core.codes import Result
from solver.core.rules import mask_of
from solver.game.actions import Action, Phase
from solver.game.engine import play_out
from solver.game.planner import PlannerPolicy
from solver.game.rng import SplitMix64, mix
from solver.game.state import GameState, Observation, decision_card
from solver.game.weights import PLACE_CANDIDATES, SAMPLE_TRIES, SEARCH_BIRD, SEARCH_MARGIN, SEARCH_WIN

DEFAULT_SAMPLES = 16  # `--samples K` (docs/reference.md): default 16; 0 is the planner itself


def game_start(obs: Observation) -> int:
    """The seat that led round one (it held purple-8, or was drawn)."""
    return obs.history[0].start_player if obs.history else obs.start_player


def voids(obs: Observation) -> list[int]:
    """Per seat, a bit per colour the seat has shown it lacks: it did not follow a lead of that colour."""
    out = [0] * obs.spec.players
    for plays in [r.plays for r in obs.history] + [obs.trick]:
        if plays:
            lead = plays[0][1].colour
            for seat, card in plays[1:]:
                if card.colour != lead:
                    out[seat] |= 1 << int(lead)
    return out


def sample_holders(obs: Observation, rng: SplitMix64, void: list[int]) -> tuple[list[int], bool]:
    """Who holds each card the seat has not seen: a seat, ``players`` for a set-aside card, -1 for
    a card it has seen (by card index). Purple-8 first, then the most constrained cards, each to a
    holder its voids allow, drawn in proportion to the room left in that holder's hand; unseen
    purple-8 sits with the game's start player (weight ``players``: set aside, it would have made
    the start a draw) or set aside. After SAMPLE_TRIES dead ends the voids are dropped. Returns the
    holders and whether the voids held."""
    spec, me = obs.spec, obs.seat
    players, start, start_card = spec.players, game_start(obs), spec.start_card.index
    unseen = {c.index for c in obs.unseen()}

    def holders_allowed(c: int, with_voids: bool) -> int:
        mask = sum(1 << k for k in range(players)
                   if k != me and not (with_voids and void[k] >> (c // 8) & 1))
        if spec.set_aside:
            mask |= 1 << players
        if c == start_card:
            mask &= (1 << players) | ((1 << start) if start != me else 0)
        return mask

    allowed = {c: holders_allowed(c, True) for c in sorted(unseen)}
    order = sorted(allowed, key=lambda c: (c != start_card, allowed[c].bit_count(), c))

    def weight(c: int, h: int) -> int:
        return players if c == start_card and h == start else 1

    for attempt in range(SAMPLE_TRIES + 1):
        cap = [0 if k == me else obs.hand_sizes[k] for k in range(players)] + [spec.set_aside]
        holder = [-1] * 40
        ok = True
        for c in order:
            mask = allowed[c] if attempt < SAMPLE_TRIES else holders_allowed(c, False)
            choices = [(h, cap[h] * weight(c, h)) for h in range(players + 1) if mask >> h & 1]
            total = sum(w for _, w in choices)
            if total == 0:
                ok = False
                break
            r = rng.below(total)
            for h, w in choices:
                if r < w:
                    holder[c] = h
                    cap[h] -= 1
                    break
                r -= w
        if ok:
            return holder, attempt < SAMPLE_TRIES
    return holder, False


def determinize(obs: Observation, holder: list[int], seed: int) -> GameState:
    """The game the sample makes: everything public from the observation, the seat's own hand,
    the sampled hands and set-aside cards, and each seat's stream drawn from ``seed``."""
    spec, me = obs.spec, obs.seat
    hands: list[list] = [[] for _ in range(spec.players)]
    hands[me] = list(obs.hand)
    set_aside = []
    for card in ALL_CARDS:
        h = holder[card.index]
        if h == spec.players:
            set_aside.append(card)
        elif h >= 0:
            hands[h].append(card)
    in_charge, decision = decision_card(obs.trick, obs.trump) if obs.phase in (Phase.SELECT, Phase.PLACE) \
        else (-1, None)
    return GameState(spec, obs.mission, obs.catalog, hands, set_aside, game_start(obs),
                     [SplitMix64(mix(seed, k + 1)) for k in range(spec.players)], obs.board.copy(), obs.skills_left,
                     dealt=[list(h) for h in hands], round=obs.round, phase=obs.phase, leader=obs.start_player,
                     trick=list(obs.trick), in_charge=in_charge, decision=decision,
                     options=list(obs.options), option=obs.option, placed=list(obs.placed), history=list(obs.history),
                     moves=list(obs.moves), trace=0)


def candidates(obs: Observation, blueprint: Action, planner: PlannerPolicy) -> list[Action]:
    """The actions worth trying, the planner's first: every legal card; every selection option;
    for a placement the planner's and the best others by the planner's score (positive scores,
    higher first, then the lower position), PLACE_CANDIDATES in all."""
    others = [a for a in obs.legal if a != blueprint]
    if obs.phase != Phase.PLACE:
        return [blueprint, *others]
    view = planner.view(obs)
    assert obs.piece is not None
    placements = {a: p for a, p in zip(obs.legal, obs.placements(), strict=True)}
    scored = [(view.plan_score(obs.piece, mask_of(placements[a].cells)), a) for a in others]
    ranked = sorted(((s, a) for s, a in scored if s > 0), key=lambda sa: (-sa[0], sa[1].index))
    return [blueprint, *(a for _, a in ranked[: PLACE_CANDIDATES - 1])]


def look_ahead(state: GameState, planner: PlannerPolicy) -> int:
    """Points of one look-ahead game played to the end by the planner in every seat."""
    play_out(state, planner)
    return SEARCH_BIRD * len(state.board.scanned()) + (SEARCH_WIN if state.outcome == Result.CLEARED else 0)


class SearchPolicy:
    """``samples``: look-ahead deals per decision (0: the planner itself); ``library``: the
    planner's solutions (default: ``planner_library`` of the mission)."""

    name = "search"

    def __init__(self, samples: int = DEFAULT_SAMPLES, library: tuple | None = None) -> None:
        self.samples = samples
        self.planner = PlannerPolicy(library)

    def act(self, obs: Observation, rng: SplitMix64) -> Action:
        blueprint = self.planner.act(obs, rng)  # the planner draws nothing from the stream
        if self.samples <= 0:
            return blueprint
        cands = candidates(obs, blueprint, self.planner)
        if len(cands) == 1:
            return blueprint
        void = voids(obs)
        points = [0] * len(cands)
        for _ in range(self.samples):
            holder, _ = sample_holders(obs, rng, void)
            seed = rng.next()
            for i, action in enumerate(cands):
                state = determinize(obs, holder, seed)
                state.apply(action)
                points[i] += look_ahead(state, self.planner)
        best = max(range(len(cands)), key=lambda i: (points[i], -i))
        return cands[best] if points[best] - points[0] > SEARCH_MARGIN * self.samples else blueprint


def play_on(state: GameState, seed: int, policy, keyed: bool = False) -> GameState:
    """A copy of ``state`` played to the end by ``policy`` in every seat, with seat streams drawn
    from ``seed`` (one a seat, in seat order): one of many continuations of the same moment. With
    ``keyed`` each decision's stream is drawn afresh from the seed and the number of moves so far:
    the continuation is then a function of the moment and the seed alone, so the continuation of
    a moment whose first move is M is the continuation, on the same seed, of the moment M leads to."""
    out = state.clone()
    if keyed:
        return play_out(out, policy, stream=lambda now, _seat: SplitMix64(mix(seed, len(now.moves))))
    rng = SplitMix64(seed)
    out.seat_rngs = [SplitMix64(rng.next()) for _ in range(out.players)]
    return play_out(out, policy)
