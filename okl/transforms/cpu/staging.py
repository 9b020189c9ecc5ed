"""A @shared array that only stages a read-only argument: its readers read the argument.

GPU kernels copy what a block reads many times into @shared memory first.  dgvolume stages
the four fields of each of its elements, then broadcasts them to every node::

    for (es, n; @inner) {                                   // A: the copy
      const int e = eo + es;
      if (e < Nelements)
        for (int f = 0; f < 4; ++f) s_q[es][f][n] = q[(e * 4 + f) * 56 + n];
    }
    for (int m = 0; m < 56; ++m)
      for (es, n; @inner) { ... s_q[es][0][m] ... }         // B: the readers

On a CPU ``q`` is as close as ``s_q``: the copy is one more load and store of every value
(a 16th of dgvolume's loads and stores).  Here each read becomes the value the copy stored,
read from the argument where the copy read it, under the copy's guard::

    s_q[es][0][m]  ->  (eo + es < Nelements ? (double) q[((eo + es) * 4 + 0) * 56 + m] : 0)

and the copy and ``s_q`` go.  Where the guard is false the copy left the element unset (on
a GPU it holds whatever was there), and a kernel that reads it gets an unspecified value on
every mode; 0 is such a value.  dgvolume, one thread, interleaved with the hand C, which
reads ``q`` (benchmarks.codegen_experiments): 18.3 -> 19.1 GFLOP/s, the hand C 18.3.

Legal because every read gets the value the copy stored, or an unset element's: the
conditions, each checked, refusing the rewrite otherwise --

- ``s`` is @shared, declared in its @outer body, used only element by element with every
  index (never whole, never its address);
- its one store S is ``s[a_1]...[a_n] = V``, inside the innermost body of an @inner nest A
  through plain ``if``s (no ``else``) and counted loops only; the subscripts are A's
  iterators and those loops' iterators, each once, each loop counting from 0 by one over
  ``s``'s size in that dimension: every element is stored at most once, by one thread;
- V and the ``if`` conditions have no effects; the arrays they read are parameters declared
  ``const`` and ``restrict`` (nothing in the kernel writes them); their other names are the
  subscripts' iterators, @outer iterators, parameters the kernel never writes, and
  ``const`` locals declared in A's innermost body before S from such names (replaced by
  their values);
- every other use of ``s`` is a read in an @inner loop in a statement that follows A in the
  same statement list (a block, or a plain loop around blocks: the barrier after A orders S
  before the read), and no read's subscripts name its lane (innermost @inner) loop's iterator
  or anything declared or written in that loop: each read is one value for all lanes, a
  broadcast either way, never a gather where the copy was a vector load, and it is read once
  before the lane loop (``const T s__0 = ...;``);
- each read's subscripts are constants inside the array or iterators of counted loops around
  the read whose values are: the read made before the lane loop (even where the kernel
  would not have made it, the lane loop running no iteration or the read under an ``if``)
  reads an element the copy covered, where the copy read the argument itself.

Runs after cpu.forward and before cpu.transpose and cpu.hoist (which would copy ``s``).
"""

from __future__ import annotations

from pycparser import c_ast, c_generator

from ...ctree import clone, parent_map, replace_child, substitute, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel, Loop, Variable
from .facts import (
    fresh_name,
    leaves_early,
    no_effects,
    only_child,
    readonly_arguments,
    subscripts,
    written_names,
)
from .forward import item_of, one_store, store_iterators
from .loops import counted_loop
from .simd import lane_loops

#: a read's text, to give reads of one element in one lane loop one local
_GENERATOR = c_generator.CGenerator()


