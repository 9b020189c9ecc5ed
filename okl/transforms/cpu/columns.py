"""An @exclusive column summed across a slab loop: the sums finished where they are read.

Spectral-element kernels in OKL (BK5, the CEED Poisson operator) walk an element's k slabs
in a plain loop around their @inner blocks and scatter each slab's t-derivative into a
per-thread column of sums::

    @exclusive dfloat r_Aq[p_Nq];
    for (j, i; @inner) { for (k) r_Aq[k] = 0; ... }               // I: the column starts at 0
    for (int k = 0; k < p_Nq; ++k) {                              // L: the slab loop
      ...                                                         // r_Gqt = ... (block B)
      for (j, i; @inner) {                                        // C
        dfloat Auk = r_Auk;
        for (int m = 0; m < p_Nq; ++m) {
          Auk += ...;
          r_Aq[m] += s_D[k][m] * r_Gqt;                           // u1: every element
        }
        r_Aq[k] += Auk;                                           // u2: element k
      }
    }
    for (j, i; @inner) { for (k) Aq[...] = r_Aq[k]; }             // F: the only reader

On a GPU the column is registers.  On a CPU it is memory (one slot per thread), and every
slab loads and stores each thread's whole column again: 2 p_Nq memory operations per thread
and slab, 2 p_Nq per point of the element, a store among each two (the hand-written C peer
loads p_Nq values per point for the same sums and stores none).
Here the updates leave the slab loop: each slab saves what they read that the loop changes
(``r_Gqt__k[k] = r_Gqt``, ``Auk__k[k] = Auk``: @exclusive arrays of one value per slab), and
F starts by summing each element once, in a register, in the same order as before::

    for (j, i; @inner) {
      dfloat r_Aq[p_Nq];
      for (int m = 0; m < p_Nq; ++m) {
        dfloat r_Aq__sum = 0;
        for (int k = 0; k < p_Nq; ++k) {
          r_Aq__sum += s_D[k][m] * r_Gqt__k[k];
          if (k == m) r_Aq__sum += Auk__k[k];
        }
        r_Aq[m] = r_Aq__sum;
      }
      for (k) Aq[...] = r_Aq[k];
    }

A saved scalar that is nothing but that value -- written once, by a statement of its own in
a block before C that every thread runs through, and read only by the updates (BK5's
``r_Gqt``) -- is written straight into its slab's slot, ``r_Gqt__k[k] = ...``, and goes.

(BK5 on one core, against the hand-written C peer, with cpu.interchange's chained sums:
0.76 / 0.76 / 0.82 / 0.64 before, 0.97 / 0.89 / 0.90 / 0.82 after at N = 3 / 5 / 7 / 9; each
slab now stores one or two values per thread, and F loads about p_Nq per point.)

Legal because each thread's element ``r_Aq[e]`` receives the same terms in the same order:
slab by slab, u1's term then (when ``k == e``) u2's -- the updates' textual order in C --
each term the value it had (a saved value, or a name the slab loop never writes, read
unchanged between the loop and F), and no one reads the column between.  The conditions,
each checked, refusing the rewrite otherwise:

- X (the column) is a one-dimensional @exclusive array of a scalar type, used only as
  ``X[index]`` (never whole, never its address);
- the slab loop L counts ``k`` from 0 to X's size by one, does not write ``k``, and holds
  only @inner blocks (and barriers); every use of X in L is in one of its blocks, C;
- C is a perfect nest of @inner loops; in its innermost body X appears only in updates
  ``X[m] += E`` at the top of a counted loop ``for (int m = 0; m < size; ++m)`` at the top
  of the body (u1), or ``X[k] += V`` at the top of the body (u2); E and V have no side
  effects; E reads only k, m, C's thread indices, @exclusive scalars that C does not write
  (saved per slab) and names that L does not write or declare; nothing else in C names X;
- before L, X is written only by one statement ``X[v] = c`` (c a constant) in a counted
  loop over all of X in an @inner body, and not read;
- right after L (barriers apart) comes F, an @inner nest with the same loop headers as C
  (on names L does not write), whose innermost body only reads X and has no branch (gcc
  vectorised the sums beside a guarded store with half-width vectors: bk5_blocked ran
  slower than with the column left alone); X is used nowhere else;
- where L stores to memory other than @shared, @exclusive and its own locals, E reads no
  other memory (a pointer it reads might alias the store).

The sums are in the same order, so the answers are the same to the bit (gcc contracts each
``a += b * c`` to the same fused multiply-add as before).  Kernels without such a column are
left as they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast, c_generator

from ...ctree import clone, is_id, substitute, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel, Variable
from .facts import array_root, fresh_name, leaves_early, no_effects, written_names
from .loops import counted_loop, leaves

#: the suffix of a value saved once per slab
SAVED = "__k"

_gen = c_generator.CGenerator()


@dataclass
class _Update:
    """One update of the column in C's innermost body: ``X[m] += E`` inside ``loop``
    (``loop`` None: ``X[k] += value`` at the body's top)."""

    stmt: c_ast.Assignment
    loop: c_ast.For | None
    element: str  # the name the update's index is: the counted loop's iterator, or k


@dataclass
class _Plan:
    column: Variable
    size: int
    slab: c_ast.For  # L
    k: str
    init: tuple[c_ast.Compound, c_ast.Node, c_ast.For]  # (I's body, the loop, its stmt)
    start: c_ast.Node  # the constant the column starts at
    body_c: c_ast.Compound  # C's innermost body
    updates: list[_Update]
    saved: list[Variable]  # @exclusive scalars E reads that L writes
    body_f: c_ast.Compound  # F's innermost body
    direct: dict[str, c_ast.Assignment] = field(default_factory=dict)  # see _direct_write
    taken: set[str] = field(default_factory=set)


def defer_column_sums(kernel: Kernel) -> None:
    """Rewrite every @exclusive column that the module's conditions allow."""
    columns = [v for v in kernel.exclusive if len(v.sizes) == 1 and v.sizes[0] is not None]
    if not columns:
        return
    attributed = {id(lp.node) for lp in kernel.loops()}
    # a first look, one walk of the plain loops: the columns updated (``X[...] +=``) in a
    # plain loop at the top of their @outer body; only those get the whole analysis
    updated: dict[int, set[str]] = {}
    for column in columns:
        key = id(column.outer.node)
        if key not in updated:
            body = column.outer.node.stmt
            items = body.block_items or [] if isinstance(body, c_ast.Compound) else []
            updated[key] = {n.lvalue.name.name for item in items
                            if isinstance(item, c_ast.For) and id(item) not in attributed
                            for n in walk(item.stmt)
                            if isinstance(n, c_ast.Assignment) and n.op == "+=" and
                            isinstance(n.lvalue, c_ast.ArrayRef) and
                            isinstance(n.lvalue.name, c_ast.ID)}
    columns = [v for v in columns if v.name in updated[id(v.outer.node)]]
    if not columns:
        return
    inner_nodes = {id(lp.node) for lp in kernel.loops() if lp.kind == "inner"}
    taken: set[str] | None = None
    for column in columns:
        plan = _plan(kernel, column, inner_nodes, attributed)
        if plan is not None:
            if taken is None:
                taken = {n.name for n in walk(kernel.node) if isinstance(n, c_ast.ID)} | \
                    {n.name for n in walk(kernel.node) if isinstance(n, c_ast.Decl) and n.name}
            plan.taken = taken
            _apply(kernel, plan)


def _plan(kernel: Kernel, column: Variable, inner_nodes: set[int],
          attributed: set[int]) -> _Plan | None:
    if len(column.sizes) != 1 or column.sizes[0] is None or column.node.init is not None:
        return None
    size = column.sizes[0]
    decl_type = column.node.type
    if not isinstance(decl_type, c_ast.ArrayDecl) or \
            not isinstance(decl_type.type, c_ast.TypeDecl) or \
            not isinstance(decl_type.type.type, c_ast.IdentifierType):
        return None
    body = column.outer.node.stmt
    if not isinstance(body, c_ast.Compound):
        return None
    items = body.block_items or []
    if not any(x is column.node for x in items):
        return None  # declared in a block of its own
    name = column.name
    # every use of X is X[index], one level deep
    refs = _column_refs(kernel.node, name, column.node)
    if refs is None:
        return None
    holders = [k for k, item in enumerate(items)
               if any(r is n for n in walk(item) for r in refs)]
    if not holders or any(items[k] is column.node for k in holders):
        return None
    # L: the one plain loop among the holders
    slabs = [k for k in holders if isinstance(items[k], c_ast.For) and
             id(items[k]) not in attributed]
    if len(slabs) != 1:
        return None
    s = slabs[0]
    slab = items[s]
    form = counted_loop(slab)
    if form is None or form[1] != 0 or form[2] != size or not isinstance(slab.stmt,
                                                                       c_ast.Compound):
        return None
    k = form[0]
    if _writes(slab.stmt, k) or leaves(slab.stmt, continues=True):
        return None
    blocks = slab.stmt.block_items or []
    if any(not (id(b) in inner_nodes or isinstance(b, c_ast.EmptyStatement)) for b in blocks):
        return None
    in_slab = [b for b in blocks if any(r is n for n in walk(b) for r in refs)]
    if len(in_slab) != 1:
        return None
    c_nest = _nest(in_slab[0], inner_nodes)
    # F: the next @inner block after L, barriers apart
    f = s + 1
    while f < len(items) and isinstance(items[f], (c_ast.EmptyStatement, c_ast.Pragma)):
        f += 1
    if f >= len(items) or id(items[f]) not in inner_nodes:
        return None
    f_nest = _nest(items[f], inner_nodes)
    if c_nest is None or f_nest is None or len(c_nest) != len(f_nest) or any(
            _header(a) != _header(b) for a, b in zip(c_nest, f_nest, strict=True)):
        return None
    threads = {_iterator(lp) for lp in c_nest}
    if k in threads or None in threads:
        return None
    # I: the one holder before L
    before = [h for h in holders if h < s]
    if len(before) != 1 or id(items[before[0]]) not in inner_nodes or \
            set(holders) != {before[0], s, f}:
        return None
    init = _initial(items[before[0]], inner_nodes, name, size, refs)
    if init is None:
        return None
    body_c = c_nest[-1].stmt
    body_f = f_nest[-1].stmt
    if not isinstance(body_c, c_ast.Compound) or not isinstance(body_f, c_ast.Compound):
        return None
    # every thread runs the whole of C's body, and of I's
    if leaves_early(body_c) or leaves_early(init[0]):
        return None
    # F only reads X, and has no branch: the sums run in F's lanes, which gcc vectorises
    # whole; beside a guarded store (bk5_blocked's ``if (e < Nelements)``) it picked
    # half-width vectors, and the kernel ran slower than with the column left alone
    if any(isinstance(n, (c_ast.If, c_ast.Switch, c_ast.While, c_ast.DoWhile))
           for n in walk(body_f)):
        return None
    if any(_written_ref(n, refs) for n in walk(body_f)) or \
            any(r is n for r in refs for lp in f_nest[:-1] for n in _header_nodes(lp)):
        return None
    updates = _updates(body_c, name, k, size, refs)
    if updates is None:
        return None
    # what E reads
    exclusive = {v.name: v for v in kernel.exclusive if v.outer is column.outer}
    written_c = written_names(body_c)
    written_l = written_names(slab.stmt)
    declared_l = {n.name for n in walk(slab.stmt) if isinstance(n, c_ast.Decl) and n.name}
    # the threads of F are C's: the same headers, on values L does not change
    if any(isinstance(n, c_ast.ID) and n.name in written_l - threads
           for lp in c_nest for n in _header_nodes(lp)):
        return None
    # L stores to memory beyond the block's own arrays and its locals: then E may read only
    # those (a pointer it reads may alias what L stores)
    own = {v.name for v in kernel.shared + kernel.exclusive} | declared_l
    stores = bool(written_l - own)
    saved: dict[str, Variable] = {}
    for u in updates:
        if not no_effects(u.stmt.rvalue):
            return None
        if u.loop is None:
            continue  # its value is saved whole
        for n in walk(u.stmt.rvalue):
            if not isinstance(n, c_ast.ID) or n.name in (k, u.element) or n.name in threads:
                continue
            var = exclusive.get(n.name)
            if var is not None and not var.sizes:
                if n.name in written_c:
                    return None
                saved[n.name] = var
            elif n.name in written_l or n.name in declared_l or n.name == name:
                return None
        if stores and any(isinstance(n, c_ast.UnaryOp) and n.op == "*" or
                          isinstance(n, c_ast.ArrayRef) and array_root(n) not in own
                          for n in walk(u.stmt.rvalue)):
            return None
    plan = _Plan(column, size, slab, k, init[:3], init[3], body_c, updates,
                 list(saved.values()), body_f)
    terms = {id(n) for u in updates if u.loop is not None for n in walk(u.stmt.rvalue)}
    blocks_before = blocks[:blocks.index(in_slab[0])]
    for var in plan.saved:
        write = _direct_write(kernel.node, var, blocks_before, inner_nodes, terms)
        if write is not None:
            plan.direct[var.name] = write
    return plan


def _direct_write(root: c_ast.Node, var: Variable, blocks: list[c_ast.Node],
                  inner_nodes: set[int], terms: set[int]) -> c_ast.Assignment | None:
    """The one write ``S = v`` of a saved scalar S, where it can write its slab's slot
    ``S__k[k] = v`` instead of S (and C's copy goes): S is written nowhere else and read
    only by the updates' terms, and the write is a statement of its own at the top of the
    innermost body of a block of L before C, which every thread runs to its end -- so in
    every slab each thread writes S before C reads it, and S__k[k] holds what C read."""
    writes, others = [], []
    for n in walk(root):
        if isinstance(n, c_ast.Assignment) and is_id(n.lvalue, var.name):
            writes.append(n)
        elif isinstance(n, c_ast.ID) and n.name == var.name and id(n) not in terms:
            others.append(n)
    if len(writes) != 1 or len(others) != 1 or others[0] is not writes[0].lvalue or \
            writes[0].op != "=":
        return None
    for block in blocks:
        nest = _nest(block, inner_nodes) if id(block) in inner_nodes else None
        body = nest[-1].stmt if nest else None
        if isinstance(body, c_ast.Compound) and any(x is writes[0]
                                                    for x in body.block_items or []):
            return None if leaves_early(body) else writes[0]
    return None


def _column_refs(root: c_ast.Node, name: str, decl: c_ast.Decl) -> list[c_ast.ArrayRef] | None:
    """The ``X[index]`` nodes; None where X is used any other way (whole, address taken,
    indexed twice)."""
    refs, seen = [], set()
    for n in walk(root):
        if isinstance(n, c_ast.ArrayRef) and is_id(n.name, name):
            refs.append(n)
            seen.add(id(n.name))
        elif isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ArrayRef) \
                and is_id(n.expr.name, name):
            return None
    for n in walk(root):
        if isinstance(n, c_ast.ID) and n.name == name and id(n) not in seen:
            return None
        if isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ArrayRef) and \
                is_id(n.name.name, name):
            return None
    return refs


