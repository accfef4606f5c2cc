"""Twins of the rules module's board (core/rules.py ``Board``) on the arrays of game/arrays.py:
placement legality, scanning, placing.

Helpers called in inner loops take the table arrays themselves: reading an array out of the
GameArrays tuple inside a loop costs a reference count each time (measured: a third of the run).
"""

from __future__ import annotations

from solver.runtime.jit import kernel


@kernel(hot=True)
def is_legal(g, col, occ, cm, pm, ph, ba):
    """Board.is_legal_mask for position g (pm, ph, ba: T.pos_mask, T.pos_halo, T.bird_all)."""
    if (pm[g, 0] & (occ[0] | ba[0])) | (pm[g, 1] & (occ[1] | ba[1])) | (pm[g, 2] & (occ[2] | ba[2])):
        return False
    return ((ph[g, 0] & cm[col, 0]) | (ph[g, 1] & cm[col, 1]) | (ph[g, 2] & cm[col, 2])) == 0


@kernel(hot=True)
def has_legal_position(piece, occ, cm, T):
    """state.legal_positions is not empty (the piece is unused: a selection offers no used piece)."""
    pm, ph, ba = T.pos_mask, T.pos_halo, T.bird_all
    col = piece // 8
    for g in range(T.pos_start[piece], T.pos_start[piece + 1]):
        if is_legal(g, col, occ, cm, pm, ph, ba):
            return True
    return False


@kernel(hot=True, always_inline=True)
def is_scanned(b, occ, cm, ring, edge, mc):
    """Board.is_scanned (ring, edge, mc: T.bird_ring, T.bird_edge, T.mark_colour)."""
    if edge[b]:
        return False
    for w in range(3):
        if ring[b, w] & ~occ[w]:
            return False
    for col in range(5):
        for w in range(3):
            if ring[b, w] & mc[col, w] & ~cm[col, w]:
                return False
    return True


@kernel(hot=True, always_inline=True)
def is_spoiled(b, occ, cm, ring, mc):
    """A coloured side of bird b covered by another colour (Board.can_still_be_scanned, negated)."""
    for col in range(5):
        for w in range(3):
            if ring[b, w] & mc[col, w] & occ[w] & ~cm[col, w]:
                return True
    return False


@kernel(hot=True)
def count_scanned(occ, cm, T):
    """len(Board.scanned())."""
    ring, edge, mc = T.bird_ring, T.bird_edge, T.mark_colour
    n = 0
    for b in range(ring.shape[0]):
        if is_scanned(b, occ, cm, ring, edge, mc):
            n += 1
    return n


@kernel(hot=True)
def place(g, piece, occ, cm, used):
    """Board.place for position g of ``piece`` (g: its words, T.pos_mask[g]; legality checked by the caller)."""
    col = piece // 8
    for w in range(3):
        occ[w] |= g[w]
        cm[col, w] |= g[w]
    used[piece] = 1