def forward_staged_arguments(kernel: Kernel) -> int:
    """Rewrite every @shared copy of a read-only argument that the conditions allow; return
    how many."""
    if not kernel.shared:
        return 0
    readonly = readonly_arguments(kernel)
    if not readonly:
        return 0
    # names with one value for the whole launch, or for one @outer iteration
    scalars = {p.name for p in kernel.params if isinstance(p.node.type, c_ast.TypeDecl)}
    plain = (scalars - written_names(kernel.node.body)) | \
        {lp.iterator for lp in kernel.loops()
         if lp.kind == "outer" and lp.iterator not in written_names(lp.node.stmt)}
    done = 0
    parents = None
    for var in list(kernel.shared):
        if parents is None:
            parents = parent_map(kernel.node)
        if _forward(kernel, var, parents, readonly, plain):
            done += 1
            parents = None  # the tree changed
    return done


def _forward(kernel: Kernel, var: Variable, parents, readonly: set[str],
             plain: set[str]) -> bool:
    sizes = var.sizes
    found_store = one_store(var, parents)
    if found_store is None:
        return False
    outer_body, refs, store_ref, store = found_store
    found = _copy_site(var.outer, store, parents)
    if found is None:
        return False
    block, ranges, guards, lane_body = found
    names = store_iterators(store_ref, ranges)
    if names is None or any(ranges[n] != size for n, size in zip(names, sizes, strict=True)):
        return False
    value = store.rvalue
    consts = _local_consts(lane_body, store, parents)
    if _shadowed((value, *guards), consts, set(ranges), lane_body, outer_body):
        return False
    exprs = [substitute(clone(x), consts) for x in (value, *guards)]
    allowed = plain | set(names)
    for x in exprs:
        if not no_effects(x) or not _reads_only(x, readonly, allowed):
            return False
    # the readers: @inner blocks after A in the statement list that holds A
    holder = parents[id(block.node)][0]
    if not isinstance(holder, c_ast.Compound):
        return False
    items = holder.block_items or []
    start = next(k for k, x in enumerate(items) if x is block.node)
    reads = [r for r in refs if r is not store_ref]
    lanes = {id(lp.node): lp for lp in lane_loops(kernel)}
    lane_of = {}
    for r in reads:
        item = item_of(r, holder, parents)
        lane = _lane_of(r, lanes, parents)
        if item is None or next(k for k, x in enumerate(items) if x is item) <= start or \
                lane is None or not _in_range(r, sizes, parents):  # type: ignore[arg-type]
            return False
        lane_of[id(r)] = lane
    element = _element_type(var.node)
    if not reads or element is None:
        return False
    taken = {n.name for n in walk(kernel.node) if isinstance(n, (c_ast.ID, c_ast.Decl))
             and n.name}
    hoisted: dict[tuple[int, str], str] = {}  # (id(lane loop), the read's text) -> its local
    for r in reads:
        lane = lane_of[id(r)]
        key = (id(lane), _GENERATOR.visit(r))
        local = hoisted.get(key)
        if local is None:
            local = hoisted[key] = fresh_name(taken, f"{var.name}__{len(hoisted)}")
            _hoist(_forwarded(r, names, exprs, element), element, lane, local, parents)
        parent, slot = parents[id(r)]
        replace_child(parent, slot, r, c_ast.ID(local, coord=r.coord))
    _remove(store, parents)
    outer_body.block_items = [x for x in outer_body.block_items if x is not var.node]
    kernel.shared.remove(var)
    return True


def _forwarded(read: c_ast.ArrayRef, names: list[str], exprs: list[c_ast.Node],
               element: c_ast.Typename) -> c_ast.Node:
    """What the copy stored in the element ``read`` reads: ``(T) V`` with the store's
    subscripts replaced by the read's, under the copy's guards (0 where they fail)."""
    mapping = dict(zip(names, subscripts(read), strict=True))
    value: c_ast.Node = c_ast.Cast(clone(element), substitute(clone(exprs[0]), mapping))
    if len(exprs) == 1:
        return value
    cond = substitute(clone(exprs[1]), mapping)
    for g in exprs[2:]:
        cond = c_ast.BinaryOp("&&", cond, substitute(clone(g), mapping))
    return c_ast.TernaryOp(cond, value, c_ast.Cast(clone(element), c_ast.Constant("int", "0")))


