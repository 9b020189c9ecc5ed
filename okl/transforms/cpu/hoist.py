"""@shared arrays filled with the same values in every @outer iteration: filled once, before it.

OKL kernels load their constant operators into @shared memory at the start of every block,
because a GPU block cannot see another block's @shared memory::

    for (int e = 0; e < Nelements; ++e; @outer) {
      @shared dfloat s_D[p_Nq][p_Nq];
      for (j, i; @inner) { s_D[j][i] = D[j * p_Nq + i]; ... }      // A: the fill
      ...
    }

On a CPU the @outer iterations are a loop (one thread's, or each OpenMP thread's share), so
each refills the same array with the same values (BK5: p_Nq^2 loads and stores, and as many
for cpu.transpose's twin ``s_D__t``, per element).  Here the fill's statements run once, in a
copy of A's loops before the @outer loop, guarded by the loop's first test (no read of ``D``
when there is no element), and the arrays are declared there.  A parallel @outer loop
(OpenMP) gets a parallel region of its own, ``omp for`` on the loop, and the arrays and their
fill at the top of the region: each thread fills its own copy once (an array shared by the
threads is reached through a pointer in the outlined function, which gcc must assume the
loop's stores may change: BK5 at N = 9 ran at 0.55 of the hand C instead of 0.81).  (BK5 one
thread, with cpu.forward: see benchmarks/results/cpu-2026-11-28-bk5-columns.txt.)

Legal because every iteration would store the same values and nothing else stores there.
The conditions, each checked, refusing the rewrite otherwise:

- the kernel has one top-level @outer loop, a statement of the function's body, whose
  header has no side effects;
- the arrays X are declared (without initialiser) at the top level of its body and used only
  element by element with every index (never whole, never their address);
- every store to each X is a statement ``X[a]..[b] = V`` of the innermost body of one @inner
  nest A at the top level of the @outer body, whose loops each hold only the next and count
  over constant bounds; A's body leaves no thread early;
- the subscripts and V are arithmetic and loads on A's iterators, constants, parameters the
  kernel never writes, elements of ``const @restrict`` pointer parameters (no store can
  change them), and arrays of the same fill stored before them in A's body.

A's other statements stay where they were.  The values every read sees are the values it saw
before (stored in the same order, by the same statements), so the answers are the same to
the bit.  Runs after cpu.transpose (its twin is filled with the matrix).
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import clone, is_pure, parent_map, walk
from ...model.kernel import Kernel
from .facts import array_root, leaves_early, no_effects, only_child, subscripts, written_names


def hoist_constant_fills(kernel: Kernel) -> list[c_ast.Node]:
    """Fill once, before the @outer loop, the arrays the conditions allow; return the
    statements put before it (their declarations and the guarded fill), [] for none."""
    if len(kernel.outers) != 1:
        return []
    outer = kernel.outers[0]
    func_body = kernel.node.body
    outer_body = outer.node.stmt
    if not isinstance(outer_body, c_ast.Compound) or \
            not any(x is outer.node for x in func_body.block_items or []):
        return []
    form = outer.form
    if not (is_pure(form.start) and is_pure(form.bound)):
        return []
    items = outer_body.block_items or []
    arrays = {x.name: x for x in items if isinstance(x, c_ast.Decl) and x.init is None and
              not x.storage and isinstance(x.type, c_ast.ArrayDecl)}
    if not arrays:
        return []
    found = _fill_block(outer, items)
    if found is None:
        return []
    block, chain, body = found
    iterators = {lp.iterator for lp in chain}
    written = written_names(kernel.node.body)
    readable = {p.name for p in kernel.params
                if p.is_pointer and p.is_const and p.restrict and p.name not in written} | \
        {p.name for p in kernel.params if not p.is_pointer and p.name not in written}
    # the fill: the stores of A's body to the arrays, each reading only what no one changes
    fill: list[c_ast.Assignment] = []
    filled: set[str] = set()
    for stmt in body.block_items or []:
        target = array_root(stmt.lvalue) if isinstance(stmt, c_ast.Assignment) and \
            isinstance(stmt.lvalue, c_ast.ArrayRef) else None
        if target not in arrays or stmt.op != "=":  # type: ignore[union-attr]
            continue
        if not _only_reads(stmt, iterators, readable | filled, arrays[target]):  # type: ignore[arg-type,index]
            continue
        fill.append(stmt)  # type: ignore[arg-type]
        filled.add(target)  # type: ignore[arg-type]
    if not fill:
        return []
    # the names the fill reads mean there what they mean before the loop, and the arrays'
    # names are free there: no declaration in the loop of the one, elsewhere of the other
    declared_in_loop = {n.name for n in walk(outer.node) if isinstance(n, c_ast.Decl)}
    declared_elsewhere = [n.name for n in walk(kernel.node) if isinstance(n, c_ast.Decl)
                          and not any(n is d for d in arrays.values())]
    for stmt in list(fill):
        reads = {n.name for n in walk(stmt.rvalue) if isinstance(n, c_ast.ID)} - iterators
        if (reads - filled) & declared_in_loop or array_root(stmt.lvalue) in declared_elsewhere:
            filled.discard(array_root(stmt.lvalue))  # type: ignore[arg-type]
    # every other use of a filled array is a read of an element
    parents = parent_map(outer_body)
    fill_ids = {id(s) for s in fill}
    for name in list(filled):
        if not _only_element_reads(outer_body, name, _rank(arrays[name]), parents, fill_ids):
            filled.discard(name)
    fill = [s for s in fill if array_root(s.lvalue) in filled]  # type: ignore[arg-type]
    # a store kept needs the arrays it reads kept
    while any(_reads_unfilled(s, set(arrays) - filled) for s in fill):
        fill = [s for s in fill if not _reads_unfilled(s, set(arrays) - filled)]
        filled = {array_root(s.lvalue) for s in fill}  # type: ignore[misc,arg-type]
    if not fill:
        return []
    # the rewrite: A's loops around the fill, before the @outer loop, under its first test
    body.block_items = [x for x in body.block_items if id(x) not in fill_ids or
                        array_root(x.lvalue) not in filled]
    copy: c_ast.Node = c_ast.Compound([clone(s) for s in fill], coord=body.coord)
    for lp in chain:  # leaf first
        if not isinstance(copy, c_ast.Compound):
            copy = c_ast.Compound([copy], coord=lp.node.coord)
        copy = c_ast.For(clone(lp.node.init), clone(lp.node.cond), clone(lp.node.next), copy,
                         coord=lp.node.coord)
    first = c_ast.BinaryOp(form.cmp, c_ast.Cast(c_ast.Typename(
        None, [], None, clone(form.type_node)), clone(form.start)), clone(form.bound))
    decls = [arrays[n] for n in arrays if n in filled]
    outer_body.block_items = [x for x in outer_body.block_items if
                              not any(x is d for d in decls)]
    k = next(i for i, x in enumerate(func_body.block_items) if x is outer.node)
    guarded = c_ast.If(first, c_ast.Compound([copy], coord=outer.node.coord), None,
                       coord=outer.node.coord)
    func_body.block_items[k:k] = [*decls, guarded]
    kernel.shared[:] = [v for v in kernel.shared if v.name not in filled]
    return [*decls, guarded]


def _fill_block(outer, items):
    """(A, its loop chain leaf first, the innermost body): the @inner nest at the top level of
    the @outer body with constant bounds whose loops each hold only the next."""
    for block in (c for c in outer.children if c.kind == "inner"):
        if not any(x is block.node for x in items):
            continue
        chain, lp = [block], block
        while lp.children:
            if len(lp.children) != 1 or not only_child(lp.node, lp.children[0].node):
                return None
            lp = lp.children[0]
            chain.append(lp)
        if any(lp.trip_value is None or not is_pure(lp.form.start) for lp in chain):
            return None
        body = chain[-1].node.stmt
        if not isinstance(body, c_ast.Compound) or leaves_early(body):
            return None
        return block, chain[::-1], body
    return None


def _only_reads(stmt: c_ast.Assignment, iterators: set[str], readable: set[str],
                decl: c_ast.Decl) -> bool:
    if len(subscripts(stmt.lvalue)) != _rank(decl):
        return False
    if not all(no_effects(s) and all(not isinstance(n, c_ast.ID) or n.name in iterators
                                      for n in walk(s)) for s in subscripts(stmt.lvalue)):
        return False
    value = stmt.rvalue
    if not no_effects(value):
        return False
    for n in walk(value):
        if isinstance(n, c_ast.UnaryOp) and n.op == "*":
            return False
        if isinstance(n, c_ast.ID) and n.name not in iterators and n.name not in readable:
            return False
    return True


def _rank(decl: c_ast.Decl) -> int:
    t, n = decl.type, 0
    while isinstance(t, c_ast.ArrayDecl):
        t, n = t.type, n + 1
    return n


def _only_element_reads(root: c_ast.Node, name: str, rank: int, parents, skip: set[int]) -> bool:
    for n in walk(root):
        if not isinstance(n, c_ast.ID) or n.name != name:
            continue
        node: c_ast.Node = n
        for _ in range(rank):
            parent, slot = parents[id(node)]
            if not isinstance(parent, c_ast.ArrayRef) or slot != "name":
                return False
            node = parent
        parent, slot = parents[id(node)]
        if id(parent) in skip and slot == "lvalue":
            continue
        if isinstance(parent, c_ast.ArrayRef) and slot == "name":
            return False
        if isinstance(parent, c_ast.Assignment) and slot == "lvalue":
            return False
        if isinstance(parent, c_ast.UnaryOp) and parent.op in ("&", "++", "--", "p++", "p--"):
            return False
    return True


def _reads_unfilled(stmt: c_ast.Assignment, unfilled: set[str]) -> bool:
    return any(isinstance(n, c_ast.ID) and n.name in unfilled for n in walk(stmt.rvalue))
