"""A 2-D grid of blocks that only tiles two indices runs as the two loops it tiles (CPU only).

GPU code cuts a 2-D index space into thread blocks by hand::

    for (by = 0; by < NBY; ++by; @outer(1))
      for (bx = 0; bx < NBX; ++bx; @outer(0))
        for (ly = 0; ly < BY; ++ly; @inner(1))
          for (lx = 0; lx < BX; ++lx; @inner(0)) {
            const int x = 1 + bx * BX + lx, y = 1 + by * BY + ly;
            if (x < nx - 1 && y < ny - 1) S
          }

On a CPU the four loops walk the grid one BX x BY tile at a time: BY short rows of BX
points, then the next tile.  A stencil then streams each array through 3 x BY row pieces
at once, and gcc vectorises pieces of BX points with a peeled prologue and epilogue each
(ins, 64 x 4 blocks: 0.64-0.70 of the hand C loop over whole rows; 256 x 1: 0.78-0.84).
Where the body names ``by`` and ``ly`` only as ``by * BY + ly`` and ``bx``, ``lx`` only as
``bx * BX + lx`` (terms of one sum), the nest is the loop pair it tiles::

    for (ly = 0; ly < NBY * BY; ++ly)          // @outer: the parallel loop
      for (lx = 0; lx < NBX * BX; ++lx) {      // @inner: the SIMD lanes
        const int x = 1 + lx, y = 1 + ly;
        if (x < nx - 1 && y < ny - 1) S
      }

the same iterations, row by row (cpu.guards then makes ``x < nx - 1`` the lanes' bound).
Only where every array index that moves with ``lx`` moves by exactly one element per lane
(``u[c + 1]``, ``c = y * nx + x``): rows are then streams, and a tile holds nothing a row
does not. A tile that keeps strided accesses in cache stays a tile (a transpose's ``out[c *
rows + r]``, ``c = bx * 8 + tx``). Only the order changes, which OKL leaves open: @outer
iterations are independent, and so are the @inner iterations of a block with no barrier
between them. Only a perfect nest of exactly these four loops (no @shared or @exclusive
storage, no other statement, so no per-block state), no barrier, ``break``, ``return`` or
``goto`` in the body, every loop ``for (int i = 0; i < B; ++i)``, the @inner bounds
constants and the @outer bounds plain arithmetic that names no iterator and nothing the body
writes.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import clone, ids_in, is_id, is_pure, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel, Loop

#: names the merged indices carry while the body is rewritten (then the @inner iterators')
_PLACEHOLDER = "_okl_grid_"
_STORES = ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=")
_JUMPS = (c_ast.Return, c_ast.Goto, c_ast.Label)
_NESTS = (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch)


def merge_grid_tiles(kernel: Kernel, barriers: set[int]) -> None:
    """Rewrite each eligible @outer(1)/@outer(0)/@inner(1)/@inner(0) nest in place: the
    outermost For node becomes the row loop, the innermost the lane loop (kept: its SIMD
    mark and @inner kind go on).  ``barriers``: ids of the program's barrier statements."""
    for top in kernel.outers:
        nest = _nest(top, barriers)
        if nest is None:
            continue
        rows, cols, inner_rows, lanes = nest
        body = _merged_body(lanes.node.stmt, (rows, inner_rows), (cols, lanes))
        if body is None:
            continue
        _header(rows, inner_rows)
        _header(cols, lanes)
        rows.node.init, rows.node.cond, rows.node.next = \
            inner_rows.node.init, inner_rows.node.cond, inner_rows.node.next
        rows.form = inner_rows.form
        rows.node.stmt = c_ast.Compound([lanes.node], coord=rows.node.coord)
        lanes.node.stmt = body
        lanes.parent = rows
        rows.children = [lanes]


def _header(block: Loop, thread: Loop) -> None:
    """``thread``'s loop runs ``block``'s trip count times its own: ``i < NB * B``."""
    form = thread.form
    bound = c_ast.BinaryOp("*", clone(block.form.bound), clone(form.bound))
    thread.node.cond = c_ast.BinaryOp("<", c_ast.ID(form.iterator), bound)
    thread.form = type(form)(iterator=form.iterator, iter_type=form.iter_type,
                             type_node=form.type_node, start=form.start, bound=bound,
                             cmp=form.cmp, step=form.step, increasing=form.increasing)


