"""Shapes of the plain C loops the CPU lowering leaves, read by its later passes.

``cpu.interchange``, ``cpu.divmod`` and ``cpu.guards`` each need to know whether a loop counts
a constant range one by one, and whether its body can leave it early; one reading of each
keeps the three passes agreeing on what a loop is.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import is_id
from ...model.consteval import evaluate

_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


def counted_loop(loop: c_ast.For) -> tuple[str, int, int] | None:
    """(iterator, first, count) of ``for (T t = c0; t < c1; ++t)`` (or ``<=``, ``t++``,
    ``t += 1``) with constant ``c0`` and ``c1``; ``count`` may be 0 or less (no iteration).
    None for any other loop."""
    init, cond = loop.init, loop.cond
    if not isinstance(init, c_ast.DeclList) or len(init.decls) != 1 or \
            init.decls[0].init is None:
        return None
    name = init.decls[0].name
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in ("<", "<=") or \
            not is_id(cond.left, name):
        return None
    first, last = evaluate(init.decls[0].init), evaluate(cond.right)
    if first is None or last is None or not steps_by_one(loop.next, name):
        return None
    return name, first, last - first + (cond.op == "<=")


def upward_loop(loop: c_ast.For) -> tuple[c_ast.Decl, c_ast.Node] | None:
    """(the iterator's declaration, N) of ``for (T i = a; i < N; ++i)`` (``i++``,
    ``i += 1``), one scalar iterator declared in the header; None for any other loop."""
    rising = rising_loop(loop)
    return None if rising is None or rising[2] != 1 else rising[:2]


def rising_loop(loop: c_ast.For) -> tuple[c_ast.Decl, c_ast.Node, int] | None:
    """(the iterator's declaration, N, c) of ``for (T i = a; i < N; i += c)`` with a
    constant ``c > 0`` (``++i``, ``i++``: 1), one scalar iterator declared in the header;
    None for any other loop."""
    init, cond = loop.init, loop.cond
    if not isinstance(init, c_ast.DeclList) or len(init.decls) != 1 or \
            type(init.decls[0].type) is not c_ast.TypeDecl:
        return None
    decl = init.decls[0]
    if type(cond) is not c_ast.BinaryOp or cond.op != "<" or not is_id(cond.left, decl.name):
        return None
    step = loop.next
    if steps_by_one(step, decl.name):
        return decl, cond.right, 1
    if isinstance(step, c_ast.Assignment) and step.op == "+=" and is_id(step.lvalue, decl.name):
        c = evaluate(step.rvalue)
        if c is not None and c > 0:
            return decl, cond.right, c
    return None


def steps_by_one(step: c_ast.Node | None, name: str) -> bool:
    """``step`` is ``++name``, ``name++`` or ``name += 1``."""
    if isinstance(step, c_ast.UnaryOp):
        return step.op in ("++", "p++") and is_id(step.expr, name)
    return isinstance(step, c_ast.Assignment) and step.op == "+=" and \
        is_id(step.lvalue, name) and evaluate(step.rvalue) == 1


def count_loop(name: str, lo: int, hi: int, body: c_ast.Node, coord=None) -> c_ast.For:
    """``for (int name = lo; name < hi; ++name) body``: the loop :func:`counted_loop` reads
    as (name, lo, hi - lo)."""
    decl = c_ast.Decl(name, [], [], [], [], c_ast.TypeDecl(name, [], None,
                                                           c_ast.IdentifierType(["int"])),
                      c_ast.Constant("int", str(lo)), None, coord=coord)
    return c_ast.For(c_ast.DeclList([decl], coord=coord),
                     c_ast.BinaryOp("<", c_ast.ID(name), c_ast.Constant("int", str(hi))),
                     c_ast.UnaryOp("++", c_ast.ID(name)), body, coord=coord)


def leaves(body: c_ast.Node, *, continues: bool) -> bool:
    """``body`` (a loop's) has a ``break`` -- or, with ``continues``, a ``continue`` -- of
    that loop itself: not one inside a loop of its own, nor a ``break`` inside a switch (a
    ``continue`` inside a switch still belongs to the loop)."""
    stack = [(body, False, False)]  # (node, inside a loop, inside a switch)
    while stack:
        n, in_loop, in_switch = stack.pop()
        if isinstance(n, c_ast.Break) and not in_loop and not in_switch:
            return True
        if continues and isinstance(n, c_ast.Continue) and not in_loop:
            return True
        in_loop = in_loop or isinstance(n, _LOOPS)
        in_switch = in_switch or isinstance(n, c_ast.Switch)
        stack.extend((c, in_loop, in_switch) for _, c in n.children())
    return False
