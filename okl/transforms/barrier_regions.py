"""Barrier regions: the @inner code of a block cut at its barriers (shared by two passes).

The code of a block (an outer-most @inner loop) that holds barriers is *lifted* into a list
of items: a :class:`Region` is a run of statements with no barrier among them, a
:class:`Barrier` separates regions, and a :class:`Control` is a statement every thread
runs the same way (okl.model.uniformity proved it) that holds a barrier -- a sequential
loop, an ``if``, a nested @inner loop on GPUs -- or a break/continue of such a loop.  A
pass then wraps each region in what it needs and materializes the items again:

- okl.transforms.cpu.barriers (serial, OpenMP): each region in a copy of the @inner loops,
  the controls moved outside them;
- okl.transforms.gpu.tile_checks (OpenCL, CUDA, HIP): the native barriers stay, only a
  @tile's bounds check is applied to each region on its own, so that every thread reaches
  every barrier.

Either way a variable of the @inner code used in more than one region (or in a control's
header) must be declared before the regions: :meth:`RegionSplitter.live_across` finds them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field
from typing import TypeVar

from pycparser import c_ast

from ..ctree import clone, parent_map, walk
from ..errors import Diagnostics, SourceLoc
from ..model.kernel import Kernel, Loop, Program
from ..model.uniformity import BarrierBlock, barrier_blocks, tile_checks
from ..record import record

LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)
S = TypeVar("S", bound="RegionSplitter")


@record
class Region:
    """Statements that run per thread, with no barrier among them."""

    stmts: list[c_ast.Node] = field(default_factory=list)


@record
class Barrier:
    node: c_ast.Node


@record
class Control:
    """A statement that runs the same way for every thread and holds a barrier (its
    bodies lifted item lists), or a break/continue of such a loop (no bodies)."""

    node: c_ast.Node
    bodies: list[list] = field(default_factory=list)


Item = Region | Barrier | Control


@record
class Liveness:
    """Variables of the @inner code by how far they reach after the split."""

    decls: dict[int, c_ast.Decl] = field(default_factory=dict)
    uses: dict[int, list[c_ast.ID]] = field(default_factory=dict)
    regions: dict[int, set[int]] = field(default_factory=dict)  # id(Decl) -> region ids
    headers: dict[int, list[c_ast.ID]] = field(default_factory=dict)  # uses outside

    def crossing(self) -> list[c_ast.Decl]:
        """The declarations used in more than one region or outside the regions."""
        return [d for key, d in self.decls.items()
                if len(self.regions.get(key, ())) > 1 or key in self.headers]


def splitters(program: Program, kernel: Kernel, diags: Diagnostics,
              kind: type[S]) -> Iterator[S]:
    """A splitter of class ``kind`` for each block of ``kernel`` with a barrier inside its
    @inner code (okl.model.uniformity.barrier_blocks), made when the previous one is done."""
    found = barrier_blocks(kernel, program.attrs)
    if not found:
        return
    loops = {id(loop.node): loop for loop in kernel.loops()}
    for block in found:
        yield kind(program, kernel, block, loops, diags)


class RegionSplitter:
    """Lifting and materializing one block; subclasses say what a region becomes."""

    #: a { } cut by a barrier: each part with declarations gets braces of its own
    brace_parts = True

    def __init__(self, program: Program, kernel: Kernel, found: BarrierBlock,
                 loops: dict[int, Loop], diags: Diagnostics) -> None:
        self.program = program
        self.amap = program.attrs
        self.kernel = kernel
        self.block = loops[id(found.node)]
        self.barriers = found.barriers
        self.flow = found.flow
        self.binds = found.flow.binds
        self.parents = found.flow.parents  # the kernel's, made before any block was cut
        self.loops = loops
        self.diags = diags
        self.checks = tile_checks(self.block.node)
        self.split = self._split_nodes()
        self.level: dict[int, tuple[Loop, ...]] = {}  # id(Decl) -> @inner loops around it
        self.block_level: set[int] = set()  # the Decls of loop headers moved out
        self.roots: set[int] = set()  # ids of the statements that are regions

    # -- which statements hold a barrier --------------------------------------------------
    def _split_nodes(self) -> set[int]:
        """ids of the barriers, of the break/continue statements of loops that hold one,
        and of every statement around them up to the block."""
        parents = self.parents
        marked: set[int] = {id(self.block.node)}  # where marking up stops

        def mark_up(node: c_ast.Node) -> None:
            while id(node) not in marked:
                marked.add(id(node))
                node = parents[id(node)][0]

        for n in walk(self.block.node.stmt):
            if isinstance(n, c_ast.EmptyStatement) and self.amap.has(n, "barrier"):
                mark_up(n)
        for n in walk(self.block.node.stmt):
            if isinstance(n, (c_ast.Break, c_ast.Continue)):
                target = parents[id(n)][0]
                while not isinstance(target, LOOPS) and not (
                        isinstance(n, c_ast.Break) and isinstance(target, c_ast.Switch)):
                    target = parents[id(target)][0]
                if id(target) in marked and not self.amap.has(target, "inner"):
                    mark_up(n)
        return marked

    # -- lifting ---------------------------------------------------------------------------
    def lift(self, node: c_ast.Node, chain: tuple[Loop, ...]) -> list:
        """The items of a statement of the @inner code inside the @inner loops ``chain``."""
        if id(node) not in self.split:
            return [Region([node])]
        cls = type(node)
        if cls is c_ast.EmptyStatement:
            return [Barrier(node)]
        if cls is c_ast.Compound:
            return self._lift_items(node.block_items or [], chain)
        if cls is c_ast.If and id(node) in self.checks:
            return wrap(self.lift(node.iftrue, chain),
                        lambda stmts: self._guard(node, stmts))
        if cls is c_ast.If:
            return [Control(node, [self.lift(node.iftrue, chain),
                                   self.lift(node.iffalse, chain) if node.iffalse else []])]
        if cls is c_ast.For and self.amap.has(node, "inner"):
            return self.lift_inner(node, chain)
        if cls in LOOPS:
            if cls is c_ast.For and isinstance(node.init, c_ast.DeclList):
                self.block_level |= {id(d) for d in node.init.decls}
            return [Control(node, [self.lift(node.stmt, chain)])]
        if cls in (c_ast.Break, c_ast.Continue):
            return [Control(node)]
        if cls is c_ast.Label:
            return self.lift(node.stmt, chain)
        raise AssertionError(f"a barrier inside {cls.__name__} passed the uniformity check")

    def lift_inner(self, node: c_ast.For, chain: tuple[Loop, ...]) -> list:
        raise NotImplementedError

    def _lift_items(self, items: list[c_ast.Node], chain: tuple[Loop, ...]) -> list:
        out: list = []
        for item in items:
            if isinstance(item, c_ast.Decl):
                self.level[id(item)] = chain
            out.extend(self.lift(item, chain))
        merged = merge(out)
        if self.brace_parts and len(merged) > 1:
            # a { } cut by a barrier: what a part declares stays out of its neighbours'
            for part in merged:
                if isinstance(part, Region) and any(isinstance(s, c_ast.Decl)
                                                    for s in part.stmts):
                    part.stmts = [compound(part.stmts)]
        return merged

    def _guard(self, check: c_ast.If, stmts: list[c_ast.Node]) -> c_ast.If:
        """@tile's bounds check around one region."""
        return c_ast.If(clone(check.cond), compound(stmts), None, coord=check.coord)

    # -- materializing ---------------------------------------------------------------------
    def materialize(self, items: list, barriers: bool) -> list[c_ast.Node]:
        """Statements again; ``barriers``: keep the barrier statements between regions."""
        out: list[c_ast.Node] = []
        for item in items:
            if isinstance(item, Region):
                out.extend(item.stmts)
            elif isinstance(item, Control):
                out.append(self._control(item, barriers))
            elif barriers:
                out.append(item.node)
        return out

    def _control(self, item: Control, barriers: bool) -> c_ast.Node:
        node = item.node
        if isinstance(node, c_ast.If):
            yes, no = (self.materialize(b, barriers) for b in item.bodies)
            node.iftrue = body(yes, node.iftrue)
            node.iffalse = body(no, node.iffalse) if node.iffalse is not None else None
        elif isinstance(node, LOOPS):
            node.stmt = body(self.materialize(item.bodies[0], barriers), node.stmt)
        return node

    # -- variables -------------------------------------------------------------------------
    def region_of(self, node: c_ast.Node, parents) -> c_ast.Node | None:
        """The outer-most region statement around ``node`` (None: outside every region)."""
        found = None
        while id(node) in parents:
            node = parents[id(node)][0]
            if id(node) in self.roots:
                found = node
        return found

    def live_across(self, root: c_ast.Node) -> Liveness:
        """Where each variable declared at the top of a cut block is used."""
        parents = parent_map(root)
        live = Liveness()
        for n in walk(root):
            if isinstance(n, c_ast.ID):
                decl = self.binds.get(id(n))
            elif isinstance(n, c_ast.Decl):
                decl = n
            else:
                continue
            if decl is None or id(decl) not in self.level:
                continue
            key = id(decl)
            live.decls[key] = decl
            region = self.region_of(n, parents)
            if region is not None:
                live.regions.setdefault(key, set()).add(id(region))
            elif isinstance(n, c_ast.ID):
                live.headers.setdefault(key, []).append(n)
            if isinstance(n, c_ast.ID):
                live.uses.setdefault(key, []).append(n)
        return live

    def statement_at(self, node: c_ast.Node, parents) -> tuple[c_ast.Compound, int]:
        """The list and position of the (outer-most) region statement that holds ``node``."""
        region = self.region_of(node, parents)
        assert region is not None
        parent = parents[id(region)][0]
        assert isinstance(parent, c_ast.Compound)
        return parent, next(i for i, x in enumerate(parent.block_items) if x is region)

    def unique_names(self, crossing: list[c_ast.Decl], live: Liveness) -> None:
        """A variable moved before its region could meet another of its name: renamed."""
        declared: dict[str, int] = {}
        taken: set[str] = set()
        for n in walk(self.kernel.node):
            if isinstance(n, c_ast.Decl) and n.name:
                declared[n.name] = declared.get(n.name, 0) + 1
                taken.add(n.name)
            elif isinstance(n, c_ast.ID):
                taken.add(n.name)
        for decl in crossing:
            if declared.get(decl.name, 0) > 1:
                rename(decl, live.uses.get(id(decl), []), taken)

    def error(self, message: str, node: c_ast.Node | None, hint: str) -> None:
        coord = node.coord if node is not None else None
        loc: SourceLoc | None = self.program.expanded.locate(coord.line, coord.column or 1) \
            if coord is not None and coord.line else self.kernel.loc
        self.diags.error(message, loc, hint=hint)