def _nest(top: Loop, barriers: set[int]) -> tuple[Loop, Loop, Loop, Loop] | None:
    """(@outer rows, @outer columns, @inner rows, @inner lanes) of a mergeable nest."""
    chain = [top]
    while len(chain) < 4:
        loop = chain[-1]
        if len(loop.children) != 1 or not _only(loop.node.stmt, loop.children[0].node):
            return None
        chain.append(loop.children[0])
    rows, cols, inner_rows, lanes = chain
    if lanes.children or [lp.kind for lp in chain] != ["outer", "outer", "inner", "inner"]:
        return None
    if not all(_counts_from_zero(lp) for lp in chain) or \
            evaluate(inner_rows.form.bound) is None or evaluate(lanes.form.bound) is None:
        return None
    iterators = {lp.iterator for lp in chain}
    if len(iterators) != 4:
        return None
    written = _written(lanes.node.stmt)
    for block in (rows, cols):
        names = {n.name for n in ids_in(block.form.bound)}
        if not is_pure(block.form.bound) or names & (iterators | written):
            return None
    body = lanes.node.stmt
    if any(id(n) in barriers or isinstance(n, _JUMPS) for n in walk(body)) or \
            _breaks(body) or any(isinstance(n, c_ast.Decl) and n.name in iterators
                                 for n in walk(body)):
        return None
    return rows, cols, inner_rows, lanes


def _only(body: c_ast.Node, child: c_ast.For) -> bool:
    items = body.block_items if isinstance(body, c_ast.Compound) else [body]
    return len(items or []) == 1 and items[0] is child


def _counts_from_zero(loop: Loop) -> bool:
    """``for (int i = 0; i < B; ++i)``"""
    form = loop.form
    return form.iter_type == "int" and form.increasing and form.cmp == "<" and \
        evaluate(form.start) == 0 and (form.step is None or evaluate(form.step) == 1)


def _written(body: c_ast.Node) -> set[str]:
    """Names the body assigns, increments or takes the address of."""
    out: set[str] = set()
    for n in walk(body):
        target = None
        if isinstance(n, c_ast.Assignment) and n.op in _STORES:
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            target = n.expr
        if isinstance(target, c_ast.ID):
            out.add(target.name)
    return out


def _breaks(node: c_ast.Node) -> bool:
    """A ``break`` of the lane loop itself (it would end the whole merged row; a
    ``continue`` ends one lane's iteration, as it did before)."""
    if isinstance(node, c_ast.Break):
        return True
    if isinstance(node, _NESTS):
        return False
    return any(_breaks(c) for _, c in node.children())


def _merged_body(body: c_ast.Node, *pairs: tuple[Loop, Loop]) -> c_ast.Node | None:
    """A copy of ``body`` with each ``block * B + thread`` (terms of one sum) replaced by the
    merged index, or None where an iterator is used any other way."""
    new = clone(body)
    names = {}
    for k, (block, thread) in enumerate(pairs):
        names[(block.iterator, thread.iterator, evaluate(thread.form.bound))] = \
            f"{_PLACEHOLDER}{k}"
    _rewrite(new, names)
    iterators = {lp.iterator for pair in pairs for lp in pair}
    if any(isinstance(n, c_ast.ID) and n.name in iterators for n in walk(new)) or \
            not _unit_strides(new, f"{_PLACEHOLDER}{len(pairs) - 1}"):
        return None
    merged = {f"{_PLACEHOLDER}{k}": thread.iterator for k, (_, thread) in enumerate(pairs)}
    for n in walk(new):
        if isinstance(n, c_ast.ID) and n.name in merged:
            n.name = merged[n.name]
    return new


def _rewrite(node: c_ast.Node, names: dict) -> None:
    """Replace, in every sum under ``node``, a term ``block * B`` (or ``B * block``) and a
    term ``thread`` -- both added -- by one term, the merged index."""
    for attr, child in list(_slots(node)):
        if isinstance(child, c_ast.BinaryOp) and child.op in ("+", "-"):
            child = _merge_sum(child, names)
            _set(node, attr, child)
        _rewrite(child, names)


