"""Numba, set up once for every kernel of the package: where compiled kernels are cached.

Numba keys its cache on the stamp of each kernel's own file, so constants and helpers imported
from other files would stay frozen in a cache made before they changed. The cache therefore
lives in a folder named after the contents of every file the kernels are built from
(``KERNEL_SOURCES``), under ``cachedir.cache_root()``; a missing, damaged or unwritable cache
only costs a compile.

Modules with kernels take their decorator (``kernel``) from here, never from numba directly.

Only the kernels that Python calls (``entry=True``) get the wrappers that make a kernel callable
from Python: for the others, called only from kernels, the wrappers were a quarter of the first
compile. Those others are also kept as IR, linked into the entry kernels that call them, which
optimize, emit and cache everything once (runtime/linkonly.py: a third off the first compile);
a kernel that both Python and kernels call has a door for Python, ``X_py``, that only calls it.
The tests call every kernel against its Python twin, so with KAKAPO_KERNEL_WRAPPERS=1
(tests/conftest.py sets it) every kernel gets wrappers and is finished as Numba does, in a cache
folder of its own; tests/test_entry_kernels.py runs the commands built the users' way.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from solver.runtime.cachedir import STAMP_PREFIX, cache_root

F = TypeVar("F", bound=Callable[..., Any])

PACKAGE = Path(__file__).resolve().parent.parent
# every file whose code or constants end up inside a compiled kernel (folders: all their .py files)
KERNEL_SOURCES = ("core", "runtime", "game/fast", "game/actions.py", "game/rng.py", "game/weights.py",
                  "puzzle/coversearch.py", "openhand/fastwitness.py")
ENGINE_KERNEL = "play_many"  # its cache file tells whether the simulator was compiled before
WRAP_ALL = os.environ.get("KAKAPO_KERNEL_WRAPPERS") == "1"  # every kernel callable from Python (the tests)
LINK_ONLY = os.environ.get("KAKAPO_LINK_ONLY", "1") == "1"  # 0: finish every kernel as Numba does (to compare)


def kernel_sources() -> list[Path]:
    out: list[Path] = []
    for name in KERNEL_SOURCES:
        p = PACKAGE / name
        if p.is_dir():
            out += sorted(p.glob("*.py"))
        elif p.is_file():
            out.append(p)
    return out


def _stamp() -> str:
    h = hashlib.sha256()
    for p in kernel_sources():
        h.update(p.relative_to(PACKAGE).as_posix().encode() + b"\0" + p.read_bytes())
    return STAMP_PREFIX + h.hexdigest()[:12] + ("-w" if WRAP_ALL else "")


def _cache_dir_if_needed() -> None:
    target = cache_root() / _stamp()
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError:
        target = Path(tempfile.gettempdir()) / "kakapo-numba" / target.name
        target.mkdir(parents=True, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = str(target)
    if not any(target.rglob(f"*.{ENGINE_KERNEL}-*.nbi")):
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
from numba.extending import intrinsic  # noqa: E402  (runtime/bits.py takes numba from here)

from solver.runtime.linkonly import LinkOnlyCompiler  # noqa: E402  (imports numba)


def kernel(*, hot: bool = False, inline: bool = False, entry: bool = False) -> Callable[[F], F]:
    """The package's ``njit``: compiled once and cached. ``hot``: without reference counting, for
    kernels that neither allocate arrays nor return them (the engine measured 2.5 to 4 times
    faster: every array read out of a record otherwise costs an atomic count); ``inline``:
    Numba inlines it where it is called (only where needed: LLVM inlines small kernels anyway,
    and Numba's own inlining cost a quarter of the first compile without making games faster);
    ``entry``: Python calls it (see the module docstring)."""
    options: dict[str, Any] = {"cache": True}
    if hot:
        options["_nrt"] = False
    if inline:
        options["inline"] = "always"
    if not (entry or WRAP_ALL):
        options["no_cpython_wrapper"] = True
        options["no_cfunc_wrapper"] = True
        if LINK_ONLY:  # kept as IR for the entry kernels that call it, which cache it (runtime/linkonly.py)
            options.update(cache=False, pipeline_class=LinkOnlyCompiler)
    return njit(**options)


__all__ = ["errors", "intrinsic", "kernel", "njit", "types"]
