"""Cell sets in the layout of every Numba kernel: a 144-cell set is three int64 words of 48 bits
(4 board rows each), so that shifting by a row stays inside signed 64-bit arithmetic; and the bit
kernels every compiled module shares. ``split`` and ``join`` convert from and to the Python
ints of the rules module (``core.rules``), whose ``grow`` the kernel ``grow`` mirrors."""

from __future__ import annotations

import os

from solver.runtime.jit import intrinsic, kernel, types

WORD_BITS = 48
WORD_MASK = (1 << WORD_BITS) - 1


def split(m: int) -> tuple[int, int, int]:
    return m & WORD_MASK, (m >> WORD_BITS) & WORD_MASK, m >> (2 * WORD_BITS)


def join(words) -> int:
    return int(words[0]) | (int(words[1]) << WORD_BITS) | (int(words[2]) << (2 * WORD_BITS))


M48 = (1 << 48) - 1
_COL_A = sum(1 << (r * 12) for r in range(4))
_COL_L = sum(1 << (r * 12 + 11) for r in range(4))
NOT_COL_A = M48 & ~_COL_A
NOT_COL_L = M48 & ~_COL_L


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's ctpop: one POPCNT instruction where the CPU has it (LLVM does not recognise the
    shift-and-add count as a population count; the heuristic ran 7-11 % faster with this)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.call(builder.module.declare_intrinsic("llvm.ctpop", [args[0].type]), [args[0]])

    return x(x), codegen


if os.environ.get("NUMBA_DISABLE_JIT") == "1":  # kernels run as Python (debugging): no LLVM there

    def _ctpop(x):  # type: ignore[no-redef]
        return bin(int(x) & 0xFFFFFFFFFFFFFFFF).count("1")


@kernel(hot=True)
def popcount(x):
    """The number of set bits of a cell word (or any int64)."""
    return _ctpop(x)


@kernel(hot=True)
def grow(a0, a1, a2):
    d0 = (a0 << 12) & M48
    d1 = ((a1 << 12) & M48) | (a0 >> 36)
    d2 = ((a2 << 12) & M48) | (a1 >> 36)
    u0 = (a0 >> 12) | ((a1 & 0xFFF) << 36)
    u1 = (a1 >> 12) | ((a2 & 0xFFF) << 36)
    u2 = a2 >> 12
    r0 = a0 | d0 | u0 | ((a0 & NOT_COL_L) << 1) | ((a0 & NOT_COL_A) >> 1)
    r1 = a1 | d1 | u1 | ((a1 & NOT_COL_L) << 1) | ((a1 & NOT_COL_A) >> 1)
    r2 = a2 | d2 | u2 | ((a2 & NOT_COL_L) << 1) | ((a2 & NOT_COL_A) >> 1)
    return r0, r1, r2


@kernel(hot=True)
def copy_into(dst, src):
    """dst[:] = src for 1-D arrays of one length, as a loop: a slice assignment would bring its
    shape checks and their error messages into every kernel that copies (a third of the compile)."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@kernel(hot=True)
def copy_into_2d(dst, src):
    """copy_into for 2-D arrays of one shape."""
    for i in range(dst.shape[0]):
        for j in range(dst.shape[1]):
            dst[i, j] = src[i, j]
