"""Barriers inside @inner loops must be reached by every @inner iteration: checked here.

A ``@barrier`` inside an @inner loop waits for every thread of the block.  On a GPU a barrier
that some threads skip hangs or is undefined, and on the CPU modes okl splits the @inner
loop at its barriers (okl.transforms.cpu.barriers), which is only the same program when
every thread takes the same path to each barrier.  So every mode refuses a barrier under
control flow that may differ between the @inner iterations of one block: an ``if``, a loop
header, a ``break``/``continue`` of a loop around it, a nested @inner loop's bounds.

*Uniform* values are the same for every @inner iteration of a block: constants, kernel
arguments, @outer indices, variables of the @outer body that the @inner code does not
assign, and every variable of the @inner code whose assignments all are uniform values in
uniform control flow (a fixed point: ``w`` of ``for (int w = 32; w > 0; w /= 2)``).
*Varying* values come from an @inner index, an @exclusive, or a variable assigned under
varying control.  A value loaded from memory (a pointer argument, a @shared array) may
differ between threads that load it at different moments, so okl does not guess: it is
reported as unprovable, with the hint to compute the condition differently.

The ``if`` that ``@tile(..., check=true)`` puts around a tile's body is no condition here:
the CPU split and the GPU lowering both move barriers out of it (okl.transforms.tile_check),
so the threads past the loop's end wait at every barrier and do nothing else.
"""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast, c_generator

from ..ctree import children, parent_map, walk
from ..errors import Diagnostics, SourceLoc, note
from ..record import record
from .attach import AttributeMap
from .kernel import Kernel
from .scopes import Bindings, bindings

#: the iterator's prefix of @tile's loop over tiles (okl.model.tile)
TILED_PREFIX = "_okl_tiled_"

_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


@record(frozen=True)
class Why:
    """Why a value may differ between @inner iterations."""

    kind: str  # "inner" | "exclusive" | "assigned" | "memory" | "call" | "address"
    name: str  # the variable, or the expression's text for memory and call
    node: c_ast.Node | None = None  # where it happens (an assignment, a load)
    via: Why | None = None  # assigned: why the value assigned varies

    @property
    def provable(self) -> bool:
        """False where the value may or may not vary: okl cannot tell."""
        return self.kind not in ("memory", "call") and (self.via is None or self.via.provable)


def tile_checks(root: c_ast.Node) -> set[int]:
    """id of every @tile bounds check below ``root``."""
    out = set()
    for n in walk(root):
        if isinstance(n, c_ast.For) and isinstance(n.init, c_ast.DeclList) and \
                len(n.init.decls) == 1 and isinstance(n.init.decls[0].init, c_ast.ID) and \
                n.init.decls[0].init.name.startswith(TILED_PREFIX) and \
                isinstance(n.stmt, c_ast.Compound) and len(n.stmt.block_items or []) == 1 and \
                isinstance(n.stmt.block_items[0], c_ast.If) and \
                n.stmt.block_items[0].iffalse is None:
            out.add(id(n.stmt.block_items[0]))
    return out


@record
class BarrierBlock:
    """A block (an outer-most @inner loop) with barriers inside its @inner code, the
    barriers, and what is uniform in it."""

    node: c_ast.For
    barriers: list[c_ast.Node]
    flow: Uniformity


def barrier_blocks(kernel: Kernel, amap: AttributeMap) -> list[BarrierBlock]:
    """The blocks of ``kernel`` with a barrier inside an @inner loop, in source order; one
    parent map and one name resolution serve them all."""
    if not kernel.barriers:
        return []  # most kernels: no parent map to make
    parents = parent_map(kernel.node)
    found: dict[int, tuple[c_ast.For, list[c_ast.Node]]] = {}
    for barrier in kernel.barriers:
        block, node = None, barrier.node
        while id(node) in parents:
            node = parents[id(node)][0]
            if isinstance(node, c_ast.For) and amap.has(node, "inner"):
                block = node
            elif isinstance(node, c_ast.For) and amap.has(node, "outer"):
                break
        if block is not None:
            found.setdefault(id(block), (block, []))[1].append(barrier.node)
    if not found:
        return []
    binds = bindings(kernel.node)
    exclusive = [v.node for v in kernel.exclusive]
    return [BarrierBlock(block, barriers, Uniformity(block, amap, binds, exclusive, parents))
            for block, barriers in found.values()]


