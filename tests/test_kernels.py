"""Each Numba kernel against the reference function it mirrors (fast.py names them the same).

A difference in a whole game (test_engines.py) says which game differs; these say which rule.
"""

import random

import numpy as np
import pytest

from solver.core.board import position_index
from solver.core.cards import ALL_CARDS, Card, Colour
from solver.core.rules import Board
from solver.game import fast
from solver.game.codes import RESULT_NAMES, SKILL_NAMES
from solver.game.engine import end_of_round
from solver.game.policies import BoardView, GreedyPolicy, HeuristicPolicy, MissionTables
from solver.game.state import Option, deal, decision_card, legal_cards, selection_options
from solver.game.tables import build_tables
from solver.io.missionfile import load_mission
from solver.runtime.bits import split
from tests.conftest import ROOT

MISSIONS = ["tests/missions/buddy/b04.toml", "tests/missions/party/p02.toml", "benchmarks/draft_campaign/party/p18.toml",
            "benchmarks/draft_campaign/buddy/b12.toml"]


def hand_row(cards) -> np.ndarray:
    row = np.zeros(40, np.int64)
    for c in cards:
        row[c.index] = 1
    return row


def board_arrays(board: Board):
    occ = np.array(split(board.occupied), np.int64)
    cm = np.array([split(m) for m in board.colour_masks], np.int64)
    used = hand_row(board.pieces)
    return occ, cm, used


class Used:
    """Stands in for the board in selection_options: only which pieces are used matters."""

    def __init__(self, used):
        self.used = used

    def is_used(self, card):
        return card in self.used


