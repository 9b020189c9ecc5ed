"""@exclusive on CPU backends: one copy per @inner iteration, indexed by a running counter.

On a GPU an @exclusive variable is simply a thread's local.  On a CPU the @inner loops run
one after another inside one @outer iteration, so each variable becomes an array with one
slot per thread of the block (``Variable.slots``, exact -- never OCCA's 1024 guess), and a
counter ``_okl_exclusive_index`` is reset before each @inner block and incremented at the end
of each innermost @inner body, so thread t of every block sees slot t.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import children, clone, rewrite
from ...model.kernel import Kernel, Loop, Variable
from ...model.looptree import leaf_chain, slot_extents

INDEX = "_okl_exclusive_index"


def lower_exclusive(kernel: Kernel) -> set[int]:
    """Lower every @exclusive; return id(outer.node) of the @outer loops that use the
    running counter (their @inner loops must keep running every iteration)."""
    by_outer: dict[int, list[Variable]] = {}
    for var in kernel.exclusive:
        by_outer.setdefault(id(var.outer.node), []).append(var)
    counted = set()
    for key, variables in by_outer.items():
        if not _lower_outer(variables[0].outer, variables):
            counted.add(key)
    return counted


def _lower_outer(outer: Loop, variables: list[Variable]) -> bool:
    """Returns True when the slot is computed from the iterators (no counter)."""
    body = outer.node.stmt
    decls = {id(v.node) for v in variables}
    slot = _direct_slots(outer, variables, decls)
    # Arrays indexed element by element get the slot as their *last* index (r_q[k][slot]):
    # the @inner loop then walks consecutive memory and vectorises (BK5 on CPUs: +25-60%).
    # Scalars, initialised arrays and arrays used whole (passed to a function, &r_q[0]) keep
    # the slot first, which is always correct.
    arrays = [v for v in variables if v.sizes and v.node.init is None]
    parents, uses = _scan(body, decls, {v.name for v in arrays})
    last = {v.name: len(v.sizes) for v in arrays if _indexed_fully(v, uses[v.name], parents)}
    names = {v.name for v in variables} - set(last)

    def indexer(index: c_ast.Node):
        def index_uses(node):
            if isinstance(node, c_ast.ID) and node.name in names:
                return c_ast.ArrayRef(c_ast.ID(node.name), clone(index),
                                      coord=node.coord)
            if isinstance(node, c_ast.ArrayRef):
                root, depth = _root(node)
                if root in last and depth == last[root]:
                    return c_ast.ArrayRef(node, clone(index), coord=node.coord)
            return None
        return index_uses

    if slot is not None:
        for leaf, index in slot:
            rewrite_in(leaf.node.stmt, indexer(index), decls)
    else:
        for item in body.block_items or []:
            if id(item) not in decls:
                rewrite_in(item, indexer(c_ast.ID(INDEX)), decls)
    for var in variables:
        if var.name in last:
            _widen_last(var)
        else:
            _widen(var, body)
    if slot is not None:
        return True
    for block in (c for c in outer.children if c.kind == "inner"):
        _before(block.node, _assign(), body)
        for leaf in (lp for lp in block.walk() if not lp.children):
            leaf.node.stmt = _append(leaf.node.stmt, _increment(leaf.node.coord))
    body.block_items.insert(0, c_ast.Decl(
        INDEX, [], [], [], [], c_ast.TypeDecl(INDEX, [], None, c_ast.IdentifierType(["int"])),
        c_ast.Constant("int", "0"), None))
    return False


def _direct_slots(outer: Loop, variables: list[Variable], decls: set[int]):
    """[(leaf @inner loop, slot expression)] when the model's test holds
    (okl.model.looptree.slot_extents: @inner loops from 0 with ++ over constant extents,
    every use in a leaf loop's body): then thread (j, i) is slot j * nx + i, computed from
    the iterators.  No counter to keep in step, so guards may shrink loop bounds and the
    @inner loops vectorise.  None otherwise."""
    extents = slot_extents(outer, {v.name for v in variables}, decls)
    if extents is None:
        return None
    blocks = [c for c in outer.children if c.kind == "inner"]
    out = []
    for block, leaf in ((b, lp) for b in blocks for lp in b.walk() if not lp.children):
        index, stride = None, 1
        for lp in sorted(leaf_chain(leaf, block), key=lambda lp: lp.axis):
            term = c_ast.ID(lp.iterator) if stride == 1 else c_ast.BinaryOp(
                "*", c_ast.Constant("int", str(stride)), c_ast.ID(lp.iterator))
            index = term if index is None else c_ast.BinaryOp("+", index, term)
            stride *= extents[lp.axis]
        out.append((leaf, index))
    return out


def rewrite_in(node, fn, skip_ids) -> None:
    """Rewrite a statement, leaving the declarations in ``skip_ids`` untouched."""
    if id(node) in skip_ids:
        return
    new = fn(node)
    if new is not None:  # the statement itself is an identifier
        return
    rewrite(node, lambda n: None if id(n) in skip_ids else fn(n))


def _root(ref: c_ast.ArrayRef) -> tuple[str | None, int]:
    depth, node = 0, ref
    while isinstance(node, c_ast.ArrayRef):
        depth, node = depth + 1, node.name
    return (node.name if isinstance(node, c_ast.ID) else None), depth


def _scan(body: c_ast.Node, decls: set[int], names: set[str]):
    """Outside the declarations ``decls``: id(node) -> parent, and the uses of each name."""
    parents: dict[int, c_ast.Node] = {}
    uses: dict[str, list[c_ast.ID]] = {name: [] for name in names}
    if not names:
        return parents, uses
    stack = [body]
    while stack:
        n = stack.pop()
        if id(n) in decls:
            continue
        if type(n) is c_ast.ID and n.name in uses:
            uses[n.name].append(n)
        for child in children(n):
            parents[id(child)] = n
            stack.append(child)
    return parents, uses


def _indexed_fully(var: Variable, uses: list[c_ast.ID], parents: dict[int, c_ast.Node]) -> bool:
    """Every use of the array is an element access x[i][j] with all its dimensions, and none
    has its address taken."""
    for use in uses:
        node, depth = use, 0
        while isinstance(parents.get(id(node)), c_ast.ArrayRef) and \
                parents[id(node)].name is node:
            node, depth = parents[id(node)], depth + 1
        if depth != len(var.sizes):
            return False
        up = parents.get(id(node))
        if isinstance(up, c_ast.UnaryOp) and up.op == "&":
            return False
    return True


def _widen_last(var: Variable) -> None:
    """`T x[K]` -> `T x[K][slots]`."""
    t = var.node.type
    while isinstance(t.type, c_ast.ArrayDecl):
        t = t.type
    t.type = c_ast.ArrayDecl(t.type, c_ast.Constant("int", str(var.slots)), [])


def _widen(var: Variable, body: c_ast.Compound) -> None:
    decl = var.node
    copies = var.slots
    assert copies is not None  # the model counted them (LoopTreeChecks._exclusive_slots)
    slots = c_ast.Constant("int", str(copies))
    decl.type = _array_of(decl.type, slots)
    init = decl.init
    if init is None:
        return
    if isinstance(init, c_ast.InitList):
        decl.init = c_ast.InitList([clone(init) for _ in range(copies)])
        return
    decl.init = None
    k = "_okl_slot"
    fill = c_ast.For(
        c_ast.DeclList([c_ast.Decl(k, [], [], [], [], c_ast.TypeDecl(
            k, [], None, c_ast.IdentifierType(["int"])), c_ast.Constant("int", "0"), None)]),
        c_ast.BinaryOp("<", c_ast.ID(k), clone(slots)),
        c_ast.UnaryOp("++", c_ast.ID(k)),
        c_ast.Assignment("=", c_ast.ArrayRef(c_ast.ID(var.name), c_ast.ID(k)), init),
        coord=decl.coord)
    _after(decl, fill, body)


def _array_of(t: c_ast.Node, size: c_ast.Node) -> c_ast.Node:
    """`T x` -> `T x[size]`, `T x[8]` -> `T x[size][8]`."""
    return c_ast.ArrayDecl(t, size, [])


def _assign() -> c_ast.Node:
    """Synthesised statements carry no coord: they are okl's, not a line of the source."""
    return c_ast.Assignment("=", c_ast.ID(INDEX), c_ast.Constant("int", "0"))


def _increment(coord) -> c_ast.Node:
    """Synthesised at the end of a body: no coord, so no #line jumps back to the header."""
    return c_ast.UnaryOp("++", c_ast.ID(INDEX))


def _append(stmt: c_ast.Node, extra: c_ast.Node) -> c_ast.Compound:
    if isinstance(stmt, c_ast.Compound):
        stmt.block_items = (stmt.block_items or []) + [extra]
        return stmt
    return c_ast.Compound([stmt, extra], coord=stmt.coord)


def _before(node: c_ast.Node, new: c_ast.Node, root: c_ast.Node) -> None:
    _insert(node, new, root, 0)


def _after(node: c_ast.Node, new: c_ast.Node, root: c_ast.Node) -> None:
    _insert(node, new, root, 1)


def _insert(node: c_ast.Node, new: c_ast.Node, root: c_ast.Node, offset: int) -> None:
    """Insert ``new`` next to ``node`` wherever it sits below ``root``."""
    stack = [root]
    while stack:
        n = stack.pop()
        for name, child in n.children():
            if child is node:
                if isinstance(n, c_ast.Compound):
                    k = next(i for i, it in enumerate(n.block_items) if it is node)
                    n.block_items.insert(k + offset, new)
                else:
                    pair = [new, node] if offset == 0 else [node, new]
                    setattr(n, name, c_ast.Compound(pair, coord=node.coord))
                return
            stack.append(child)
