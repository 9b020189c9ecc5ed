"""Barriers inside @inner loops on the CPU modes: split the loops into barrier regions.

On serial and OpenMP a block's @inner iterations run one after another, so a ``@barrier``
inside an @inner loop cannot wait for the other iterations.  As PoCL and MCUDA do for
OpenCL and CUDA on CPUs, the @inner loop is cut at its barriers into one @inner loop per
region between them (okl.transforms.barrier_regions); a sequential loop or ``if`` that holds
a barrier moves outside the @inner loops (its condition, the same for every iteration by
okl.model.uniformity, is evaluated once)::

    for (t; @inner) {                       for (t) { s[t] = x[t]; }
      s[t] = x[t];                          for (int w = 32; w > 0; w /= 2) {
      for (int w = 32; w > 0; w /= 2) {  ->   for (t) { if (t < w) s[t] += s[t + w]; }
        @barrier;                           }
        if (t < w) s[t] += s[t + w];        for (t) { if (t == 0) out[b] = s[0]; }
      }
      if (t == 0) out[b] = s[0];
    }

A variable of the @inner code used in more than one region is kept per thread: an array
with one slot per iteration of the @inner loops around its declaration, declared before
the region (``r`` becomes ``r[t]``), as @exclusive is.  One that is the same for every
iteration, set by its initializer only, stays one scalar declared before the region.  A
header moved out reads a per-thread copy at slot 0 (the same in every slot).  Nested @inner
loops (the code between them runs per thread of the outer one), @tile's bounds check
(applied to each region) and break/continue of the loops moved out keep their meaning.
The result is what the user would have written with separate @inner blocks, so the later
CPU passes (exclusive, guards, SIMD) treat it as such.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import clone, parent_map, walk
from ...errors import Diagnostics
from ...model.consteval import evaluate
from ...model.kernel import Kernel, Loop, Program
from ...model.loops import canonical_form
from ..barrier_regions import (
    LOOPS,
    RegionSplitter,
    compound,
    declname,
    drop_const,
    is_assigned,
    replace,
    splitters,
    wrap,
)


def split_inner_barriers(program: Program, kernel: Kernel, diags: Diagnostics,
                         keep_barriers: bool = False) -> None:
    """Split every @inner loop of ``kernel`` that holds a barrier (nothing else changes).
    ``keep_barriers``: leave each barrier statement between the regions it separates (the
    race checker counts them)."""
    consumed: set[int] = set()
    for splitter in splitters(program, kernel, diags, CpuSplitter):
        splitter.run(keep_barriers)
        consumed |= {id(n) for n in splitter.barriers}
    if consumed:
        kernel.barriers = [b for b in kernel.barriers if id(b.node) not in consumed]


class CpuSplitter(RegionSplitter):
    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.clones: dict[int, Loop] = {}  # id(new @inner For) -> the Loop it copies

    def lift_inner(self, node: c_ast.For, chain: tuple[Loop, ...]) -> list:
        loop = self.loops[id(node)]
        return wrap(self.lift(node.stmt, chain + (loop,)),
                    lambda stmts: self._copy_loop(loop, stmts))

    def _copy_loop(self, loop: Loop, stmts: list[c_ast.Node]) -> c_ast.For:
        """A new @inner loop with ``loop``'s header around ``stmts``."""
        node = loop.node
        new = c_ast.For(clone(node.init), clone(node.cond), clone(node.next),
                        compound(stmts), coord=node.coord)
        for a in self.amap.of(node):
            self.amap.add(new, a)
        self.clones[id(new)] = loop
        if loop is self.block:
            self.roots.add(id(new))
        return new

    def run(self, keep_barriers: bool = False) -> None:
        block = self.block
        root = c_ast.Compound(self.materialize(self.lift(block.node, ()),
                                               barriers=keep_barriers),
                              coord=block.node.coord)
        self._keep_variables(root)
        parent, slot = self.parents[id(block.node)]
        if isinstance(parent, c_ast.Compound):
            k = next(i for i, x in enumerate(parent.block_items) if x is block.node)
            parent.block_items[k:k + 1] = root.block_items
        else:
            setattr(parent, slot, root)
        self._remodel(root)

    # -- variables that live across a barrier ---------------------------------------------
    def _keep_variables(self, root: c_ast.Compound) -> None:
        live = self.live_across(root)
        crossing = live.crossing()
        self.unique_names(crossing, live)
        scalars: set[int] = set()
        for decl in crossing:
            if self._stays_scalar(decl, scalars):
                scalars.add(id(decl))
                self._hoist(decl, parent_map(root))
            else:
                self._per_thread(decl, live.uses.get(id(decl), []),
                                 live.headers.get(id(decl), []), parent_map(root))
        self._counters_unchanged(root, scalars)

    def _stays_scalar(self, decl: c_ast.Decl, scalars: set[int]) -> bool:
        """Uniform, set by its initializer only, which reads no per-thread variable."""
        if id(decl) in self.flow.varying or self.flow.first_assignment(decl) is not None or \
                decl.init is None or not isinstance(decl.type, c_ast.TypeDecl) or \
                isinstance(decl.init, c_ast.InitList):
            return False
        for n in walk(decl.init):
            if isinstance(n, c_ast.ID):
                d = self.binds.get(id(n))
                if d is not None and id(d) in self.level and id(d) not in scalars:
                    return False
        return True

    def _hoist(self, decl: c_ast.Decl, parents) -> None:
        """Move a block scalar's declaration before its region."""
        holder = parents[id(decl)][0]
        at, k = self.statement_at(decl, parents)
        holder.block_items = [x for x in holder.block_items if x is not decl]
        at.block_items.insert(k, decl)

    def _per_thread(self, decl: c_ast.Decl, uses: list[c_ast.ID], headers: list[c_ast.ID],
                    parents) -> None:
        """``T x = v;`` -> ``T x[N];`` before the region, ``x[slot] = v;`` in its place and
        ``x[slot]`` for every use (``x[0]`` in the headers moved out)."""
        slot, count = self._slot(self.level[id(decl)])
        outside = {id(u) for u in headers}
        for use in headers:
            if is_assigned(use, parents):
                self.error(f"on the CPU modes okl cannot split this @inner loop at its "
                           f"barriers: '{use.name}' is changed by the header of a loop "
                           "around a @barrier and by the @inner code", use,
                           hint=f"declare the counter in the loop's header (for (int "
                                f"{use.name} = ...; ...)) and copy it where the @inner "
                                "code needs another")
        for use in uses:
            index = c_ast.Constant("int", "0") if id(use) in outside else clone(slot)
            parent, name = parents[id(use)]
            replace(parent, name, use, c_ast.ArrayRef(
                c_ast.ID(use.name, coord=use.coord), index, coord=use.coord))
        holder = parents[id(decl)][0]
        at, k = self.statement_at(decl, parents)
        init, decl.init = decl.init, None
        stmt: list[c_ast.Node] = []
        if isinstance(init, c_ast.InitList):
            # an array or struct: its initialized copy, then copied into the thread's slot
            temp = c_ast.Decl(f"_okl_init_{decl.name}", [], [], [], [],
                              declname(clone(decl.type), f"_okl_init_{decl.name}"), init,
                              None)
            copy = c_ast.FuncCall(c_ast.ID("__builtin_memcpy"), c_ast.ExprList([
                c_ast.UnaryOp("&", c_ast.ArrayRef(c_ast.ID(decl.name), clone(slot))),
                c_ast.UnaryOp("&", c_ast.ID(temp.name)),
                c_ast.UnaryOp("sizeof", c_ast.ID(temp.name))]))
            stmt = [c_ast.Compound([temp, copy], coord=decl.coord)]
        elif init is not None:
            stmt = [c_ast.Assignment("=", c_ast.ArrayRef(c_ast.ID(decl.name), clone(slot)),
                                     init, coord=decl.coord)]
        items = holder.block_items
        here = next(i for i, x in enumerate(items) if x is decl)
        items[here:here + 1] = stmt
        drop_const(decl)
        decl.type = c_ast.ArrayDecl(decl.type, count, [])
        at.block_items.insert(k, decl)

    def _slot(self, chain: tuple[Loop, ...]) -> tuple[c_ast.Node, c_ast.Node]:
        """A thread's running number over the @inner loops ``chain``, and their count."""
        index: c_ast.Node | None = None
        count: c_ast.Node | None = None
        for loop in chain:
            form = loop.form
            here: c_ast.Node = c_ast.ID(form.iterator)
            if not (form.increasing and evaluate(form.start) == 0):
                here = c_ast.BinaryOp("-", here, clone(form.start)) if form.increasing else \
                    c_ast.BinaryOp("-", clone(form.start), here)
            if form.step_value() != 1:
                here = c_ast.BinaryOp("/", here, clone(form.step))
            trips = loop.trip_value
            extent = c_ast.Constant("int", str(trips)) if trips is not None else \
                loop.trip_count()
            index = here if index is None else c_ast.BinaryOp(
                "+", c_ast.BinaryOp("*", index, clone(extent)), here)
            count = extent if count is None else _product(count, extent)
        assert index is not None and count is not None
        if not isinstance(count, c_ast.Constant):
            # a run-time extent may be 0 or less (no thread runs): the array still has a slot
            count = c_ast.TernaryOp(c_ast.BinaryOp(">", count, c_ast.Constant("int", "0")),
                                    clone(count), c_ast.Constant("int", "1"))
        return index, count

    def _counters_unchanged(self, root: c_ast.Compound, scalars: set[int]) -> None:
        """A loop counter moved out of the @inner loops, or a block scalar, is one variable
        for every thread: changed inside a region, it would change once per thread."""
        shared = self.block_level | scalars
        parents = parent_map(root)
        for n in walk(root):
            if not isinstance(n, c_ast.ID) or not is_assigned(n, parents) or \
                    id(self.binds.get(id(n))) not in shared or self.region_of(n, parents) is None:
                continue
            change = parents[id(n)][0]
            self.error(f"on the CPU modes okl cannot split this @inner loop at its barriers: "
                       f"'{n.name}', the counter of a loop around a @barrier, is "
                       "changed inside the @inner code", change if change.coord else n,
                       hint="change the counter in the loop's header only (for (...; ...; "
                            "w /= 2)), or use a copy of it inside the loop")

    # -- the model ------------------------------------------------------------------------
    def _remodel(self, root: c_ast.Compound) -> None:
        """New Loop objects for the new @inner loops, in place of the block's."""
        block = self.block
        made: list[Loop] = []

        def build(node: c_ast.Node, parent: Loop, in_control: bool) -> None:
            if isinstance(node, c_ast.For) and id(node) in self.clones:
                orig = self.clones[id(node)]
                loop = Loop("inner", node, canonical_form(node, self.program.types, "@inner"),
                            orig.loc, parent, axis=orig.axis,
                            explicit_axis=orig.explicit_axis,
                            in_regular=orig.in_regular or in_control, nobarrier=orig.nobarrier)
                (made if parent is block.parent else parent.children).append(loop)
                build(node.stmt, loop, in_control)
                return
            control = in_control or (isinstance(node, LOOPS) and parent is block.parent)
            for _, child in node.children():
                build(child, parent, control)

        assert block.parent is not None
        build(root, block.parent, False)
        siblings = block.parent.children
        k = next(i for i, c in enumerate(siblings) if c is block)
        siblings[k:k + 1] = made


def _product(a: c_ast.Node, b: c_ast.Node) -> c_ast.Node:
    if isinstance(a, c_ast.Constant) and isinstance(b, c_ast.Constant):
        return c_ast.Constant("int", str(int(a.value) * int(b.value)))
    return c_ast.BinaryOp("*", a, b)
