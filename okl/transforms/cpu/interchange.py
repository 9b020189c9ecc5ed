"""Lane loops around a loop of run-time length: the lanes go inside it (CPU only).

A GPU mapping often gives each thread of a block a running sum over a list whose length only
the data knows -- blocksolver's 25 threads per block row, thread t summing ``A(k,l) x_j(l)``
over the row's blocks::

    for (t = 0; t < 25; ++t) {                    // @inner: SIMD lanes on a CPU
      const int i = g + r;
      if (i < rowEnd) {
        const int l = t / 5;  double acc = 0;  const int end = rowPtr[i + 1];
        for (n = rowPtr[i]; n < end; ++n) acc += A[n * 25 + t] * x[colIdx[n] * 5 + l];
        s_p[r][t] = acc;
      }
    }

On a CPU that is 25 passes over the row's blocks, each a dependent chain of adds, and gcc
cannot vectorise the lane loop around a loop it cannot unroll.  The lanes of an @inner loop
are independent (the guarantee cpu.simd's ``ivdep`` rests on: no lane reads what another
writes between two barriers, no @atomic inside), so their statements may run in any
interleaving, in particular lane by lane *inside* the uniform loop::

    { const int i = g + r;
      if (i < rowEnd) {
        const int end = rowPtr[i + 1];  double acc__x[25];
        for (t ...) { acc__x[t] = 0; }
        for (n = rowPtr[i]; n < end; ++n)
          for (t ...) { const int l = t / 5;  acc__x[t] += A[n * 25 + t] * x[colIdx[n] * 5 + l]; }
        for (t ...) { s_p[r][t] = acc__x[t]; }
      } }

What the lanes share moves out of the lane loop: leading declarations and an ``if`` whose
values are the same in every lane (no lane-varying name, loads only of arrays the lanes do
not write).  Scalars declared before the loop and used after it get one slot per lane
(``acc__x[t]``), unless they are never written after their pure initialiser (``l``), which
is then recomputed in each piece.  Everything else keeps the loop scalar: a lane count that
is not a constant, ``break``/``continue``/``return``/``goto`` that would cross the split,
addresses taken, arrays declared before the loop, names declared twice, a loop of constant
trip count (gcc unrolls it and vectorises the lanes itself) -- unless the lanes are vector
lanes (no scatter) and the loop is nothing but sums that chain, two or more updates of one
scalar per iteration (BK5's ``Auk += ...; Auk += ...;``: see _chained).
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import clone, is_id, parent_map, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel
from .loops import counted_loop, leaves
from .simd import PRAGMA, lane_loops, scatters

SUFFIX = "__x"
_STORES = ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=")
_SCALARS = {"int", "long", "unsigned", "short", "signed", "char", "float", "double",
            "size_t", "ptrdiff_t", "int32_t", "int64_t", "uint32_t", "uint64_t", "bool",
            "_Bool"}
_EXPR = (c_ast.ID, c_ast.Constant, c_ast.BinaryOp, c_ast.UnaryOp, c_ast.TernaryOp,
         c_ast.Cast, c_ast.Typename, c_ast.TypeDecl, c_ast.IdentifierType, c_ast.ArrayRef)


def interchange_lanes(kernel: Kernel, eligible) -> set[int]:
    """Interchange every innermost @inner loop for which ``eligible(loop)`` holds (its lanes
    independent) with the uniform loop of run-time length inside it, where legal; returns
    the ``id`` of the For nodes replaced (the new lane loops carry their own ``ivdep``)."""
    done: set[int] = set()
    loops = [loop for loop in lane_loops(kernel) if eligible(loop)]
    if not loops:
        return done
    taken: set[str] = set()  # every name used or declared in the kernel

    def name_of(n) -> None:
        if isinstance(n, c_ast.ID) or isinstance(n, c_ast.Decl) and n.name:
            taken.add(n.name)

    parents = parent_map(kernel.node, name_of)
    for loop in loops:
        new = _interchange(loop.node, taken)
        if new is None:
            continue
        parent, slot = parents[id(loop.node)]
        if isinstance(parent, c_ast.Compound):
            items = parent.block_items
            items[next(i for i, x in enumerate(items) if x is loop.node)] = new
        else:
            setattr(parent, slot, new)
        done.add(id(loop.node))
    return done


def _lanes(loop: c_ast.For) -> tuple[str, int, int] | None:
    """(iterator, first, count) of a counted loop (cpu.loops) of at least 2 lanes."""
    form = counted_loop(loop)
    return form if form is not None and form[2] >= 2 else None


def _interchange(lane: c_ast.For, taken: set[str]) -> c_ast.Node | None:
    form = _lanes(lane)
    if form is None:
        return None
    t, first, count = form
    body = lane.stmt
    # one walk of the lane body finds what _stores and _written would, and the names
    # declared anywhere in it, and how often
    nodes = list(walk(body))
    stored: set[str] = set()
    written: set[str] = set()
    unknown = False
    decls: dict[str, int] = {}
    for n in nodes:
        if isinstance(n, (c_ast.Return, c_ast.Goto, c_ast.Label)):
            return None
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            target = n.expr
        else:
            if isinstance(n, c_ast.FuncCall):
                unknown = True
            elif isinstance(n, c_ast.Decl) and n.name:
                decls[n.name] = decls.get(n.name, 0) + 1
            continue
        if isinstance(target, c_ast.ID):
            written.add(target.name)
            continue
        base = _base(target) if isinstance(target, c_ast.ArrayRef) else None
        if base is None:
            unknown = True
        else:
            stored.add(base)
    if any(v > 1 for v in decls.values()) or t in decls or _used_before_declared(nodes, decls):
        return None
    uniform: set[str] = set()  # lane-body names whose values every lane shares

    def is_uniform(expr) -> bool:
        for n in walk(expr):
            if not isinstance(n, _EXPR) or isinstance(n, c_ast.UnaryOp) and \
                    n.op in ("++", "--", "p++", "p--", "*", "&", "sizeof"):
                return False
            if isinstance(n, c_ast.ArrayRef):
                base = _base(n)
                if base is None or unknown or base in stored:
                    return False
            if isinstance(n, c_ast.ID) and (n.name == t or n.name in written or
                                            n.name in decls and n.name not in uniform):
                return False
        return True

    def hoistable(item) -> bool:
        return isinstance(item, c_ast.Decl) and isinstance(item.type, c_ast.TypeDecl) and \
            item.init is not None and not isinstance(item.init, c_ast.InitList) and \
            item.name not in written and is_uniform(item.init)

    # peel what every lane shares: leading uniform declarations, then a uniform `if`
    outer: list[c_ast.Node] = []  # the statements that replace the lane loop
    tail = outer
    items = _items(body)
    while True:
        k = 0
        while k < len(items) and hoistable(items[k]):
            uniform.add(items[k].name)
            tail.append(items[k])
            k += 1
        items = items[k:]
        if len(items) == 1 and isinstance(items[0], c_ast.If) and items[0].iffalse is None \
                and is_uniform(items[0].cond):
            guard = items[0]
            block = c_ast.Compound([], coord=guard.coord)
            tail.append(c_ast.If(guard.cond, block, None, coord=guard.coord))
            tail = block.block_items
            items = _items(guard.iftrue)
            continue
        break
    # uniform declarations among the lanes' own statements move out too
    rest = []
    for item in items:
        if hoistable(item):
            uniform.add(item.name)
            tail.append(item)
        else:
            rest.append(item)
    split = _split(rest, is_uniform, lambda: not scatters(lane))
    if split is None:
        return None
    pre, loop, post = split
    # a pragma for the loop (``unroll``) goes with it
    pragma = pre.pop() if pre and isinstance(pre[-1], c_ast.Pragma) else None
    if leaves(loop.stmt, continues=True) or not _coalesced(loop.stmt, t):
        return None
    # what the pieces after the first need of the first's declarations
    later = [x for n in [loop.stmt, *post] for x in walk(n)]
    used = {n.name for n in later if isinstance(n, c_ast.ID)}
    recompute: list[c_ast.Decl] = []
    expand: dict[str, c_ast.Decl] = {}
    pure: set[str] = set()
    for item in pre:
        if not isinstance(item, c_ast.Decl) or not item.name:
            continue
        if _scalar(item) and item.name not in written and item.init is not None and \
                _pure(item.init, pure | uniform | {t}, decls, written):
            pure.add(item.name)
            recompute.append(item)
        elif item.name in used:
            if not _scalar(item) or any(
                    isinstance(n, c_ast.UnaryOp) and n.op == "&" and is_id(n.expr, item.name)
                    for x in [*pre, loop.stmt, *post] for n in walk(x)):
                return None
            expand[item.name] = item
    names = {name: name + SUFFIX for name in expand}
    if any(new in taken for new in names.values()):
        return None
    taken.update(names.values())
    # recomputed declarations must see only what the later pieces still have
    for d in recompute:
        if any(isinstance(n, c_ast.ID) and n.name in expand for n in walk(d.init)):
            return None
    index = c_ast.ID(t) if first == 0 else \
        c_ast.BinaryOp("-", c_ast.ID(t), c_ast.Constant("int", str(first)))
    for d in expand.values():
        slot = clone(d)
        slot.init = None
        slot.quals = [q for q in slot.quals if q != "const"]
        slot.type.quals = [q for q in slot.type.quals if q != "const"]
        slot.name = slot.type.declname = names[d.name]
        slot.type = c_ast.ArrayDecl(slot.type, c_ast.Constant("int", str(count)), [],
                                    coord=d.coord)
        tail.append(slot)
    first_items = []
    for item in pre:
        if isinstance(item, c_ast.Decl) and item.name in expand:
            if item.init is not None:
                first_items.append(c_ast.Assignment("=", c_ast.ID(item.name), item.init,
                                                    coord=item.coord))
        else:
            first_items.append(item)
    pieces = [(first_items, []), (_items(loop.stmt), recompute), (post, recompute)]
    out_loops = []
    for stmts, redecl in pieces:
        need = {n.name for s in stmts for n in walk(s) if isinstance(n, c_ast.ID)}
        head = [clone(d) for d in redecl if _needed(d, need, redecl)]
        block = c_ast.Compound(head + list(stmts), coord=lane.coord)
        _rename(block, names, index)
        out_loops.append(block)
    inner = _lane_loop(lane, out_loops[1])
    loop.stmt = c_ast.Compound([c_ast.Pragma(PRAGMA, coord=lane.coord), inner],
                               coord=loop.coord)
    if first_items:
        tail.extend([c_ast.Pragma(PRAGMA, coord=lane.coord), _lane_loop(lane, out_loops[0])])
    if pragma is not None:
        tail.append(pragma)
    tail.append(loop)
    if post:
        tail.extend([c_ast.Pragma(PRAGMA, coord=lane.coord), _lane_loop(lane, out_loops[2])])
    return c_ast.Compound(outer, coord=lane.coord)


def _coalesced(stmt, t: str) -> bool:
    """Some array access in ``stmt`` has the lane iterator as a term of its subscript
    (``A[n * 25 + t]``): neighbouring lanes read neighbouring elements, a vector load once
    the lanes are inside.  Lanes that each walk their own row (``x[(b * 32 + t) * m + k]``)
    read better one lane at a time, and are left alone."""
    def terms(e):
        if isinstance(e, c_ast.BinaryOp) and e.op == "+":
            return terms(e.left) + terms(e.right)
        if isinstance(e, c_ast.BinaryOp) and e.op == "-":
            return terms(e.left)
        return [e]
    return any(isinstance(n, c_ast.ArrayRef) and
               any(is_id(x, t) for x in terms(n.subscript)) for n in walk(stmt))


def _split(items, is_uniform, vector):
    """(before, the loop, after): the one top-level For of run-time length with a uniform
    header (iterator declared in it, not written in its body); None if there is not
    exactly one candidate."""
    found = [k for k, item in enumerate(items) if isinstance(item, c_ast.For) and
             _uniform_loop(item, is_uniform, vector)]
    if len(found) != 1:
        return None
    k = found[0]
    return items[:k], items[k], items[k + 1:]


def _uniform_loop(loop: c_ast.For, is_uniform, vector) -> bool:
    """``vector()``: the lanes are cpu.simd's vector lanes (no scatter), where a constant-trip
    loop that chains its sums is worth moving outside them (see _chained); asked only of
    such a loop."""
    init = loop.init
    if not isinstance(init, c_ast.DeclList) or len(init.decls) != 1 or \
            init.decls[0].init is None or loop.cond is None or loop.next is None:
        return False
    name = init.decls[0].name
    if not is_uniform(init.decls[0].init):
        return False
    if any(isinstance(n, c_ast.ID) and n.name == name for n in _written_nodes(loop.stmt)):
        return False
    if evaluate(init.decls[0].init) is not None and isinstance(loop.cond, c_ast.BinaryOp) \
            and evaluate(loop.cond.right) is not None and not (_chained(loop.stmt) and vector()):
        return False  # constant trip count: gcc unrolls it and vectorises the lanes
    cond_ok = _uniform_with(loop.cond, name, is_uniform)
    next_ok = isinstance(loop.next, c_ast.UnaryOp) and loop.next.op in ("++", "p++", "--",
                                                                         "p--") and \
        is_id(loop.next.expr, name) or \
        isinstance(loop.next, c_ast.Assignment) and loop.next.op in ("+=", "-=") and \
        is_id(loop.next.lvalue, name) and _uniform_with(loop.next.rvalue, name, is_uniform)
    return cond_ok and next_ok


def _chained(body) -> bool:
    """Some scalar gets two or more updates (``a += ...; a += ...;``) per iteration of the
    loop ``body`` belongs to: one dependent chain of twice the trip count per lane.  Left in
    the lanes, gcc unrolls the loop and runs that chain one vector of lanes at a time (BK5's
    ``Auk``, 16 dependent FMAs at p_Nq = 8); with the lanes inside, every vector of the row
    advances in each iteration, and their chains overlap (BK5 at N = 7, 9: 10-20 % faster,
    one thread).  Only a loop that is nothing but such sums: a loop with one update per
    scalar, or that also stores (BK5's ``r_Aq[m] += ...`` before cpu.columns), ran as fast
    or faster left to gcc."""
    counts: dict[str, int] = {}
    for item in _items(body):
        if not isinstance(item, c_ast.Assignment) or item.op not in ("+=", "-=", "*=") or \
                not isinstance(item.lvalue, c_ast.ID):
            return False  # a store, or anything else: the loop is more than the sums
        counts[item.lvalue.name] = counts.get(item.lvalue.name, 0) + 1
    return any(n >= 2 for n in counts.values())


def _uniform_with(expr, name: str, is_uniform) -> bool:
    """``expr`` is uniform once the uniform loop's iterator ``name`` counts as uniform."""
    marked = clone(expr)
    for n in walk(marked):
        if isinstance(n, c_ast.ID) and n.name == name:
            n.name = "0"  # a constant as far as is_uniform cares
    return is_uniform(marked)


def _used_before_declared(nodes, decls) -> bool:
    """A name the lane body declares is used (as an outer variable) before its declaration
    (``nodes``: the body's nodes in preorder)."""
    seen: set[str] = set()
    for n in nodes:
        if isinstance(n, c_ast.Decl) and n.name:
            seen.add(n.name)
        elif isinstance(n, c_ast.ID) and n.name in decls and n.name not in seen:
            return True
    return False


def _items(stmt) -> list[c_ast.Node]:
    if isinstance(stmt, c_ast.Compound):
        return list(stmt.block_items or [])
    return [stmt]


def _written_nodes(root):
    for n in walk(root):
        if isinstance(n, c_ast.Assignment):
            yield n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            yield n.expr


def _base(ref: c_ast.ArrayRef) -> str | None:
    while isinstance(ref, c_ast.ArrayRef):
        ref = ref.name
    return ref.name if isinstance(ref, c_ast.ID) else None


def _pure(expr, allowed: set[str], decls, written: set[str]) -> bool:
    """Plain arithmetic (no loads, no calls) on names the lane body does not write, declared
    outside it or in ``allowed``."""
    for n in walk(expr):
        if not isinstance(n, _EXPR) or isinstance(n, c_ast.ArrayRef) or \
                isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "*", "&"):
            return False
        if isinstance(n, c_ast.ID) and (n.name in decls and n.name not in allowed or
                                        n.name in written):
            return False
    return True