def _nest(loop: c_ast.For, inner_nodes: set[int]) -> list[c_ast.For] | None:
    """The perfect nest of @inner loops from ``loop`` down; None where a level holds more
    than the next loop."""
    out = [loop]
    while True:
        body = out[-1].stmt
        inner = [n for n in walk(body) if id(n) in inner_nodes]
        if not inner:
            return out
        items = body.block_items if isinstance(body, c_ast.Compound) else [body]
        if len(items or []) != 1 or id(items[0]) not in inner_nodes:
            return None
        out.append(items[0])


def _header(loop: c_ast.For) -> str:
    return "; ".join(_gen.visit(x) if x is not None else ""
                     for x in (loop.init, loop.cond, loop.next))


def _header_nodes(loop: c_ast.For):
    for x in (loop.init, loop.cond, loop.next):
        if x is not None:
            yield from walk(x)


def _iterator(loop: c_ast.For) -> str | None:
    init = loop.init
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1:
        return init.decls[0].name
    return None


def _initial(block: c_ast.For, inner_nodes: set[int], name: str, size: int, refs):
    """(I's innermost body, the counted loop there, its statement, the constant) for the one
    ``X[v] = c`` over all of X; None otherwise."""
    nest = _nest(block, inner_nodes)
    if nest is None or not isinstance(nest[-1].stmt, c_ast.Compound):
        return None
    body = nest[-1].stmt
    mine = [r for r in refs if any(r is n for n in walk(block))]
    for item in body.block_items or []:
        if not isinstance(item, c_ast.For) or not any(r is n for n in walk(item) for r in mine):
            continue
        form = counted_loop(item)
        if form is None or form[1] != 0 or form[2] != size or _writes(item.stmt, form[0]):
            return None
        stmts = item.stmt.block_items if isinstance(item.stmt, c_ast.Compound) else [item.stmt]
        found = [x for x in stmts or [] if any(r is n for n in walk(x) for r in mine)]
        if len(found) != 1 or len(mine) != 1:
            return None
        st = found[0]
        if not isinstance(st, c_ast.Assignment) or st.op != "=" or st.lvalue is not mine[0] or \
                not is_id(st.lvalue.subscript, form[0]) or evaluate(st.rvalue) is None:
            return None
        return body, item, st, st.rvalue
    return None


