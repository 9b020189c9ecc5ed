"""The Target hooks: everything a target (the code okl writes for one mode) declares.

A target is a :class:`Target` subclass that answers a few questions -- how to spell a
kernel's qualifiers, a thread or group index, a barrier, an atomic update, shared memory,
``restrict``, which headers to put first -- and nothing else.  The lowering passes in
``okl.transforms`` ask those questions while they turn OKL into plain C ASTs, and
:class:`okl.targets.emitter.Emitter` prints the result.  Adding a mode is one subclass here
(one file in this package) plus a row of okl.modes and a runtime driver.
"""

from __future__ import annotations

from pycparser import c_ast

from ..model.kernel import Atomic
from ..parser.cparse import PRELUDE_TYPES


class Target:
    """Hooks with the defaults of a C host target; GPU backends override."""

    mode = "serial"
    gpu = False
    restrict = "restrict"
    shared_storage: str | None = None  # e.g. "__shared__"; None: plain local arrays
    constant_storage: str | None = None
    device_function_storage: tuple[str, ...] = ()
    hoist_shared = False  # OpenCL: __local arrays must be declared at kernel scope
    # OpenCL: a hidden element offset per pointer parameter, so that views at any offset can
    # be passed (okl.transforms.gpu.pointer_offsets)
    pointer_offsets = False
    c99_inline = True  # `inline` without `static` defines no symbol (C99, OpenCL C)
    math_names: dict[str, str] = {}
    # checked mode (okl.transforms.checked): the condition that claims the error buffer for
    # the first failing access, and a pragma that makes it exclusive where the claim is not
    check_claim = "err[0] == 0 && (err[0] = id + 1)"
    check_pragma: str | None = None
    reserved: frozenset[str] = frozenset()  # user identifiers to rename (prefix _okl_)
    # libc headers a device compiler provides itself (their functions are builtins there)
    builtin_headers = frozenset({"<math.h>", "<stdint.h>", "<stddef.h>", "<stdbool.h>",
                                 "<float.h>", "<limits.h>", "<cmath>", "<cstdint>",
                                 "<cstddef>", "<stdio.h>", "<stdlib.h>"})

    # -- text around the code ----------------------------------------------------------------
    def prologue(self, uses: set[str]) -> str:
        """Headers and definitions placed before the user's code; ``uses`` holds type names,
        function names and features (e.g. "double", "atomic_float") the code needs."""
        return ""

    def typedefs_for(self, uses: set[str]) -> str:
        out = []
        for name, spelled in PRELUDE_TYPES.items():
            if name in uses and name not in self.native_types():
                out.append(f"typedef {spelled} {name};\n")
        return "".join(out)

    def native_types(self) -> set[str]:
        return set()

    # -- kernels -------------------------------------------------------------------------------
    def kernel_storage(self, inner_dims: tuple[int, ...] | None,
                       max_threads: int | None) -> list[str]:
        return []

    def pointer_param_space(self) -> str | None:
        """Address-space qualifier for pointer parameters (OpenCL: __global)."""
        return None

    def index(self, kind: str, axis: int) -> c_ast.Node:
        raise NotImplementedError(f"{self.mode} has no thread indices")

    def barrier(self, kind: str) -> c_ast.Node | None:
        """The statement for a barrier; kind is "" (explicit), "warp" or "auto"."""
        return None

    # -- CPU targets: the @outer loops of one C function ------------------------------------
    def outer_pragma(self, kernel, outer) -> str | None:
        """The pragma that parallelises a top-level @outer loop (OpenMP), None: none."""
        return None

    def simd_pragma(self, pragma: str) -> str:
        """``pragma`` (this target's ``outer_pragma``) for a parallel loop whose iterations
        are also independent SIMD lanes (an untiled @tile loop, okl.transforms.cpu.untile)."""
        return pragma

    def outer_guard(self, outer) -> c_ast.Node | None:
        """A test to make once before a parallelised @outer loop (see OpenMPTarget)."""
        return None

    def share_region(self, pragmas: list[str]) -> tuple[str, list[str]] | None:
        """(pragma of one parallel region, pragmas of its loops) for parallel loops that
        follow one another, their pragmas given (see OpenMPTarget); None: leave them."""
        return None

    def pragma(self, text: str) -> str | None:
        """A user's ``#pragma`` as this backend spells it (None: leave it out)."""
        return text

    def check_params(self, kernel, program, diags) -> None:
        """Report kernel parameters this backend cannot take (OpenCL: size_t, bool)."""

    def capture_type(self, t: c_ast.Node, types) -> c_ast.Node:
        """The type of the kernel argument that carries a host variable of type ``t`` to
        device code (OpenCL: one of the same size where kernels cannot take ``t``)."""
        return t

    def finish_functions(self, nodes: list[c_ast.Node], program, diags) -> None:
        """Last backend-specific rewrite of the emitted file-scope items (OpenCL: address
        spaces of pointers, one copy of a device function per combination of them)."""

    def atomic(self, node: c_ast.Node, base: str, space: str, diags,
               where: Atomic) -> c_ast.Node:
        """Lower one @atomic statement; ``base`` is the target's C type ("" for a block),
        ``space`` "global" or "shared".  ``where`` is the model's record of the statement:
        errors point at its ``loc``, which is only found when read (it costs a column
        alignment).  Serial code runs one thread: nothing to do."""
        return node
