"""The kernels the twin tests call from Python, in the build users get.

In that build (solver/runtime/jit.py) a kernel that only other kernels call has no machine code
of its own: it is kept as IR and linked into the kernels Python calls. The twin tests call such
kernels one by one, so each gets a door here: a kernel of a generated module that only calls it,
compiled (and cached, by one test process while the others wait) the first time a test goes
through it. ``doors("solver.game.fast.state")``
is that module as the tests see it: its link-only kernels replaced by their doors (the package's
own ``X_py`` where it has one), everything else (constants, Python functions, the kernels Python
already calls) as it is.
"""

from __future__ import annotations

import fcntl
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from numba.core.registry import CPUDispatcher

import solver.runtime.jit  # noqa: F401  (chooses the cache folder before numba loads)

# every module with kernels (runtime/jit.py KERNEL_SOURCES)
KERNEL_MODULES = [f"solver.game.fast.{m}" for m in ("rng", "cards", "board", "state", "heuristic", "planner",
                                                     "policies", "play", "search")] + [
    "solver.runtime.bits", "solver.openhand.fastwitness", "solver.puzzle.coversearch"]

_generated: ModuleType | None = None
_doors: dict[int, str] = {}


def _link_only(obj: Any) -> bool:
    return isinstance(obj, CPUDispatcher) and bool(obj.targetoptions.get("no_cpython_wrapper"))


def _door_name(module: str, name: str) -> str:
    return f"{module.rsplit('.', 1)[1]}__{name}"


def _source() -> tuple[str, dict[int, str]]:
    """The generated module's text, and the door of each kernel (by id)."""
    lines = ['"""Doors of the link-only kernels (written by tests/helpers/doors.py)."""', "from numba import njit",
             "from solver.runtime.jit import one_compiler_at_a_time"]
    doors: dict[int, str] = {}
    for module in KERNEL_MODULES:
        for name, obj in sorted(vars(importlib.import_module(module)).items()):
            # a kernel of the module, or compiled there from a function of a lower layer
            home = obj.py_func.__module__ == module or obj.py_func.__module__ not in KERNEL_MODULES \
                if _link_only(obj) else False
            if home and id(obj) not in doors:
                door = _door_name(module, name)
                lines.append(f"from {module} import {name} as _{door}")
                doors[id(obj)] = door
    for door in doors.values():
        lines += ["", "", "@one_compiler_at_a_time", "@njit(cache=True)", f"def {door}(*args):",
                  f"    return _{door}(*args)"]
    return "\n".join(lines) + "\n", doors


def _load() -> ModuleType:
    """The generated module, written once (its file must stay as it is: Numba's cache of the
    doors, in the kernels' cache folder, is keyed on the file's time stamp)."""
    global _generated
    if _generated is None:
        text, doors = _source()
        _doors.update(doors)
        path = Path(__file__).resolve().parent / "__pycache__" / "kakapo_doors.py"  # cached in NUMBA_CACHE_DIR
        path.parent.mkdir(exist_ok=True)
        with open(path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # the test workers write it once between them
            if not path.exists() or path.read_text() != text:
                path.write_text(text)
        spec = importlib.util.spec_from_file_location("kakapo_test_doors", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        _generated = module
    return _generated


class _Doors:
    def __init__(self, module: str):
        self._module = importlib.import_module(module)

    def __getattr__(self, name: str) -> Any:
        obj = getattr(self._module, name)
        if not _link_only(obj):
            return obj
        own = getattr(self._module, f"{name}_py", None)  # the package's own door (compiled for its users)
        if own is not None and not _link_only(own):
            return own
        return getattr(_load(), _doors[id(obj)])


def doors(module: str) -> Any:
    """The module of that name as a twin test calls it (see the module docstring)."""
    return _Doors(module)