def _updates(body: c_ast.Compound, name: str, k: str, size: int, refs) -> list[_Update] | None:
    """C's updates of X in textual order; None where X appears any other way."""
    mine = [r for r in refs if any(r is n for n in walk(body))]
    used: set[int] = set()
    out: list[_Update] = []
    for item in body.block_items or []:
        if not any(r is n for n in walk(item) for r in mine):
            continue
        if _update_of(item, name, k):
            out.append(_Update(item, None, k))
            used.add(id(item.lvalue))
            continue
        if not isinstance(item, c_ast.For):
            return None
        form = counted_loop(item)
        if form is None or form[1] != 0 or form[2] != size or _writes(item.stmt, form[0]) or \
                form[0] == k or leaves(item.stmt, continues=True):
            return None
        stmts = item.stmt.block_items if isinstance(item.stmt, c_ast.Compound) else [item.stmt]
        for x in stmts or []:
            if any(r is n for n in walk(x) for r in mine):
                if not _update_of(x, name, form[0]):
                    return None
                out.append(_Update(x, item, form[0]))
                used.add(id(x.lvalue))
    if len(used) != len(mine) or not out:
        return None
    for u in out:  # the term reads no X and never its own index's loop in a hidden way
        if any(isinstance(n, c_ast.ID) and n.name == name for n in walk(u.stmt.rvalue)):
            return None
    return out



