"""runtime/linkonly.py: kernels that only kernels call are compiled as IR for their callers."""

import numpy as np
from numba import njit

from solver.runtime import linkonly
from solver.runtime.linkonly import LinkOnlyCompiler, LinkOnlyLibrary, new_library

INNER = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True, "pipeline_class": LinkOnlyCompiler}


@njit(**INNER)
def leaf(x):
    return x * 2 + 1


@njit(**INNER)
def middle(a):
    total = 0
    for v in a:
        total += leaf(v)
    return total


@njit
def entry(a):
    return middle(a) + leaf(a[0])


def codegen():
    from numba.core.registry import cpu_target

    return cpu_target.target_context.codegen()


def test_this_numba_gets_link_only_libraries():
    # if Numba's libraries lost what LinkOnlyLibrary uses, new_library falls back quietly: say it here
    assert isinstance(new_library(codegen(), "probe"), LinkOnlyLibrary)


def test_a_numba_without_what_it_uses_gets_its_own_library(monkeypatch):
    monkeypatch.setattr(linkonly, "NEEDS", (*linkonly.NEEDS, "_not_in_any_numba"))
    library = new_library(codegen(), "probe")
    assert not isinstance(library, LinkOnlyLibrary)


def test_an_entry_runs_the_link_only_kernels_it_calls_and_only_it_has_machine_code():
    a = np.arange(5, dtype=np.int64)
    assert entry(a) == sum(2 * v + 1 for v in range(5)) + 1
    for kernel in (leaf, middle):
        (cres,) = kernel.overloads.values()
        assert isinstance(cres.library, LinkOnlyLibrary)
        assert cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name) == 0
    (cres,) = entry.overloads.values()
    assert not isinstance(cres.library, LinkOnlyLibrary)
    assert cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name) != 0
