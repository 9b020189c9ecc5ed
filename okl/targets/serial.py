"""Serial C: the kernel as one C99 function; @atomic is a no-op with a single thread.

C has no vector types: the prologue defines the ones the kernel uses (:mod:`.vectors`).
``printf`` is built into OpenCL C, CUDA and HIP; C declares it in ``<stdio.h>``, so a
kernel that calls it gets that header here (same source, same answer: it prints on every
mode), and each launch flushes stdout, as a GPU runtime prints a kernel's output once the
kernel is done rather than whenever the C library's buffer fills.
"""

from __future__ import annotations

from pycparser import c_ast

from .emitter import uses_of
from .target import Target
from .vectors import c_definitions

#: the entry wrappers the runtime calls (okl.transforms.cpu.lower.entry_point)
ENTRY_PREFIX = "_okl_entry_"
#: Ctrl-C during a launch: okl.runtime.drivers.cpu_interrupt installs ``_okl_interrupt`` as
#: the SIGINT handler while a launch from Python's main thread runs, and passes
#: ``&_okl_interrupted`` as the entry's ``stop``; each @outer iteration reads it first.
INTERRUPT = ("#include <signal.h>\n"
             "volatile sig_atomic_t _okl_interrupted;\n"
             "void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }\n")


def _vector_width(name: str, bits: int) -> str:
    """``name`` defined as gcc's attribute that sets a function's preferred vector width,
    where there is AVX-512 to choose from; as nothing elsewhere and under clang, which has no
    such target attribute."""
    return ("#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)\n"
            f"#define {name} __attribute__((target(\"prefer-vector-width={bits}\")))\n"
            "#else\n"
            f"#define {name}\n"
            "#endif\n")


#: in a kernel function's specifiers where its running sums need 512-bit vectors to stay in
#: registers (okl.transforms.cpu.registers: 2 KiB of slots are 32 zmm registers, 64 ymm).
#: gcc's -march=native on an AVX-512 CPU prefers 256-bit vectors; the attribute asks for 512
#: in that function alone (and the OpenMP bodies outlined from it).
WIDE_VECTORS = "_okl_wide_vectors"
WIDE_VECTORS_DEFINITION = _vector_width(WIDE_VECTORS, 512)
#: in a kernel function's specifiers where cpu.divmod unrolled a lane nest for gcc's
#: straight-line (SLP) vectoriser: there 256 bits, the width gcc itself prefers on the
#: AVX-512 CPUs it knows, also where it does not know the CPU (gcc 12 takes AMD's Zen 4 for
#: Zen 3, a CPU without AVX-512, and then prefers no width: see okl.transforms.cpu.divmod).
NARROW_VECTORS = "_okl_narrow_vectors"
NARROW_VECTORS_DEFINITION = _vector_width(NARROW_VECTORS, 256)


#: in a kernel function's specifiers where cpu.versions copied a block's code for full blocks:
#: gcc's unroll-and-jam, off in that function alone, would pair the copy's rows (two rows per
#: iteration into the same sums, see okl.transforms.cpu.versions).  gcc only: clang has no
#: such pass to turn off.
NO_JAM = "_okl_no_jam"
NO_JAM_DEFINITION = ("#if defined(__GNUC__) && !defined(__clang__)\n"
                     f"#define {NO_JAM} __attribute__((optimize(\"no-loop-unroll-and-jam\")))\n"
                     "#else\n"
                     f"#define {NO_JAM}\n"
                     "#endif\n")


class SerialTarget(Target):
    mode = "serial"

    def prologue(self, uses: set[str]) -> str:
        out = ("#include <math.h>\n#include <stdint.h>\n#include <stddef.h>\n"
               "#include <stdbool.h>\n" + self.typedefs_for(uses) + c_definitions(uses))
        if "rsqrt" in uses:  # CUDA and OpenCL have it, C does not
            out += "static inline double rsqrt(double x) { return 1.0 / sqrt(x); }\n"
        if "rsqrtf" in uses:
            out += "static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }\n"
        if {"abs", "labs", "llabs"} & uses:
            out += "#include <stdlib.h>\n"
        if "printf" in uses:  # OpenCL, CUDA and HIP have it built in; C has not
            out += "#include <stdio.h>\n"
        if "sig_atomic_t" in uses:  # a kernel's Ctrl-C flag (okl.transforms.cpu.lower)
            out += INTERRUPT
        if WIDE_VECTORS in uses:  # okl.transforms.cpu.registers
            out += WIDE_VECTORS_DEFINITION
        if NARROW_VECTORS in uses:  # okl.transforms.cpu.lower, after cpu.divmod
            out += NARROW_VECTORS_DEFINITION
        if NO_JAM in uses:  # okl.transforms.cpu.versions
            out += NO_JAM_DEFINITION
        for name, op in (("min", "<"), ("max", ">")):
            if name in uses:  # CUDA, HIP and OpenCL have type-generic min/max; C has not
                out += (f"#define {name}(a, b) ({{ __typeof__(a) _okl_a = (a); "
                        f"__typeof__(b) _okl_b = (b); _okl_a {op} _okl_b ? _okl_a : "
                        "_okl_b; })\n")
        return out

    def finish_functions(self, nodes: list[c_ast.Node], program, diags) -> None:
        """Where the kernels call ``printf`` (not one the file defines), every entry
        wrapper ends with ``fflush(stdout)``: the output of a launch is out when it returns,
        as on a GPU, not held in the C library's buffer until the process exits."""
        defined = {n.decl.name for n in nodes if isinstance(n, c_ast.FuncDef)}
        if "printf" not in uses_of(nodes) or "printf" in defined:
            return
        for node in nodes:
            if isinstance(node, c_ast.FuncDef) and node.decl.name.startswith(ENTRY_PREFIX):
                flush = c_ast.FuncCall(c_ast.ID("fflush"), c_ast.ExprList([c_ast.ID("stdout")]))
                node.body.block_items = [*(node.body.block_items or []), flush]

    def native_types(self) -> set[str]:
        return {"size_t", "ptrdiff_t", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t",
                "uint32_t", "int64_t", "uint64_t", "intptr_t", "uintptr_t", "bool"}

    def pragma(self, text: str) -> str | None:
        """CUDA's ``#pragma unroll N`` is ``#pragma GCC unroll N`` in C (gcc >= 8, clang);
        a bare ``#pragma unroll`` has no C spelling and is left to the optimiser."""
        words = text.split()
        if words and words[0] == "unroll":
            return "GCC unroll " + " ".join(words[1:]) if len(words) > 1 else None
        return text
