"""Lowering for CPU targets (serial, OpenMP): the kernel stays one C function.

@outer and @inner loops stay loops, @shared arrays stay local arrays (one per @outer
iteration, so private to an OpenMP thread), @exclusive variables get one slot per @inner
iteration, barriers disappear (inner loops already run one after another), and OpenMP puts
``parallel for`` on each top-level @outer loop.  A ``_okl_entry_<name>(void **args)``
wrapper gives the runtime one C ABI for every kernel: ``args[i]`` is the address of scalar
argument i, or the data pointer of array argument i.
"""

from __future__ import annotations

import copy

from pycparser import c_ast

from ..model.consteval import evaluate
from ..model.kernel import Kernel, Program
from .astutil import walk
from .barriers import is_barrier, parent_map
from .exclusive import lower_exclusive


def lower_cpu_kernel(program: Program, kernel: Kernel, target) -> list[c_ast.Node]:
    counted = lower_exclusive(kernel)
    _guards_to_bounds(kernel, counted)
    _drop_block_unrolls(program, kernel)
    _drop_barriers(program, kernel)
    for outer in kernel.outers:
        pragma = target.outer_pragma(kernel, outer)
        if pragma:
            guard = target.outer_guard(outer)
            if guard is not None:
                _guard(kernel.node, outer.node, guard)
            _prefix(kernel.node, outer.node, c_ast.Pragma(pragma, coord=outer.node.coord))
    _spell_params(kernel, target)
    return [kernel.node, entry_point(kernel)]


def _guards_to_bounds(kernel: Kernel, counted: set[int]) -> None:
    """``for (t = 0; t < 256; ++t) if (t < n) body`` -> ``for (t = 0; t < min(256, n); ++t)
    body`` on CPUs.

    The guard is how OKL code sizes a block smaller than the launch (tree reductions, the
    @tile check); on a CPU it keeps the compiler from vectorising and runs empty iterations.
    The iterations that run are the same, in the same order, when the loop increases and the
    guard's bound cannot change inside the loop.  @outer loops whose @exclusive slots come
    from a running counter keep their guards: the counter must see every iteration.
    """
    for loop in kernel.loops():
        if loop.kind != "inner" or not loop.form.increasing:
            continue
        outer = loop.parent
        while outer is not None and outer.kind != "outer":
            outer = outer.parent
        if outer is None or id(outer.node) in counted:
            continue
        body = loop.node.stmt
        guard = body.block_items[0] if isinstance(body, c_ast.Compound) and \
            len(body.block_items or []) == 1 else body
        bound = _guard_bound(guard, loop.iterator)
        if bound is None or not _invariant(bound, guard.iftrue, loop.iterator):
            continue
        mine = _exclusive_bound(loop.form.cmp, loop.form.bound)
        loop.node.cond = c_ast.BinaryOp("<", c_ast.ID(loop.iterator), _min(mine, bound))
        loop.node.stmt = guard.iftrue


def _guard_bound(guard, iterator: str):
    """X of a guard `if (i < X)` / `if (i <= X)` / `if (X > i)` / `if (X >= i)` (no else), as
    an exclusive upper bound; None for any other statement."""
    if not isinstance(guard, c_ast.If) or guard.iffalse is not None:
        return None
    cond = guard.cond
    if not isinstance(cond, c_ast.BinaryOp):
        return None
    flip = {">": "<", ">=": "<="}
    if _is_id(cond.left, iterator) and cond.op in ("<", "<="):
        op, bound = cond.op, cond.right
    elif _is_id(cond.right, iterator) and cond.op in flip:
        op, bound = flip[cond.op], cond.left
    else:
        return None
    return _exclusive_bound(op, bound)


def _exclusive_bound(op: str, bound: c_ast.Node) -> c_ast.Node:
    return bound if op == "<" else c_ast.BinaryOp("+", bound, c_ast.Constant("int", "1"))


_PURE = (c_ast.ID, c_ast.Constant, c_ast.BinaryOp, c_ast.UnaryOp, c_ast.TernaryOp, c_ast.Cast,
         c_ast.Typename, c_ast.TypeDecl, c_ast.IdentifierType)


def _invariant(bound: c_ast.Node, body: c_ast.Node, iterator: str) -> bool:
    """The bound is plain arithmetic on variables that neither the loop nor its body write."""
    names = set()
    for n in walk(bound):
        if not isinstance(n, _PURE) or (isinstance(n, c_ast.UnaryOp) and
                                        n.op in ("++", "--", "p++", "p--", "*", "&")):
            return False
        if isinstance(n, c_ast.ID):
            names.add(n.name)
    if iterator in names:
        return False
    for n in walk(body):
        target = n.lvalue if isinstance(n, c_ast.Assignment) else (
            n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--")
            else None)
        if isinstance(target, c_ast.ID) and target.name in names:
            return False
        if isinstance(n, c_ast.Decl) and n.name in names:
            return False
    return True


