"""Checks over a kernel's loop tree once it is built: paths of @outer/@inner loops of one
shape, axes, block extents, @exclusive sizes, @max_inner_dims, @shared/@exclusive used
outside @inner loops, and the host variables the @outer loops capture."""

from __future__ import annotations

from pycparser import c_ast

from ..ctree import clone, ids_in, parent_map, walk
from ..errors import note
from .attach import AttributeMap
from .builder_base import BuilderBase
from .consteval import evaluate
from .kernel import HostVar, Kernel, Loop, Variable

MAX_NESTING = 3


class LoopTreeChecks(BuilderBase):
    # -- checks over the loop tree ---------------------------------------------------------
    def _structure(self, outer: Loop) -> bool:
        """Check the loop tree under one outer-most @outer loop; False when it is malformed."""
        ok = True
        leaves = [loop for loop in outer.walk() if not loop.children]
        shapes = []
        too_deep: set[int] = set()
        for leaf in leaves:
            chain = []
            loop = leaf
            while loop is not None:
                chain.append(loop)
                loop = loop.parent
            chain.reverse()
            n_outer = sum(1 for lp in chain if lp.kind == "outer")
            n_inner = len(chain) - n_outer
            shapes.append((n_outer, n_inner))
            if n_inner == 0:
                ok = False
                self.error("Missing an [@inner] loop", leaf.node,
                           hint="every @outer loop needs an @inner loop inside it")
            for kind in ("outer", "inner"):
                same = [lp for lp in chain if lp.kind == kind]
                if len(same) > MAX_NESTING:
                    ok = False
                    if id(same[MAX_NESTING]) not in too_deep:
                        too_deep.add(id(same[MAX_NESTING]))
                        self.error(f"More than {MAX_NESTING} nested [@{kind}] loops",
                                   same[MAX_NESTING].node,
                                   hint="GPUs have 3 axes (x, y, z); merge two of these loops "
                                        "into one")
        for leaf, shape in zip(leaves, shapes, strict=True):
            if shape != shapes[0] and shape[1] and shapes[0][1]:
                ok = False
                k = 1 if shape[0] == shapes[0][0] else 0
                kind = ("outer", "inner")[k]
                self.error(f"Mismatch of [@{kind}] loops: this path has {_count(shape[k], kind)}"
                           f", the first path has {shapes[0][k]}", leaf.node,
                           notes=[note("the first path ends here", leaves[0].loc)],
                           hint=f"every path through this @outer loop must nest the same "
                                f"number of @{kind} loops")
                break
        return self._assign_axes(outer) and ok

    def _assign_axes(self, outer: Loop) -> bool:
        ok = True

        def below(loop: Loop, kind: str) -> int:
            return max((below(c, kind) + (c.kind == kind) for c in loop.children), default=0)

        for loop in outer.walk():
            if not loop.explicit_axis:
                loop.axis = below(loop, loop.kind)
        for leaf in (lp for lp in outer.walk() if not lp.children):
            seen: dict[tuple[str, int], Loop] = {}
            loop = leaf
            while loop is not None:
                key = (loop.kind, loop.axis)
                if key in seen:
                    self.error(f"two [@{loop.kind}] loops on one path use axis {loop.axis}",
                               seen[key].node,
                               notes=[note(f"the other @{loop.kind}({loop.axis}) is here",
                                           loop.loc)],
                               hint="give nested loops different indices, e.g. @inner(1) "
                                    "around @inner(0)")
                    ok = False
                    break
                seen[key] = loop
                loop = loop.parent
        return ok

    def _extents(self, kernel: Kernel) -> None:
        for loop in kernel.loops():
            blocks = [c for c in loop.children if c.kind == "inner"]
            if loop.kind != "outer" or len(blocks) < 2:
                continue
            first = _extent(blocks[0])
            for block in blocks[1:]:
                other = _extent(block)
                if first is not None and other is not None and first != other:
                    self.error("@inner blocks of one @outer loop must have the same extent: "
                               f"this block runs {_show(other)} threads, the first "
                               f"{_show(first)}", block.node,
                               notes=[note(f"the first @inner block ({_show(first)}) is here",
                                           blocks[0].loc)],
                               hint="all blocks run on the same threads: give them the same "
                                    "bounds and skip the extra threads with if (i < n)")

    def _exclusive_slots(self, kernel: Kernel) -> None:
        refused = {id(var.node) for var in list(kernel.exclusive)
                   if not self._rehome(kernel, var)}
        for var in kernel.exclusive:
            if id(var.node) in refused:
                continue
            outer = var.outer
            top = outer
            while top.parent is not None:
                top = top.parent
            dims, known = _block_dims(outer)
            product = _product(dims.values()) if dims and known else None
            limit = _product(top.max_inner_dims) if top.max_inner_dims else None
            var.slots = product if product is not None else limit
            split = next((b for b in outer.children if b.kind == "inner" and
                          sum(1 for lp in b.walk() if not lp.children) > 1), None)
            if split is not None and var.slots is not None and \
                    not _slots_by_position(outer, var):
                self.error(f"cannot give @exclusive '{var.name}' one slot per thread on CPU "
                           "backends: an @inner block has several innermost @inner loops "
                           "whose iterations are not known to map to the same threads",
                           var.loc, notes=[note("this @inner block splits", split.loc)],
                           hint="give its @inner loops constant bounds, starting at 0 with "
                                "++ (then a thread's slot is computed from its indices), or "
                                "one innermost loop per block")
            if var.slots is None:
                self.error(f"cannot size @exclusive '{var.name}' for CPU backends: the @inner "
                           "loops of this @outer loop have no compile-time extent", var.loc,
                           hint="make the @inner bounds compile-time constants (e.g. -D "
                                "p_N=16) or add @max_inner_dims(x, y, z) to the outer-most "
                                "@outer loop")

    def _rehome(self, kernel: Kernel, var: Variable) -> bool:
        """Move an @exclusive declared in an @outer loop whose threads run in nested @outer
        loops (no @inner block of its own) into each nested @outer loop that holds the
        @inner blocks.  Each thread has its own copy on a GPU wherever it is declared, and
        its uses all sit in @inner loops, so the meaning is unchanged; on a CPU the copies
        are then sized and indexed per block like any other @exclusive.

        The declaration may sit in an ``if`` or a plain loop's body between the @outer
        loops (a @tile's bounds guard is such an ``if``): a copy still goes to every nested
        @outer loop in its scope.  Only a plain loop *between* the declaration and a nested
        @outer loop changes the meaning (a GPU thread keeps its value from one iteration of
        that loop to the next, a fresh copy per @outer iteration would not), so that is
        refused with a diagnostic rather than sized wrongly (False: reported here)."""
        homes = _exclusive_homes(var.outer)
        if homes == [var.outer]:
            return True
        parents = parent_map(var.outer.node.stmt)
        scope = (parents.get(id(var.node)) or (None, ""))[0]
        if not isinstance(scope, c_ast.Compound):
            return True
        items = scope.block_items
        at = next(k for k, d in enumerate(items) if d is var.node)
        later = {id(d) for d in items[at + 1:]}
        mine: list[Loop] = []
        for home in homes:
            node, through = home.node, None
            while id(node) in parents and node is not scope:
                parent = parents[id(node)][0]
                if parent is scope:
                    break
                if isinstance(parent, (c_ast.For, c_ast.While, c_ast.DoWhile)) and not (
                        self.amap.has(parent, "outer")):
                    through = through or parent
                node = parent
            if parents.get(id(node), (None,))[0] is not scope or id(node) not in later:
                continue  # not in the declaration's scope: it never sees this variable
            if through is not None:
                self.error(f"@exclusive '{var.name}' is declared outside a plain loop that "
                           "holds nested [@outer] loops: each thread would keep one value "
                           "across that loop's iterations, which CPU backends cannot "
                           "store per thread", var.loc,
                           notes=[note("the plain loop is here", self.loc(through))],
                           hint="declare it inside the loop (or in the @outer loop whose "
                                "@inner loops use it)")
                return False
            mine.append(home)
        if not mine:
            return True
        items.remove(var.node)
        attrs = [a for a in self.amap.of(var.node) if a.name == "exclusive"]
        copies = []
        for k, home in enumerate(mine):
            decl = var.node if k == 0 else clone(var.node)
            for a in attrs:
                if decl is not var.node:
                    self.amap.add(decl, a)
            home.node.stmt.block_items.insert(0, decl)
            copies.append(Variable(var.kind, var.name, decl, var.loc, home, var.sizes))
        at = kernel.exclusive.index(var)
        kernel.exclusive[at:at + 1] = copies
        return True

    def _max_inner_dims_respected(self, kernel: Kernel) -> None:
        """@max_inner_dims bounds the threads of a block, the product of its extents (as
        OCCA checks it and as __launch_bounds__ gets it), and the block launched is the
        largest extent per axis over *every* @inner loop under the @outer loop, not the
        first path's.  Extents known only at run time are checked by the launcher; those
        known here must already fit."""
        for top in kernel.outers:
            if not top.max_inner_dims:
                continue
            allowed = _product(top.max_inner_dims)
            dims, _ = _block_dims(top)
            threads = _product(dims.values())
            if threads <= allowed:
                continue
            given = self.amap.get(top.node, "max_inner_dims")
            # point at the first @inner loop wider than the first path (which OCCA sizes by)
            inner = [lp for lp in top.walk() if lp.kind == "inner"]
            first = next((_extent(b) for b in inner), None) or {}
            widest = next((lp for lp in inner if (lp.trip_value or 0) > first.get(lp.axis, 0)),
                          inner[0])
            shown = " x ".join(map(str, top.max_inner_dims))
            shown = shown if len(top.max_inner_dims) == 1 else f"{shown} = {allowed}"
            launched = _show(dims) if len(dims) == 1 else f"{_show(dims)} = {threads}"
            self.error("[@inner] loop dimensions larger than allowed by [@max_inner_dims]: "
                       f"the @inner loops launch {launched} threads per block, "
                       f"at most {shown}", widest.node,
                       notes=[note("@max_inner_dims is given here", self.aloc(given))]
                       if given else [],
                       hint="raise @max_inner_dims (it bounds the product of the @inner "
                            "extents) or make the @inner loops shorter")

    def _uses_outside_inner(self, kernel: Kernel) -> None:
        names = {v.name: v for v in kernel.shared + kernel.exclusive}
        if not names:
            return
        reported: set[tuple[str, int]] = set()
        for outer in kernel.outers:
            for ident in _ids_outside_inner(outer.node.stmt, self.amap):
                var = names.get(ident.name)
                line = ident.coord.line if ident.coord else 0
                if var is not None and (var.name, line) not in reported:
                    reported.add((var.name, line))
                    self.error(f"Cannot use [@{var.kind}] variables outside an [@inner] loop",
                               ident, notes=[note(f"'{var.name}' is declared here", var.loc)],
                               hint="read and write it inside an @inner loop")

    def _captures(self, kernel: Kernel) -> None:
        if not self.host_vars:  # nothing declared outside the loops: nothing to capture
            return
        for outer in kernel.outers:
            uses = [i for i in ids_in(outer.node) if i.name in self.host_vars]
            if not uses:
                continue
            # one walk for the names declared inside and the writes to plain names (checked
            # below once the captured variables are known: nothing changes the tree between)
            inside: set[str] = set()
            writes: list[tuple[c_ast.Node, c_ast.Node]] = []
            for n in walk(outer.node):
                if isinstance(n, c_ast.Decl):
                    inside.add(n.name)
                elif isinstance(n, c_ast.Assignment):
                    writes.append((n, n.lvalue))
                elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
                    writes.append((n, n.expr))
            found: list[HostVar] = []
            for ident in uses:
                name = ident.name
                if name in inside or any(h.name == name for h in found):
                    continue
                decl = self.host_vars[name]
                ctype = self.types.resolve(decl.type)
                if ctype.pointer or ctype.descr is None:
                    self.error(f"host variable '{name}' ({ctype.text}) is used inside an "
                               "[@outer] loop; only scalars computed on the host can be "
                               "passed to device code", ident,
                               notes=[note(f"'{name}' is declared here", self.loc(decl))],
                               hint="pass it as a kernel argument instead")
                    continue
                found.append(HostVar(name, ctype, decl))
            if not found:
                continue
            for n, target in writes:
                if isinstance(target, c_ast.ID) and any(h.name == target.name for h in found):
                    self.error(f"cannot assign host variable '{target.name}' inside an "
                               "[@outer] loop: device code cannot write host variables", n,
                               hint="declare a separate variable inside the loop")
            order = list(self.host_vars)  # declaration order
            kernel.captures[id(outer.node)] = sorted(found, key=lambda h: order.index(h.name))


