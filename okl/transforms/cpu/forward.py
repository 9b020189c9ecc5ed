"""A @shared slab that is nothing but a copy of an @exclusive element: read from the element.

BK5's first block of each slab copies the slab of the thread's column into @shared memory
so the other threads can read it::

    for (int k = 0; k < p_Nq; ++k) {                               // R: the slab loop's body
      for (j, i; @inner) { s_q[j][i] = r_q[k]; ... }               // A: the store S
      for (j, i; @inner) { ... s_q[j][m] ... s_q[m][i] ... }       // B: the readers
    }

On a GPU the column is registers, invisible to the other threads, and the copy is the only
way to share it.  On a CPU the @exclusive column is already memory (``r_q[k][i + p_Nq * j]``,
one slot per thread, cpu.exclusive), so the copy is one more store and load of every point
per slab; here the readers read the column's slot of the thread that stored the value,
``s_q[m][i]`` -> ``r_q[k][i + p_Nq * m]``, and the store and ``s_q`` go.  (BK5 at N = 5, one
thread, against the hand-written C, interleaved: 0.85-0.89 -> 0.88-0.93 by itself, the same
bits; benchmarks/results/cpu-2026-11-28-bk5-columns.txt.)

Legal because every read gets the value the store wrote: the conditions, each checked,
refusing the rewrite otherwise --

- ``s`` is @shared, declared in its @outer body, used only element by element with every
  index (never whole, never its address);
- its one store S is ``s[a_1]...[a_n] = V``, a statement of the innermost body of the
  @inner nest A, whose subscripts are A's iterators, each once, each loop counting from 0 by
  one over ``s``'s size in that dimension: every element is stored once, by the thread whose
  iterators are its indices;
- V is an element of an @exclusive array (after cpu.exclusive, its slot array), its
  subscripts arithmetic on A's iterators and names; A's body leaves no thread early;
- every other use of ``s`` is a read in an @inner block that follows A in the same
  statement list R (the barrier between them orders S before the read);
- nothing V reads other than A's iterators is written after S in A's body, nor from A to the
  last reader in R (the array V reads is written in A only before S: each thread stores its
  own slot, cpu.exclusive); no store through a pointer there; no reader declares a name that
  V reads.

A read ``s[b_1]...[b_n]`` becomes V with each ``a_t`` replaced by ``b_t``: the slot of the
thread that stored it, holding the same value.  The values are the same, the sums the same,
the answers the same to the bit.  Runs after cpu.exclusive (the slots exist) and before
cpu.transpose (a transposed twin would be a second store).
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import clone, parent_map, replace_child, substitute, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel, Loop, Variable
from .facts import array_root, leaves_early, no_effects, only_child, subscripts, written_names


def forward_shared_copies(kernel: Kernel) -> None:
    """Rewrite every @shared copy of an @exclusive element that the conditions allow."""
    if not kernel.shared or not kernel.exclusive:
        return
    parents: dict[int, tuple[c_ast.Node, str]] | None = None
    for var in list(kernel.shared):
        if parents is None:
            parents = parent_map(kernel.node)
        if _forward(kernel, var, parents):
            parents = None  # the tree changed


def one_store(var: Variable, parents):
    """(the @outer body, every use of ``var`` as an element, the one store's element, the
    store) when ``var`` is a @shared array of constant sizes without an initialiser, declared
    in its @outer body, used only element by element and stored to by one plain ``=``; None
    otherwise.  (cpu.forward's and cpu.staging's shared first conditions.)"""
    sizes = var.sizes
    if not sizes or any(s is None for s in sizes) or var.node.init is not None:
        return None
    outer_body = var.outer.node.stmt
    if not isinstance(outer_body, c_ast.Compound) or \
            not any(x is var.node for x in outer_body.block_items or []):
        return None
    refs = element_refs(outer_body, var, len(sizes), parents)
    if refs is None:
        return None
    stores = [r for r in refs if is_stored(r, parents)]
    if len(stores) != 1:
        return None
    store_ref = stores[0]
    store = parents[id(store_ref)][0]
    if not isinstance(store, c_ast.Assignment) or store.op != "=" or \
            store.lvalue is not store_ref:
        return None
    return outer_body, refs, store_ref, store


def store_iterators(store_ref: c_ast.ArrayRef, loops) -> list[str] | None:
    """The names of ``s[i][j]...``'s subscripts when each is a plain name, none twice, and
    together exactly the names in ``loops`` (the iterators around the store); else None.
    (cpu.forward's and cpu.staging's test that one store covers each element once.)"""
    subs = subscripts(store_ref)
    names = [i.name for i in subs if isinstance(i, c_ast.ID)]
    if len(names) != len(subs) or len(set(names)) != len(names) or set(names) != set(loops):
        return None
    return names


def _forward(kernel: Kernel, var: Variable, parents) -> bool:
    sizes = var.sizes
    found_store = one_store(var, parents)
    if found_store is None:
        return False
    outer_body, refs, store_ref, store = found_store
    # A: the @inner nest whose innermost body holds the store as a statement of its own
    found = store_block(var.outer, store, parents)
    if found is None:
        return False
    block, chain, body = found
    by_name = {lp.iterator: lp for lp in chain}
    names = store_iterators(store_ref, by_name)
    if names is None:
        return False
    for name, size in zip(names, sizes, strict=True):
        lp = by_name[name]
        if not (lp.form.increasing and lp.form.step is None and
                evaluate(lp.form.start) == 0 and lp.trip_value == size):
            return False
    if leaves_early(body):
        return False
    value = store.rvalue
    root = array_root(value) if isinstance(value, c_ast.ArrayRef) else None
    exclusive = {v.name for v in kernel.exclusive if v.outer is var.outer}
    if root not in exclusive or not no_effects(value) or \
            any(isinstance(n, c_ast.FuncCall) for n in walk(value)):
        return False
    read_names = {n.name for n in walk(value) if isinstance(n, c_ast.ID)} - set(names)
    # R: the statement list around A; the readers are blocks after A in it
    holder = parents[id(block.node)][0]
    if not isinstance(holder, c_ast.Compound):
        return False
    items = holder.block_items or []
    start = next(k for k, x in enumerate(items) if x is block.node)
    reads = [r for r in refs if r is not store_ref]
    if not reads:
        return False
    readers = {id(lp.node) for lp in var.outer.children if lp.kind == "inner"}
    last = start
    for r in reads:
        item = item_of(r, holder, parents)
        if item is None:
            return False
        k = next(k for k, x in enumerate(items) if x is item)
        if k <= start or id(item) not in readers:
            return False
        last = max(last, k)
    # nothing V reads changes between S and the reads
    after = body.block_items[body.block_items.index(store) + 1:]
    written = set().union(*(written_names(x) for x in after)) if after else set()
    for x in items[start + 1:last + 1]:
        written |= written_names(x)
    if "*" in written or read_names & written:
        return False
    before = set().union(*(written_names(x) for x in body.block_items if x is not store))
    if (read_names - {root}) & before or any(
            isinstance(n, c_ast.Decl) and n.name in read_names for n in walk(block.node)):
        return False
    for x in items[start + 1:last + 1]:
        if any(isinstance(n, c_ast.Decl) and n.name in read_names for n in walk(x)):
            return False
    # the rewrite: each read becomes V at the storing thread's slot
    for r in reads:
        new = substitute(clone(value), dict(zip(names, subscripts(r), strict=True)))
        parent, slot = parents[id(r)]
        replace_child(parent, slot, r, new)
    body.block_items = [x for x in body.block_items if x is not store]
    outer_body.block_items = [x for x in outer_body.block_items if x is not var.node]
    kernel.shared.remove(var)
    return True


def element_refs(root: c_ast.Node, var: Variable, rank: int,
                 parents) -> list[c_ast.ArrayRef] | None:
    """Every use of ``var`` in ``root`` as a full element ``s[..]..[..]`` (outermost ArrayRef),
    or None where it is used otherwise (whole, its address, fewer indices)."""
    out = []
    for n in walk(root):
        if not isinstance(n, c_ast.ID) or n.name != var.name:
            continue
        node: c_ast.Node = n
        for _ in range(rank):
            parent, slot = parents[id(node)]
            if not isinstance(parent, c_ast.ArrayRef) or slot != "name":
                return None
            node = parent
        parent, _slot = parents[id(node)]
        if isinstance(parent, c_ast.ArrayRef) and _slot == "name":
            return None
        if isinstance(parent, c_ast.UnaryOp) and parent.op in ("&", "++", "--", "p++", "p--"):
            return None
        if not all(no_effects(s) for s in subscripts(node)):  # type: ignore[arg-type]
            return None
        out.append(node)
    return out  # type: ignore[return-value]


def is_stored(ref: c_ast.ArrayRef, parents) -> bool:
    parent, slot = parents[id(ref)]
    return isinstance(parent, c_ast.Assignment) and slot == "lvalue"


def store_block(outer: Loop, store: c_ast.Node, parents):
    """(A, A's loop chain, the innermost body) when ``store`` is a statement of the body of a
    leaf @inner loop whose loops down from a block A of ``outer`` each hold only the next."""
    parent, _ = parents[id(store)]
    if not isinstance(parent, c_ast.Compound):
        return None
    for block in (c for c in outer.children if c.kind == "inner"):
        for leaf in (lp for lp in block.walk() if not lp.children):
            if leaf.node.stmt is not parent:
                continue
            chain, lp = [leaf], leaf
            while lp is not block:
                up = lp.parent
                if up is None or not only_child(up.node, lp.node):
                    return None
                chain.append(up)
                lp = up
            return block, chain, parent
    return None


def item_of(node: c_ast.Node, holder: c_ast.Compound, parents) -> c_ast.Node | None:
    """The statement of ``holder`` that contains ``node``."""
    while id(node) in parents:
        parent, _ = parents[id(node)]
        if parent is holder:
            return node
        node = parent
    return None


