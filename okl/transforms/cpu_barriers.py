"""Barriers inside @inner loops on the CPU modes: split the loops into barrier regions.

On serial and OpenMP a block's @inner iterations run one after another, so a ``@barrier``
inside an @inner loop cannot wait for the other iterations.  As PoCL and MCUDA do for
OpenCL and CUDA on CPUs, the @inner loop is cut at its barriers into one @inner loop per
region between them; a sequential loop or ``if`` that holds a barrier moves outside the
@inner loops (its condition, the same for every iteration by okl.model.uniformity, is
evaluated once)::

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
iteration (okl.model.uniformity), set only by its initializer or by the headers of the
loops moved out, stays one scalar, declared before the region.  A block-level header reads
a per-thread copy at slot 0 (it is the same in every slot).  Nested @inner loops (the
code between them runs per thread of the outer one), @tile's bounds check (each region is
checked on its own: the threads past the end wait at every barrier and do nothing else)
and break/continue of the loops moved out keep their meaning.  The result is what the
user would have written with separate @inner blocks, so every later CPU pass (exclusive,
guards, SIMD) treats it as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from ..errors import Diagnostics
from ..model.kernel import Kernel, Loop, Program
from ..model.loops import canonical_form
from ..model.scopes import bindings
from ..model.uniformity import Uniformity, inner_barriers, tile_checks
from .astutil import clone, parent_map, walk

_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


@dataclass
class Region:
    """Statements that run per thread, with no barrier among them."""

    stmts: list[c_ast.Node] = field(default_factory=list)


@dataclass
class Control:
    """A statement that runs once per block: a loop or if holding a barrier (its bodies
    lifted item lists), or a break/continue of such a loop (no bodies)."""

    node: c_ast.Node
    bodies: list[list] = field(default_factory=list)


BARRIER = "barrier"


def split_inner_barriers(program: Program, kernel: Kernel, diags: Diagnostics) -> None:
    """Split every @inner loop of ``kernel`` that holds a barrier (nothing else changes)."""
    amap = program.attrs
    parents = parent_map(kernel.node)
    by_block = inner_barriers(kernel, amap, parents)
    if not by_block:
        return
    binds = bindings(kernel.node)
    loops = {id(loop.node): loop for loop in kernel.loops()}
    consumed: set[int] = set()
    for block_id in by_block:
        block = loops[block_id]
        flow = Uniformity(block.node, amap, binds,
                          [v.node for v in kernel.exclusive], parents)
        splitter = _Splitter(program, kernel, block, flow, binds, loops, diags)
        splitter.run(parents)
        consumed |= {id(n) for n in by_block[block_id]}
    kernel.barriers = [b for b in kernel.barriers if id(b.node) not in consumed]


class _Splitter:
    def __init__(self, program: Program, kernel: Kernel, block: Loop, flow: Uniformity,
                 binds, loops: dict[int, Loop], diags: Diagnostics) -> None:
        self.program = program
        self.amap = program.attrs
        self.kernel = kernel
        self.block = block
        self.flow = flow
        self.binds = binds
        self.loops = loops
        self.diags = diags
        self.checks = tile_checks(block.node)
        self.split = self._split_nodes()
        self.clones: dict[int, Loop] = {}  # id(new @inner For) -> the Loop it copies
        self.level: dict[int, tuple[Loop, ...]] = {}  # id(Decl) -> @inner loops around it
        self.block_level: set[int] = set()  # the Decls of loop headers moved out
        self.per_thread: set[int] = set()

    # -- which statements hold a barrier --------------------------------------------------
    def _split_nodes(self) -> set[int]:
        """ids of the barriers, of the break/continue statements of loops that hold one,
        and of every statement around them up to the block."""
        parents = parent_map(self.block.node)
        marked: set[int] = set()

        def mark_up(node: c_ast.Node) -> None:
            while id(node) in parents and id(node) not in marked:
                marked.add(id(node))
                node = parents[id(node)][0]

        for n in walk(self.block.node.stmt):
            if isinstance(n, c_ast.EmptyStatement) and self.amap.has(n, "barrier"):
                mark_up(n)
        for n in walk(self.block.node.stmt):
            if isinstance(n, (c_ast.Break, c_ast.Continue)):
                target = parents[id(n)][0]
                while not isinstance(target, _LOOPS) and not (
                        isinstance(n, c_ast.Break) and isinstance(target, c_ast.Switch)):
                    target = parents[id(target)][0]
                if id(target) in marked and not self.amap.has(target, "inner"):
                    mark_up(n)
        marked.add(id(self.block.node))  # the root of the parent map
        return marked

    # -- lifting ---------------------------------------------------------------------------
    def _lift(self, node: c_ast.Node, chain: tuple[Loop, ...]) -> list:
        """The items of a statement of the @inner code at the depth of ``chain``."""
        if id(node) not in self.split:
            return [Region([node])]
        cls = type(node)
        if cls is c_ast.EmptyStatement:
            return [BARRIER]
        if cls is c_ast.Compound:
            return self._lift_items(node.block_items or [], chain, brace=True)
        if cls is c_ast.If and id(node) in self.checks:
            return _wrap(self._lift(node.iftrue, chain),
                         lambda stmts: c_ast.If(clone(node.cond), _compound(stmts), None,
                                                coord=node.coord))
        if cls is c_ast.If:
            return [Control(node, [self._lift(node.iftrue, chain),
                                   self._lift(node.iffalse, chain) if node.iffalse else []])]
        if cls is c_ast.For and self.amap.has(node, "inner"):
            loop = self.loops[id(node)]
            inner = self._lift(node.stmt, chain + (loop,))
            return _wrap(inner, lambda stmts: self._copy_loop(loop, stmts))
        if cls in _LOOPS:
            if cls is c_ast.For and isinstance(node.init, c_ast.DeclList):
                self.block_level |= {id(d) for d in node.init.decls}
            return [Control(node, [self._lift(node.stmt, chain)])]
        if cls in (c_ast.Break, c_ast.Continue):
            return [Control(node)]
        if cls is c_ast.Label:
            return self._lift(node.stmt, chain)
        raise AssertionError(f"a barrier inside {cls.__name__} passed the uniformity check")

    def _lift_items(self, items: list[c_ast.Node], chain: tuple[Loop, ...],
                    brace: bool) -> list:
        out: list = []
        for item in items:
            if isinstance(item, c_ast.Decl):
                self.level[id(item)] = chain
            out.extend(self._lift(item, chain))
        merged = _merge(out)
        if brace and len(merged) > 1:
            # a nested { } cut by a barrier: what it declares stays out of its neighbours'
            for item in merged:
                if isinstance(item, Region) and any(isinstance(s, c_ast.Decl)
                                                    for s in item.stmts):
                    item.stmts = [_compound(item.stmts)]
        return merged

    def _copy_loop(self, loop: Loop, stmts: list[c_ast.Node]) -> c_ast.For:
        """A new @inner loop with ``loop``'s header around ``stmts``."""
        node = loop.node
        new = c_ast.For(clone(node.init), clone(node.cond), clone(node.next),
                        _compound(stmts), coord=node.coord)
        for a in self.amap.of(node):
            self.amap.add(new, a)
        self.clones[id(new)] = loop
        return new

    # -- the whole block ------------------------------------------------------------------
    def run(self, parents: dict[int, tuple]) -> None:
        block = self.block
        items = self._lift(block.node, ())
        stmts = self._materialize(items)
        root = c_ast.Compound(stmts, coord=block.node.coord)
        self._keep_variables(root)
        parent, slot = parents[id(block.node)]
        if isinstance(parent, c_ast.Compound):
            k = next(i for i, x in enumerate(parent.block_items) if x is block.node)
            parent.block_items[k:k + 1] = root.block_items
        else:
            setattr(parent, slot, root)
        self._remodel(root)

    def _materialize(self, items: list) -> list[c_ast.Node]:
        out: list[c_ast.Node] = []
        for item in items:
            if isinstance(item, Region):
                out.extend(item.stmts)
            elif isinstance(item, Control):
                out.append(self._control(item))
        return out

    def _control(self, item: Control) -> c_ast.Node:
        node = item.node
        if isinstance(node, c_ast.If):
            yes, no = (self._materialize(b) for b in item.bodies)
            node.iftrue = _body(yes, node.iftrue)
            node.iffalse = _body(no, node.iffalse) if node.iffalse is not None else None
        elif isinstance(node, _LOOPS):
            node.stmt = _body(self._materialize(item.bodies[0]), node.stmt)
        return node

    # -- variables that live across a barrier ---------------------------------------------
    def _keep_variables(self, root: c_ast.Compound) -> None:
        """Per-thread arrays or block scalars for the variables of the @inner code used in
        more than one region or in a header moved out."""
        parents = parent_map(root)
        regions: dict[int, set[int]] = {}  # id(Decl) -> the region loops it is used in
        headers: dict[int, list[c_ast.ID]] = {}  # id(Decl) -> its uses outside regions
        uses: dict[int, list[c_ast.ID]] = {}
        decls: dict[int, c_ast.Decl] = {}
        for n in walk(root):
            decl = None
            if isinstance(n, c_ast.ID):
                decl = self.binds.get(id(n))
            elif isinstance(n, c_ast.Decl) and id(n) in self.level:
                decl = n
            if decl is None or id(decl) not in self.level:
                continue
            decls[id(decl)] = decl
            region = self._region_of(n, parents)
            if region is None:
                if isinstance(n, c_ast.ID):
                    headers.setdefault(id(decl), []).append(n)
            else:
                regions.setdefault(id(decl), set()).add(id(region))
            if isinstance(n, c_ast.ID):
                uses.setdefault(id(decl), []).append(n)
        scalars: set[int] = set()
        taken = {n.name for n in walk(self.kernel.node) if isinstance(n, c_ast.ID)} | \
            {n.name for n in walk(self.kernel.node) if isinstance(n, c_ast.Decl)}
        declared: dict[str, int] = {}
        for n in walk(self.kernel.node):
            if isinstance(n, c_ast.Decl) and n.name:
                declared[n.name] = declared.get(n.name, 0) + 1
        for key, decl in decls.items():
            if len(regions.get(key, ())) > 1 or key in headers:
                mine = uses.get(key, [])
                if declared.get(decl.name, 0) > 1:  # moved out, it could meet the other one
                    _rename(decl, mine, taken)
                if self._stays_scalar(decl, mine, scalars):
                    scalars.add(key)
                    self._hoist(decl, parent_map(root))
                else:
                    self._per_thread(decl, mine, headers.get(key, []), parent_map(root))
                    self.per_thread.add(key)
        self._counters_unchanged(root, scalars)

    def _counters_unchanged(self, root: c_ast.Compound, scalars: set[int]) -> None:
        """A loop counter moved out of the @inner loops, or a block scalar, is one variable
        for every thread: changed inside a region, it would change once per thread."""
        shared = self.block_level | scalars
        parents = parent_map(root)
        for n in walk(root):
            target = n.lvalue if isinstance(n, c_ast.Assignment) else \
                n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") \
                else None
            if not isinstance(target, c_ast.ID):
                continue
            decl = self.binds.get(id(target))
            if decl is None or id(decl) not in shared or self._region_of(n, parents) is None:
                continue
            coord = n.coord or target.coord
            loc = self.program.expanded.locate(coord.line, coord.column or 1) if coord \
                else self.kernel.loc
            self.diags.error(
                f"on the CPU modes okl cannot split this @inner loop at its barriers: "
                f"'{target.name}', the counter of a loop around a @barrier, is changed "
                "inside the @inner code", loc,
                hint="change the counter in the loop's header only (for (...; ...; w /= 2)), "
                     "or use a copy of it inside the loop")

    def _region_of(self, node: c_ast.Node, parents) -> c_ast.Node | None:
        """The outer-most new @inner loop around ``node`` (None: a block-level header)."""
        found = None
        while id(node) in parents:
            node = parents[id(node)][0]
            if id(node) in self.clones and self.clones[id(node)] is self.block:
                found = node
        return found

    def _stays_scalar(self, decl: c_ast.Decl, uses: list[c_ast.ID], scalars: set[int]) -> bool:
        """Uniform, set by its initializer only, which reads no per-thread variable."""
        if id(decl) in self.flow.varying or self.flow.first_assignment(decl) is not None:
            return False
        if not isinstance(decl.type, c_ast.TypeDecl) or isinstance(decl.init, c_ast.InitList):
            return False
        for n in walk(decl.init) if decl.init is not None else ():
            if isinstance(n, c_ast.ID):
                d = self.binds.get(id(n))
                if d is not None and id(d) in self.level and id(d) not in scalars:
                    return False
        return decl.init is not None

    def _statement_at_block(self, node: c_ast.Node, parents) -> tuple[c_ast.Compound, int]:
        """The block-level list and position of the statement holding ``node``."""
        while True:
            parent = parents[id(node)][0]
            region = id(node) in self.clones and self.clones[id(node)] is self.block
            if region and isinstance(parent, c_ast.Compound):
                k = next(i for i, x in enumerate(parent.block_items) if x is node)
                return parent, k
            node = parent

    def _hoist(self, decl: c_ast.Decl, parents) -> None:
        """Move a block scalar's declaration before its region."""
        holder = parents[id(decl)][0]
        at, k = self._statement_at_block(decl, parents)
        holder.block_items = [x for x in holder.block_items if x is not decl]
        at.block_items.insert(k, decl)
        parents[id(decl)] = (at, "block_items")

    def _per_thread(self, decl: c_ast.Decl, uses: list[c_ast.ID], headers: list[c_ast.ID],
                    parents) -> None:
        """``T x = v;`` -> ``T x[N];`` before the region, ``x[slot] = v;`` in its place and
        ``x[slot]`` for every use (``x[0]`` in block-level headers)."""
        chain = self.level[id(decl)]
        slot, count = self._slot(chain)
        header_ids = {id(u) for u in headers}
        for use in headers:
            parent = parents[id(use)][0]
            if isinstance(parent, c_ast.Assignment) and parent.lvalue is use or \
                    isinstance(parent, c_ast.UnaryOp) and parent.op in ("++", "--", "p++",
                                                                        "p--"):
                coord = use.coord
                self.diags.error(
                    f"on the CPU modes okl cannot split this @inner loop at its barriers: "
                    f"'{use.name}' is changed by the header of a loop around a @barrier and "
                    "by the @inner code", self.program.expanded.locate(
                        coord.line, coord.column or 1) if coord else self.kernel.loc,
                    hint=f"declare the counter in the loop's header (for (int {use.name} = "
                         "...; ...)) and copy it where the @inner code needs another")
        for use in uses:
            index = c_ast.Constant("int", "0") if id(use) in header_ids else clone(slot)
            parent, name = parents[id(use)]
            _replace(parent, name, use, c_ast.ArrayRef(c_ast.ID(use.name, coord=use.coord),
                                                       index, coord=use.coord))
        holder = parents[id(decl)][0]
        at, k = self._statement_at_block(decl, parents)
        init = decl.init
        decl.init = None
        stmt: c_ast.Node | None = None
        if isinstance(init, c_ast.InitList):
            temp = c_ast.Decl(f"_okl_init_{decl.name}", [], [], [], [],
                              _renamed(clone(decl.type), f"_okl_init_{decl.name}"), init, None)
            copy = c_ast.FuncCall(c_ast.ID("__builtin_memcpy"), c_ast.ExprList([
                c_ast.UnaryOp("&", c_ast.ArrayRef(c_ast.ID(decl.name), clone(slot))),
                c_ast.UnaryOp("&", c_ast.ID(temp.name)),
                c_ast.UnaryOp("sizeof", c_ast.ID(temp.name))]))
            stmt = c_ast.Compound([temp, copy], coord=decl.coord)
        elif init is not None:
            stmt = c_ast.Assignment("=", c_ast.ArrayRef(c_ast.ID(decl.name), clone(slot)),
                                    init, coord=decl.coord)
        items = holder.block_items
        k_decl = next(i for i, x in enumerate(items) if x is decl)
        items[k_decl:k_decl + 1] = [stmt] if stmt is not None else []
        _drop_const(decl)
        decl.type = c_ast.ArrayDecl(decl.type, count, [])
        at.block_items.insert(k, decl)
        parents[id(decl)] = (at, "block_items")

    def _slot(self, chain: tuple[Loop, ...]) -> tuple[c_ast.Node, c_ast.Node]:
        """The running index of a thread over the @inner loops ``chain`` and their count."""
        index: c_ast.Node | None = None
        count: c_ast.Node | None = None
        for loop in chain:
            form = loop.form
            step = form.step_value()
            start = form.start
            here: c_ast.Node = c_ast.ID(form.iterator)
            if not (form.increasing and _is_zero(start)):
                here = c_ast.BinaryOp("-", here, clone(start)) if form.increasing else \
                    c_ast.BinaryOp("-", clone(start), here)
            if step != 1:
                here = c_ast.BinaryOp("/", here, clone(form.step))
            trips = loop.trip_value
            extent = c_ast.Constant("int", str(trips)) if trips is not None else \
                loop.trip_count()
            index = here if index is None else c_ast.BinaryOp(
                "+", c_ast.BinaryOp("*", index, clone(extent)), here)
            count = extent if count is None else _product(count, extent)
        assert index is not None and count is not None
        return index, count

    # -- the model ------------------------------------------------------------------------
    def _remodel(self, root: c_ast.Compound) -> None:
        """New Loop objects for the new @inner loops, in place of the block's."""
        block = self.block
        made: list[Loop] = []

        def build(node: c_ast.Node, parent: Loop | None, in_control: bool) -> None:
            if isinstance(node, c_ast.For) and id(node) in self.clones:
                orig = self.clones[id(node)]
                loop = Loop("inner", node, canonical_form(node, self.program.types, "@inner"),
                            orig.loc, parent, axis=orig.axis,
                            explicit_axis=orig.explicit_axis,
                            in_regular=orig.in_regular or in_control,
                            nobarrier=orig.nobarrier)
                if parent is None or parent is block.parent:
                    made.append(loop)
                else:
                    parent.children.append(loop)
                build(node.stmt, loop, in_control)
                return
            control = in_control or (isinstance(node, _LOOPS) and parent is block.parent)
            for child in _children(node):
                build(child, parent, control)

        build(root, block.parent, False)
        siblings = block.parent.children
        k = next(i for i, c in enumerate(siblings) if c is block)
        for loop in made:
            loop.parent = block.parent
        siblings[k:k + 1] = made


