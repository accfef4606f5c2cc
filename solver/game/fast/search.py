"""Twin of game/search.py: the search player (``search_decide``) and whole games of it
(``table_games``, the one kernel Python calls for tables of it: ``search_many``, ``table_play_on``,
``search_play_on``).

At each of its decisions the seat draws samples of the cards it has not seen, consistent with
its observation (``sample_holders``), builds the game each sample makes (``determinize``), and
plays every candidate action to the end with the planner in every seat; the candidate with the
best total wins, and the planner's own move stays unless another gains clearly. Everything is
built from the observation and the seat's own random stream: the true state is never read.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from solver.core.codes import PolicyId
from solver.core.spec import SPEC_ASIDE, SPEC_PLAYERS, SPEC_REVEALS, SPEC_START_CARD, SPEC_TRUMP1
from solver.game.actions import PLACE_BASE, SELECT_BASE, Action
from solver.game.arrays import build_arrays
from solver.game.fast.board import count_scanned, is_legal
from solver.game.fast.cards import OPT_A, decision_card, legal_cards
from solver.game.fast.heuristic import score_mask
from solver.game.fast.play import deal_game, play_out
from solver.game.fast.policies import (
    BOARD_SLOTS,
    M_VERSION,
    decide_call,
    new_boards,
    new_memory,
    new_memory_with_boards,
    reset_memory,
    reset_memory_py,
)
from solver.game.fast.rng import below, mix, rnext
from solver.game.fast.state import (
    CLEARED,
    I_NMOVES,
    I_NOPT,
    I_NPLACED,
    I_NT,
    I_OPTION,
    I_PHASE,
    I_RESULT,
    I_ROUND,
    I_START,
    OVER,
    REVEAL,
    SELECT,
    apply_action,
    copy_state,
    current_player,
    fast_observation,
    is_legal_action,
    new_state,
    new_state_py,
    observe,
    spec_array,
)
from solver.game.planner import planner_library
from solver.game.rng import SplitMix64
from solver.game.search import DEFAULT_SAMPLES
from solver.game.state import Observation
from solver.game.weights import PLACE_CANDIDATES, SAMPLE_TRIES, SEARCH_BIRD, SEARCH_MARGIN, SEARCH_WIN
from solver.runtime.bits import copy_into, copy_into_2d, popcount
from solver.runtime.jit import kernel

PLANNER = int(PolicyId.PLANNER)
SEARCH = int(PolicyId.SEARCH)
MAX_CANDIDATES = 48  # a hand's cards (16 at most), the selection options (10) or PLACE_CANDIDATES

SearchMemory = namedtuple("SearchMemory", [
    "samples",  # int64[1]: samples per decision (K)
    "blueprint",  # int64[1]: the blueprint's PolicyId (the planner); an array, not a constant, so that the
    # look-ahead games call decide and play_out with the types play_many does and reuse their compiled code
    "base",  # the planner's memory at the decision (policies.Memory), kept between decisions
    "play",  # the planner's memory in a look-ahead game: a copy of base
    "S2",  # the look-ahead game (FastState)
    "void", "cap", "order", "allowed",  # the sampler's arrays
    "cand", "key",  # the candidates, their ranks (placements)
    "holders", "seeds", "first", "sorder",  # per sample: its holders, its games' seed, the blueprint's points, order
    "played",  # int64[1]: look-ahead games played so far (for the benchmarks and tests)
])
SearchMemory.__doc__ = "What the search player keeps: its planner memories, the look-ahead game and scratch."


@kernel()
def new_search_memory(spec, samples, T):
    players = spec[SPEC_PLAYERS]
    boards = new_boards(BOARD_SLOTS)  # public: what the board says, shared by both
    base = new_memory_with_boards(T, boards)
    play = new_memory_with_boards(T, boards)
    reset_memory(base)
    k = max(samples, 1)
    return SearchMemory(np.full(1, samples, np.int64), np.full(1, PLANNER, np.int64), base, play, new_state(spec),
                        np.zeros(players, np.int64),
                        np.zeros(players + 1, np.int64), np.zeros(40, np.int64), np.zeros(40, np.int64),
                        np.zeros(MAX_CANDIDATES, np.int64), np.zeros(MAX_CANDIDATES, np.int64),
                        np.zeros((k, 40), np.int64), np.zeros(k, np.uint64), np.zeros(k, np.int64),
                        np.zeros(k, np.int64), np.zeros(1, np.int64))


@kernel(entry=True)
def new_search_memory_py(spec, samples, T):
    """``new_search_memory`` for Python callers (kernels call the other, kept as IR: runtime/linkonly.py)."""
    return new_search_memory(spec, samples, T)


@kernel(hot=True)
def copy_memory(src, dst):
    """dst := src (a planner memory is public knowledge: the copy decides as the original would).
    The footprint memo stays dst's own: its version moves past both, and the birds touched since
    the deal count as changed, so none of dst's scores of another board is read."""
    version = max(dst.mstate[M_VERSION], src.mstate[M_VERSION]) + 1
    copy_into(dst.mstate, src.mstate)
    dst.mstate[M_VERSION] = version
    for b in range(dst.bird_stamp.shape[0]):
        dst.bird_stamp[b] = version
    copy_into(dst.uval, src.uval)
    copy_into(dst.known, src.known)
    copy_into(dst.best_pos, src.best_pos)
    copy_into(dst.best_grp, src.best_grp)
    copy_into(dst.stale, src.stale)
    copy_into(dst.grp_skip, src.grp_skip)
    copy_into(dst.tgt, src.tgt)
    copy_into(dst.need, src.need)
    copy_into(dst.spoiled, src.spoiled)
    copy_into(dst.live, src.live)
    copy_into(dst.pair_bonus, src.pair_bonus)
    copy_into(dst.puval, src.puval)
    copy_into(dst.pknown, src.pknown)
    copy_into(dst.lost, src.lost)


