"""CUDA/OpenCL vector types (``double4``, ``float2``, ``uchar3``...): names, components, layout.

Kernels written for CUDA and OpenCL use these without declaring them (libParanumal's
``dfloat4`` is ``double4``).  The parser declares every name in its prelude so that pycparser
reads them as type names; the type table gives them a numpy dtype; backends without them
(C) define the ones a kernel uses.

The layout is CUDA's, which the C definitions copy: ``n`` components named x, y, z, w of the
base type, no padding; 2- and 4-vectors aligned to min(size, 16) bytes, 3-vectors to their
base type.  OpenCL C differs for 3-vectors only: they occupy 4 components in memory.
"""

from __future__ import annotations

from ..record import record

COMPONENTS = "xyzw"


@record(frozen=True)
class VectorType:
    name: str  # "double4"
    base: str  # canonical C spelling of a component: "double", "unsigned char", "long long"
    n: int  # number of components: 2, 3 or 4
    base_size: int  # bytes per component

    @property
    def size(self) -> int:
        return self.n * self.base_size

    @property
    def alignment(self) -> int:
        return self.base_size if self.n == 3 else min(self.size, 16)

    @property
    def fields(self) -> str:
        return COMPONENTS[:self.n]

    @property
    def maker(self) -> str:
        """CUDA's constructor function: ``make_double4(x, y, z, w)``."""
        return f"make_{self.name}"


#: name prefix -> (component type, component size); CUDA's char vectors hold signed chars
_BASES = {
    "char": ("signed char", 1), "uchar": ("unsigned char", 1), "short": ("short", 2),
    "ushort": ("unsigned short", 2), "int": ("int", 4), "uint": ("unsigned int", 4),
    "long": ("long", 8), "ulong": ("unsigned long", 8), "longlong": ("long long", 8),
    "ulonglong": ("unsigned long long", 8), "float": ("float", 4), "double": ("double", 8),
}
VECTOR_TYPES: dict[str, VectorType] = {
    f"{prefix}{n}": VectorType(f"{prefix}{n}", base, n, size)
    for prefix, (base, size) in _BASES.items() for n in (2, 3, 4)
}
MAKERS: dict[str, VectorType] = {v.maker: v for v in VECTOR_TYPES.values()}


def vectors_used(uses: set[str]) -> list[VectorType]:
    """The vector types named in ``uses`` (type and function names of the emitted code),
    directly or through their ``make_`` function, in a stable order."""
    return [v for v in VECTOR_TYPES.values() if v.name in uses or v.maker in uses]
