"""The cover search of solver/library.py as a Numba kernel.

``complete`` lists arrangements of further pieces that cover every open cell around the
wanted birds: depth-first over the open cell with the fewest candidate placements, iterative
deepening on the number of pieces. Its budget is a count of search nodes, not seconds, so
the library is the same on every machine. Masks are three 48-bit words, as in the engine.
"""

from __future__ import annotations

import numpy as np

from solver.runtime.bits import popcount
from solver.runtime.jit import kernel

MAX_DEPTH = 16


@kernel(entry=True)
def complete(start, order, cands, extra, limit, budget, found):
    """Fill ``found`` (out: limit x MAX_DEPTH candidate ids, out_len); return (solutions found,
    nodes used). Stops at ``limit`` solutions or after ``budget`` nodes. ``start`` is the board to
    cover from (left0: the open cells to cover, occ0, cms0: occupied cells and colour masks, used0:
    the pieces used, wrong: per colour the cells of the other colours' sides); ``order`` the open
    cells, most constrained first; ``cands`` the candidate placements by cell (cell_start,
    cell_cands) and their piece, colour, cells and halo (cand_card, cand_col, cand_mask, cand_halo)."""
    left0, occ0, cms0, used0, wrong = start
    cell_start, cell_cands, cand_card, cand_col, cand_mask, cand_halo = cands
    out, out_len = found
    n_out = 0
    nodes = 0
    best = 0  # the most open cells one candidate covers: a bound on what each piece can do
    for c in order:
        w = c // 48
        if not (left0[w] >> (c % 48)) & 1:
            continue
        for k in range(cell_start[c], cell_start[c + 1]):
            j = cell_cands[k]
            cov = popcount(cand_mask[j, 0] & left0[0]) + popcount(cand_mask[j, 1] & left0[1]) + \
                popcount(cand_mask[j, 2] & left0[2])
            if cov > best:
                best = cov
    if (left0[0] | left0[1] | left0[2]) == 0:
        out_len[0] = 0
        return 1, 0
    if best == 0:
        return 0, 0
    left = np.zeros((MAX_DEPTH + 1, 3), np.int64)
    occ = np.zeros((MAX_DEPTH + 1, 3), np.int64)
    cms = np.zeros((MAX_DEPTH + 1, 5, 3), np.int64)
    used = np.zeros(MAX_DEPTH + 1, np.int64)
    pos = np.zeros(MAX_DEPTH + 1, np.int64)
    cell_at = np.zeros(MAX_DEPTH + 1, np.int64)
    chosen = np.zeros(MAX_DEPTH + 1, np.int64)
    fewest = -1
    for depth in range(1, MAX_DEPTH + 1):
        left[0, :] = left0
        occ[0, :] = occ0
        cms[0, :, :] = cms0
        used[0] = used0
        pos[0] = -1
        k = 0
        while k >= 0:
            if (left[k, 0] | left[k, 1] | left[k, 2]) == 0:
                if k == depth:
                    for i in range(k):
                        out[n_out, i] = chosen[i]
                    out_len[n_out] = k
                    n_out += 1
                    if n_out >= limit:
                        return n_out, nodes
                k -= 1
                continue
            open_cells = popcount(left[k, 0]) + popcount(left[k, 1]) + popcount(left[k, 2])
            if k == depth or open_cells > (depth - k) * best:
                k -= 1
                continue
            if pos[k] < 0:  # first visit: branch on the most constrained open cell
                nodes += 1
                if nodes > budget:
                    return n_out, nodes
                for c in order:
                    if (left[k, c // 48] >> (c % 48)) & 1:
                        cell_at[k] = c
                        break
                pos[k] = cell_start[cell_at[k]]
            c = cell_at[k]
            nxt = -1
            while pos[k] < cell_start[c + 1]:
                j = cell_cands[pos[k]]
                pos[k] += 1
                col = cand_col[j]
                if (used[k] >> cand_card[j]) & 1:
                    continue
                ok = True
                for w in range(3):
                    if cand_mask[j, w] & (occ[k, w] | wrong[col, w]) or cand_halo[j, w] & cms[k, col, w]:
                        ok = False
                        break
                if ok:
                    nxt = j
                    break
            if nxt < 0:
                k -= 1
                continue
            chosen[k] = nxt
            col = cand_col[nxt]
            for w in range(3):
                left[k + 1, w] = left[k, w] & ~cand_mask[nxt, w]
                occ[k + 1, w] = occ[k, w] | cand_mask[nxt, w]
            cms[k + 1, :, :] = cms[k, :, :]
            for w in range(3):
                cms[k + 1, col, w] |= cand_mask[nxt, w]
            used[k + 1] = used[k] | (np.int64(1) << cand_card[nxt])
            pos[k + 1] = -1
            k += 1
        if n_out > 0 and fewest < 0:
            fewest = depth
        if fewest >= 0 and depth >= fewest + extra:
            break
    return n_out, nodes