def check_barriers(kernel: Kernel, amap: AttributeMap, diags: Diagnostics,
                   locate: Callable[[c_ast.Node], SourceLoc | None]) -> None:
    """Report every barrier inside an @inner loop that not every @inner iteration of its
    block is proved to reach."""
    for block in barrier_blocks(kernel, amap):
        for barrier in block.barriers:
            problem = block.flow.path_problem(barrier)
            if problem is not None:
                where, why = problem
                _report(diags, locate, barrier, where, why, amap)


def _report(diags: Diagnostics, locate, barrier: c_ast.Node, where: c_ast.Node, why: Why,
            amap: AttributeMap) -> None:
    construct = describe_construct(where, amap)
    if why.kind == "switch":
        diags.error(f"okl does not split barriers inside switch statements: this @barrier "
                    f"is inside '{construct}'", locate(barrier),
                    notes=[note(f"'{construct}' is here", locate(where))],
                    hint="write the cases as if / else if with conditions that are the same "
                         "for every @inner iteration")
    else:
        proved = why.provable
        diags.error(
            ("this @barrier is not reached by every @inner iteration" if proved else
             "okl cannot prove that every @inner iteration reaches this @barrier") +
            f": it is inside '{construct}', {_because(why)}", locate(barrier),
            notes=[note(f"'{construct}' is here", locate(where))] + _origin(why, locate),
            hint="every thread of a block must reach each @barrier (on a GPU one that some "
                 "threads skip hangs or is undefined): move the @barrier out of it, or make "
                 "it the same for every @inner iteration" if proved else
                 "a value loaded from memory may differ between @inner iterations: compute "
                 "the condition from kernel arguments, @outer indices and loop counters "
                 "(hoist the load into a variable of the @outer loop, before the @inner "
                 "loop), or end the @inner loop before the condition")


def _because(why: Why) -> str:
    if why.kind == "inner":
        return f"which depends on '{why.name}', an @inner loop index"
    if why.kind == "exclusive":
        return f"which depends on '{why.name}', an @exclusive variable (one per thread)"
    if why.kind == "address":
        return f"which depends on '{why.name}', whose address is taken (okl cannot follow it)"
    if why.kind == "assigned":
        via = why.via
        while via is not None and via.kind == "assigned" and via.via is not None:
            via = via.via
        source = ""
        if via is not None and via.kind in ("inner", "exclusive", "address"):
            source = f" (set from {_because(via).removeprefix('which depends on ')})"
        elif via is not None and via.kind == "memory":
            source = f" (loaded from memory: '{via.name}')"
        elif via is not None and via.kind == "call":
            source = f" (set by a call with pointers: '{via.name}')"
        return f"which depends on '{why.name}'{source}"
    if why.kind == "memory":
        return f"which reads memory ('{why.name}')"
    if why.kind == "goto":
        return "and the @inner code jumps with goto"
    if why.kind == "exit":
        return f"which some @inner iterations leave early ({why.name})"
    return f"which calls a function with pointers ('{why.name}')"


def _origin(why: Why, locate) -> list:
    if why.kind in ("assigned", "exit") and why.node is not None:
        return [note(f"'{why.name}' is set here" if why.kind == "assigned" else
                     "the early exit is here", locate(why.node))]
    return []


def describe_construct(node: c_ast.Node, amap: AttributeMap | None = None) -> str:
    gen = c_generator.CGenerator()
    if isinstance(node, c_ast.If):
        return f"if ({gen.visit(node.cond)})"
    if isinstance(node, c_ast.While):
        return f"while ({gen.visit(node.cond)})"
    if isinstance(node, c_ast.DoWhile):
        return f"do ... while ({gen.visit(node.cond)})"
    if isinstance(node, c_ast.Switch):
        return f"switch ({gen.visit(node.cond)})"
    if isinstance(node, c_ast.For):
        parts = [gen.visit(p) if p is not None else "" for p in (node.init, node.cond,
                                                                  node.next)]
        tail = "; @inner" if amap is not None and amap.has(node, "inner") else ""
        return f"for ({'; '.join(parts)}{tail})"
    return gen.visit(node)


