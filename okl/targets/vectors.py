"""Vector types (``double4``, ``make_double4``) in each backend's spelling.

CUDA and HIP have them natively.  OpenCL C has the types (but no ``longlong``/``ulonglong``
names) and writes constructors as vector literals: ``make_double4(a, b, c, d)`` becomes
``(double4)(a, b, c, d)``.  C has neither: the prologue defines each vector type the kernel
uses as a struct with CUDA's layout and alignment, and each ``make_`` function it calls.
"""

from __future__ import annotations

from pycparser import c_ast

from ..ctree import rewrite
from ..parser.vectors import MAKERS, vectors_used


def c_definitions(uses: set[str]) -> str:
    """C typedefs (and ``static inline`` constructors) of the vector types in ``uses``."""
    out = []
    for v in vectors_used(uses):
        align = "" if v.n == 3 else f" __attribute__((aligned({v.alignment})))"
        out.append(f"typedef struct{align} {{ {v.base} {', '.join(v.fields)}; }} {v.name};\n")
        if v.maker in uses:
            params = ", ".join(f"{v.base} {f}" for f in v.fields)
            out.append(f"static inline {v.name} {v.maker}({params}) {{ {v.name} v = "
                       f"{{{', '.join(v.fields)}}}; return v; }}\n")
    return "".join(out)


def opencl_typedefs(uses: set[str]) -> str:
    """OpenCL C calls CUDA's ``longlong2`` ``long2`` (its ``long`` is 64 bits)."""
    return "".join(f"typedef {v.name.replace('longlong', 'long')} {v.name};\n"
                   for v in vectors_used(uses) if "longlong" in v.name)


def vector_literals(nodes: list[c_ast.Node]) -> None:
    """Rewrite every ``make_T(...)`` call in the file-scope ``nodes`` into OpenCL's literal
    ``(T)(...)``, unless the file defines a function of that name itself."""
    own = {n.decl.name for n in nodes if isinstance(n, c_ast.FuncDef)}
    for root in nodes:
        rewrite(root, lambda n: _literal(n, own))


def _literal(n: c_ast.Node, own: set[str]) -> c_ast.Node | None:
    if not (isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and
            n.name.name in MAKERS and n.name.name not in own and n.args is not None):
        return None
    vector = c_ast.TypeDecl(None, [], None, c_ast.IdentifierType([MAKERS[n.name.name].name]))
    return c_ast.Cast(c_ast.Typename(None, [], None, vector), n.args, coord=n.coord)