def _copy_site(outer: Loop, store: c_ast.Node, parents):
    """(A, iterator -> count of every loop around S down from A, the ``if`` conditions
    around S inside A, A's innermost body) when S sits in the innermost body of an @inner
    nest A of ``outer`` whose loops each hold only the next, through ``if``s without
    ``else`` and counted loops from 0 only; None otherwise."""
    ranges: dict[str, int] = {}
    guards: list[c_ast.Node] = []
    node = store
    leaves = {id(lp.node.stmt): lp for block in outer.children if block.kind == "inner"
              for lp in block.walk() if not lp.children}
    while True:
        parent, _ = parents[id(node)]
        if isinstance(parent, c_ast.Compound) and id(parent) in leaves:
            leaf = leaves[id(parent)]
            break
        if isinstance(parent, c_ast.Compound):
            pass
        elif isinstance(parent, c_ast.If) and parent.iffalse is None and \
                parent.iftrue is node:
            guards.append(parent.cond)
        elif isinstance(parent, c_ast.For) and parent.stmt is node:
            shape = counted_loop(parent)
            if shape is None or shape[1] != 0 or leaves_early(parent.stmt) or \
                    shape[0] in written_names(parent.stmt):
                return None
            ranges[shape[0]] = shape[2]
        else:
            return None
        node = parent
    lp, block = leaf, leaf
    while True:
        form = lp.form
        if not (form.increasing and form.step is None and lp.trip_value is not None and
                evaluate(form.start) == 0):
            return None
        ranges[lp.iterator] = lp.trip_value
        up = lp.parent
        if up is None or up.kind != "inner":
            break
        if not only_child(up.node, lp.node):
            return None
        lp = block = up
    if block.parent is not outer:
        return None
    return block, ranges, guards, leaf.node.stmt


def _remove(statement: c_ast.Node, parents) -> None:
    """Take ``statement`` out of its block, and with it each loop or ``if`` around it that is
    left with nothing but pragmas (and their pragmas), up to the first that keeps more."""
    while True:
        holder = parents[id(statement)][0]
        assert isinstance(holder, c_ast.Compound)
        items = holder.block_items or []
        k = next(k for k, x in enumerate(items) if x is statement)
        start = k
        while start and isinstance(items[start - 1], c_ast.Pragma):
            start -= 1  # the pragmas that belong to it
        holder.block_items = items[:start] + items[k + 1:] if isinstance(
            statement, (c_ast.For, c_ast.If)) else items[:k] + items[k + 1:]
        if any(not isinstance(x, c_ast.Pragma) for x in holder.block_items):
            return
        around = parents[id(holder)][0]
        if not (isinstance(around, c_ast.For) and around.stmt is holder or
                isinstance(around, c_ast.If) and around.iftrue is holder and
                around.iffalse is None):
            return
        statement = around


def _shadowed(exprs, consts: dict, iterators: set[str], lane_body: c_ast.Node,
              outer_body: c_ast.Node) -> bool:
    """A name the copy's value or guards read may mean something else where it is read:
    a ``const`` local or a copy iterator declared more than once in A's innermost body (an
    inner one would be the one S reads), or any other name declared anywhere in the @outer
    body (it would hide the parameter or @outer iterator at S, or at a reader)."""
    in_lane: dict[str, int] = {}
    for n in walk(lane_body):
        if isinstance(n, c_ast.Decl) and n.name:
            in_lane[n.name] = in_lane.get(n.name, 0) + 1
    in_outer = {n.name for n in walk(outer_body) if isinstance(n, c_ast.Decl) and n.name}
    for x in exprs:
        for n in walk(x):
            if not isinstance(n, c_ast.ID):
                continue
            if n.name in consts or n.name in iterators:
                if in_lane.get(n.name, 0) > 1:
                    return True
            elif n.name in in_outer:
                return True
    return False


def _local_consts(body: c_ast.Compound, store: c_ast.Node, parents) -> dict[str, c_ast.Node]:
    """``const`` locals declared by statements of ``body`` before the one holding S, with
    their initial values."""
    item = item_of(store, body, parents)
    out: dict[str, c_ast.Node] = {}
    for x in body.block_items or []:
        if x is item:
            break
        if isinstance(x, c_ast.Decl) and x.name and x.init is not None and \
                isinstance(x.type, c_ast.TypeDecl) and "const" in x.type.quals:
            out[x.name] = substitute(clone(x.init), out)
    return out