def _slots(node: c_ast.Node):
    """(attribute name or (list name, index), child) of each child of ``node``."""
    for name in node.__slots__:
        if name in ("coord", "__weakref__"):
            continue
        value = getattr(node, name, None)
        if isinstance(value, c_ast.Node):
            yield name, value
        elif isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, c_ast.Node):
                    yield (name, i), v


def _set(node: c_ast.Node, attr, value: c_ast.Node) -> None:
    if isinstance(attr, tuple):
        getattr(node, attr[0])[attr[1]] = value
    else:
        setattr(node, attr, value)


def _merge_sum(expr: c_ast.BinaryOp, names: dict) -> c_ast.Node:
    terms = _terms(expr)
    for (block, thread, size), merged in names.items():
        at_block = next((k for k, (sign, t) in enumerate(terms)
                         if sign == "+" and _scaled(t, block, size)), None)
        at_thread = next((k for k, (sign, t) in enumerate(terms)
                          if sign == "+" and is_id(t, thread)), None)
        if at_block is None or at_thread is None:
            continue
        first = min(at_block, at_thread)
        terms[first] = ("+", c_ast.ID(merged, coord=expr.coord))
        del terms[max(at_block, at_thread)]
    if len(terms) == len(_terms(expr)):
        return expr
    sign, out = terms[0]
    if sign == "-":
        out = c_ast.UnaryOp("-", out)
    for sign, t in terms[1:]:
        out = c_ast.BinaryOp(sign, out, t, coord=expr.coord)
    return out


def _terms(expr: c_ast.Node) -> list[tuple[str, c_ast.Node]]:
    """The terms of a left-nested sum ``a + b - c + ...`` with their signs."""
    if isinstance(expr, c_ast.BinaryOp) and expr.op in ("+", "-"):
        return [*_terms(expr.left), (expr.op, expr.right)]
    return [("+", expr)]


def _scaled(term: c_ast.Node, name: str, size: int | None) -> bool:
    """``name * size`` or ``size * name``."""
    if size is None or not isinstance(term, c_ast.BinaryOp) or term.op != "*":
        return False
    return is_id(term.left, name) and evaluate(term.right) == size or \
        is_id(term.right, name) and evaluate(term.left) == size


def _unit_strides(body: c_ast.Node, lane: str) -> bool:
    """Every subscript (and dereference) in ``body`` that depends on ``lane`` steps by +-1
    per lane: its coefficient of ``lane``, through the body's declarations, is +-1."""
    inits: dict[str, c_ast.Node | None] = {}
    for n in walk(body):
        if isinstance(n, c_ast.Decl) and n.name:
            inits[n.name] = n.init if n.name not in inits else None
    for name in _written(body):
        inits[name] = None  # a value the body changes: no one coefficient

    def coef(e: c_ast.Node | None, depth: int = 0) -> int | None:
        if e is None or depth > 32:
            return None
        if isinstance(e, c_ast.ID):
            if e.name == lane:
                return 1
            if e.name not in inits:
                return 0  # from outside the body: the same in every lane
            return coef(inits[e.name], depth + 1)
        if isinstance(e, c_ast.Constant):
            return 0
        if isinstance(e, c_ast.Cast):
            return coef(e.expr, depth + 1)
        if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+"):
            c = coef(e.expr, depth + 1)
            return None if c is None else (-c if e.op == "-" else c)
        if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
            a, b = coef(e.left, depth + 1), coef(e.right, depth + 1)
            return None if a is None or b is None else (a + b if e.op == "+" else a - b)
        if isinstance(e, c_ast.BinaryOp) and e.op == "*":
            a, b = coef(e.left, depth + 1), coef(e.right, depth + 1)
            if a == 0 and b == 0:
                return 0
            if a == 0 and b is not None:
                k = evaluate(e.left)
                return None if k is None else k * b
            if b == 0 and a is not None:
                k = evaluate(e.right)
                return None if k is None else k * a
            return None
        # anything else: the same in every lane only if it names nothing that varies
        return 0 if all(coef(n, depth + 1) == 0 for n in walk(e)
                        if isinstance(n, c_ast.ID) and n is not e) else None

    for n in walk(body):
        index = n.subscript if isinstance(n, c_ast.ArrayRef) else \
            n.expr if isinstance(n, c_ast.UnaryOp) and n.op == "*" else None
        if index is not None and coef(index) not in (0, 1, -1):
            return False
    return True