def _rename(decl: c_ast.Decl, uses: list[c_ast.ID], taken: set[str]) -> None:
    k = 1
    while f"{decl.name}_{k}" in taken:
        k += 1
    name = f"{decl.name}_{k}"
    taken.add(name)
    decl.name = name
    _renamed(decl.type, name)
    for use in uses:
        use.name = name


def _children(node: c_ast.Node) -> list[c_ast.Node]:
    return [c for _, c in node.children()]


def _wrap(items: list, make) -> list:
    """Regions of ``items`` put inside ``make(statements)``; controls keep their place and
    get the same wrapping inside."""
    out: list = []
    for item in items:
        if isinstance(item, Region):
            out.append(Region([make(item.stmts)]))
        elif isinstance(item, Control):
            item.bodies = [_wrap(b, make) for b in item.bodies]
            out.append(item)
        else:
            out.append(item)
    return _merge(out)


def _merge(items: list) -> list:
    """Neighbouring regions become one; barriers only separate them."""
    out: list = []
    for item in items:
        if isinstance(item, Region) and out and isinstance(out[-1], Region):
            out[-1].stmts.extend(item.stmts)
        elif item is BARRIER:
            if out and out[-1] is not BARRIER:
                out.append(item)
        else:
            out.append(item)
    return out