def _reads_only(expr: c_ast.Node, readonly: set[str], allowed: set[str]) -> bool:
    """Every array ``expr`` reads is one of ``readonly`` (indexed, never dereferenced), every
    other name one of ``allowed``."""
    arrays = {id(n.name) for n in walk(expr) if isinstance(n, c_ast.ArrayRef)}
    for n in walk(expr):
        if isinstance(n, c_ast.ArrayRef) and not isinstance(n.name, c_ast.ID):
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op == "*":
            return False
        if isinstance(n, c_ast.ID) and \
                n.name not in (readonly if id(n) in arrays else allowed):
            return False
    return True


def _lane_of(ref: c_ast.ArrayRef, lanes: dict[int, Loop], parents) -> c_ast.For | None:
    """The innermost @inner loop around ``ref`` (``lanes``: those loops by id of their For
    node) when ``ref``'s subscripts name neither its iterator nor anything declared or
    written in it (so they have the same values before it); None otherwise."""
    node: c_ast.Node = ref
    while id(node) in parents:
        node = parents[id(node)][0]
        lane = lanes.get(id(node))
        if lane is not None:
            local = {n.name for n in walk(lane.node.stmt) if isinstance(n, c_ast.Decl)}
            local |= written_names(lane.node.stmt) | {lane.iterator}
            used = {n.name for s in subscripts(ref) for n in walk(s) if isinstance(n, c_ast.ID)}
            return None if used & local else lane.node
    return None


def _in_range(ref: c_ast.ArrayRef, sizes: list[int], parents) -> bool:
    """Every subscript of ``ref`` is a constant inside its dimension or the iterator of a
    counted loop around ``ref`` whose values all are."""
    counted: dict[str, range] = {}
    node: c_ast.Node = ref
    while id(node) in parents:
        node = parents[id(node)][0]
        if isinstance(node, c_ast.For):
            shape = counted_loop(node)
            if shape is not None and shape[0] not in counted:
                counted[shape[0]] = range(shape[1], shape[1] + max(shape[2], 0))
    for sub, size in zip(subscripts(ref), sizes, strict=True):
        value = evaluate(sub)
        if value is not None:
            if not 0 <= value < size:
                return False
        elif isinstance(sub, c_ast.ID) and sub.name in counted:
            span = counted[sub.name]
            if span and (span.start < 0 or span.stop > size):
                return False
        else:
            return False
    return True


def _hoist(value: c_ast.Node, element: c_ast.Typename, lane: c_ast.For, name: str,
           parents) -> None:
    """``const T name = value;`` right before ``lane`` (and its pragmas)."""
    decl = c_ast.Decl(name, ["const"], [], [], [], c_ast.TypeDecl(
        name, ["const"], None, clone(element.type.type)), value, None, coord=lane.coord)
    holder, slot = parents[id(lane)]
    if not isinstance(holder, c_ast.Compound):
        block = c_ast.Compound([decl, lane], coord=lane.coord)
        replace_child(holder, slot, lane, block)
        parents[id(block)] = (holder, slot)
        parents[id(lane)] = (block, "block_items")
        return
    items = holder.block_items
    k = next(k for k, x in enumerate(items) if x is lane)
    while k and isinstance(items[k - 1], c_ast.Pragma):
        k -= 1
    items.insert(k, decl)


def _element_type(decl: c_ast.Decl) -> c_ast.Typename | None:
    """``s``'s element type as a type name for a cast; None where it is not a plain one."""
    t = decl.type
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    if not isinstance(t, c_ast.TypeDecl) or not isinstance(t.type, c_ast.IdentifierType):
        return None
    return c_ast.Typename(None, [], None, c_ast.TypeDecl(None, [], None,
                                                         c_ast.IdentifierType(t.type.names)))
