"""Where kakapo keeps what it computes once and reuses: compiled kernels (runtime/jit.py) and the
planner's solution libraries (puzzle/librarystore.py). Light: the studio's server asks it whether
the kernels are compiled without loading Numba.

Under NUMBA_CACHE_DIR if that is set (its parent, when a parent process set it to one of our
stamped folders), else in the package's ``__pycache__`` (a checkout or an editable install),
else (an installed package, read-only) in the user's cache folder. Deleting it only costs time.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
STAMP_PREFIX = "kakapo-"  # the kernels' folder is named STAMP_PREFIX + a digest of their sources


def cache_root() -> Path:
    root = os.environ.get("NUMBA_CACHE_DIR")
    if root and Path(root).name.startswith(STAMP_PREFIX):
        return Path(root).parent  # set by runtime/jit.py in a parent process
    if root:
        return Path(root)
    if os.access(PACKAGE, os.W_OK):
        return PACKAGE / "__pycache__"
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "kakapo" / "numba"


# every file whose code or constants end up inside a compiled kernel (folders: all their .py files)
KERNEL_SOURCES = ("core", "runtime", "game/fast", "game/actions.py", "game/rng.py", "game/weights.py",
                  "puzzle/coversearch.py", "openhand/fastwitness.py")
# the kernels the jobs start from (Python calls them): the engine, the search player and the open-hand
# search (not the cover search of the planner's libraries: a library on disk is not built again, and
# a new mission's costs a few seconds to compile)
JOB_KERNELS = ("play_many", "table_games_py", "find_witness")


def kernel_sources() -> list[Path]:
    out: list[Path] = []
    for name in KERNEL_SOURCES:
        p = PACKAGE / name
        if p.is_dir():
            out += sorted(p.glob("*.py"))
        elif p.is_file():
            out.append(p)
    return out


def kernel_folder() -> Path:
    """The kernels' cache folder: named after the contents of every file they are built from, so
    that constants and helpers of other files never stay frozen in an older cache (Numba keys its
    cache on the stamp of each kernel's own file only)."""
    h = hashlib.sha256()
    for p in kernel_sources():
        h.update(p.relative_to(PACKAGE).as_posix().encode() + b"\0" + p.read_bytes())
    return cache_root() / (STAMP_PREFIX + h.hexdigest()[:12])


def kernels_cached(names: tuple[str, ...] = JOB_KERNELS, folder: Path | None = None) -> bool:
    """Whether each of these kernels has been compiled into the cache (its index file is there)."""
    folder = kernel_folder() if folder is None else folder
    return all(any(folder.rglob(f"*.{name}-*.nbi")) for name in names)
