"""C's base types by canonical name: spelling, numpy dtype, and integer width and signedness.

The lowest layer of the model: :mod:`okl.model.consteval` types integer constant expressions
with it and :mod:`okl.model.types` builds declared types on it, so neither needs the other's
table (types evaluates array sizes with consteval).  Widths are LP64's: ``long`` is 8 bytes
on Linux hosts, in CUDA/HIP device code and in OpenCL C.
"""

from __future__ import annotations

import numpy as np

#: canonical base type name -> numpy scalar type (None for void)
BASE_DTYPES = {
    "char": np.int8, "signed char": np.int8, "unsigned char": np.uint8,
    "short": np.int16, "unsigned short": np.uint16, "int": np.int32, "unsigned int": np.uint32,
    "long": np.int64, "unsigned long": np.uint64, "long long": np.int64,
    "unsigned long long": np.uint64, "float": np.float32, "double": np.float64,
    "_Bool": np.bool_, "void": None,
}
INTEGER_TYPES = {k for k, v in BASE_DTYPES.items()
                 if v is not None and np.issubdtype(v, np.integer)}


def integer_bits(base: str) -> tuple[int, bool]:
    """(bits, signed) of an integer type named by its canonical base (see INTEGER_TYPES)."""
    known = _INTEGER_BITS.get(base)
    return _iinfo_bits(base) if known is None else known


def _iinfo_bits(base: str) -> tuple[int, bool]:
    """integer_bits from numpy (which raises for a name that is no integer type)."""
    info = np.iinfo(BASE_DTYPES[base]) if base != "_Bool" else np.iinfo(np.uint8)
    return info.bits, info.min < 0


#: integer_bits of every integer type, computed once: np.iinfo takes about 2 us, and
#: constant evaluation and loop trip counts ask for it dozens of times per translate
_INTEGER_BITS = {base: _iinfo_bits(base) for base in (*INTEGER_TYPES, "_Bool")}


def canonical_base(names: list[str]) -> str:
    """`['long', 'int']` -> 'long', `['unsigned']` -> 'unsigned int', ...; else the joined names."""
    words = [w for w in names if w != "int"] if len(names) > 1 else list(names)
    if words and words[0] == "signed" and words != ["signed", "char"]:
        words = words[1:] or ["int"]
    if words == ["unsigned"]:
        words = ["unsigned", "int"]
    text = " ".join(words)
    return text
