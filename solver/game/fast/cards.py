"""Twins of the card rules of game/state.py: the deal, must-follow, the decision card and the
selection options. Cards are indices 0..39 (``colour * 8 + value - 1``)."""

from __future__ import annotations

import numpy as np

from solver.core.codes import Skill
from solver.core.spec import (
    SPEC_ASIDE,
    SPEC_HAND,
    SPEC_PLAYERS,
    SPEC_REMOVED,
    SPEC_SKILL_KINDS,
    SPEC_START_CARD,
)
from solver.game.fast.rng import below
from solver.runtime.jit import kernel

NO_SKILL, DOUBLE_SCAN, WILD_COLOR, SHIFT_CHANGE = (int(s) for s in Skill)
# columns of a selection-option row: skill, number of pieces, first piece, second piece
OPT_SKILL, OPT_N, OPT_A, OPT_B = 0, 1, 2, 3
MAX_OPTIONS = 10


@kernel()
def deal(seed, spec, rs, hand, hand_count, set_aside, removed):
    """state.deal: shuffle, set-aside cards, hands, start player, drawn from the deal's own stream
    rs[players]; the seats' streams are not drawn from it (play.deal_game sets them from a
    one-way hash, game/seeds.py). Returns the start player."""
    players = spec[SPEC_PLAYERS]
    rs[players] = np.uint64(seed)
    deck = np.empty(40, np.int64)
    n = 0
    for c in range(40):
        removed[c] = (spec[SPEC_REMOVED] >> c) & 1
        if removed[c]:
            continue
        deck[n] = c
        n += 1
    for i in range(n - 1, 0, -1):
        j = below(rs, players, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    aside, size = spec[SPEC_ASIDE], spec[SPEC_HAND]
    set_aside[:] = 0
    hand[:, :] = 0
    for i in range(aside):
        set_aside[deck[i]] = 1
    for k in range(players):
        for i in range(aside + k * size, aside + (k + 1) * size):
            hand[k, deck[i]] = 1
        hand_count[k] = size
    start = -1
    for k in range(players):
        if hand[k, spec[SPEC_START_CARD]] and start < 0:
            start = k
    if start < 0:
        start = below(rs, players, players)
    return start


@kernel(hot=True)
def legal_cards(hand_row, lead, out):
    """state.legal_cards: cards of the lead colour if the hand holds any, else the whole hand."""
    n = 0
    if lead >= 0:
        for c in range(lead * 8, lead * 8 + 8):
            if hand_row[c]:
                out[n] = c
                n += 1
    if n == 0:
        for c in range(40):
            if hand_row[c]:
                out[n] = c
                n += 1
    return n


@kernel(hot=True)
def decision_card(trick, nt, trump):
    """state.decision_card: index in the trick of the highest trump, else of the highest lead card."""
    best = -1
    for i in range(nt):
        if trick[i] // 8 == trump and (best < 0 or trick[i] % 8 > trick[best] % 8):
            best = i
    if best >= 0:
        return best
    lead = trick[0] // 8
    best = 0
    for i in range(1, nt):
        if trick[i] // 8 == lead and trick[i] % 8 > trick[best] % 8:
            best = i
    return best


@kernel(hot=True)
def selection_options(spec, used, trick, nt, decision, skills_left, opts):
    """state.selection_options into opts (rows: skill, pieces, first, second); returns how many.

    Order: no skill, double scan (both orders), wild colour, shift change."""
    kinds = spec[SPEC_SKILL_KINDS]
    opts[0, OPT_SKILL] = NO_SKILL
    opts[0, OPT_N] = 0 if used[decision] else 1
    opts[0, OPT_A] = decision
    n = 1
    if skills_left <= 0:
        return n
    same = True
    lowest = trick[0]
    for i in range(nt):
        if trick[i] // 8 != trick[0] // 8:
            same = False
        if trick[i] % 8 < lowest % 8:
            lowest = trick[i]
    if (kinds >> DOUBLE_SCAN) & 1 and same and not used[lowest]:
        if not used[decision]:
            opts[n, OPT_SKILL], opts[n, OPT_N], opts[n, OPT_A], opts[n, OPT_B] = DOUBLE_SCAN, 2, decision, lowest
            n += 1
            opts[n, OPT_SKILL], opts[n, OPT_N], opts[n, OPT_A], opts[n, OPT_B] = DOUBLE_SCAN, 2, lowest, decision
            n += 1
        else:
            opts[n, OPT_SKILL], opts[n, OPT_N], opts[n, OPT_A] = DOUBLE_SCAN, 1, lowest
            n += 1
    if (kinds >> WILD_COLOR) & 1:
        for colour in range(5):
            alt = colour * 8 + decision % 8
            if colour != decision // 8 and not used[alt]:
                opts[n, OPT_SKILL], opts[n, OPT_N], opts[n, OPT_A] = WILD_COLOR, 1, alt
                n += 1
    if (kinds >> SHIFT_CHANGE) & 1:
        for dv in (-1, 1):
            v = decision % 8 + dv
            if 0 <= v <= 7 and not used[(decision // 8) * 8 + v]:
                opts[n, OPT_SKILL], opts[n, OPT_N], opts[n, OPT_A] = SHIFT_CHANGE, 1, (decision // 8) * 8 + v
                n += 1
    return n
