"""The race checker's lowering (serial and OpenMP): every access of global, @shared and
@exclusive memory reports itself to a shadow state that knows OKL's concurrency.

``Device(mode, check_races=True)`` translates with this pass.  It runs on a kernel after its
@inner loops were cut at their barriers (the cuts keep a barrier statement between regions)
and before atomics and the CPU lowering:

- every element access -- ``x[i]`` of a pointer, ``*p``, a @shared array's full element, an
  @exclusive variable -- becomes ``(*_OKL_RACE(region, &access, kind, site))``: the shadow
  (``race_shadow.h``) records it and returns the same address, so the kernel computes what
  it computes without the checker.  Accesses through pointers look their region up by
  address, so pointers the kernel computes (``const double *row = q + e * p_Np``) count too;
  an @atomic statement's accesses are noted just before it, so that lowering sees it as
  written;
- barriers become epoch steps (okl's automatic barriers step @shared memory's only: they
  fence nothing else on OpenCL); each innermost @outer body starts a block, each top-level
  @outer loop a launch;
- each @inner loop runs its iterations in the order the launch asks for (ascending,
  reversed, or a seeded permutation) and names the running thread by its iteration index on
  each axis, which is the GPU's thread index.

Kernels take hidden arguments after the user's: one element count per pointer parameter
(as checked mode's) and the ``int64`` report that okl.runtime.launch.races reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pycparser import c_ast

from ..ctree import clone, parent_map, root_name, walk
from ..errors import SourceLoc
from ..model.consteval import evaluate
from ..model.kernel import Kernel, Loop, Program
from ..parser.source import STRING_NAME
from .barrier_regions import declname, replace
from .checked import append_params, hidden_param

REPORT = "_okl_races"
READ, WRITE, ATOMIC = 1, 2, 4
REPORT_HEADER = 24  # int64 slots before the per-site warnings (see race_shadow.h)
_UPDATES = ("++", "--", "p++", "p--")


@dataclass
class RaceTable:
    """What the runtime needs to name a race: the accesses (sites) and the regions.

    A site is ``[file, line, col, array, threads, blocks]``: ``threads`` lists the @inner
    loops around it as ``[axis, iterator, start, step, increasing]`` (start and step None
    where not constant), from which a thread's key is read back as iterator values, and
    ``blocks`` the @outer loops as ``[axis, iterator]``; both None in a called function.
    A region is ``[name, kind, dims]``: kind "global", "shared" or "exclusive"."""

    sites: list[list] = field(default_factory=list)
    regions: list[list] = field(default_factory=list)
    _ids: dict[str, int] = field(default_factory=dict)

    def site(self, where: list) -> int:
        key = repr(where)
        if key not in self._ids:
            self._ids[key] = len(self.sites)
            self.sites.append(where)
        return self._ids[key]

    @property
    def report_size(self) -> int:
        return REPORT_HEADER + len(self.sites)


def shadow_source(regions: int) -> str:
    """The C shadow state, for a file whose kernels use at most ``regions`` regions."""
    text = (Path(__file__).parent / "race_shadow.h").read_text()
    return f"#define _OKL_REGIONS {max(regions, 1)}\n#define _OKL_R_WARN {REPORT_HEADER}\n" \
        + text


def count_name(name: str) -> str:
    return f"_okl_rn_{name}"


def add_race_params(kernel: Kernel) -> None:
    """One element count per pointer parameter and the report, after every other param
    (checked mode's hidden ones included, which get no count)."""
    pointers = [p for p in kernel.params if p.is_pointer and not p.name.startswith("_okl_")]
    hidden = [hidden_param(count_name(p.name), "long", "int64", kernel) for p in pointers]
    hidden.append(hidden_param(REPORT, "long long *", "int64", kernel))
    append_params(kernel, hidden)


def _call(name: str, *args: c_ast.Node) -> c_ast.FuncCall:
    return c_ast.FuncCall(c_ast.ID(name), c_ast.ExprList(list(args)) if args else None)


def _int(v: int) -> c_ast.Constant:
    return c_ast.Constant("int", str(v))


def _key(values: dict[int, c_ast.Node]) -> c_ast.Node:
    """``_OKL_KEY(x, y, z)`` of the counters per axis (0 where a loop has none)."""
    return _call("_OKL_KEY", *(clone(values[a]) if a in values else _int(0) for a in range(3)))


class AccessInstrumenter:
    """Wraps the element accesses of a kernel's or a function's code (see the module's
    text); ``region``, ``depth`` and ``pointers`` say which names are memory to watch."""

    def __init__(self, program: Program, table: RaceTable, loc: SourceLoc,
                 atomics: list) -> None:
        self.program = program
        self.amap = program.attrs
        self.table = table
        self.loc = loc  # where an access without a position is reported
        self.atomics = atomics
        self.region: dict[str, int] = {}  # @shared and @exclusive names -> region
        self.depth: dict[str, int] = {}  # their array ranks
        self.pointers: set[str] = set()  # pointer names (looked up by address)

    # -- accesses ----------------------------------------------------------------------------
    def _statement(self, root: c_ast.Node, blocks: list | None, threads: list | None,
                   counters: dict, skip: frozenset[int] | set[int] = frozenset()) -> None:
        """Instrument the accesses under ``root`` outside the loops in ``skip`` and outside
        nested @inner loops (instrumented with their own thread)."""
        atomics = {id(a.node) for a in self.atomics}
        parents = parent_map(root)
        stack = [root]
        found: list[c_ast.Node] = []
        notes: list[c_ast.Node] = []
        while stack:
            n = stack.pop()
            if id(n) in skip or (n is not root and isinstance(n, c_ast.For) and
                                 self.amap.has(n, "inner")):
                continue
            if id(n) in atomics:
                notes.append(n)
                continue
            if isinstance(n, (c_ast.ArrayRef, c_ast.UnaryOp, c_ast.ID)):
                found.append(n)
            stack.extend(c for _, c in reversed(n.children()))
        where = (blocks, threads)
        for n in found:
            self._access(n, parents, where, 0)
        for n in notes:
            self._note_atomic(n, parents, where)

    def _target(self, n: c_ast.Node, parents) -> tuple[int, str, int] | None:
        """(region, name, depth) when ``n`` is an element access to instrument."""
        if isinstance(n, c_ast.ID):
            r = self.region.get(n.name)
            up = parents.get(id(n))
            if r is None or r < 0 or self.depth[n.name] != 0 or up is not None and (
                    isinstance(up[0], c_ast.StructRef) and up[1] == "field" or
                    isinstance(up[0], c_ast.FuncCall) and up[1] == "name"):
                return None
            return r, n.name, 0
        if isinstance(n, c_ast.UnaryOp):
            if n.op != "*" or isinstance(n.expr, c_ast.FuncCall):
                return None
            return -1, root_name(n.expr) or "*", 0
        root, depth = _chain(n)
        if root is None:
            return None
        parent = parents.get(id(n))
        if parent is not None and isinstance(parent[0], c_ast.ArrayRef) and \
                parent[1] == "name":
            return None  # part of a longer subscript chain
        r = self.region.get(root)
        if r is not None:
            return (r, root, depth) if r >= 0 and depth == self.depth[root] else None
        if root in self.pointers and depth == 1:
            return -1, root, depth
        return None

    def _access(self, n: c_ast.Node, parents, where, extra: int) -> None:
        target = self._target(n, parents)
        if target is None:
            return
        r, name, _ = target
        kind = self._kind(n, parents)
        if kind == 0:
            return
        site = self._site(n, name, where)
        # the access itself goes inside (its subscripts are instrumented in place later)
        address = n.expr if isinstance(n, c_ast.UnaryOp) else c_ast.UnaryOp("&", n)
        call = _call("_OKL_RACE", _int(r), address, _int(kind | extra), _int(site))
        call.coord = n.coord
        new = c_ast.UnaryOp("*", call, coord=n.coord)
        parent, slot = parents[id(n)]
        replace(parent, slot, n, new)
        parents[id(new)] = (parent, slot)

    def _kind(self, n: c_ast.Node, parents) -> int:
        """READ, WRITE or both, from where the access stands; 0 where it is not one (its
        address is taken, or it is the operand of sizeof)."""
        top = n
        up = parents.get(id(top))
        while up is not None and isinstance(up[0], c_ast.StructRef) and up[0].type == "." \
                and up[1] == "name":
            top = up[0]
            up = parents.get(id(top))
        if up is None:
            return READ
        parent, slot = up
        if isinstance(parent, c_ast.Assignment) and slot == "lvalue":
            return WRITE if parent.op == "=" else READ | WRITE
        if isinstance(parent, c_ast.UnaryOp):
            if parent.op in _UPDATES:
                return READ | WRITE
            if parent.op in ("&", "sizeof"):
                return 0
        return READ

    def _note_atomic(self, stmt: c_ast.Node, parents, where) -> None:
        """An @atomic statement stays as written (its lowering reads it); its accesses are
        noted just before it, the updated location's as atomic."""
        if isinstance(stmt, c_ast.Assignment):
            target = stmt.lvalue
        elif isinstance(stmt, c_ast.UnaryOp):
            target = stmt.expr
        else:
            target = None  # an @atomic { } block: every access in it is atomic
        root = root_name(target) if target is not None else None
        notes: list[c_ast.Node] = []
        inner_parents = parent_map(stmt)
        for n in walk(stmt):
            if not isinstance(n, (c_ast.ArrayRef, c_ast.UnaryOp, c_ast.ID)):
                continue
            found = self._target(n, inner_parents)
            if found is None:
                continue
            if any(isinstance(x, c_ast.UnaryOp) and x.op in _UPDATES + ("&",) or
                   isinstance(x, (c_ast.Assignment, c_ast.FuncCall))
                   for x in walk(n)):
                return  # an index with side effects cannot be evaluated twice
            r, name, _ = found
            if target is None or n is target:
                kind = READ | WRITE | ATOMIC
            elif root is not None and name == root:
                kind = READ | ATOMIC
            else:
                kind = self._kind(n, inner_parents) or 0
            if kind == 0:
                continue
            address = clone(n.expr) if isinstance(n, c_ast.UnaryOp) else \
                c_ast.UnaryOp("&", clone(n))
            notes.append(_call("_OKL_RACE", _int(r), address, _int(kind),
                               _int(self._site(n, name, where))))
        if not notes:
            return
        parent, slot = parents[id(stmt)]
        replace(parent, slot, stmt, c_ast.Compound(notes + [stmt], coord=stmt.coord))

    def _site(self, n: c_ast.Node, name: str, where) -> int:
        coord = n.coord
        if isinstance(n, c_ast.ArrayRef):
            base = n
            while isinstance(base, c_ast.ArrayRef):
                base = base.name
            coord = base.coord or coord
        blocks, threads = where
        if coord is not None and coord.line:
            loc = self.program.expanded.locate(coord.line, coord.column or 1)
            file, line, col = loc.file, loc.line, loc.col
        else:
            file, line, col = str(self.loc.file), self.loc.line, 0
        return self.table.site([file, line, col, name, threads, blocks])


class RaceInstrumenter(AccessInstrumenter):
    """Phase one, on a kernel before atomics and the CPU lowering (see the module's text)."""

    def __init__(self, program: Program, kernel: Kernel, table: RaceTable) -> None:
        super().__init__(program, table, kernel.loc, kernel.atomics)
        self.kernel = kernel
        self.blocks: list[Loop] = []  # the innermost @outer loops
        self.uid = 0

    def run(self) -> None:
        kernel = self.kernel
        self.base = len(self.table.regions)
        user = [p for p in kernel.params if p.is_pointer and not p.name.startswith("_okl_")]
        for p in user:
            self.table.regions.append([p.name, "global", []])
        for v in kernel.shared + kernel.exclusive:
            if v.name in self.region:  # two of one name (different blocks): not told apart
                self.region[v.name] = -2
                continue
            self.region[v.name] = len(self.table.regions)
            self.table.regions.append([v.name, v.kind, [s or 0 for s in v.sizes]])
        self.depth = {v.name: len(v.sizes) for v in kernel.shared + kernel.exclusive}
        # @exclusive with an initializer: every copy starts set (the CPU lowering moves it)
        self.initialised = {v.name for v in kernel.exclusive if v.node.init is not None}
        self.escaped = self._escaped(kernel.node.body)
        self.pointers = {p.name for p in user} | _pointer_locals(kernel.node.body)
        for outer in kernel.outers:
            self._outer(outer, [])

    def _escaped(self, body: c_ast.Node) -> set[str]:
        """@shared and @exclusive names used otherwise than element by element (passed
        whole, partly indexed, their address taken): writes through those pointers are not
        seen, so their unset reads are not warned about."""
        parents = parent_map(body)
        out = set()
        for n in walk(body):
            if not isinstance(n, c_ast.ID) or n.name not in self.depth:
                continue
            top, depth = n, 0
            up = parents.get(id(top))
            while up is not None and isinstance(up[0], c_ast.ArrayRef) and up[1] == "name":
                top, depth = up[0], depth + 1
                up = parents.get(id(top))
            if up is not None and isinstance(up[0], c_ast.StructRef) and up[1] == "field":
                continue
            if depth != self.depth[n.name] or up is not None and isinstance(
                    up[0], c_ast.UnaryOp) and up[0].op == "&":
                out.add(n.name)
        return out

    # -- loops -------------------------------------------------------------------------------
    def _outer(self, outer: Loop, chain: list[Loop]) -> None:
        chain = chain + [outer]
        inner = [c for c in outer.children if c.kind == "inner"]
        for child in outer.children:
            if child.kind == "outer":
                self._outer(child, chain)
        if inner or not any(c.kind == "outer" for c in outer.children):
            self.blocks.append(outer)
            self._block(outer, chain)
        if len(chain) == 1:  # a top-level @outer loop: one launch of a device kernel
            parents = parent_map(self.kernel.node)
            _around(parents, outer.node, _call("_okl_race_launch"), _call("_okl_race_host"))

    def _block(self, outer: Loop, chain: list[Loop]) -> None:
        blocks = [[lp.axis, lp.iterator] for lp in chain]
        body = _compound(outer.node, "stmt")
        inner = [c for c in outer.children if c.kind == "inner"]
        self._statement(body, blocks, [], {}, skip={id(c.node) for c in inner})
        for child in inner:
            self._inner(child, blocks, [], {})
        parents = parent_map(body)
        for child in inner:  # code between @inner blocks runs as every thread: as thread 0
            _around(parents, child.node, None, _call("_okl_race_thread", _key({})))
        self._barriers(body)
        key = _key({lp.axis: c_ast.ID(lp.iterator) for lp in chain})
        body.block_items.insert(0, _call("_okl_race_block", key))

    def _inner(self, loop: Loop, blocks: list, threads: list, counters: dict) -> None:
        """Reorder one @inner loop and name its thread; then its nested loops."""
        self.uid += 1
        form = loop.form
        k, n, p = (f"_okl_{x}{self.uid}" for x in "knp")
        node = loop.node
        count = form.trip_count()
        step = form.step if form.step is not None else _int(1)
        position = c_ast.BinaryOp("*", c_ast.ID(p), clone(step))
        value = c_ast.BinaryOp("+" if form.increasing else "-", clone(form.start), position)
        declared = c_ast.Decl(form.iterator, [], [], [], [],
                              declname(clone(form.type_node), form.iterator),
                              c_ast.Cast(c_ast.Typename(None, [], None, declname(
                                  clone(form.type_node), None)), value), None)
        const = evaluate(form.start), evaluate(step)
        threads = threads + [[loop.axis, form.iterator, *const, form.increasing]]
        counters = dict(counters)
        counters[loop.axis] = c_ast.ID(p)
        body = node.stmt
        items: list[c_ast.Node] = [
            c_ast.Decl(p, [], [], [], [], _long_type(p), _call(
                "_okl_race_order", c_ast.ID(k), c_ast.ID(n)), None),
            declared, _call("_okl_race_thread", _key(counters))]
        inner = [c for c in loop.children if c.kind == "inner"]
        for child in inner:
            self._inner(child, blocks, threads, counters)
        # statements of this loop's own body (not of the nested @inner loops)
        self._statement(body, blocks, threads, counters, skip={id(c.node) for c in inner})
        if inner:
            reset = _call("_okl_race_thread", _key(counters))
            stmts = _compound(node, "stmt").block_items
            for child in inner:
                at = next((i for i, s in enumerate(stmts) if s is child.node), None)
                if at is not None:
                    stmts.insert(at + 1, clone(reset))
        node.stmt = c_ast.Compound(items + [node.stmt], coord=node.coord)
        node.init = c_ast.DeclList([
            c_ast.Decl(n, [], [], [], [], _long_type(n), count, None),
            c_ast.Decl(k, [], [], [], [], _long_type(k), _int(0), None)])
        node.cond = c_ast.BinaryOp("<", c_ast.ID(k), c_ast.ID(n))
        node.next = c_ast.UnaryOp("++", c_ast.ID(k))

    def _barriers(self, body: c_ast.Node) -> None:
        """Barrier statements (between @inner loops after the CPU cut) become epoch steps."""
        parents = parent_map(body)
        for n in list(walk(body)):
            if not (isinstance(n, c_ast.EmptyStatement) and self.amap.has(n, "barrier")):
                continue
            attr = self.amap.get(n, "barrier")
            assert attr is not None
            shared_only = attr.placement == "auto" or (
                attr.args and attr.args[0].kind == "string" and
                attr.args[0].string_value in ("warp", "local"))
            step = _call("_okl_race_barrier", _int(0 if shared_only else 1))
            step.coord = n.coord
            replace(*parents[id(n)], n, step)

    # -- phase two -----------------------------------------------------------------------
    def register(self, func: c_ast.FuncDef) -> None:
        """On the lowered CPU function: the shadow learns where each region lies -- the
        pointer arguments on entry, @shared and @exclusive arrays (as the CPU lowering
        declared them) right after their declarations, in each block."""
        kernel = self.kernel
        pointers = [p for p in kernel.params if p.is_pointer and not p.name.startswith("_okl_")]
        entry: list[c_ast.Node] = [_call("_okl_race_enter", c_ast.ID(REPORT))]
        for k, p in enumerate(pointers):
            if p.descr is None:
                continue  # void *: no element size, not checked
            size = c_ast.UnaryOp("sizeof", c_ast.UnaryOp("*", c_ast.ID(p.name)))
            nbytes = c_ast.BinaryOp("*", c_ast.ID(count_name(p.name)), clone(size))
            entry.append(_call("_okl_race_region", _int(self.base + k), c_ast.ID(p.name),
                               nbytes, size, _int(0)))
        func.body.block_items = entry + list(func.body.block_items or [])
        variables = {id(v.node): v for v in kernel.shared + kernel.exclusive}
        for outer in self.blocks:
            body = _compound(outer.node, "stmt")
            parents = parent_map(body)
            for n in list(walk(body)):
                v = variables.get(id(n)) if isinstance(n, c_ast.Decl) else None
                if v is None or self.region.get(v.name, -1) < 0:
                    continue
                depth, t = 0, n.type
                while isinstance(t, c_ast.ArrayDecl):
                    depth, t = depth + 1, t.type
                element: c_ast.Node = c_ast.ID(v.name)
                for _ in range(depth):
                    element = c_ast.ArrayRef(element, _int(0))
                base = c_ast.ID(v.name) if depth else c_ast.UnaryOp("&", c_ast.ID(v.name))
                kind = (1 if v.kind == "shared" else 2) | (
                    4 if v.name in self.initialised | self.escaped else 0)
                reg = _call("_okl_race_region", _int(self.region[v.name]), base,
                            c_ast.UnaryOp("sizeof", c_ast.ID(v.name)),
                            c_ast.UnaryOp("sizeof", element), _int(kind))
                parent, _ = parents[id(n)]
                if isinstance(parent, c_ast.Compound):
                    k = next(i for i, x in enumerate(parent.block_items) if x is n)
                    parent.block_items.insert(k + 1, reg)


class FunctionInstrumenter(AccessInstrumenter):
    """A function the kernels call: its accesses through pointers (parameters and locals)
    report to the shadow too, as the calling thread (the shadow knows which one runs); the
    region is found by address, so ``@shared`` arrays passed whole count as well."""

    def __init__(self, program: Program, func: c_ast.FuncDef, table: RaceTable) -> None:
        coord = func.coord
        super().__init__(program, table, program.expanded.locate(coord.line, coord.column or 1)
                         if coord else SourceLoc(STRING_NAME, 1, 1), [])
        args = func.decl.type.args
        params = {d.name for d in (args.params if args else [])
                  if isinstance(d, c_ast.Decl) and isinstance(d.type, (c_ast.PtrDecl,
                                                                       c_ast.ArrayDecl))}
        self.pointers = params | _pointer_locals(func.body)
        self.func = func

    def run(self) -> None:
        self._statement(self.func.body, None, None, {})


# -- helpers -------------------------------------------------------------------------------
def _compound(node: c_ast.Node, slot: str) -> c_ast.Compound:
    value = getattr(node, slot)
    if not isinstance(value, c_ast.Compound):
        value = c_ast.Compound([value], coord=value.coord)
        setattr(node, slot, value)
    if value.block_items is None:
        value.block_items = []
    return value


def _around(parents, node: c_ast.Node, before: c_ast.Node | None, after: c_ast.Node) -> None:
    """``before`` (if any), ``node``, ``after`` where ``node`` stood."""
    parent, slot = parents[id(node)]
    new = ([before] if before is not None else []) + [node, after]
    if isinstance(parent, c_ast.Compound):
        items = parent.block_items
        k = next(i for i, x in enumerate(items) if x is node)
        items[k:k + 1] = new
    else:
        block = c_ast.Compound(new, coord=node.coord)
        setattr(parent, slot, block)
        parents[id(node)] = (block, "block_items")


def _chain(n: c_ast.ArrayRef) -> tuple[str | None, int]:
    depth = 0
    base: c_ast.Node = n
    while isinstance(base, c_ast.ArrayRef):
        depth += 1
        base = base.name
    return (base.name, depth) if isinstance(base, c_ast.ID) else (None, depth)


def _pointer_locals(body: c_ast.Node) -> set[str]:
    """Names declared as pointers in the kernel (``const double *row = ...``)."""
    out = set()
    for n in walk(body):
        if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.PtrDecl) and n.name:
            out.add(n.name)
    return out


def _long_type(name: str) -> c_ast.TypeDecl:
    return c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(["long"]))