# ---------------------------------------------------------------- cards
@pytest.mark.parametrize("mode,players", [("buddy", 2), ("party", 3), ("party", 4)])
def test_deal(catalog, mode, players):
    m = load_mission(ROOT / ("tests/missions/buddy/b01.toml" if mode == "buddy" else "tests/missions/party/p01.toml"), catalog)
    for seed in range(0, 2**40, 2**40 // 60):
        state = deal(m, catalog, players, seed)
        rs = np.empty(players + 1, np.uint64)
        hand = np.zeros((players, 40), np.int64)
        removed = np.zeros(40, np.int64)
        start = fast.deal(seed, players, mode == "buddy", rs, hand, removed)
        assert start == state.start_player
        for k in range(players):
            assert np.array_equal(hand[k], hand_row(state.hands[k]))
            assert int(rs[k]) == state.seat_rngs[k].state
        assert np.array_equal(removed, hand_row(state.removed))


def test_legal_cards():
    rng = random.Random(1)
    out = np.empty(40, np.int64)
    for _ in range(500):
        hand = rng.sample(ALL_CARDS, rng.randint(1, 16))
        lead = rng.choice([None] + list(Colour))
        n = fast.legal_cards(hand_row(hand), -1 if lead is None else int(lead), out)
        assert sorted(out[:n].tolist()) == sorted(c.index for c in legal_cards(hand, lead))


def test_decision_card():
    rng = random.Random(2)
    trick = np.empty(5, np.int64)
    for _ in range(1000):
        cards = rng.sample(ALL_CARDS, rng.choice([3, 4]))
        trump = rng.choice(list(Colour))
        plays = [(i, c) for i, c in enumerate(cards)]
        trick[:len(cards)] = [c.index for c in cards]
        assert fast.decision_card(trick, len(cards), int(trump)) == decision_card(plays, trump)[0]


@pytest.mark.parametrize("mode", ["buddy", "party"])
def test_selection_options(catalog, mode):
    m = load_mission(ROOT / ("tests/missions/buddy/b01.toml" if mode == "buddy" else "tests/missions/party/p01.toml"), catalog)
    rng = random.Random(3)
    trick = np.empty(5, np.int64)
    opts = np.zeros((fast.MAX_OPTIONS, 4), np.int64)
    for _ in range(1500):
        colour = rng.choice(list(Colour))
        pool = [c for c in ALL_CARDS if c.colour == colour] if rng.random() < 0.4 else ALL_CARDS
        cards = rng.sample(pool, 4 if mode == "buddy" else rng.choice([3, 4]))
        trump = rng.choice(list(Colour))
        plays = list(enumerate(cards))
        _, decision = decision_card(plays, trump)
        used = set(rng.sample(ALL_CARDS, rng.randint(0, 20)))
        skills = rng.choice([0, 1, 3])
        want = selection_options(m, Used(used), plays, decision, skills)
        trick[:len(cards)] = [c.index for c in cards]
        n = fast.selection_options(mode == "buddy", hand_row(used), trick, len(cards), decision.index, skills, opts)
        got = [Option(SKILL_NAMES[opts[k, 0]], tuple(Card.from_index(int(opts[k, 2 + j])) for j in range(opts[k, 1])))
               for k in range(n)]
        assert got == want


def test_end_check():
    for unplaceable in (False, True):
        for scanned in range(4):
            for rnd in (1, 7, 8):
                want = end_of_round(unplaceable, scanned, 2, rnd, 8)
                got = fast.end_check(unplaceable, scanned, 2, rnd, 8)
                assert (RESULT_NAMES[got] if got >= 0 else None) == want


# ---------------------------------------------------------------- boards along random placements
def boards(mission, catalog, seed, steps=9):
    """Boards along random legal placements (mostly near the birds), with each placement's global id."""
    rng = random.Random(seed)
    tables = build_tables(mission, catalog)
    board = Board.start(mission)
    yield board.copy(), None
    rings = 0
    for b in mission.birds:
        rings |= b.ring
    for _ in range(steps):
        free = [c for c in ALL_CARDS if not board.is_used(c)]
        rng.shuffle(free)
        for card in free:
            legal = board.legal_placements(card, catalog[card])
            near = [p for p in legal if p.mask & rings]
            if legal:
                p = rng.choice(near if near and rng.random() < 0.85 else legal)
                board.place(p)
                yield board.copy(), int(tables.pos_start[card.index]) + position_index(catalog[card])[p.cells]
                break


@pytest.mark.parametrize("path", MISSIONS, ids=lambda p: p.split("/")[-1])
def test_board_rules_scanning_and_legality(path, catalog):
    m = load_mission(ROOT / path, catalog)
    T = build_tables(m, catalog)
    for seed in range(6):
        for board, _ in boards(m, catalog, seed):
            occ, cm, used = board_arrays(board)
            assert fast.count_scanned(occ, cm, T) == len(board.scanned())
            for card in random.Random(seed).sample(ALL_CARDS, 6):
                for g in range(T.pos_start[card.index], T.pos_start[card.index + 1], 7):
                    mask = sum(int(T.pos_mask[g, w]) << (48 * w) for w in range(3))
                    assert fast.is_legal(g, int(card.colour), occ, cm, T.pos_mask, T.pos_halo, T.bird_all) == \
                        board.is_legal_mask(int(card.colour), mask)


def view_arrays(T, occ, cm):
    nb = T.bird_ring.shape[0]
    tgt = np.zeros(max(nb, 1), np.int64)
    need = np.zeros(5, np.int64)
    fast.refresh_view(occ, cm, tgt, need, T)
    return tgt, need


@pytest.mark.parametrize("path", MISSIONS, ids=lambda p: p.split("/")[-1])
def test_usefulness_cached_across_placements(path, catalog):
    """The incremental cache (placed / is_fresh) gives BoardView.usefulness of a fresh board."""
    m = load_mission(ROOT / path, catalog)
    T = build_tables(m, catalog)
    t = MissionTables(m, catalog)
    for seed in range(5):
        cache = [np.zeros(40, np.int64) for _ in range(5)]  # value, known, best_pos, best_grp, stale
        rng = random.Random(100 + seed)
        for board, g in boards(m, catalog, seed):
            occ, cm, used = board_arrays(board)
            if g is not None:
                fast.placed(g, occ, cm, cache[0], cache[1], cache[2], cache[4], T)
            tgt, need = view_arrays(T, occ, cm)
            view = BoardView(t, board)
            for card in rng.sample(ALL_CARDS, 25):  # some cards are read, some stay stale longer
                if not fast.is_fresh(card.index, cache[1], cache[4]):
                    fast.usefulness(card.index, occ, cm, used, tgt, need, *cache, T.pos_start, T.pos_mask,
                                    T.pos_halo, T.bird_all, T.grp_start, T.grp_mask, T.grp_ub, T.grp_birds,
                                    T.grp_pos_start, T.grp_pos, T.bird_ring, T.mark_colour, T.mark_all,
                                    T.card_birds, T.most_birds)
                assert cache[0][card.index] == view.usefulness(card), (seed, str(card))


class Obs:
    """The parts of an observation the placement choice reads."""

    def __init__(self, mission, catalog, board):
        self.mission, self.catalog, self.board = mission, catalog, board


@pytest.mark.parametrize("path", MISSIONS, ids=lambda p: p.split("/")[-1])
def test_placement_choice(path, catalog):
    """smart_place is SmartBase.place (greedy: no dead-end checks; heuristic: with them)."""
    m = load_mission(ROOT / path, catalog)
    T = build_tables(m, catalog)
    max_pos = int(np.max(np.diff(T.pos_start)))
    scratch = (np.empty(max_pos, np.int64), np.empty(max_pos, np.int64), np.empty(3, np.int64),
               np.empty((5, 3), np.int64))
    for seed in range(4):
        rng = random.Random(200 + seed)
        for board, _ in boards(m, catalog, seed):
            occ, cm, used = board_arrays(board)
            tgt, need = view_arrays(T, occ, cm)
            for card in rng.sample([c for c in ALL_CARDS if not board.is_used(c)], 5):
                legal = board.legal_placements(card, catalog[card])
                for policy, avoid in ((GreedyPolicy(), False), (HeuristicPolicy(), True)):
                    g = fast.smart_place(card.index, avoid, occ, cm, used, tgt, need, m.clear, *scratch, T)
                    if not legal:
                        assert g == -1
                        continue
                    want = legal[policy.place(Obs(m, catalog, board), card, legal, None)]
                    assert g - T.pos_start[card.index] == position_index(catalog[card])[want.cells]


class HeuristicTwin(HeuristicPolicy):
    """The heuristic of the reference engine, asking the Numba kernels the same question each time."""

    def __init__(self):
        super().__init__()
        self.checks = 0

    def uval(self, obs):
        v = self.view(obs)
        return np.array([v.usefulness(c) for c in ALL_CARDS], np.int64)

    def play_card(self, obs, legal, rng):
        want = super().play_card(obs, legal, rng)
        trick = np.zeros(5, np.int64)
        trick[:len(obs.trick)] = [c.index for _, c in obs.trick]
        hand = np.zeros((obs.num_players, 40), np.int64)
        hand[obs.seat] = hand_row(obs.hand)
        got = fast.heuristic_card(obs.seat, np.array([c.index for c in legal], np.int64), len(legal), trick,
                                  len(obs.trick), int(obs.trump), hand, hand_row(obs.public_cards()),
                                  hand_row(obs.removed), self.uval(obs))
        assert got == want.index
        self.checks += 1
        return want

    def select(self, obs, options, rng):
        want = super().select(obs, options, rng)
        opts = np.zeros((fast.MAX_OPTIONS, 4), np.int64)
        for k, o in enumerate(options):
            opts[k, 0] = SKILL_NAMES.index(o.skill)
            opts[k, 1] = len(o.pieces)
            for j, p in enumerate(o.pieces):
                opts[k, 2 + j] = p.index
        assert fast.heuristic_select(len(options), opts, self.uval(obs)) == want
        self.checks += 1
        return want


@pytest.mark.parametrize("path,players", [(MISSIONS[0], 2), (MISSIONS[1], 3), (MISSIONS[2], 4), (MISSIONS[3], 2)],
                         ids=lambda x: str(x).split("/")[-1])
def test_heuristic_card_and_selection(path, players, catalog):
    from solver.game.engine import play_game

    m = load_mission(ROOT / path, catalog)
    twin = HeuristicTwin()
    for seed in range(4):
        play_game(m, catalog, players, 1000 + seed, twin)
    assert twin.checks > 50
