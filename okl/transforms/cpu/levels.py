"""The levels of a tree over lanes, written out one by one (CPUs).

A block's tree reduction sweeps a plain loop over the levels of a binary tree, halving the
number of active lanes each time::

    for (int n = 256 / 2; n > 0; n /= 2)
      for (int t = 0; t < ((256 < n) ? (256) : (n)); ++t)     // cpu.guards' bound
        s_x[t] += s_x[t + n];

gcc counts no loop whose iterator is divided (or multiplied, or shifted), so it keeps the
level loop and compiles the lane loop once for every ``n``: a vector loop with a run-time
count, its remainder loop, and scalar code for the levels narrower than a vector, each level
storing its sums and the next loading them again.  Here such a loop becomes one copy of its
body per level, each with ``n`` a constant::

    { const int n = 128; for (int t = 0; t < ((256 < n) ? (256) : (n)); ++t) ... }
    { const int n = 64; ... }  ...  { const int n = 1; ... }

Every level's lane loop then has a constant count, and gcc can keep the partial sums in
vector registers from one level to the next.  Alone that gained 2 % on the blocked float sum
(one core of the AMD EPYC VM, in C); in cpu.versions' copy for full blocks, whose sums are
in registers when the tree starts, it is what lets them stay there (that copy with the loop
kept gained nothing).

Legal for any such loop: the same iterations run in the same order, each the same code with
the value the iterator had.  Only the innermost plain loop (not @outer or @inner) around
@inner loops (bitonic sort's stage loop, around its level loop, stays a loop),
``for (T n = A; n CMP B; n OP= C)`` with ``A``, ``B``, ``C`` constants, ``OP`` one of ``/``,
``*``, ``>>``, ``<<`` (a step gcc's loop analysis cannot count), ``T`` a signed or unsigned
integer type every value fits, at most :data:`MAX_LEVELS` iterations, and a body that does not
write ``n``, take its address, leave the loop early or define a label.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import children, clone, parent_map, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel
from .facts import declared_integer, leaves_early, written_names

#: at most this many levels are written out (a tree over 65536 lanes)
MAX_LEVELS = 16
#: and at most this many nodes of body in all copies together
MAX_NODES = 4000

_STEPS = {"/=": lambda v, c: _c_div(v, c), "*=": lambda v, c: v * c,
          ">>=": lambda v, c: v >> c, "<<=": lambda v, c: v << c}
_COMPARE = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b, "!=": lambda a, b: a != b}


def unroll_levels(kernel: Kernel) -> None:
    """Write out every plain level loop around an @inner loop (see the module's docstring)."""
    attributed = {id(loop.node) for loop in kernel.loops()}
    inner = {id(loop.node) for loop in kernel.loops() if loop.kind == "inner"}
    parents = None
    for n in list(walk(kernel.node.body)):
        if type(n) is not c_ast.For or id(n) in attributed or not _around_lanes(n, inner):
            continue
        levels = _levels(n)
        if levels is None:
            continue
        if parents is None:
            parents = parent_map(kernel.node)
        parent, slot = parents.get(id(n), (n, ""))
        if not isinstance(parent, c_ast.Compound):
            continue
        decl = n.init.decls[0]
        copies = []
        for value in levels:
            level = c_ast.Decl(decl.name, ["const"], [], [], [], _const_type(decl.type),
                               c_ast.Constant("int", str(value)), None, coord=decl.coord)
            copies.append(c_ast.Compound([level, clone(n.stmt)], coord=n.coord))
        k = next(i for i, x in enumerate(parent.block_items) if x is n)
        parent.block_items[k:k + 1] = copies
        for copy in copies:
            parents[id(copy)] = (parent, slot)


def _around_lanes(loop: c_ast.For, inner: set[int]) -> bool:
    """``loop``'s body holds @inner loops and no other loop outside them: the innermost
    plain loop around lanes (an outer level loop would copy the inner one whole)."""
    found = False
    stack = [loop.stmt]
    while stack:
        n = stack.pop()
        if id(n) in inner:
            found = True
            continue
        if isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)):
            return False
        stack.extend(children(n))
    return found


def _levels(loop: c_ast.For) -> list[int] | None:
    """The iterator's values of a level loop, in order; None for any other loop."""
    init, cond, step = loop.init, loop.cond, loop.next
    if not isinstance(init, c_ast.DeclList) or len(init.decls) != 1:
        return None
    decl = init.decls[0]
    name = decl.name
    bits = declared_integer(decl.type)
    if bits is None or decl.init is None or not isinstance(cond, c_ast.BinaryOp) or \
            cond.op not in _COMPARE or not isinstance(cond.left, c_ast.ID) or \
            cond.left.name != name or not isinstance(step, c_ast.Assignment) or \
            step.op not in _STEPS or not isinstance(step.lvalue, c_ast.ID) or \
            step.lvalue.name != name:
        return None
    value, bound, by = evaluate(decl.init), evaluate(cond.right), evaluate(step.rvalue)
    if value is None or bound is None or by is None or by <= 0 or \
            step.op in (">>=", "<<=") and by >= bits[0]:
        return None
    lowest, highest = (-(1 << (bits[0] - 1)), (1 << (bits[0] - 1)) - 1) if bits[1] else \
        (0, (1 << bits[0]) - 1)
    out: list[int] = []
    while _COMPARE[cond.op](value, bound):
        if len(out) == MAX_LEVELS or not lowest <= value <= highest:
            return None
        out.append(value)
        value = _STEPS[step.op](value, by)
    if not lowest <= value <= highest:  # the last step, which C computes too, overflows
        return None
    body = loop.stmt
    if name in written_names(body) or leaves_early(body) or \
            len(out) * sum(1 for _ in walk(body)) > MAX_NODES:
        return None
    return out


def _const_type(t: c_ast.TypeDecl) -> c_ast.TypeDecl:
    """The iterator's type, const (each level's copy is one value)."""
    quals = list(t.quals) if "const" in t.quals else [*t.quals, "const"]
    return c_ast.TypeDecl(t.declname, quals, t.align, c_ast.IdentifierType(list(t.type.names)),
                          coord=t.coord)


def _c_div(a: int, b: int) -> int:
    """C's integer division (towards zero)."""
    q = abs(a) // b
    return q if a >= 0 else -q
