"""Each Numba kernel against the reference it mirrors (solver/game/fast/__init__.py lists the pairs
in TWINS; every pair has a test here, marked with ``twin``). A difference in a whole game
(test_engines.py) says which game differs; these say which rule.
"""

import ast
import importlib
import inspect
import random
import sys
import textwrap

import numpy as np
import pytest

from solver.core.board import position_index
from solver.core.cards import ALL_CARDS, Card, Colour
from solver.core.codes import RESULT_NAMES, PolicyId, Skill
from solver.core.rules import Board, cells_of, grow
from solver.core.spec import GameSpec, selectable_pieces
from solver.game import fast, rng
from solver.game.actions import Action
from solver.game.fast.state import spec_array
from solver.game.planner import PlanArrays, PlanBoardView, conflicts, live_solutions
from solver.game.policies import BoardView, GreedyPolicy, HeuristicPolicy, MissionArrays
from solver.game.seeds import seat_seeds
from solver.game.state import Option, deal, decision_card, end_of_round, legal_cards, legal_positions, selection_options
from solver.io.missionfile import load_mission
from solver.runtime.bits import join, split
from tests.helpers.doors import doors
from tests.helpers.paths import ROOT, TESTS
from tests.helpers.twins import (
    arrays_for,
    assert_same_state,
    fast_legal,
    fresh_memory,
    moments,
    named_twins,
    reference_policy,
    small_library,
    twin,
)

fb = doors("solver.game.fast.board")
fc = doors("solver.game.fast.cards")
fh = doors("solver.game.fast.heuristic")
fp = doors("solver.game.fast.planner")
fplay = doors("solver.game.fast.play")
fpol = doors("solver.game.fast.policies")
frng = doors("solver.game.fast.rng")
fsearch = doors("solver.game.fast.search")
fs = doors("solver.game.fast.state")
bits = doors("solver.runtime.bits")

MISSIONS = ["tests/missions/buddy/b04.toml", "tests/missions/party/p02.toml", "tests/missions/draft/p18.toml",
            "tests/missions/draft/b12.toml"]


def hand_row(cards) -> np.ndarray:
    row = np.zeros(40, np.int64)
    for c in cards:
        row[c.index] = 1
    return row


def board_arrays(board: Board):
    occ = np.array(split(board.occupied), np.int64)
    cm = np.array([split(m) for m in board.colour_masks], np.int64)
    return occ, cm, hand_row(board.pieces)


def load(path, catalog):
    return load_mission(ROOT / path, catalog)


class Used:
    """Stands in for the board in selection_options: only which pieces are used matters."""

    def __init__(self, used):
        self.used = used

    def is_used(self, card):
        return card in self.used


# ---------------------------------------------------------------- bits and random numbers
@twin("bits.popcount", "bits.grow")
def test_popcount_and_grow():
    r = random.Random(0)
    for _ in range(300):
        m = r.getrandbits(144) & ((1 << 144) - 1)
        w = split(m)
        assert sum(int(bits.popcount(np.int64(x))) for x in w) == bin(m).count("1")
        assert join(bits.grow(*(np.int64(x) for x in w))) == grow(m)
    for x in (0, 1, -1, -(1 << 63), (1 << 62) | 1, r.getrandbits(63)):  # whole words, the sign bit too
        assert int(bits.popcount(np.int64(x))) == bin(x & ((1 << 64) - 1)).count("1")


@twin("bits.copy_into", "bits.copy_into_2d")
def test_copies_are_slice_assignments():
    r = np.random.default_rng(2)
    for shape in ((1,), (7,), (40,)):
        src, dst = r.integers(-9, 9, shape), np.zeros(shape, np.int64)
        bits.copy_into(dst, src)
        assert (dst == src).all()
    for dtype in (np.int64, np.uint64):
        src, dst = r.integers(0, 9, (5, 3)).astype(dtype), np.zeros((5, 3), dtype)
        bits.copy_into_2d(dst, src)
        assert (dst == src).all()


@twin("rng.rnext", "rng.below", "rng.mix")
def test_random_streams_and_trace_mixing():
    r = random.Random(1)
    for _ in range(50):
        seed = r.getrandbits(64)
        ref = rng.SplitMix64(seed)
        rs = np.array([seed], np.uint64)
        for n in (1, 2, 7, 40, 1000):
            assert int(frng.below(rs, 0, n)) == ref.below(n)
        assert int(frng.rnext(rs, 0)) == ref.next()
        h, v = r.getrandbits(64), r.getrandbits(20)
        assert int(frng.mix(np.uint64(h), v)) == rng.mix(h, v)


