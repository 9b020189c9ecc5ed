"""C's base types by canonical name: spelling, numpy dtype name, and integer width and signedness.

The lowest layer of the model: :mod:`okl.model.consteval` types integer constant expressions
with it and :mod:`okl.model.types` builds declared types on it, so neither needs the other's
table (types evaluates array sizes with consteval).  Widths are LP64's: ``long`` is 8 bytes
on Linux hosts, in CUDA/HIP device code and in OpenCL C.  Types are named as numpy names them
(``"int32"``), not as numpy objects: translating needs no numpy, only the runtime does.
"""

from __future__ import annotations

#: canonical base type name -> numpy dtype name (None for void)
BASE_DTYPES = {
    "char": "int8", "signed char": "int8", "unsigned char": "uint8",
    "short": "int16", "unsigned short": "uint16", "int": "int32", "unsigned int": "uint32",
    "long": "int64", "unsigned long": "uint64", "long long": "int64",
    "unsigned long long": "uint64", "float": "float32", "double": "float64",
    "_Bool": "bool", "void": None,
}
#: (bits, signed) of every integer type (_Bool: an unsigned byte)
_INTEGER_BITS = {base: (int(name.lstrip("uint")), not name.startswith("u"))
                 for base, name in BASE_DTYPES.items() if name and "int" in name}
_INTEGER_BITS["_Bool"] = (8, False)
INTEGER_TYPES = set(_INTEGER_BITS) - {"_Bool"}


def integer_bits(base: str) -> tuple[int, bool]:
    """(bits, signed) of an integer type named by its canonical base (see INTEGER_TYPES);
    KeyError for a name that is no integer type."""
    return _INTEGER_BITS[base]


def canonical_base(names: list[str]) -> str:
    """`['long', 'int']` -> 'long', `['unsigned']` -> 'unsigned int', ...; else the joined names."""
    words = [w for w in names if w != "int"] if len(names) > 1 else list(names)
    if words and words[0] == "signed" and words != ["signed", "char"]:
        words = words[1:] or ["int"]
    if words == ["unsigned"]:
        words = ["unsigned", "int"]
    text = " ".join(words)
    return text