def _scalar(d: c_ast.Decl) -> bool:
    return not d.storage and isinstance(d.type, c_ast.TypeDecl) and \
        isinstance(d.type.type, c_ast.IdentifierType) and set(d.type.type.names) <= _SCALARS


def _needed(d: c_ast.Decl, need: set[str], redecl: list[c_ast.Decl]) -> bool:
    """``d`` is used by the piece, directly or through a later recomputed declaration."""
    if d.name in need:
        return True
    k = next(i for i, x in enumerate(redecl) if x is d)
    return any(isinstance(n, c_ast.ID) and n.name == d.name and _needed(e, need, redecl)
               for e in redecl[k + 1:] for n in walk(e.init))


def _rename(root, names: dict[str, str], index: c_ast.Node) -> None:
    """Every use of an expanded scalar becomes its lane's slot."""
    if not names:
        return
    for n in walk(root):
        for slot, child in n.children():
            if isinstance(child, c_ast.ID) and child.name in names:
                new = c_ast.ArrayRef(c_ast.ID(names[child.name], coord=child.coord),
                                     clone(index), coord=child.coord)
                if "[" in slot:
                    field, k = slot[:-1].split("[")
                    getattr(n, field)[int(k)] = new
                else:
                    setattr(n, slot, new)


def _lane_loop(lane: c_ast.For, body: c_ast.Compound) -> c_ast.For:
    return c_ast.For(clone(lane.init), clone(lane.cond), clone(lane.next), body,
                     coord=lane.coord)
