"""C types of kernel parameters as numpy dtypes, including the layout of typedef'd structs.

The runtime checks every launch argument against these dtypes, so they must agree with the
C compiler's idea of each type: LP64 widths (``long`` is 8 bytes on Linux hosts, in CUDA/HIP
device code and in OpenCL C) and natural C alignment for struct members, which numpy's
``align=True`` reproduces.  A vector type (``double4``) is the struct of its components x, y,
z, w (:func:`vector_descr`).

The model holds each type as the description ``numpy.dtype(descr, align=True)`` takes (a
name, or a list of ``(field, descr[, shape])``), so translating never imports numpy;
``CType.dtype`` makes the numpy dtype when the runtime asks for it.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from pycparser import c_ast, c_generator

from ..parser.cparse import PRELUDE_TYPES
from ..parser.vectors import VECTOR_TYPES, VectorType
from ..record import record
from .basetypes import BASE_DTYPES, canonical_base
from .consteval import evaluate

if TYPE_CHECKING:
    import numpy as np

#: what numpy.dtype(descr, align=True) takes: a dtype name or a list of struct fields
Descr = Any


@record
class CType:
    """What the runtime needs to know about one declared type."""

    text: str  # C spelling, e.g. "const float *"
    base: str  # canonical base type name after typedef resolution, e.g. "float"
    descr: Descr  # the value's (pointee's for pointers) numpy description; None for void
    pointer: bool = False
    const: bool = False  # for pointers: the pointee is const
    struct: str | None = None  # struct name when the base is a struct

    @property
    def is_integer(self) -> bool:
        """An integer or bool value (not a pointer, struct or vector)."""
        return isinstance(self.descr, str) and (self.descr == "bool" or "int" in self.descr)

    @cached_property
    def dtype(self) -> np.dtype | None:
        """The numpy dtype of the value (of the pointee for pointers); None for void."""
        if self.descr is None:
            return None
        import numpy as np  # here: only the runtime needs numpy
        return np.dtype(self.descr, align=True)


class TypeTable:
    """Typedefs and structs of one file, to resolve declared types into CTypes."""

    def __init__(self) -> None:
        self.typedefs: dict[str, c_ast.Node] = {}
        self.structs: dict[str, c_ast.Struct] = {}
        for name, spelled in PRELUDE_TYPES.items():
            self.typedefs[name] = c_ast.TypeDecl(name, [], None,
                                                 c_ast.IdentifierType(spelled.split()))

    def add_typedef(self, node: c_ast.Typedef) -> None:
        self.typedefs[node.name] = node.type
        self._note_struct(node.type)

    def add_decl(self, node: c_ast.Decl) -> None:
        self._note_struct(node.type)

    def _note_struct(self, t: c_ast.Node) -> None:
        while isinstance(t, (c_ast.TypeDecl, c_ast.PtrDecl, c_ast.ArrayDecl)):
            t = t.type
        if isinstance(t, c_ast.Struct) and t.name and t.decls is not None:
            self.structs[t.name] = t

    def resolve(self, t: c_ast.Node) -> CType:
        text = type_text(t)
        t = self._pointer_typedef(t)
        pointer = isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl))
        const = False
        if pointer:
            inner = t.type
            while isinstance(inner, (c_ast.PtrDecl, c_ast.ArrayDecl)):
                inner = inner.type
            const = isinstance(inner, c_ast.TypeDecl) and "const" in inner.quals
            t = inner
        base, dtype, struct = self._base(t)
        return CType(text, base, dtype, pointer, const, struct)

    def _pointer_typedef(self, t: c_ast.Node) -> c_ast.Node:
        """A typedef'd pointer type (``typedef float *field3;``) as the pointer it names, so
        that ``field3 x`` is a pointer argument; any other type unchanged."""
        cur = t
        for _ in range(32):
            if not (isinstance(cur, c_ast.TypeDecl) and isinstance(cur.type, c_ast.IdentifierType)):
                return t
            target = self.typedefs.get(canonical_base(cur.type.names))
            if target is None:
                return t
            if isinstance(target, (c_ast.PtrDecl, c_ast.ArrayDecl)):
                return target
            cur = target
        return t

    def _base(self, t: c_ast.Node, depth: int = 0) -> tuple[str, Descr, str | None]:
        if depth > 32:
            return "?", None, None
        if isinstance(t, c_ast.TypeDecl):
            t = t.type
        if isinstance(t, c_ast.IdentifierType):
            name = canonical_base(t.names)
            if name in BASE_DTYPES:
                return name, BASE_DTYPES[name], None
            if name in self.typedefs:
                target = self.typedefs[name]
                if isinstance(target, (c_ast.PtrDecl, c_ast.ArrayDecl)):
                    return name, "uint64", None
                return self._base(target, depth + 1)
            if name in VECTOR_TYPES:
                return name, vector_descr(VECTOR_TYPES[name]), None
            return name, None, None
        if isinstance(t, c_ast.Struct):
            decl = self.structs.get(t.name) if t.decls is None else t
            if decl is None:
                return f"struct {t.name}", None, t.name
            return f"struct {t.name}", self.struct_dtype(decl, depth), t.name
        if isinstance(t, c_ast.Enum):
            return "int", "int32", None
        return "?", None, None

    def struct_dtype(self, s: c_ast.Struct, depth: int = 0) -> Descr:
        fields = []
        for d in s.decls or []:
            if not d.name or d.bitsize is not None:  # anonymous members, bit-fields:
                return None  # no numpy layout matches the C compiler's
            t = d.type
            shape = []
            while isinstance(t, c_ast.ArrayDecl):
                size = _const_int(t.dim)
                if size is None or size <= 0:
                    return None
                shape.append(size)
                t = t.type
            if isinstance(t, c_ast.PtrDecl):
                dt = "uint64"
            else:
                _, dt, _ = self._base(t, depth + 1)
            if dt is None:
                return None
            fields.append((d.name, (dt, tuple(shape)) if shape else dt))
        if not fields or len({name for name, _ in fields}) != len(fields):
            return None
        return fields


def vector_descr(v: VectorType) -> Descr:
    """CUDA's layout of a vector type as a numpy struct: fields x, y(, z, w) of the component
    type, no padding (``double4`` is 32 bytes, ``float3`` 12).  numpy cannot express the
    16-byte alignment CUDA gives ``double4``; it only matters to where an array starts."""
    return [(f, BASE_DTYPES[v.base]) for f in v.fields]


def type_text(t: c_ast.Node) -> str:
    """C spelling of a declaration's type without its name: 'const float *'."""
    text = c_generator.CGenerator()._generate_type(t, emit_declname=False).strip()
    return text.replace("*", " *").replace("  ", " ").strip()


def _const_int(node) -> int | None:
    value = evaluate(node)
    return int(value) if isinstance(value, int) else None