def _update_of(stmt: c_ast.Node, name: str, index: str) -> bool:
    return isinstance(stmt, c_ast.Assignment) and stmt.op == "+=" and \
        isinstance(stmt.lvalue, c_ast.ArrayRef) and is_id(stmt.lvalue.name, name) and \
        is_id(stmt.lvalue.subscript, index)


def _written_ref(n: c_ast.Node, refs) -> bool:
    target = n.lvalue if isinstance(n, c_ast.Assignment) else (
        n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&")
        else None)
    return any(target is r for r in refs)


def _writes(root: c_ast.Node, name: str) -> bool:
    return name in written_names(root)


def _remove(body: c_ast.Compound, item: c_ast.Node) -> None:
    """Drop ``item`` from ``body``, and an unroll pragma right before it."""
    items = body.block_items
    k = next(i for i, x in enumerate(items) if x is item)
    start = k - 1 if k and isinstance(items[k - 1], c_ast.Pragma) else k
    body.block_items = items[:start] + items[k + 1:]


def _drop_stmt(loop: c_ast.For, stmt: c_ast.Node, holder: c_ast.Compound) -> None:
    """Take ``stmt`` out of ``loop``'s body; the loop goes where nothing is left."""
    if isinstance(loop.stmt, c_ast.Compound):
        loop.stmt.block_items = [x for x in loop.stmt.block_items if x is not stmt]
        if any(not isinstance(x, c_ast.Pragma) for x in loop.stmt.block_items):
            return
    _remove(holder, loop)