def _min(a: c_ast.Node, b: c_ast.Node) -> c_ast.Node:
    va, vb = evaluate(a), evaluate(b)
    if va is not None and vb is not None:
        return c_ast.Constant("int", str(min(va, vb)))
    return c_ast.TernaryOp(c_ast.BinaryOp("<", a, b), copy.deepcopy(a), copy.deepcopy(b))


def _is_id(node, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name


def _drop_block_unrolls(program: Program, kernel: Kernel) -> None:
    """``#pragma unroll`` before a plain loop around @inner blocks is meant for the GPU's
    per-thread loop; on a CPU it would unroll whole blocks (a 7x bigger, 5x slower-to-build
    BK5 for at most 20%), so it is dropped there."""
    for n in walk(kernel.node):
        if not isinstance(n, c_ast.Compound) or not n.block_items:
            continue
        items, keep = n.block_items, []
        for k, item in enumerate(items):
            nxt = items[k + 1] if k + 1 < len(items) else None
            if isinstance(item, c_ast.Pragma) and item.string.split()[:1] == ["unroll"] and \
                    isinstance(nxt, (c_ast.For, c_ast.While, c_ast.DoWhile)) and any(
                        isinstance(x, c_ast.For) and program.attrs.has(x, "inner")
                        for x in walk(nxt)):
                continue
            keep.append(item)
        n.block_items = keep


def _drop_barriers(program: Program, kernel: Kernel) -> None:
    parents = parent_map(kernel.node)
    for n in list(walk(kernel.node)):
        if is_barrier(n, program.attrs):
            parent, slot = parents[id(n)]
            if isinstance(parent, c_ast.Compound):
                parent.block_items = [x for x in parent.block_items if x is not n]


def _guard(root: c_ast.Node, node: c_ast.Node, cond: c_ast.Node) -> None:
    """Replace ``node`` by ``if (cond) { node }``."""
    parent, slot = parent_map(root)[id(node)]
    guarded = c_ast.If(cond, c_ast.Compound([node], coord=node.coord), None, coord=node.coord)
    if isinstance(parent, c_ast.Compound):
        k = next(i for i, x in enumerate(parent.block_items) if x is node)
        parent.block_items[k] = guarded
    else:
        setattr(parent, slot, guarded)


def _prefix(root: c_ast.Node, node: c_ast.Node, new: c_ast.Node) -> None:
    parent, slot = parent_map(root)[id(node)]
    if isinstance(parent, c_ast.Compound):
        k = next(i for i, x in enumerate(parent.block_items) if x is node)
        parent.block_items.insert(k, new)
    else:
        setattr(parent, slot, c_ast.Compound([new, node], coord=node.coord))


def _spell_params(kernel: Kernel, target) -> None:
    for p in kernel.params:
        if p.restrict and isinstance(p.node.type, c_ast.PtrDecl):
            quals = p.node.type.quals
            if "restrict" not in quals:
                quals.append("restrict")


def entry_point(kernel: Kernel) -> c_ast.FuncDef:
    """``void _okl_entry_<name>(void **args) { name(*(int *) args[0], (float *) args[1]); }``"""
    args = []
    for k, p in enumerate(kernel.params):
        slot = c_ast.ArrayRef(c_ast.ID("args"), c_ast.Constant("int", str(k)))
        ptype = _abstract(p.node.type)
        if p.is_pointer:
            args.append(c_ast.Cast(ptype, slot))
        else:
            args.append(c_ast.UnaryOp("*", c_ast.Cast(c_ast.Typename(
                None, [], None, c_ast.PtrDecl([], ptype.type)), slot)))
    call = c_ast.FuncCall(c_ast.ID(kernel.name), c_ast.ExprList(args) if args else None)
    name = f"_okl_entry_{kernel.name}"
    void_pp = c_ast.PtrDecl([], c_ast.PtrDecl([], c_ast.TypeDecl(
        "args", [], None, c_ast.IdentifierType(["void"]))))
    params = c_ast.ParamList([c_ast.Decl("args", [], [], [], [], void_pp, None, None)])
    decl = c_ast.Decl(name, [], [], [], [], c_ast.FuncDecl(params, c_ast.TypeDecl(
        name, [], None, c_ast.IdentifierType(["void"]))), None, None)
    return c_ast.FuncDef(decl, None, c_ast.Compound([call]), coord=kernel.node.coord)


def _abstract(t: c_ast.Node) -> c_ast.Typename:
    """A parameter's type without its name, as a Typename for casts (arrays decay)."""
    import copy
    t = copy.deepcopy(t)
    if isinstance(t, c_ast.ArrayDecl):
        t = c_ast.PtrDecl([], t.type)
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        if isinstance(inner, c_ast.PtrDecl):
            inner.quals = [q for q in inner.quals if q != "restrict"]
        inner = inner.type
    inner.declname = None
    return c_ast.Typename(None, [], None, t)