# ---------------------------------------------------------------- cards
@twin("cards.deal", "state.new_state", "state.start_game", "play.deal_game")
@pytest.mark.slow
@pytest.mark.parametrize("path,players", [("tests/missions/buddy/b04.toml", 2), ("tests/missions/party/p01.toml", 3),
                                          ("tests/missions/party/p01.toml", 4)])
def test_deal(path, players, catalog):
    m = load(path, catalog)
    spec = GameSpec.of(m, players)
    T = arrays_for(m, catalog, False)
    for seed in range(0, 2**40, 2**40 // 40):
        state = deal(m, catalog, players, seed)
        S = fs.new_state(spec_array(spec))
        fplay.deal_game(seed, seat_seeds([seed], players)[0], S, T)
        assert_same_state(state, S, f"seed {seed}")


@twin("state.copy_state")
def test_copy_state_is_a_clone_into_arrays_kept(catalog):
    m = load("tests/missions/party/p01.toml", catalog)
    spec = spec_array(GameSpec.of(m, 3))
    T = arrays_for(m, catalog, False)
    S, into = fs.new_state(spec), fs.new_state(spec)
    fplay.deal_game(7, seat_seeds([7], 3)[0], S, T)
    fplay.play_out(S, int(PolicyId.GREEDY), fpol.new_memory(T), T)  # every array has moved on
    before = [a.copy() for a in into]
    fs.copy_state(S, into)
    for name, got, want, old in zip(fs.FastState._fields, into, fs.clone_state(S), before, strict=True):
        assert np.array_equal(got, want), name
        assert got.shape == old.shape  # written in place: the arrays kept are the ones filled
    into.moves[0] += 1
    assert into.moves[0] != S.moves[0]  # and they are its own


@twin("cards.legal_cards")
def test_legal_cards():
    r = random.Random(1)
    out = np.empty(40, np.int64)
    for _ in range(500):
        hand = r.sample(ALL_CARDS, r.randint(1, 16))
        lead = r.choice([None, *Colour])
        n = fc.legal_cards(hand_row(hand), -1 if lead is None else int(lead), out)
        assert sorted(out[:n].tolist()) == sorted(c.index for c in legal_cards(hand, lead))


@twin("cards.decision_card")
def test_decision_card():
    r = random.Random(2)
    trick = np.empty(5, np.int64)
    for _ in range(1000):
        cards = r.sample(ALL_CARDS, r.choice([3, 4]))
        trump = r.choice(list(Colour))
        trick[: len(cards)] = [c.index for c in cards]
        assert fc.decision_card(trick, len(cards), int(trump)) == decision_card(list(enumerate(cards)), trump)[0]


@twin("cards.selection_options")
@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_selection_options(players, catalog):
    m = load("tests/missions/buddy/b01.toml" if players == 2 else "tests/missions/party/p01.toml", catalog)
    spec = GameSpec.of(m, players)
    r = random.Random(3)
    trick = np.empty(5, np.int64)
    opts = np.zeros((fc.MAX_OPTIONS, 4), np.int64)
    for _ in range(1500):
        colour = r.choice(list(Colour))
        pool = [c for c in ALL_CARDS if c.colour == colour] if r.random() < 0.4 else ALL_CARDS
        cards = r.sample(pool, spec.reveals_per_round)
        trump = r.choice(list(Colour))
        plays = list(enumerate(cards))
        _, decision = decision_card(plays, trump)
        used = set(r.sample(ALL_CARDS, r.randint(0, 20)))
        skills = r.choice([0, 1, 3])
        want = selection_options(spec, Used(used), plays, decision, skills)
        trick[: len(cards)] = [c.index for c in cards]
        n = fc.selection_options(spec_array(spec), hand_row(used), trick, len(cards), decision.index, skills, opts)
        got = [Option(Skill(opts[k, 0]), tuple(Card.from_index(int(opts[k, 2 + j])) for j in range(opts[k, 1])))
               for k in range(n)]
        assert got == want


# ---------------------------------------------------------------- the board
def boards(mission, catalog, seed, steps=9):
    """Boards along random legal placements (mostly near the birds), with each placement's global id."""
    r = random.Random(seed)
    tables = arrays_for(mission, catalog, False)
    board = Board.start(mission)
    yield board.copy(), None
    rings = 0
    for b in mission.birds:
        rings |= b.ring
    for _ in range(steps):
        free = [c for c in ALL_CARDS if not board.is_used(c)]
        r.shuffle(free)
        for card in free:
            legal = board.legal_placements(card, catalog[card])
            near = [p for p in legal if p.mask & rings]
            if legal:
                p = r.choice(near if near and r.random() < 0.85 else legal)
                board.place(p)
                yield board.copy(), int(tables.pos_start[card.index]) + position_index(catalog[card])[p.cells]
                break


@twin("board.is_legal", "board.is_scanned", "board.is_spoiled", "board.count_scanned", "board.place",
      "board.has_legal_position")
@pytest.mark.slow
@pytest.mark.parametrize("path", MISSIONS, ids=lambda p: p.split("/")[-1])
def test_board_rules(path, catalog):
    m = load(path, catalog)
    T = arrays_for(m, catalog, False)
    for seed in range(5):
        prev = None
        for board, g in boards(m, catalog, seed):
            occ, cm, used = board_arrays(board)
            if prev is not None:  # place() adds position g to the previous board
                p_occ, p_cm, p_used = prev
                fb.place(T.pos_mask[g], int(T.pos_card[g]), p_occ, p_cm, p_used)
                assert np.array_equal(p_occ, occ) and np.array_equal(p_cm, cm) and np.array_equal(p_used, used)
            prev = board_arrays(board)
            assert fb.count_scanned(occ, cm, T) == len(board.scanned())
            for i, b in enumerate(m.birds):
                assert fb.is_scanned(i, occ, cm, T.bird_ring, T.bird_edge, T.mark_colour) == board.is_scanned(b)
                if not T.bird_edge[i] and T.bird_live[i]:
                    assert fb.is_spoiled(i, occ, cm, T.bird_ring, T.mark_colour) == (not board.can_still_be_scanned(b))
            for card in random.Random(seed).sample(ALL_CARDS, 8):
                for gg in range(T.pos_start[card.index], T.pos_start[card.index + 1], 7):
                    mask = join(T.pos_mask[gg])
                    assert fb.is_legal(gg, int(card.colour), occ, cm, T.pos_mask, T.pos_halo, T.bird_all) == \
                        board.is_legal_mask(int(card.colour), mask)
                if not board.is_used(card):
                    assert fb.has_legal_position(card.index, occ, cm, T) == \
                        bool(legal_positions(board, card, catalog[card]))


# ---------------------------------------------------------------- the state: every action from many moments
STATE_KERNELS = ("state.current_player", "state.piece_to_place", "state.legal_actions", "state.is_legal_action",
                 "state.apply_action", "state.next_piece", "state.end_round", "state.end_check", "state.observe")


@twin(*STATE_KERNELS)
@pytest.mark.slow
@pytest.mark.parametrize("path,players", [(MISSIONS[0], 2), (MISSIONS[1], 3), (MISSIONS[2], 4)],
                         ids=lambda x: str(x).split("/")[-1])
def test_state_every_legal_action_from_many_moments(path, players, catalog):
    """From moments of random games: same current player, piece, legal actions and observation;
    every legal action accepted and leading to the same next state; others refused."""
    m = load(path, catalog)
    T = arrays_for(m, catalog, False)
    checked = 0
    for seed in range(3):
        steps, _ = moments(m, catalog, players, "random", seed)
        for k, (state, _) in enumerate(steps):
            if k % 3:
                continue
            S = fs.fast_state(state)
            seat = state.current_player()
            assert fs.current_player(S) == seat
            if state.piece is not None:
                assert fs.piece_to_place(S) == state.piece.index
            legal = sorted(a.code for a in state.legal_actions())
            assert fast_legal(S, T) == legal
            obs, ref = fs.observe(S, seat), state.observation(seat)
            assert np.array_equal(obs.hand, hand_row(ref.hand)) and obs.seat == seat
            assert [int(x) for x in obs.hand_count] == list(ref.hand_sizes)
            for code in legal[:6] + legal[-3:]:
                after, S2 = state.clone(), fs.fast_state(state)
                after.apply(Action.from_code(code))
                assert fs.is_legal_action(S2, code, T)
                fs.apply_action(S2, code, T)
                assert_same_state(after, S2, f"seed {seed} moment {k} action {code}")
                checked += 1
            for code in (0, 39, 128, 140, 4096 * 3 + 5, 4096 * 40 + 1):
                assert fs.is_legal_action(S, code, T) == (code in legal)
    assert checked > 50


@twin("state.end_check")
def test_end_check():
    for unplaceable in (False, True):
        for scanned in range(4):
            for rnd in (1, 7, 8):
                want = end_of_round(unplaceable, scanned, 2, rnd, 8)
                got = fs.end_check(unplaceable, scanned, 2, rnd, 8)
                assert (RESULT_NAMES[got] if got >= 0 else None) == (None if want is None else want.label)


# ---------------------------------------------------------------- the heuristic's board view
def view_arrays(T, occ, cm):
    tgt = np.zeros(max(T.bird_ring.shape[0], 1), np.int64)
    need = np.zeros(fh.NEED_SIZE, np.int64)
    fh.refresh_view(occ, cm, tgt, need, T)
    return tgt, need


@twin("heuristic.refresh_view", "heuristic.score_mask")
@pytest.mark.slow
@pytest.mark.parametrize("path", MISSIONS, ids=lambda p: p.split("/")[-1])
def test_board_view_and_score(path, catalog):
    m = load(path, catalog)
    T = arrays_for(m, catalog, False)
    t = MissionArrays(m, catalog)
    for seed in range(4):
        r = random.Random(50 + seed)
        for board, _ in boards(m, catalog, seed):
            occ, cm, _ = board_arrays(board)
            tgt, need = view_arrays(T, occ, cm)
            view = BoardView(t, board)
            assert join(need[:3]) == view.need
            assert {m.birds[i].letter for i in range(len(m.birds)) if tgt[i]} == {b.letter for b in view.targets}
            for card in r.sample(ALL_CARDS, 6):
                for g in range(T.pos_start[card.index], T.pos_start[card.index + 1], 11):
                    w = T.pos_mask[g]
                    got = fh.score_mask(int(card.colour), (w[0], w[1], w[2]), T.pos_birds[g], occ, tgt,
                                        (T.bird_ring, T.mark_colour, T.mark_all))
                    assert got == view.score(int(card.colour), join(w))


@twin("heuristic.usefulness", "heuristic.placed", "heuristic.is_fresh", "heuristic.foot_score", "heuristic.first_legal",
      "heuristic.is_closed")
@pytest.mark.slow
@pytest.mark.parametrize("path", MISSIONS, ids=lambda p: p.split("/")[-1])
def test_usefulness_cached_across_placements(path, catalog):
    """The incremental cache (placed / is_fresh) gives BoardView.usefulness of a fresh board."""
    m = load(path, catalog)
    T = arrays_for(m, catalog, False)
    t = MissionArrays(m, catalog)
    memo = FootMemo(T)  # footprint scores shared by the cards, and by the games: dealt-board scores are kept
    for seed in range(5):
        cache = [np.zeros(40, np.int64) for _ in range(5)]  # value, known, best_pos, best_grp, stale
        memo.new_game()
        r = random.Random(100 + seed)
        for board, g in boards(m, catalog, seed):
            occ, cm, used = board_arrays(board)
            if g is not None:
                fh.placed(g, occ, cm, cache[0], cache[1], cache[2], cache[4], T)
                memo.placed(g)
            tgt, need = view_arrays(T, occ, cm)
            view = BoardView(t, board)
            for card in r.sample(ALL_CARDS, 25):  # some cards are read, some stay stale longer
                fresh = fh.is_fresh(card.index, cache[1], cache[4])
                before = cache[0][card.index]
                fh.usefulness(np.array([card.index, card.index]), 2, (occ, cm, used, tgt, need), tuple(cache),
                              memo.footmemo(), memo.skip, T)
                assert cache[0][card.index] == view.usefulness(card), (seed, str(card))
                assert not fresh or cache[0][card.index] == before  # a fresh value is read as it is
        assert memo.memo[fh.F_DEALT_KNOWN].any() and (memo.memo[fh.F_STAMP] >= 0).any()  # both kinds were used


class FootMemo:
    """The footprint memo as policies.sync keeps it: board versions, bird stamps, birds moved."""

    def __init__(self, T):
        self.T = T
        self.memo = np.zeros((fh.F_ROWS, T.foot_count), np.int64)
        self.memo[fh.F_STAMP] = -1
        self.bird_stamp = np.zeros(max(T.bird_ring.shape[0], 1), np.int64)
        self.version, self.moved = 0, 0
        self.skip = np.zeros(T.grp_mask.shape[0], np.int64)  # positions known illegal in this game

    def new_game(self):
        self.version += 1
        self.moved = 0
        self.skip[:] = 0

    def placed(self, g):
        self.version += 1
        self.moved |= int(self.T.pos_birds[g])
        for b in range(self.bird_stamp.shape[0]):
            if self.T.pos_birds[g] >> b & 1:
                self.bird_stamp[b] = self.version

    def footmemo(self):
        """The kernels' ``footmemo``: (T.grp_foot, memo, bird_stamp, version, moved)."""
        return self.T.grp_foot, self.memo, self.bird_stamp, self.version, self.moved


class Obs:
    """The parts of an observation the placement choice reads."""

    def __init__(self, mission, catalog, board):
        self.mission, self.catalog, self.board = mission, catalog, board


def scratch(T):
    """smart_place's arrays after the view: its useful positions, its scratch board, an empty
    footprint memo (a new game) and the groups' positions known illegal."""
    max_pos = int(np.max(np.diff(T.pos_start)))
    memo = FootMemo(T)
    return ((np.empty(max_pos, np.int64), np.empty(max_pos, np.int64)), (np.empty(3, np.int64),
            np.empty((5, 3), np.int64)), memo.footmemo(), memo.skip)


@twin("heuristic.smart_place", "heuristic.is_dead_end", "heuristic.filler")
@pytest.mark.slow
@pytest.mark.parametrize("path", MISSIONS, ids=lambda p: p.split("/")[-1])
def test_placement_choice_dead_ends_and_fillers(path, catalog):
    """smart_place is SmartBase.place (greedy: no dead-end checks; heuristic: with them); is_dead_end
    and filler are their reference functions."""
    m = load(path, catalog)
    T = arrays_for(m, catalog, False)
    t = MissionArrays(m, catalog)
    sc = scratch(T)
    for seed in range(2):
        r = random.Random(200 + seed)
        for board, _ in boards(m, catalog, seed):
            occ, cm, used = board_arrays(board)
            tgt, need = view_arrays(T, occ, cm)
            view = BoardView(t, board)
            for card in r.sample([c for c in ALL_CARDS if not board.is_used(c)], 4):
                legal = board.legal_placements(card, catalog[card])
                masks = [p.mask for p in legal]
                scores = [view.score(int(card.colour), mk) if mk & view.need else 0 for mk in masks]
                f = fh.filler(card.index, need, occ, cm, tgt, T)
                want_f = HeuristicPolicy._filler(view, masks, scores)
                assert (f if f < 0 else f - T.pos_start[card.index]) == \
                    (-1 if want_f is None else position_index(catalog[card])[legal[want_f].cells])
                for p in legal[::9]:
                    g = int(T.pos_start[card.index]) + position_index(catalog[card])[p.cells]
                    assert fh.is_dead_end(int(card.colour), card.index, g, (occ, cm, used, tgt, need), sc[1], T) \
                        == view.is_dead_end(int(card.colour), card, p.mask)
                for policy, avoid in ((GreedyPolicy(), False), (HeuristicPolicy(), True)):
                    g = fh.smart_place(card.index, avoid, (occ, cm, used, tgt, need), *scratch(T), T)
                    if not legal:
                        assert g == -1
                        continue
                    want = legal[policy.place(Obs(m, catalog, board), card, legal, None)]
                    assert g - T.pos_start[card.index] == position_index(catalog[card])[want.cells]


# ---------------------------------------------------------------- card play and selection
def uval_of(view) -> np.ndarray:
    return np.array([view.usefulness(c) for c in ALL_CARDS], np.int64)


def opts_array(options) -> np.ndarray:
    opts = np.zeros((fc.MAX_OPTIONS, 4), np.int64)
    for k, o in enumerate(options):
        opts[k, 0], opts[k, 1] = int(o.skill), len(o.pieces)
        for j, p in enumerate(o.pieces):
            opts[k, 2 + j] = p.index
    return opts


@twin("heuristic.heuristic_card", "heuristic.heuristic_select")
@pytest.mark.slow
@pytest.mark.parametrize("path,players", [(MISSIONS[0], 2), (MISSIONS[1], 3), (MISSIONS[2], 4), (MISSIONS[3], 2)],
                         ids=lambda x: str(x).split("/")[-1])
def test_heuristic_card_and_selection(path, players, catalog):
    m = load(path, catalog)
    checks = 0
    for seed in range(3):
        steps, _ = moments(m, catalog, players, "heuristic", 1000 + seed)
        for state, action in steps:
            seat = state.current_player()
            obs = state.observation(seat)
            pol = HeuristicPolicy()
            if obs.phase == 0:
                trick = np.zeros(5, np.int64)
                trick[: len(obs.trick)] = [c.index for _, c in obs.trick]
                legal = np.array([a.card.index for a in obs.legal], np.int64)
                got = fh.heuristic_card(legal, len(legal), trick, len(obs.trick), int(obs.trump),
                                        (hand_row(obs.hand), hand_row(obs.public_cards()), hand_row(obs.removed)),
                                        uval_of(pol.view(obs)))
                assert got == action.card.index
            elif obs.phase == 1:
                got = fh.heuristic_select(len(obs.options), opts_array(obs.options), uval_of(pol.view(obs)))
                assert got == action.index
            else:
                continue
            checks += 1
    assert checks > 50


# ---------------------------------------------------------------- the planner
def plan_view(m, catalog, obs):
    t = PlanArrays(m, catalog, small_library(m, catalog))
    return t, PlanBoardView(t, obs.board, live_solutions(t, obs))


@twin("planner.spoil_solutions", "planner.live_solutions", "planner.plan_usefulness", "planner.planner_place",
      "planner.selectable_pieces", "policies.refresh_live")
@pytest.mark.slow
@pytest.mark.parametrize("path,players", [(MISSIONS[3], 2), (MISSIONS[1], 3), ("tests/missions/draft/p13.toml", 3)],
                         ids=lambda x: str(x).split("/")[-1])
def test_planner_kernels(path, players, catalog):
    """Along planner games: the spoiled and live solutions with their bonus, the planner's usefulness
    and its placement, each against planner.py."""
    m = load(path, catalog)
    T = arrays_for(m, catalog, True)
    lib = small_library(m, catalog)
    assert len(lib) > 3
    checks = 0
    for seed in range(3):
        steps, _ = moments(m, catalog, players, "planner", 300 + seed)
        for state, action in steps[::2]:
            seat = state.current_player()
            obs = state.observation(seat)
            t, view = plan_view(m, catalog, obs)
            S = fs.fast_state(state)
            mem = fresh_memory(T)
            fobs = fs.observe(S, seat)
            fpol.sync(fobs, mem, T)
            spoiled = [i for i in range(len(lib)) if any(conflicts(p.card, p.mask, t, i)
                                                          for c, p in obs.board.pieces.items() if c not in t.pre)]
            assert sorted(np.flatnonzero(mem.spoiled).tolist()) == spoiled
            fpol.refresh_live(fobs, mem, T)
            live = {i: n for i, n in live_solutions(t, obs)}
            assert {i: int(mem.live[i]) for i in range(len(lib)) if mem.live[i] >= 0} == live
            bonus = {(int(T.pair_card[j]), int(T.pair_pos[j])): int(mem.pair_bonus[j])
                     for j in range(len(T.pair_card)) if mem.pair_bonus[j] > 0}
            want = {(c.index, int(T.pos_start[c.index]) + position_index(catalog[c])[frozenset(
                cells_of(mk))]): b for (c, mk), b in view.align.items()}
            assert bonus == want
            fpol.evaluate(np.arange(40, dtype=np.int64), 40, True, fobs, mem, T)
            assert [int(x) for x in mem.puval] == [view.usefulness(c) for c in ALL_CARDS]
            if obs.phase == 2:
                board_view = (S.occ, S.cm, S.used, mem.tgt, mem.need)
                h = fh.smart_place(obs.piece.index, True, board_view, *scratch(T), T)
                g = fp.planner_place(obs.piece.index, h, mem.mstate[fpol.M_NLIVE], mem.live, board_view,
                                     mem.pair_bonus, T)
                assert g - T.pos_start[obs.piece.index] == action.index
            checks += 1
    assert checks > 20
    for rounds in range(0, 14):
        for skills in range(0, 8):
            assert fp.selectable_pieces(rounds, skills) == selectable_pieces(rounds, skills)


# ---------------------------------------------------------------- the policies' act
@twin("policies.decide", "policies.decide_call", "policies.random_action", "policies.sync", "policies.evaluate",
      "policies.new_memory", "policies.reset_memory")
@pytest.mark.slow
@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic", "planner"])
@pytest.mark.parametrize("path,players", [(MISSIONS[0], 2), (MISSIONS[2], 4), ("tests/missions/draft/p13.toml", 3)],
                         ids=lambda x: str(x).split("/")[-1])
def test_decide_is_act_from_any_moment(path, players, policy, catalog):
    """decide with a memory that has seen nothing yet, at any moment, takes the reference policy's action
    (and uses the seat's random stream the same way)."""
    m = load(path, catalog)
    T = arrays_for(m, catalog, policy == "planner")
    for seed in range(2):
        steps, _ = moments(m, catalog, players, policy, 400 + seed)
        for state, action in steps[::3]:
            seat = state.current_player()
            S = fs.fast_state(state)
            rs = S.rs[seat: seat + 1].copy()
            code = fpol.decide(int(PolicyId.parse(policy)), fs.observe(S, seat), fresh_memory(T), T,
                               S.rs[seat: seat + 1])
            assert code == action.code, (seed, str(action))
            assert fpol.decide_call(int(PolicyId.parse(policy)), fs.observe(S, seat), fresh_memory(T), T, rs) == code
            assert rs[0] == S.rs[seat]
            after = reference_policy(policy, m, catalog)
            rngs = state.clone().seat_rngs[seat]
            after.act(state.observation(seat), rngs)
            assert int(S.rs[seat]) == rngs.state


@pytest.mark.slow
@twin("policies.board_slot", "policies.new_memory_with_boards", "policies.new_boards")
@pytest.mark.parametrize("path,players", [(MISSIONS[0], 2), (MISSIONS[2], 4)], ids=lambda x: str(x).split("/")[-1])
def test_decisions_from_rows_kept_by_board_are_the_reference_policys(path, players, catalog):
    """A planner memory reading and writing usefulness and placements by board (``board_slot``)
    takes the reference planner's action at every moment: rows kept across moments and games,
    shared by memories that take turns, and a table of one row that every new board takes over.
    The moments include the boards after other placements of the same piece (the same pieces
    used, other cells), one after the other: a row is read only for its own board."""
    from solver.game.state import Phase

    m = load(path, catalog)
    T = arrays_for(m, catalog, True)
    one_row = fpol.new_boards(1)  # one row and the clock
    shared = fpol.new_boards(8)
    planner = int(PolicyId.PLANNER)
    states = []
    for seed in range(3):
        steps, _ = moments(m, catalog, players, "planner", 600 + seed)
        for state, _action in steps:
            states.append(state)
            if state.phase == Phase.PLACE:
                for other in state.legal_actions()[:3]:  # the same piece elsewhere
                    after = state.clone()
                    after.apply(other)
                    if not after.is_over():
                        states.append(after)
    for state in states:
        seat = state.current_player()
        rngs = state.clone().seat_rngs[seat]
        action = reference_policy("planner", m, catalog).act(state.observation(seat), rngs)
        for boards in (one_row, shared, shared):
            S = fs.fast_state(state)
            mem = fpol.new_memory_with_boards(T, boards)
            fpol.reset_memory(mem)
            code = fpol.decide(planner, fs.observe(S, seat), mem, T, S.rs[seat: seat + 1])
            assert code == action.code, str(action)
    assert len(states) > 100
    assert one_row[1, 0] > 30 and (shared[:8, fpol.B_KNOWN] != 0).sum() > 4  # rows taken over, rows read


# ---------------------------------------------------------------- playing out
@twin("play.play_out", "play.play_many")
@pytest.mark.slow
@pytest.mark.parametrize("policy", ["random", "greedy", "heuristic", "planner"])
def test_play_out_from_any_moment_and_whole_games(policy, catalog):
    from solver.game.engine import play_out

    m = load(MISSIONS[3], catalog)
    T = arrays_for(m, catalog, policy == "planner")
    spec = spec_array(GameSpec.of(m, 2))
    for seed in range(3):
        steps, end = moments(m, catalog, 2, policy, 500 + seed)
        results, _rounds, _scanned, traces = fast.run(T, spec, np.array([500 + seed], np.uint64), policy)
        assert int(traces[0]) == end.trace and RESULT_NAMES[results[0]] == end.result()
        for state, _ in steps[:: max(1, len(steps) // 4)]:
            S = fs.fast_state(state)
            fplay.play_out(S, int(PolicyId.parse(policy)), fresh_memory(T), T)
            ref = play_out(state.clone(), reference_policy(policy, m, catalog))
            assert_same_state(ref, S, f"seed {seed}")


# ---------------------------------------------------------------- every kernel has its test
KERNEL_MODULES = [importlib.import_module(f"solver.game.fast.{m}") for m in (
    "board", "cards", "heuristic", "planner", "play", "policies", "rng", "state", "search")] + [
    importlib.import_module("solver.runtime.bits")]


def kernels() -> set[str]:
    out = set()
    for mod in KERNEL_MODULES:
        for name, obj in vars(mod).items():
            # a kernel defined in the module, or compiled there from a core rule (selectable_pieces);
            # not Python's doors to kernels (python_doors below)
            if (hasattr(obj, "py_func") and (obj.py_func.__module__ == mod.__name__ or name == "selectable_pieces")
                    and not name.endswith("_py")):
                out.add(f"{mod.__name__.split('.')[-1]}.{name}")
    return out


def python_doors() -> dict[str, str]:
    """Kernels named X_py: an entry kernel that only calls X, for Python callers, so that X itself
    stays link-only IR (runtime/linkonly.py). name -> the kernel it calls."""
    out = {}
    for mod in KERNEL_MODULES:
        for name, obj in vars(mod).items():
            if hasattr(obj, "py_func") and name.endswith("_py") and obj.py_func.__module__ == mod.__name__:
                out[f"{mod.__name__.split('.')[-1]}.{name}"] = name[: -len("_py")]
    return out


def test_the_kernels_jobs_start_from_are_called_from_python():
    """runtime/cachedir.JOB_KERNELS (the studio warms up until they are cached) names entry kernels."""
    from solver.openhand import fastwitness
    from solver.puzzle import coversearch
    from solver.runtime.cachedir import JOB_KERNELS

    entries = {name for mod in [*KERNEL_MODULES, fastwitness, coversearch] for name, obj in vars(mod).items()
               if hasattr(obj, "py_func") and not obj.targetoptions.get("no_cpython_wrapper")}
    assert set(JOB_KERNELS) <= entries


def test_each_python_door_calls_only_its_kernel():
    doors = python_doors()
    assert {"state.new_state_py", "policies.reset_memory_py", "search.search_decide_py"} <= set(doors)
    for door, base in doors.items():
        module, name = door.split(".")
        src = inspect.getsource(getattr(sys.modules["solver.game.fast." + module], name).py_func)
        body = [s for s in ast.parse(textwrap.dedent(src)).body[0].body  # type: ignore[attr-defined]
                if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]  # its docstring
        calls = [n.func.id for n in ast.walk(body[0]) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
        assert len(body) == 1 and calls == [base], (door, calls)
        assert f"{module}.{base}" in fast.TWINS, door


def resolve(ref: str):
    """The object a TWINS entry names, e.g. game.state.GameState.apply."""
    parts = ref.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module("solver." + ".".join(parts[:k]))
        except ImportError:
            continue
        for attr in parts[k:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(ref)


def test_every_kernel_is_a_listed_twin_with_a_test():
    listed = set(fast.TWINS) | {"bits.popcount", "bits.grow", "bits.copy_into", "bits.copy_into_2d"}
    assert kernels() == listed, kernels() ^ listed
    named = named_twins(TESTS)  # the search player's twin tests are in test_search.py
    assert listed == named, listed ^ named
    for ref in fast.TWINS.values():  # the reference each names is real
        assert callable(resolve(ref)) or isinstance(resolve(ref), property), ref
