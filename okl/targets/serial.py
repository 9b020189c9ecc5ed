"""Serial C: the kernel as one C99 function; @atomic is a no-op with a single thread.

C has no vector types: the prologue defines the ones the kernel uses (:mod:`.vectors`).
"""

from __future__ import annotations

from .target import Target
from .vectors import c_definitions


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
        for name, op in (("min", "<"), ("max", ">")):
            if name in uses:  # CUDA, HIP and OpenCL have type-generic min/max; C has not
                out += (f"#define {name}(a, b) ({{ __typeof__(a) _okl_a = (a); "
                        f"__typeof__(b) _okl_b = (b); _okl_a {op} _okl_b ? _okl_a : "
                        "_okl_b; })\n")
        return out

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