class Uniformity:
    """Which variables of one block's @inner code are uniform (see the module docstring)."""

    def __init__(self, block: c_ast.For, amap: AttributeMap, binds: Bindings,
                 exclusive: list[c_ast.Decl], parents: dict[int, tuple]) -> None:
        self.block = block
        self.amap = amap
        self.binds = binds
        self.parents = parents
        self.tile_checks = tile_checks(block)
        self.local: set[int] = set()  # declarations inside the block's @inner code
        self.varying: dict[int, Why] = {}
        self._assigned: dict[int, c_ast.Node | None] = {}  # first_assignment's answers
        self.has_goto = False
        for n in walk(block):
            if isinstance(n, c_ast.Decl) and n.name and n is not block.init.decls[0]:
                self.local.add(id(n))
            elif isinstance(n, c_ast.Goto):
                self.has_goto = True
        for n in walk(block):
            if isinstance(n, c_ast.For) and amap.has(n, "inner") and \
                    isinstance(n.init, c_ast.DeclList):
                for d in n.init.decls:
                    self.varying[id(d)] = Why("inner", d.name, d)
        for decl in exclusive:
            self.varying[id(decl)] = Why("exclusive", decl.name, decl)
        self.holds_barrier: set[int] = set()  # the barriers and what is around them
        for n in walk(block.stmt):
            if isinstance(n, c_ast.EmptyStatement) and amap.has(n, "barrier"):
                while n is not block and id(n) not in self.holds_barrier:
                    self.holds_barrier.add(id(n))
                    n = parents[id(n)][0]
        self._solve()

    # -- the fixed point -------------------------------------------------------------------
    def _solve(self) -> None:
        while True:
            before = len(self.varying)
            self._statement(self.block.stmt, None)
            if len(self.varying) == before:
                return

    def _mark(self, decl: c_ast.Decl | None, why: Why | None, at: c_ast.Node) -> None:
        if decl is not None and why is not None and id(decl) not in self.varying:
            self.varying[id(decl)] = why if why.kind == "address" else \
                Why("assigned", decl.name, at, why)

    def _statement(self, node: c_ast.Node | None, ctl: Why | None,
                   tile: Why | None = None) -> None:
        """``tile``: inside a @tile check, where only what holds a barrier runs for every
        thread (okl applies the check to the regions between barriers)."""
        if node is None:
            return
        if tile is not None and id(node) not in self.holds_barrier:
            ctl, tile = ctl or tile, None
        cls = type(node)
        if cls is c_ast.Compound:
            for item in node.block_items or []:
                self._statement(item, ctl, tile)
        elif cls is c_ast.If and id(node) in self.tile_checks:
            self._statement(node.iftrue, ctl, tile or (None if ctl else self.why(node.cond)))
        elif cls is c_ast.If:
            self._expression(node.cond, ctl)
            inner = ctl or self.why(node.cond)
            self._statement(node.iftrue, inner, tile)
            self._statement(node.iffalse, inner, tile)
        elif cls in _LOOPS or cls is c_ast.Switch:
            if cls is c_ast.For:
                self._statement(node.init, ctl)
            inner = ctl or self.header_why(node)
            for part in ("cond", "next"):
                self._expression(getattr(node, part, None), inner)
            self._statement(node.stmt, inner, tile)
        elif cls is c_ast.Decl:
            self._decl(node, ctl)
        elif cls is c_ast.DeclList:
            for d in node.decls:
                self._decl(d, ctl)
        elif cls is c_ast.Label:
            self._statement(node.stmt, ctl, tile)
        elif cls in (c_ast.Case, c_ast.Default):
            for s in node.stmts or []:
                self._statement(s, ctl, tile)
        else:
            self._expression(node, ctl)

    def _decl(self, decl: c_ast.Decl, ctl: Why | None) -> None:
        if decl.init is not None and id(decl) not in self.varying:
            self._expression(decl.init, ctl)
            self._mark(decl, ctl or self.why(decl.init), decl)
        elif decl.init is not None:
            self._expression(decl.init, ctl)

    def _expression(self, node: c_ast.Node | None, ctl: Why | None) -> None:
        """Assignments inside an expression (statements are expressions too)."""
        if node is None:
            return
        cls = type(node)
        if cls is c_ast.Assignment:
            self._expression(node.rvalue, ctl)
            target, index = self._target(node.lvalue)
            self._mark(target, ctl or index or self.why(node.rvalue), node)
            return
        if cls is c_ast.UnaryOp and node.op in ("++", "--", "p++", "p--"):
            target, index = self._target(node.expr)
            self._mark(target, ctl or index, node)
            return
        if cls is c_ast.UnaryOp and node.op == "&":
            target, _ = self._target(node.expr)
            if target is not None and id(target) in self.local:
                self._mark(target, Why("address", target.name, node), node)
        if cls is c_ast.TernaryOp:
            self._expression(node.cond, ctl)
            inner = ctl or self.why(node.cond)
            self._expression(node.iftrue, inner)
            self._expression(node.iffalse, inner)
            return
        if cls is c_ast.BinaryOp and node.op in ("&&", "||"):
            self._expression(node.left, ctl)
            self._expression(node.right, ctl or self.why(node.left))
            return
        for child in children(node):
            self._expression(child, ctl)

    def _target(self, lvalue: c_ast.Node) -> tuple[c_ast.Decl | None, Why | None]:
        """The variable an assignment changes (None: memory), and why the element it
        changes may differ between threads (an index that varies)."""
        index = None
        node = lvalue
        while True:
            if isinstance(node, c_ast.ArrayRef):
                index = index or self.why(node.subscript)
                node = node.name
            elif isinstance(node, c_ast.StructRef) and node.type == ".":
                node = node.name
            else:
                break
        if not isinstance(node, c_ast.ID):
            return None, None
        decl = self.binds.get(id(node))
        if decl is None or _is_pointer_or_shared(decl, self.amap) and id(decl) not in self.local:
            return None, None  # memory (a pointer argument, a @shared array)
        return decl, index

    # -- why a value varies ----------------------------------------------------------------
    def why(self, expr: c_ast.Node | None) -> Why | None:
        """None when ``expr`` is uniform, else the first reason it may not be."""
        if expr is None:
            return None
        stack = [expr]
        while stack:
            n = stack.pop()
            cls = type(n)
            if cls is c_ast.ID:
                decl = self.binds.get(id(n))
                if decl is not None:
                    reason = self.varying.get(id(decl))
                    if reason is not None:
                        return reason
                    set_at = None if id(decl) in self.local else self.first_assignment(decl)
                    if set_at is not None:
                        return Why("assigned", n.name, set_at)
                continue
            if cls is c_ast.ArrayRef or (cls is c_ast.UnaryOp and n.op == "*") or \
                    (cls is c_ast.StructRef and n.type == "->"):
                memory = self._memory(n)
                if memory is not None:
                    return memory
            if cls is c_ast.FuncCall and n.args is not None and \
                    any(self._pointerish(a) for a in n.args.exprs):
                return Why("call", c_generator.CGenerator().visit(n), n)
            if cls is c_ast.FuncCall:
                stack.extend(n.args.exprs if n.args is not None else [])
                continue
            if cls is c_ast.Typename:
                continue
            stack.extend(reversed(children(n)))
        return None

    def _memory(self, n: c_ast.Node) -> Why | None:
        """A load through a pointer or from a @shared array; None when ``n`` reads a
        variable of the thread's own (an array declared in the @inner code or the @outer
        body) or a file-scope constant."""
        root = n
        while isinstance(root, (c_ast.ArrayRef, c_ast.StructRef)):
            root = root.name
        if isinstance(n, c_ast.ArrayRef) and isinstance(root, c_ast.ID):
            decl = self.binds.get(id(root))
            if decl is None or not _is_pointer_or_shared(decl, self.amap):
                return None
        if isinstance(n, c_ast.StructRef) and n.type == "." or \
                isinstance(n, c_ast.ArrayRef) and not isinstance(root, c_ast.ID):
            return None
        return Why("memory", c_generator.CGenerator().visit(n), n)

    def _pointerish(self, arg: c_ast.Node) -> bool:
        for n in walk(arg):
            if isinstance(n, c_ast.UnaryOp) and n.op == "&":
                return True
            if isinstance(n, c_ast.ID):
                decl = self.binds.get(id(n))
                if decl is not None and isinstance(decl.type, (c_ast.PtrDecl, c_ast.ArrayDecl)):
                    return True
        return False

    def first_assignment(self, decl: c_ast.Decl) -> c_ast.Node | None:
        """The first statement of the @inner code that changes ``decl`` (an assignment,
        ++/--, or taking its address), None where none does."""
        cache = self._assigned
        if id(decl) not in cache:
            cache[id(decl)] = None
            for n in walk(self.block.stmt):
                target = None
                if isinstance(n, c_ast.Assignment):
                    target = n.lvalue
                elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
                    target = n.expr
                while isinstance(target, (c_ast.ArrayRef, c_ast.StructRef)):
                    target = target.name
                if isinstance(target, c_ast.ID) and self.binds.get(id(target)) is decl and \
                        not _is_pointer_or_shared(decl, self.amap):
                    cache[id(decl)] = n
                    break
        return cache[id(decl)]

    def header_why(self, loop: c_ast.Node) -> Why | None:
        """Why a loop (or switch) runs differently for different @inner iterations: its
        header, or a break/continue under a varying condition."""
        if isinstance(loop, c_ast.For) and self.amap.has(loop, "inner"):
            own = {id(d) for d in loop.init.decls} if isinstance(loop.init, c_ast.DeclList) \
                else set()
            for part in (loop.init, loop.cond, loop.next):
                for n in walk(part) if part is not None else ():
                    if isinstance(n, c_ast.ID) and id(self.binds.get(id(n))) not in own:
                        reason = self.why(n)
                        if reason is not None:
                            return reason
            return None
        exit_ = self._early_exit(loop) if isinstance(loop, _LOOPS) else None
        if exit_ is not None:
            return exit_
        # a counter declared in the header varies only if what it starts from or is
        # compared with does: name that, not the counter
        own = {id(d) for d in loop.init.decls} if isinstance(loop, c_ast.For) and \
            isinstance(loop.init, c_ast.DeclList) else set()
        for d in loop.init.decls if own else ():
            reason = self.why(d.init)
            if reason is not None:
                return reason
        for part in ("cond", "next"):
            for n in walk(getattr(loop, part)) if getattr(loop, part, None) else ():
                if isinstance(n, c_ast.ID) and id(self.binds.get(id(n))) in own:
                    continue
                if isinstance(n, (c_ast.ID, c_ast.ArrayRef, c_ast.UnaryOp, c_ast.StructRef,
                                  c_ast.FuncCall)):
                    reason = self.why(n)
                    if reason is not None:
                        return reason
        return None

    def _early_exit(self, loop: c_ast.Node) -> Why | None:
        """A break or continue of ``loop`` under a condition that varies (within the loop)."""
        def visit(node, ctl):
            if node is None:
                return None
            cls = type(node)
            if cls in (c_ast.Break, c_ast.Continue):
                if ctl is not None:
                    word = "break" if cls is c_ast.Break else "continue"
                    return Why("exit", f"a {word} under {describe_construct(ctl[1])}", node,
                               ctl[0])
                return None
            if cls in _LOOPS or cls is c_ast.Switch:
                return None  # its own break/continue (a switch's break is its own too)
            if cls is c_ast.If:
                inner = ctl
                if ctl is None and id(node) not in self.tile_checks and \
                        self.why(node.cond) is not None:
                    inner = (self.why(node.cond), node)
                return visit(node.iftrue, inner) or visit(node.iffalse, inner)
            if cls is c_ast.Compound:
                for item in node.block_items or []:
                    found = visit(item, ctl)
                    if found:
                        return found
            if cls is c_ast.Label:
                return visit(node.stmt, ctl)
            return None
        return visit(loop.stmt, None)

    # -- the path to one barrier -----------------------------------------------------------
    def path_problem(self, barrier: c_ast.Node) -> tuple[c_ast.Node, Why] | None:
        """The outer-most construct between the block and ``barrier`` that may send
        different @inner iterations different ways, and why; None when there is none."""
        path = []
        node = barrier
        while node is not self.block:
            node = self.parents[id(node)][0]
            path.append(node)
        path.reverse()  # from the block down
        if self.has_goto:
            return path[0], Why("goto", "goto")
        for node in path:
            if isinstance(node, c_ast.If) and id(node) not in self.tile_checks:
                reason = self.why(node.cond)
            elif isinstance(node, c_ast.Switch):
                reason = self.why(node.cond) or Why("switch", "switch")
            elif isinstance(node, _LOOPS) and node is not self.block:
                reason = self.header_why(node)
            else:
                continue
            if reason is not None:
                return node, reason
        return None


def _is_pointer_or_shared(decl: c_ast.Decl, amap: AttributeMap) -> bool:
    if isinstance(decl.type, c_ast.PtrDecl):
        return True
    return amap.has(decl, "shared")