def _ids_outside_inner(node, amap: AttributeMap) -> list[c_ast.ID]:
    """Identifier uses in an @outer body that are not inside an @inner loop or a declaration
    of a @shared/@exclusive variable, in source order."""
    out: list[c_ast.ID] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None or isinstance(n, c_ast.For) and amap.has(n, "inner"):
            continue
        if isinstance(n, c_ast.For) and amap.has(n, "outer"):
            stack.append(n.stmt)
        elif isinstance(n, c_ast.Decl) and (amap.has(n, "shared") or amap.has(n, "exclusive")):
            continue
        elif isinstance(n, c_ast.ID):
            out.append(n)
        elif isinstance(n, c_ast.StructRef):
            stack.append(n.name)
        else:
            stack.extend(child for _, child in reversed(n.children()))
    return out


def _exclusive_homes(outer: Loop) -> list[Loop]:
    """The @outer loops at or below ``outer`` whose bodies hold the @inner blocks."""
    nested = [c for c in outer.children if c.kind == "outer"]
    if any(c.kind == "inner" for c in outer.children) or not nested or not all(
            isinstance(c.node.stmt, c_ast.Compound) for c in nested):
        return [outer]
    return [home for c in nested for home in _exclusive_homes(c)]


def _extent(block: Loop) -> dict[int, int] | None:
    """{axis: trip count} along a block's first deepest path of @inner loops, if constant."""
    out = {}
    for loop in block.path():
        value = loop.trip_value
        if value is None:
            return None
        out[loop.axis] = value
    return out


