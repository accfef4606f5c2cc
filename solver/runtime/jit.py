"""Numba, set up once for every kernel of the package: where compiled kernels are cached.

Numba keys its cache on the stamp of each kernel's own file, so constants and helpers imported
from other files would stay frozen in a cache made before they changed. The cache therefore
lives in a folder named after the contents of every file the kernels are built from
(``cachedir.KERNEL_SOURCES``), under ``cachedir.cache_root()``; a missing, damaged or
unwritable cache only costs a compile, and processes that start together on an empty cache
compile each kernel once between them (``one_compiler_at_a_time``).

Modules with kernels take their decorator (``kernel``) from here, never from numba directly.

Only the kernels that Python calls (``entry=True``) get the wrappers that make a kernel callable
from Python: for the others, called only from kernels, the wrappers were a quarter of the first
compile. Those others are also kept as IR, linked into the entry kernels that call them, which
optimize, emit and cache everything once (runtime/linkonly.py: a third off the first compile);
a kernel that both Python and kernels call has a door for Python, ``X_py``, that only calls it.
The tests run this same build; their twin tests reach the other kernels through doors of their
own (tests/helpers/doors.py).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from solver.runtime.cachedir import kernel_folder, kernels_cached

F = TypeVar("F", bound=Callable[..., Any])

ENGINE_KERNEL = "play_many"  # its cache file tells whether the simulator was compiled before
LINK_ONLY = os.environ.get("KAKAPO_LINK_ONLY", "1") == "1"  # 0: finish every kernel as Numba does (to compare)


def _cache_dir_if_needed() -> None:
    target = kernel_folder()
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        target = Path(tempfile.gettempdir()) / "kakapo-numba" / target.name
        target.mkdir(parents=True, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = str(target)
    if not kernels_cached((ENGINE_KERNEL,), target):
        _compile_notice()


def _compile_notice() -> None:
    """Say once, on a terminal, why the first run is slow (KAKAPO_NOTICES=1 says it anywhere)."""
    if os.environ.get("KAKAPO_COMPILE_NOTICE_SHOWN"):
        return
    if sys.stderr.isatty() or os.environ.get("KAKAPO_NOTICES") == "1":
        print("compiling the simulator, once, about 10 seconds (later runs load it from the cache)",
              file=sys.stderr, flush=True)
    os.environ["KAKAPO_COMPILE_NOTICE_SHOWN"] = "1"  # worker processes started from here stay quiet


_cache_dir_if_needed()

from numba import errors, njit, types  # noqa: E402  (after the cache folder is chosen)
from numba.core import sigutils  # noqa: E402
from numba.core.compiler_lock import global_compiler_lock  # noqa: E402
from numba.extending import intrinsic  # noqa: E402  (runtime/bits.py takes numba from here)

from solver.runtime.linkonly import ALWAYS_INLINE, LinkOnlyCompiler  # noqa: E402  (imports numba)

try:
    import fcntl
except ImportError:  # not POSIX: processes may compile the same kernel side by side (only time is lost)
    fcntl = None  # type: ignore[assignment]

COMPILE_LOG = os.environ.get("KAKAPO_COMPILE_LOG")  # a file: one line per kernel compiled (benchmarks)


def one_compiler_at_a_time(dispatcher: Any) -> Any:
    """A cached kernel is compiled by one process at a time: the others wait, then load what it
    cached. Without this, the worker processes that start together on an empty cache (a ladder's,
    the studio's warm-up and its first job, the test suite's) each compiled every kernel again.
    The lock is taken inside Numba's own (one thread of a process compiles at a time), so a
    kernel's callees, locked in turn, cannot deadlock: calls form no cycle."""
    if fcntl is None:
        return dispatcher
    compile_here = dispatcher.compile
    name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"

    def compile_once(sig: Any) -> Any:
        args, _ = sigutils.normalize_signature(sig)
        if tuple(args) in dispatcher.overloads:
            return compile_here(sig)
        with global_compiler_lock:
            try:
                handle = os.open(Path(os.environ["NUMBA_CACHE_DIR"]) / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:  # an unwritable cache: Numba compiles without caching anyway
                return compile_here(sig)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX)
                hits, t0 = sum(dispatcher.stats.cache_hits.values()), time.perf_counter()
                out = compile_here(sig)
                if COMPILE_LOG:
                    how = "loaded" if sum(dispatcher.stats.cache_hits.values()) > hits else "compiled"
                    with open(COMPILE_LOG, "a") as log:
                        log.write(f"{os.getpid()} {name} {how} {time.perf_counter() - t0:.2f}\n")
                return out
            finally:
                os.close(handle)  # and with it the lock

    dispatcher.compile = compile_once
    return dispatcher


def kernel(*, hot: bool = False, inline: bool = False, entry: bool = False, always_inline: bool = False) \
        -> Callable[[F], F]:
    """The package's ``njit``: compiled once and cached. ``hot``: without reference counting, for
    kernels that neither allocate arrays nor return them (the engine measured 2.5 to 4 times
    faster: every array read out of a record otherwise costs an atomic count); ``inline``:
    Numba inlines it where it is called (only where needed: LLVM inlines small kernels anyway,
    and Numba's own inlining cost a quarter of the first compile without making games faster);
    ``entry``: Python calls it (see the module docstring); ``always_inline``: LLVM inlines it into
    every caller (a kernel called from few places in a hot loop: a call passes each array of the
    records it is given as its own words on the stack, hundreds of them for a game's arrays)."""
    options: dict[str, Any] = {"cache": True}
    if hot:
        options["_nrt"] = False
    if inline:
        options["inline"] = "always"
    if not entry:
        options["no_cpython_wrapper"] = True
        options["no_cfunc_wrapper"] = True
        if LINK_ONLY:  # kept as IR for the entry kernels that call it, which cache it (runtime/linkonly.py)
            options.update(cache=False, pipeline_class=LinkOnlyCompiler)
    if always_inline and LINK_ONLY and not entry:
        def marked(f: F) -> F:
            ALWAYS_INLINE.add(f"{f.__module__}.{f.__qualname__}")
            return njit(**options)(f)
        return marked
    if not options["cache"]:
        return njit(**options)
    return lambda f: one_compiler_at_a_time(njit(**options)(f))


__all__ = ["errors", "intrinsic", "kernel", "njit", "types"]
