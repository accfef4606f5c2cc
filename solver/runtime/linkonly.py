"""Compile the kernels that only other kernels call as LLVM IR to be linked, not as machine code.

Numba finishes every kernel it compiles: it links in the code of every kernel it calls, optimizes
the whole linked module and emits machine code for it. A kernel that Python never calls is only
ever used as IR linked into its callers, which optimize and emit it again, so in a deep call tree
(play_many > play_out > decide > evaluate > ...) each level redoes the work of all the levels
under it. Measured on `kakapo simulate` with an empty cache: 3.0 s of module optimization and
2.2 s of machine code out of 14 s, most of it for kernels whose machine code is never run
(numba PR 9566 describes the same quadratic cost and proposes this cure for Numba itself).

``LinkOnlyCompiler`` is a Numba pipeline for those kernels: typing, lowering and the per-function
optimizations as usual, then a library that only links its callees' IR (``LinkOnlyLibrary``). The
kernel Python calls (``entry``) is compiled as usual and so optimizes and emits everything once,
and its cache file holds all of it. Such libraries cannot be cached themselves (Numba caches
machine code), so runtime/jit.py does not ask it: a later process that compiles another entry
types their kernels again.

Environment objects: a kernel's Numba environment (used only to box Python objects, which no
kernel does) is left unset, as it already is for every callee of a kernel loaded from the cache.
"""

from __future__ import annotations

from typing import Any

from numba.core.codegen import JITCodeLibrary
from numba.core.compiler import Compiler, DefaultPassBuilder
from numba.core.compiler_lock import require_global_compiler_lock
from numba.core.compiler_machinery import PassManager, register_pass
from numba.core.typed_passes import NativeLowering


class _CodegenWithoutEnv:
    """The codegen as seen from a link-only library: there is no machine code whose environment
    pointer could be set (Numba would write through a null address)."""

    def __init__(self, codegen: Any) -> None:
        self._codegen = codegen

    def __getattr__(self, name: str) -> Any:
        return getattr(self._codegen, name)

    def set_env(self, env_name: str, env: Any) -> None:
        pass


class LinkOnlyLibrary(JITCodeLibrary):
    """A kernel's code as IR with its callees linked in, never optimized as a module nor emitted."""

    @property
    def codegen(self) -> Any:
        return _CodegenWithoutEnv(self._codegen)

    def finalize(self) -> None:
        require_global_compiler_lock()
        self._raise_if_finalized()
        seen = set()
        for library in self._linking_libraries:
            if library not in seen:
                seen.add(library)
                self._reload_init.update(library._reload_init)
                self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._finalized = True

    def get_pointer_to_function(self, name: str) -> int:
        return 0  # as for any kernel without Python wrappers: nothing callable from Python

    def serialize_using_object_code(self) -> Any:
        raise TypeError("a link-only kernel has no machine code to cache")


# what LinkOnlyLibrary uses of Numba's library (Numba 0.59 to 0.68); another Numba without them
# gets Numba's own library: slower to compile, the same kernels
NEEDS = ("_linking_libraries", "_reload_init", "_final_module", "_raise_if_finalized", "_get_module_for_linking",
         "_finalized", "_codegen")


def new_library(codegen: Any, name: str) -> Any:
    """A ``LinkOnlyLibrary`` if this Numba's libraries have what it uses, else Numba's own."""
    library = LinkOnlyLibrary(codegen, name)
    if all(hasattr(library, attr) for attr in NEEDS):
        return library
    library = codegen.create_library(name)
    library.enable_object_caching()
    return library


# the link-only kernels that LLVM inlines into every caller ("module.qualname"; runtime/jit.py's
# ``always_inline``)
ALWAYS_INLINE: set[str] = set()


@register_pass(mutates_CFG=True, analysis_only=False)
class LinkOnlyLowering(NativeLowering):
    """Numba's lowering into a ``LinkOnlyLibrary``; a kernel of ``ALWAYS_INLINE`` is marked for
    LLVM to inline wherever it is called."""

    _name = "kakapo_link_only_lowering"

    def run_pass(self, state: Any) -> bool:
        if state.library is None:
            state.library = new_library(state.targetctx.codegen(), state.func_id.func_qualname)
        out = super().run_pass(state)
        if f"{state.func_id.modname}.{state.func_id.func_qualname}" in ALWAYS_INLINE and \
                isinstance(state.library, LinkOnlyLibrary):
            state.library._final_module.get_function(state.cr.fndesc.mangled_name).add_function_attribute(
                "alwaysinline")
        return out


class LinkOnlyCompiler(Compiler):
    """Numba's nopython pipeline with ``LinkOnlyLowering`` in place of its lowering."""

    def define_pipelines(self) -> list[PassManager]:
        pm = PassManager("kakapo_link_only")
        for part in (DefaultPassBuilder.define_untyped_pipeline(self.state),
                     DefaultPassBuilder.define_typed_pipeline(self.state),
                     DefaultPassBuilder.define_nopython_lowering_pipeline(self.state)):
            pm.passes.extend((LinkOnlyLowering if p is NativeLowering else p, d) for p, d in part.passes)
        pm.finalize()
        return [pm]