def _slots_by_position(outer: Loop, var: Variable) -> bool:
    """Whether CPU backends give each @inner thread of ``outer`` its @exclusive slot from
    its indices (:func:`slot_extents`) rather than by counting iterations -- a count that
    is right only when each block runs one innermost loop per thread."""
    return slot_extents(outer, {var.name}, {id(var.node)}) is not None


def slot_extents(outer: Loop, names: set[str], skip: set[int]) -> dict[int, int] | None:
    """{axis: threads} when thread (j, i) of ``outer`` can find its @exclusive slot, j * nx
    + i, from its indices: every block runs its @inner loops from 0 with ++ over constant
    extents, every innermost loop on the same axes, and every use of ``names`` sits in an
    innermost loop's body (the declarations whose ids are in ``skip`` aside).  Sibling
    @inner loops of other extents run on the block's largest extent per axis (the rest of
    their threads idle), so the slot is the same in every innermost loop.  None otherwise.
    The model refuses a split block on this test and okl.transforms.cpu.exclusive lowers
    with it: one test, so the two cannot disagree."""
    blocks = [c for c in outer.children if c.kind == "inner"]
    extents: dict[int, int] | None = None
    for block in blocks:
        for loop in block.walk():
            form = loop.form
            if not (form.increasing and form.step is None and evaluate(form.start) == 0 and
                    loop.trip_value is not None):
                return None
        for leaf in (lp for lp in block.walk() if not lp.children):
            chain = leaf_chain(leaf, block)
            e = {lp.axis: lp.trip_value or 0 for lp in chain}  # each checked not None
            if len(e) != len(chain) or (extents is not None and set(e) != set(extents)):
                return None
            extents = e if extents is None else {a: max(n, e[a]) for a, n in extents.items()}
    if extents is None:
        return None
    # every use sits in a leaf's body: none is left when the (disjoint) bodies are skipped
    stop = skip | {id(lp.node.stmt) for b in blocks for lp in b.walk() if not lp.children}
    stack = [outer.node.stmt]
    while stack:
        n = stack.pop()
        if id(n) in stop:
            continue
        if isinstance(n, c_ast.ID) and n.name in names:
            return None
        stack.extend(child for _, child in n.children())
    return extents


def leaf_chain(leaf: Loop, block: Loop) -> list[Loop]:
    """The @inner loops from ``leaf`` up to ``block``, both included."""
    chain: list[Loop] = []
    lp: Loop | None = leaf
    while lp is not None:
        chain.append(lp)
        if lp is block:
            break
        lp = lp.parent
    return chain


def _block_dims(outer: Loop) -> tuple[dict[int, int], bool]:
    """The block the @inner loops under ``outer`` launch, {axis: largest constant trip
    count over every @inner loop on that axis}, and whether every trip count is a
    compile-time constant (if not, the real block is at least this large)."""
    dims: dict[int, int] = {}
    known = True
    for loop in outer.walk():
        if loop.kind != "inner":
            continue
        value = loop.trip_value
        if value is None:
            known = False
            dims.setdefault(loop.axis, 1)
        else:
            dims[loop.axis] = max(dims.get(loop.axis, 1), value)
    return dims, known


def _count(n: int, kind: str) -> str:
    return f"{n} @{kind} loop" + ("s" if n != 1 else "")


def _show(extent: dict[int, int]) -> str:
    return " x ".join(str(extent[k]) for k in sorted(extent))


def _product(values) -> int:
    p = 1
    for v in values:
        p *= v
    return p