@kernel()
def voids(obs, out):
    """search.voids: per seat, a bit per colour the seat has shown it lacks (it did not follow a
    lead of that colour), read from the public moves."""
    players, reveals = obs.spec[SPEC_PLAYERS], obs.spec[SPEC_REVEALS]
    out[:] = 0
    leader, trump, nt = obs.info[I_START], obs.spec[SPEC_TRUMP1], 0
    trick = np.empty(8, np.int64)
    for i in range(obs.info[I_NMOVES]):
        code = obs.moves[i]
        if code >= 40:
            continue
        if nt > 0 and code // 8 != trick[0] // 8:
            out[(leader + nt) % players] |= 1 << (trick[0] // 8)
        trick[nt] = code
        nt += 1
        if nt == reveals:
            wi = decision_card(trick, nt, trump)
            leader = (leader + wi) % players
            trump = trick[wi] // 8
            nt = 0


@kernel()
def sample_holders(obs, rng, void, holder, cap, order, allowed):
    """search.sample_holders: who holds each card the seat has not seen (a seat, or ``players``
    for the set-aside cards; -1 for a card it has seen). The cards go one by one, purple-8 first
    and then the most constrained, each to a holder its voids allow, drawn in proportion to the
    room left in that holder's hand; unseen purple-8 sits with the game's start player (weighted
    by the number of players: set aside, it would have made the start a draw) or set aside.
    After SAMPLE_TRIES dead ends the voids are dropped. Returns whether the voids held."""
    players, me = obs.spec[SPEC_PLAYERS], obs.seat
    has_aside = obs.spec[SPEC_ASIDE] > 0
    start_card, start = obs.spec[SPEC_START_CARD], obs.info[I_START]
    n = 0
    for c in range(40):
        holder[c] = -1
        if obs.removed[c] or obs.seen[c] or obs.hand[c]:
            continue
        mask = 0
        for k in range(players):
            if k != me and not (void[k] >> (c // 8)) & 1:
                mask |= 1 << k
        if has_aside:
            mask |= 1 << players
        if c == start_card:
            mask &= (1 << players) | ((1 << start) if start != me else 0)
        allowed[c] = mask
        order[n] = c
        n += 1
    for i in range(1, n):  # insertion sort: purple-8, then fewer holders, then the card
        c = order[i]
        j = i
        while j > 0:
            b = order[j - 1]
            if b == start_card:
                break
            if c != start_card:
                nc, nb = popcount(allowed[c]), popcount(allowed[b])
                if nc > nb or (nc == nb and c > b):
                    break
            order[j] = b
            j -= 1
        order[j] = c
    for attempt in range(SAMPLE_TRIES + 1):
        for k in range(players):
            cap[k] = obs.hand_count[k] if k != me else 0
        cap[players] = obs.spec[SPEC_ASIDE]
        ok = True
        for i in range(n):
            c = order[i]
            mask = allowed[c]
            if attempt == SAMPLE_TRIES:  # the voids dropped, the purple-8 rule kept
                mask = (1 << players) if has_aside else 0
                for k in range(players):
                    if k != me:
                        mask |= 1 << k
                if c == start_card:
                    mask &= (1 << players) | ((1 << start) if start != me else 0)
            total = 0
            for h in range(players + 1):
                if (mask >> h) & 1:
                    total += cap[h] * (players if c == start_card and h == start else 1)
            if total == 0:
                ok = False
                break
            r = below(rng, 0, total)
            for h in range(players + 1):
                if (mask >> h) & 1:
                    w = cap[h] * (players if c == start_card and h == start else 1)
                    if r < w:
                        holder[c] = h
                        cap[h] -= 1
                        break
                    r -= w
        if ok:
            return attempt < SAMPLE_TRIES
    return False


@kernel(hot=True)
def determinize(obs, holder, seed, S2):
    """search.determinize: the game the sample makes: the observation's public arrays, the seat's
    own hand, the sampled hands and set-aside cards, and streams drawn from ``seed``."""
    players, me = obs.spec[SPEC_PLAYERS], obs.seat
    copy_into(S2.spec, obs.spec)
    copy_into(S2.info, obs.info)
    copy_into(S2.hand_count, obs.hand_count)
    copy_into(S2.removed, obs.removed)
    copy_into(S2.seen, obs.seen)
    copy_into(S2.pile, obs.pile)
    copy_into(S2.trick, obs.trick)
    copy_into(S2.trick_player, obs.trick_player)
    copy_into_2d(S2.opts, obs.opts)
    copy_into(S2.occ, obs.occ)
    copy_into_2d(S2.cm, obs.cm)
    copy_into(S2.used, obs.used)
    copy_into(S2.moves, obs.moves)
    S2.hand[:, :] = 0
    S2.set_aside[:] = 0
    for c in range(40):
        if obs.hand[c]:
            S2.hand[me, c] = 1
        h = holder[c]
        if h == players:
            S2.set_aside[c] = 1
        elif h >= 0:
            S2.hand[h, c] = 1
    for k in range(players):
        S2.rs[k] = mix(seed, k + 1)
    S2.rs[players] = 0
    S2.trace[0] = 0


@kernel()
def plan_score(piece, g, obs, mem, T):
    """PlanBoardView.plan_score of the piece at global position g (the planner's memory synced):
    its scan score where it touches a wanted cell, plus the bonus of a live solution there."""
    col = piece // 8
    pm, need = T.pos_mask, mem.need
    s = 0
    if (pm[g, 0] & need[0]) | (pm[g, 1] & need[1]) | (pm[g, 2] & need[2]):
        s = score_mask(col, (pm[g, 0], pm[g, 1], pm[g, 2]), T.pos_birds[g], obs.occ, mem.tgt,
                       (T.bird_ring, T.mark_colour, T.mark_all))
    for j in range(T.card_pair_start[piece], T.card_pair_start[piece + 1]):
        if T.pair_pos[j] == g and mem.pair_bonus[j] > 0:
            s += mem.pair_bonus[j]
    return s


@kernel()
def candidates(obs, blueprint, mem, T, cand, key):
    """search.candidates: the actions worth trying, the blueprint's first. Cards: every legal
    card; selection: every option; placement: the blueprint's and the best others by plan_score
    (positive only), up to PLACE_CANDIDATES. Returns how many."""
    phase = obs.info[I_PHASE]
    cand[0] = blueprint
    n = 1
    if phase == REVEAL:
        nt = obs.info[I_NT]
        nl = legal_cards(obs.hand, obs.trick[0] // 8 if nt > 0 else -1, key)
        for i in range(nl):
            if key[i] != blueprint:
                cand[n] = key[i]
                n += 1
        return n
    if phase == SELECT:
        for k in range(obs.info[I_NOPT]):
            if SELECT_BASE + k != blueprint:
                cand[n] = SELECT_BASE + k
                n += 1
        return n
    piece = obs.opts[obs.info[I_OPTION], OPT_A + obs.info[I_NPLACED]]
    col = piece // 8
    base = T.pos_start[piece]
    kept = 0  # cand[1:kept + 1], best first: higher plan_score, then lower position
    for g in range(base, T.pos_start[piece + 1]):
        code = PLACE_BASE * (piece + 1) + g - base
        if code == blueprint or not is_legal(g, col, obs.occ, obs.cm, T.pos_mask, T.pos_halo, T.bird_all):
            continue
        s = plan_score(piece, g, obs, mem, T)
        if s <= 0 or (kept == PLACE_CANDIDATES - 1 and s <= key[kept]):
            continue  # positions come in order: an equal score never goes before a kept one
        if kept < PLACE_CANDIDATES - 1:
            kept += 1
        j = kept
        while j > 1 and key[j - 1] < s:
            cand[j], key[j] = cand[j - 1], key[j - 1]
            j -= 1
        cand[j], key[j] = code, s
    return kept + 1


@kernel(hot=True)
def look_ahead(obs, sm, s, code, T):
    """search.look_ahead: the points of sample s's game after action ``code``, played to the end
    by the planner in every seat."""
    S2 = sm.S2
    sm.played[0] += 1
    determinize(obs, sm.holders[s], sm.seeds[s], S2)
    apply_action(S2, code, T)
    copy_memory(sm.base, sm.play)
    play_out(S2, sm.blueprint[0], sm.play, T)
    return points(S2, T)


@kernel(hot=True)
def points(S, T):
    """What a finished game is worth to the search (search.look_ahead): SEARCH_WIN a clear,
    SEARCH_BIRD a bird scanned."""
    return SEARCH_BIRD * count_scanned(S.occ, S.cm, T) + (SEARCH_WIN if S.info[I_RESULT] == CLEARED else 0)


@kernel()
def search_decide(obs, sm, T, rng):
    """SearchPolicy.act: the seat's action after K samples of look-ahead games (module docstring).

    The same decision as the reference, with less work: a candidate must beat the planner's move
    by more than SEARCH_MARGIN a sample and every earlier candidate's total (ties go to the
    earlier), so its samples stop as soon as even a clear with every bird on each sample left
    cannot get it there. Its samples go hardest first (where the planner's move scored least), so
    a hopeless candidate shows it early. The samples are drawn before any game is played, in the
    reference's order, so the stream moves as the reference's does."""
    blueprint = decide_call(sm.blueprint[0], obs, sm.base, T, rng)  # the planner draws nothing from the stream
    k_samples = sm.samples[0]
    if k_samples <= 0:
        return blueprint
    nc = candidates(obs, blueprint, sm.base, T, sm.cand, sm.key)
    if nc == 1:
        return blueprint
    voids(obs, sm.void)
    for s in range(k_samples):
        sample_holders(obs, rng, sm.void, sm.holders[s], sm.cap, sm.order, sm.allowed)
        sm.seeds[s] = rnext(rng, 0)
    top = SEARCH_WIN + SEARCH_BIRD * T.bird_ring.shape[0]  # the most a look-ahead game can score
    bar = 0  # the planner's total, plus the margin: a candidate must score more
    for s in range(k_samples):
        sm.first[s] = look_ahead(obs, sm, s, sm.cand[0], T)
        bar += sm.first[s]
        sm.sorder[s] = s
    bar += SEARCH_MARGIN * k_samples
    for i in range(1, k_samples):  # insertion sort: lower blueprint points first, then the sample
        s = sm.sorder[i]
        j = i
        while j > 0 and sm.first[sm.sorder[j - 1]] > sm.first[s]:
            sm.sorder[j] = sm.sorder[j - 1]
            j -= 1
        sm.sorder[j] = s
    best = 0
    for i in range(1, nc):
        points = 0
        for j in range(k_samples):
            if points + (k_samples - j) * top <= bar:
                break
            points += look_ahead(obs, sm, sm.sorder[j], sm.cand[i], T)
        if points > bar:
            best, bar = i, points
    return sm.cand[best]


@kernel(entry=True)
def search_decide_py(obs, sm, T, rng):
    """``search_decide`` for Python callers (kernels call the other, kept as IR: runtime/linkonly.py)."""
    return search_decide(obs, sm, T, rng)


# how table_games draws its seats' streams (the Python engine's: search.play_on)
DEALT = 0  # game i dealt from seeds[i], the seats' streams seat_seeds[i] (engine.play_game)
DRAWN = 1  # S0 played on, each seat's stream drawn from seeds[i] once (search.play_on)
KEYED = 2  # S0 played on, each decision's stream drawn from seeds[i] and the number of moves so far
# (search.play_on with keyed=True): a continuation is then a function of the moment and the seed
# alone, and its moves lead through the moments they reach (the review shares them)


def search_many(seeds, seat_seeds, spec, samples, T, out):
    """play.play_many for the search player: a deal, then the search player in every seat, per
    seed (``table_games`` dealing its games: one compiled kernel for every table of the search)."""
    players = int(spec[SPEC_PLAYERS])
    table = (np.zeros(players, np.int64), np.full(2, SEARCH, np.int64), np.full(2, samples, np.int64))
    table_games_py(new_state_py(spec), DEALT, seeds, seat_seeds, table, T, out, np.zeros((0, 0), np.int64))


@kernel()
def table_games(S0, streams, seeds, seat_seeds, table, T, out, paths):
    """A table of two groups of seats, once per seed: ``table`` is (seat_group, group_policy,
    group_samples), seat k playing ``group_policy[seat_group[k]]`` (a PolicyId; the search player
    with ``group_samples`` of its group), each group with a memory of its own, as two policy
    objects of the Python engine. ``streams`` (DEALT, DRAWN, KEYED) says where game i starts and
    its seats' streams come from: ``search_many`` deals; ``kakapo rate``'s tables of the rated
    seats and the others play S0 on, DRAWN; the review's continuations, KEYED. Result codes,
    rounds played, birds scanned and trace hashes into ``out`` (results, rounds_played, scanned,
    traces); the first moves of game i from S0 into paths[i] (as many as fit; -1 after its end)."""
    seat_group, group_policy, group_samples = table
    results, rounds_played, scanned, traces = out
    S = new_state(S0.spec)
    mem_a = new_memory(T)
    mem_b = new_memory(T)
    sm_a = new_search_memory(S0.spec, group_samples[0], T)
    sm_b = new_search_memory(S0.spec, group_samples[1], T)
    rng = np.zeros(1, np.uint64)
    depth = paths.shape[1] if paths.shape[0] == seeds.shape[0] else 0
    for i in range(seeds.shape[0]):
        if streams == DEALT:
            deal_game(seeds[i], seat_seeds[i], S, T)
        else:
            copy_state(S0, S)
            rng[0] = seeds[i]
            for k in range(S.spec[SPEC_PLAYERS]):
                S.rs[k] = rnext(rng, 0)
        for j in range(depth):
            paths[i, j] = -1
        first = S.info[I_NMOVES]
        reset_memory(mem_a)
        reset_memory(mem_b)
        reset_memory(sm_a.base)
        reset_memory(sm_b.base)
        while S.info[I_PHASE] != OVER:
            seat = current_player(S)
            g = seat_group[seat]
            policy = group_policy[g]
            S.own_rs[0] = mix(seeds[i], S.info[I_NMOVES]) if streams == KEYED else S.rs[seat]
            obs = observe(S, seat)
            if policy == SEARCH:
                code = search_decide(obs, sm_a if g == 0 else sm_b, T, S.own_rs)
            else:
                code = decide_call(policy, obs, mem_a if g == 0 else mem_b, T, S.own_rs)
            S.rs[seat] = S.own_rs[0]
            if not is_legal_action(S, code, T):
                raise ValueError("a policy chose an action that is not legal")
            if S.info[I_NMOVES] - first < depth:
                paths[i, S.info[I_NMOVES] - first] = code
            apply_action(S, code, T)
        results[i] = S.info[I_RESULT]
        rounds_played[i] = S.info[I_ROUND]
        scanned[i] = count_scanned(S.occ, S.cm, T)
        traces[i] = S.trace[0]


@kernel(entry=True)
def table_games_py(S0, streams, seeds, seat_seeds, table, T, out, paths):
    """``table_games`` for Python callers (kernels call the other, kept as IR: runtime/linkonly.py)."""
    table_games(S0, streams, seeds, seat_seeds, table, T, out, paths)


def table_play_on(S0, seat_group, group_policy, group_samples, T, seeds, results, *, streams=DRAWN, paths=None):
    """S0 played on once per seed by a table of two groups of seats (``table_games``), the seats'
    streams DRAWN from the seed (or KEYED). Result codes into ``results``, the first moves of each
    game into ``paths`` (n rows) if given."""
    n = seeds.shape[0]
    out = (results, np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.uint64))
    table_games_py(S0, streams, seeds, np.zeros((n, S0.spec[SPEC_PLAYERS]), np.uint64),
                   (seat_group, group_policy, group_samples), T, out, np.zeros((0, 0), np.int64) if paths is None
                   else paths)


def search_play_on(S0, samples, T, seeds, results, *, streams=DRAWN, paths=None):
    """search.play_on with the search player, once per seed: S0 played to the end, the seats'
    streams drawn from the seed (DRAWN or KEYED). Result codes into ``results``, the first moves
    into ``paths`` if given. (A table of one group.)"""
    group = np.zeros(S0.spec[SPEC_PLAYERS], np.int64)
    table_play_on(S0, group, np.full(2, SEARCH, np.int64), np.full(2, samples, np.int64), T, seeds, results,
                  streams=streams, paths=paths)


class SearchPlayer:
    """The search player in games of the Python engine (`play`, `play --from`, `--engine python`):
    each decision is ``search_decide``'s, taken from the seat's observation alone
    (``fast_observation``), and the seat's stream moves as in the Numba engine's games, so game I
    of `play` is game I of `simulate`."""

    name = "search"

    def __init__(self, samples: int = DEFAULT_SAMPLES) -> None:
        self.samples = samples
        self._key: tuple | None = None
        self._arrays = self._memory = None
        self._moves: tuple = ()  # the moves its memory has seen: another game resets it

    def act(self, obs: Observation, rng: SplitMix64) -> Action:
        key = (obs.mission, obs.catalog.key, obs.spec)
        if key != self._key:
            library = planner_library(obs.mission, obs.catalog)
            self._arrays = build_arrays(obs.mission, obs.catalog, library)
            self._memory = new_search_memory_py(spec_array(obs.spec), self.samples, self._arrays)
            self._key, self._moves = key, ()
        if obs.moves[: len(self._moves)] != self._moves:
            reset_memory_py(self._memory.base)  # a new game (or another moment of one)
        self._moves = obs.moves
        rs = np.array([rng.state], np.uint64)
        code = search_decide_py(fast_observation(obs), self._memory, self._arrays, rs)
        rng.state = int(rs[0])
        return Action.from_code(int(code))