def wrap(items: list, make) -> list:
    """Regions of ``items`` put inside ``make(statements)``; controls keep their place and
    get the same wrapping inside."""
    out: list = []
    for item in items:
        if isinstance(item, Region):
            out.append(Region([make(item.stmts)]))
        elif isinstance(item, Control):
            item.bodies = [wrap(b, make) for b in item.bodies]
            out.append(item)
        else:
            out.append(item)
    return merge(out)


def merge(items: list) -> list:
    """Neighbouring regions become one, barriers in a row one."""
    out: list = []
    for item in items:
        if isinstance(item, Region) and out and isinstance(out[-1], Region):
            out[-1].stmts.extend(item.stmts)
        elif isinstance(item, Barrier) and out and isinstance(out[-1], Barrier):
            continue
        else:
            out.append(item)
    return out


def body(stmts: list[c_ast.Node], was: c_ast.Node) -> c_ast.Node:
    """A body again: one statement stays bare where the source had no braces."""
    if len(stmts) == 1 and not isinstance(was, c_ast.Compound):
        return stmts[0]
    return compound(stmts)


def compound(stmts: list[c_ast.Node]) -> c_ast.Compound:
    if len(stmts) == 1 and isinstance(stmts[0], c_ast.Compound):
        return stmts[0]
    return c_ast.Compound(stmts)


