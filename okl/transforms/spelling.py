"""Target spellings, the last pass before printing: ``restrict``, pragmas, OpenCL keywords
used as names, and math function names (``fabsf`` on OpenCL, ...).
"""

from __future__ import annotations

from pycparser import c_ast

from ..ctree import rewrite, walk
from ..targets.target import Target


def spell(nodes: list[c_ast.Node], target: Target) -> None:
    """Backend spellings: restrict qualifiers, pragmas, OpenCL keywords used as names (one
    walk) and OpenCL math function names."""
    reserved = target.reserved
    math_names = target.math_names
    for root in nodes:
        calls: list[c_ast.FuncCall] = []  # the calls the walk meets, for math_names
        aligned = False  # some node has an _Alignas (a part of the tree walk skips)
        for n in walk(root):
            cls = type(n)
            if cls is c_ast.FuncCall and n is not root:  # (rewrite passes no root to fn)
                calls.append(n)
            elif cls in _ALIGNED and n.align:
                aligned = True
            if isinstance(n, c_ast.PtrDecl) and "restrict" in n.quals:
                n.quals = [target.restrict if q == "restrict" else q for q in n.quals]
            elif isinstance(n, c_ast.Compound) and any(
                    isinstance(x, c_ast.Pragma) for x in n.block_items or []):
                items = []
                for x in n.block_items:
                    if isinstance(x, c_ast.Pragma):
                        text = target.pragma(x.string)
                        if text is None:
                            continue
                        x.string = text
                    items.append(x)
                n.block_items = items
            if reserved:
                _rename_reserved(n, reserved)
        # (no math name is reserved: the order does not matter)
        if math_names and aligned:  # rewrite also visits what _Alignas holds
            rewrite(root, lambda n: _rename_call(n, math_names))
        elif math_names:
            for n in calls:
                _rename_call(n, math_names)


#: the node classes with an ``align`` slot (_Alignas nodes, which walk does not visit)
_ALIGNED = frozenset({c_ast.Decl, c_ast.TypeDecl, c_ast.Typename})


def _rename_reserved(n: c_ast.Node, reserved: frozenset[str]) -> None:
    """A C identifier that is an OpenCL keyword (`half`, `global`...) gets an _okl_ prefix."""
    if isinstance(n, c_ast.ID) and n.name in reserved:
        n.name = "_okl_" + n.name
    elif isinstance(n, c_ast.Decl) and n.name in reserved:
        n.name = "_okl_" + n.name
    elif isinstance(n, c_ast.TypeDecl) and n.declname in reserved:
        n.declname = "_okl_" + n.declname


def _rename_call(n: c_ast.Node, names: dict[str, str]):
    if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and \
            n.name.name in names:
        n.name = c_ast.ID(names[n.name.name], coord=n.name.coord)
    return None