def _array_decl(name: str, like: c_ast.Decl, size: int, coord) -> c_ast.Decl:
    """``T name[size];`` with ``like``'s element type (qualifiers dropped)."""
    t = like.type
    while not isinstance(t, c_ast.TypeDecl):
        t = t.type
    elem = c_ast.TypeDecl(name, [], None, clone(t.type), coord=coord)
    return c_ast.Decl(name, [], [], [], [], c_ast.ArrayDecl(
        elem, c_ast.Constant("int", str(size)), [], coord=coord), None, None, coord=coord)


def _apply(kernel: Kernel, p: _Plan) -> None:
    column, k, size = p.column, p.k, p.size
    coord = p.slab.coord
    outer_body = column.outer.node.stmt
    new_decls: list[c_ast.Decl] = []

    def slab_array(name: str, like: c_ast.Decl, loc_of: Variable) -> str:
        new = fresh_name(p.taken, name + SAVED)
        decl = _array_decl(new, like, size, like.coord)
        new_decls.append(decl)
        kernel.exclusive.append(Variable("exclusive", new, decl, loc_of.loc, column.outer,
                                         [size], slots=loc_of.slots))
        return new

    def at_k(name: str) -> c_ast.ArrayRef:
        return c_ast.ArrayRef(c_ast.ID(name), c_ast.ID(k), coord=coord)

    # the values E reads that the slab loop changes: saved at the end of each slab's C
    # (or written there directly where S is nothing but that value: then S goes)
    saved = {v.name: slab_array(v.name, v.node, v) for v in p.saved}
    for old, new in saved.items():
        write = p.direct.get(old)
        if write is not None:
            write.lvalue = at_k(new)
            continue
        p.body_c.block_items.append(c_ast.Assignment("=", at_k(new), c_ast.ID(old),
                                                     coord=coord))
    for v in p.saved:
        if v.name in p.direct:
            kernel.exclusive.remove(v)
            outer_body.block_items = [x for x in outer_body.block_items if x is not v.node]
    # the replay: each element summed in the updates' order, in a register
    e = next((u.element for u in p.updates if u.loop is not None), None) or \
        fresh_name(p.taken, "m")
    total = fresh_name(p.taken, column.name + "__sum")
    terms: list[c_ast.Node] = []
    for u in p.updates:
        if u.loop is None:
            value = u.stmt.rvalue
            new = slab_array(_id_name(value) or column.name, column.node, column)
            u.stmt.op = "="
            u.stmt.lvalue = at_k(new)
            terms.append(c_ast.If(c_ast.BinaryOp("==", c_ast.ID(k), c_ast.ID(e)),
                                  c_ast.Assignment("+=", c_ast.ID(total), at_k(new),
                                                   coord=coord), None, coord=coord))
            continue
        term = clone(u.stmt.rvalue)
        for n in walk(term):
            if isinstance(n, c_ast.ID) and n.name == u.element:
                n.name = e
        term = substitute(term, {old: at_k(new) for old, new in saved.items()})
        terms.append(c_ast.Assignment("+=", c_ast.ID(total), term, coord=coord))
        _drop_stmt(u.loop, u.stmt, p.body_c)
    # the column's start leaves I
    init_body, init_loop, init_stmt = p.init
    _drop_stmt(init_loop, init_stmt, init_body)
    # X leaves the @exclusive variables: it is F's own array now
    slot = outer_body.block_items.index(column.node)
    outer_body.block_items[slot:slot + 1] = new_decls
    kernel.exclusive.remove(column)
    local = _array_decl(column.name, column.node, size, coord)
    unroll = f"unroll {size}"
    k_loop = c_ast.For(_counter(k, coord), _below(k, size), c_ast.UnaryOp("++", c_ast.ID(k)),
                       c_ast.Compound(terms, coord=coord), coord=coord)
    store = c_ast.Assignment("=", c_ast.ArrayRef(c_ast.ID(column.name), c_ast.ID(e)),
                             c_ast.ID(total), coord=coord)
    e_loop = c_ast.For(_counter(e, coord), _below(e, size), c_ast.UnaryOp("++", c_ast.ID(e)),
                       c_ast.Compound([_scalar_decl(total, column.node, p.start, coord),
                                       c_ast.Pragma(unroll, coord=coord), k_loop, store],
                                      coord=coord), coord=coord)
    p.body_f.block_items = [local, c_ast.Pragma(unroll, coord=coord), e_loop,
                            *(p.body_f.block_items or [])]


def _scalar_decl(name: str, like: c_ast.Decl, init: c_ast.Node, coord) -> c_ast.Decl:
    """``T name = init;`` with the element type of the array ``like``."""
    t = like.type
    while not isinstance(t, c_ast.TypeDecl):
        t = t.type
    return c_ast.Decl(name, [], [], [], [], c_ast.TypeDecl(name, [], None, clone(t.type),
                                                           coord=coord),
                      clone(init), None, coord=coord)


def _id_name(node: c_ast.Node) -> str | None:
    return node.name if isinstance(node, c_ast.ID) else None


def _counter(name: str, coord) -> c_ast.DeclList:
    return c_ast.DeclList([c_ast.Decl(name, [], [], [], [], c_ast.TypeDecl(
        name, [], None, c_ast.IdentifierType(["int"])), c_ast.Constant("int", "0"), None,
        coord=coord)], coord=coord)


def _below(name: str, size: int) -> c_ast.BinaryOp:
    return c_ast.BinaryOp("<", c_ast.ID(name), c_ast.Constant("int", str(size)))