def rename(decl: c_ast.Decl, uses: list[c_ast.ID], taken: set[str]) -> None:
    k = 1
    while f"{decl.name}_{k}" in taken:
        k += 1
    name = f"{decl.name}_{k}"
    taken.add(name)
    decl.name = name
    declname(decl.type, name)
    for use in uses:
        use.name = name


def declname(t: c_ast.Node, name: str | None) -> c_ast.Node:
    """``t`` declaring ``name`` (None: a type without a name, as a cast takes)."""
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = name
    return t


def drop_const(decl: c_ast.Decl) -> None:
    """A declaration moved before its region is assigned later: its own const goes."""
    decl.quals = [q for q in decl.quals if q != "const"]
    t = decl.type
    if isinstance(t, c_ast.PtrDecl):
        t.quals = [q for q in t.quals if q != "const"]
        return
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    if isinstance(t, c_ast.TypeDecl):
        t.quals = [q for q in t.quals if q != "const"]


def replace(parent: c_ast.Node, slot: str, old: c_ast.Node, new: c_ast.Node) -> None:
    value = getattr(parent, slot)
    if type(value) is list:
        value[next(i for i, x in enumerate(value) if x is old)] = new
    else:
        setattr(parent, slot, new)


def is_assigned(use: c_ast.ID, parents) -> bool:
    parent = parents[id(use)][0]
    return isinstance(parent, c_ast.Assignment) and parent.lvalue is use or \
        isinstance(parent, c_ast.UnaryOp) and parent.op in ("++", "--", "p++", "p--")