def _body(stmts: list[c_ast.Node], was: c_ast.Node) -> c_ast.Node:
    """A block-level body: one statement stays bare where the source had no braces."""
    if len(stmts) == 1 and not isinstance(was, c_ast.Compound):
        return stmts[0]
    return _compound(stmts)


def _compound(stmts: list[c_ast.Node]) -> c_ast.Compound:
    if len(stmts) == 1 and isinstance(stmts[0], c_ast.Compound):
        return stmts[0]
    return c_ast.Compound(stmts)


def _replace(parent: c_ast.Node, slot: str, old: c_ast.Node, new: c_ast.Node) -> None:
    if "[" in slot:
        name, k = slot[:-1].split("[")
        getattr(parent, name)[int(k)] = new
        return
    value = getattr(parent, slot)
    if type(value) is list:
        value[next(i for i, x in enumerate(value) if x is old)] = new
    else:
        setattr(parent, slot, new)


def _renamed(t: c_ast.Node, name: str) -> c_ast.Node:
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = name
    return t


def _drop_const(decl: c_ast.Decl) -> None:
    """A per-thread copy is assigned after its declaration: its own const goes."""
    decl.quals = [q for q in decl.quals if q != "const"]
    t = decl.type
    if isinstance(t, c_ast.PtrDecl):
        t.quals = [q for q in t.quals if q != "const"]
        return
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    if isinstance(t, c_ast.TypeDecl):
        t.quals = [q for q in t.quals if q != "const"]


def _is_zero(node: c_ast.Node) -> bool:
    return isinstance(node, c_ast.Constant) and node.value in ("0", "0u", "0U")


def _product(a: c_ast.Node, b: c_ast.Node) -> c_ast.Node:
    if isinstance(a, c_ast.Constant) and isinstance(b, c_ast.Constant):
        return c_ast.Constant("int", str(int(a.value) * int(b.value)))
    return c_ast.BinaryOp("*", a, b)


