"""Target spellings, the last pass before printing: ``restrict``, pragmas, OpenCL keywords
used as names, and math function names (``fabsf`` on OpenCL, ...).
"""

from __future__ import annotations

from pycparser import c_ast

from ..ctree import REVERSED_SLOTS, reversed_child_slots, rewrite
from ..targets.target import Target


def spell(nodes: list[c_ast.Node], target: Target) -> None:
    """Backend spellings: restrict qualifiers, pragmas, OpenCL keywords used as names (one
    walk) and OpenCL math function names."""
    reserved = target.reserved
    math_names = target.math_names
    table = REVERSED_SLOTS
    call, ptr, compound, pragma = c_ast.FuncCall, c_ast.PtrDecl, c_ast.Compound, c_ast.Pragma
    for root in nodes:
        calls: list[c_ast.FuncCall] = []  # the calls the walk meets, for math_names
        aligned = False  # some node has an _Alignas (a part of the tree walk skips)
        # ctree.walk inlined (every node of the output passes here); a node's children are
        # read after it is spelt, as the walk reads them (a block without its pragmas).
        # (pycparser's node classes have no subclasses: the class decides.)
        stack = [root]
        pop, push, extend = stack.pop, stack.append, stack.extend
        while stack:
            n = pop()
            cls = type(n)
            if cls is call:
                if n is not root:  # (rewrite passes no root to fn)
                    calls.append(n)
            elif cls is ptr:
                if "restrict" in n.quals:
                    n.quals = [target.restrict if q == "restrict" else q for q in n.quals]
            elif cls is compound:
                if n.block_items and any(type(x) is pragma for x in n.block_items):
                    items = []
                    for x in n.block_items:
                        if type(x) is pragma:
                            text = target.pragma(x.string)
                            if text is None:
                                continue
                            x.string = text
                        items.append(x)
                    n.block_items = items
            elif cls in _ALIGNED and n.align:
                aligned = True
            if reserved:
                _rename_reserved(n, reserved)
            slots = table.get(cls)
            if slots is None:
                slots = reversed_child_slots(cls)
            for slot in slots:  # reversed: the first child is popped first
                value = getattr(n, slot)
                if value is None:
                    continue
                if type(value) is list:
                    extend(value[::-1])
                else:
                    push(value)
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
