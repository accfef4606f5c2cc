"""Where kakapo keeps what it computes once and reuses: compiled kernels (runtime/jit.py) and the
planner's solution libraries (puzzle/librarystore.py).

Under NUMBA_CACHE_DIR if that is set (its parent, when a parent process set it to one of our
stamped folders), else in the package's ``__pycache__`` (a checkout or an editable install),
else (an installed package, read-only) in the user's cache folder. Deleting it only costs time.
"""

from __future__ import annotations

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
