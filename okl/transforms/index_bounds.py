"""The largest index of each pointer argument's accesses, as a function of the scalar arguments.

Reading past the end of a buffer kills the interpreter (a SIGSEGV on the CPU modes, a sticky
fault on a GPU), and the usual cause is a size argument that does not match the arrays.  This
pass derives, at translate time, a small Python function ``_bounds(_env)`` that returns for
every provably bounded access ``x[...]`` of a pointer parameter the largest index it can reach
with the launch's scalar values (or None when that access cannot happen); the runtime
compares it with the buffer's size before launching (okl.runtime.launch.bounds_check).

The function does interval arithmetic on C's integer operations.  An index is only trusted
where the interval is exact, so that a correct launch is never refused:

- variables are loop iterators (``for (T i = s; i < e; i += d)`` and the decreasing forms),
  integer locals that are never assigned after their initialiser, and integer scalar
  parameters (points); anything else makes the access unknown, and unknown accesses are not
  checked;
- the operands of every operation depend on disjoint sets of loops (no ``i - i``, no
  triangular ``x[i + j]`` with ``j < N - i``), the case where interval bounds are attained;
- guards narrow a variable (``if (i < N)``, ``c ? x[i] : 0`` with ``i < N``, ``a && x[i]``,
  ``if (i >= N) return;``); conditions on scalar parameters alone are evaluated exactly; an
  access under any other condition (or in a ``while``/``switch``, or after an early exit that
  cannot be read) is not checked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field

from pycparser import c_ast, c_generator

from ..ctree import REVERSED_SLOTS, reversed_child_slots, walk
from ..model.basetypes import INTEGER_TYPES
from ..model.kernel import Kernel
from ..record import record

_OPS = {"+": "_add", "-": "_sub", "*": "_mul", "/": "_div", "%": "_mod"}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_REFINE = {"<": "_below", "<=": "_atmost", ">": "_above", ">=": "_atleast", "==": "_equal"}
_JUMPS = (c_ast.Return, c_ast.Break, c_ast.Continue, c_ast.Goto)


@record
class Access:
    """One checked access: which parameter (0-based), its C text and where it is written."""

    param: int
    text: str
    where: str


@record
class BoundsPlan:
    """``source`` defines ``_bounds(_env)``, returning one largest index (or None) per access."""

    accesses: list[Access]
    source: str
    names: list[str]  # the scalar parameters ``_env`` must hold


@record(frozen=True)
class _Var:
    version: str  # the generated Python variable holding its interval
    roots: frozenset[str]  # the loops (by version) its value depends on
    #: the never-assigned variable whose value this one holds (``const int c = i``): a guard
    #: on either narrows both
    same: str | None = None
    fit: tuple[int, int] | None = None  # the range of a local's C type


@record
class _Ctx:
    reach: tuple[str, ...] = ()  # versions that must be non-empty for the code to run
    opaque: bool = False  # reached under a condition okl cannot read: check nothing


@record
class _Analysis:
    kernel: Kernel
    origin: Callable[[int], tuple[str, int]]  # expanded line -> (file, line)
    lines: list[str] = field(default_factory=list)
    accesses: list[Access] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    seen: set[tuple] = field(default_factory=set)
    used: set[str] = field(default_factory=set)
    count: int = 0

    def __post_init__(self) -> None:
        assigned, self.jumps = _assigned(self.kernel.node.body)
        params = self.kernel.params
        self.assigned = assigned
        self.pointers = {p.name: i for i, p in enumerate(params)
                         if p.is_pointer and p.descr is not None and p.c_type.count("*") == 1
                         and p.name not in assigned}
        self.scalars = {p.name for p in params if not p.is_pointer and p.ctype.is_integer
                        and p.name not in assigned}

    # -- generated code ------------------------------------------------------------------------
    def emit(self, expr: str) -> str:
        name = f"_v{self.count}"
        self.count += 1
        self.lines.append(f"    {name} = {expr}")
        return name

    # -- expressions ---------------------------------------------------------------------------
    def interval(self, n: c_ast.Node, env: dict) -> tuple[str, frozenset] | None:
        """Python source of ``n``'s interval and the loops it depends on, or None."""
        if isinstance(n, c_ast.Constant):
            value = _int_constant(n)
            return None if value is None else (f"({value}, {value})", frozenset())
        if isinstance(n, c_ast.ID):
            if n.name in env:
                var = env[n.name]
                return None if var is None else (var.version, var.roots)
            if n.name in self.scalars:
                self.used.add(n.name)
                return f"(p_{n.name}, p_{n.name})", frozenset()
            return None
        if isinstance(n, c_ast.BinaryOp) and n.op in _OPS:
            left, right = self.interval(n.left, env), self.interval(n.right, env)
            if left is None or right is None or left[1] & right[1]:
                return None
            return f"{_OPS[n.op]}({left[0]}, {right[0]})", left[1] | right[1]
        if isinstance(n, c_ast.UnaryOp) and n.op in ("-", "+"):
            inner = self.interval(n.expr, env)
            if inner is None or n.op == "+":
                return inner
            return f"_neg({inner[0]})", inner[1]
        if isinstance(n, c_ast.Cast) and _integer_type(n.to_type):
            return self.interval(n.expr, env)
        return None

    # -- conditions ----------------------------------------------------------------------------
    def refine(self, cond: c_ast.Node, truth: bool, env: dict, ctx: _Ctx) -> tuple[dict, _Ctx]:
        """The variables and reach where ``cond`` has the value ``truth``."""
        if ctx.opaque:
            return env, ctx
        if isinstance(cond, c_ast.UnaryOp) and cond.op == "!":
            return self.refine(cond.expr, not truth, env, ctx)
        if isinstance(cond, c_ast.BinaryOp) and cond.op == ("&&" if truth else "||"):
            env, ctx = self.refine(cond.left, truth, env, ctx)
            return self.refine(cond.right, truth, env, ctx)
        if not (isinstance(cond, c_ast.BinaryOp) and cond.op in _NEGATE):
            cond = c_ast.BinaryOp("!=", cond, c_ast.Constant("int", "0"))
        op = cond.op if truth else _NEGATE[cond.op]
        left, right = self.interval(cond.left, env), self.interval(cond.right, env)
        if left is not None and right is not None and not left[1] and not right[1]:
            gate = self.emit(f"_gate({left[0]}, {op!r}, {right[0]})")  # scalars only: exact
            return env, _Ctx(ctx.reach + (gate,), False)
        left, right = cond.left, cond.right
        if not (isinstance(left, c_ast.ID) and env.get(left.name)):
            left, right, op = right, left, _FLIP[op]
        if isinstance(left, c_ast.ID) and env.get(left.name):
            if op == "!=":
                return env, ctx  # narrows nothing; the code runs for the other values
            var = env[left.name]
            other = self.interval(right, env)
            if other is not None:
                version = self.emit(f"{_REFINE[op]}({var.version}, {other[0]})")
                roots = var.roots | other[1]
                env = {**env, left.name: _Var(version, roots, var.same, var.fit)}
                env.update(self.copies(left.name, var, version, roots, env))
                return env, _Ctx(ctx.reach + (version,), False)
        return env, _Ctx(ctx.reach, True)

    def copies(self, name: str, var: _Var, version: str, roots: frozenset, env: dict) -> dict:
        """The variables holding the same value as ``name`` (copies of it, or what it is a copy
        of), narrowed to ``version`` as well, each fitted to its own type."""
        key = var.same or name
        out = {}
        for other, v in env.items():
            if other == name or v is None or not (other == key or v.same == key):
                continue
            narrowed = version if v.fit is None else self.emit(f"_fit({version}, {v.fit[0]}, "
                                                               f"{v.fit[1]})")
            out[other] = _Var(narrowed, v.roots | roots, v.same, v.fit)
        return out

    # -- statements ----------------------------------------------------------------------------
    def block(self, items: list, env: dict, ctx: _Ctx) -> None:
        env = dict(env)
        for item in items:
            self.stmt(item, env, ctx)
            if isinstance(item, c_ast.If) and any(isinstance(x, _JUMPS) for x in walk(item)):
                if item.iffalse is None and _only_jump(item.iftrue):
                    refined, ctx = self.refine(item.cond, False, env, ctx)
                    env.update(refined)
                else:
                    ctx = _Ctx(ctx.reach, True)
            elif isinstance(item, c_ast.Label):
                ctx = _Ctx(ctx.reach, True)

    def stmt(self, n: c_ast.Node | None, env: dict, ctx: _Ctx) -> None:
        """Walk one statement; declarations update ``env`` (the enclosing block's scope)."""
        if n is None:
            return
        if isinstance(n, c_ast.Compound):
            self.block(n.block_items or [], env, ctx)
        elif isinstance(n, c_ast.Decl):
            if n.init is not None:
                self.scan(n.init, env, ctx)
            env[n.name] = self.local(n, env)
        elif isinstance(n, c_ast.DeclList):
            for d in n.decls:
                self.stmt(d, env, ctx)
        elif isinstance(n, c_ast.If):
            self.scan(n.cond, env, ctx)
            self.stmt(n.iftrue, *self.refine(n.cond, True, env, ctx))
            self.stmt(n.iffalse, *self.refine(n.cond, False, env, ctx))
        elif isinstance(n, c_ast.For):
            self.loop(n, env, ctx)
        elif isinstance(n, (c_ast.While, c_ast.DoWhile, c_ast.Switch)):
            self.scan(n.cond, env, ctx)
            self.stmt(n.stmt, dict(env), _Ctx(ctx.reach, True))
        elif isinstance(n, (c_ast.Label, c_ast.Case, c_ast.Default)):
            for s in ([n.stmt] if isinstance(n, c_ast.Label) else n.stmts or []):
                self.stmt(s, env, _Ctx(ctx.reach, True))
        elif isinstance(n, c_ast.Return):
            if n.expr is not None:
                self.scan(n.expr, env, ctx)
        else:
            self.scan(n, env, ctx)

    def local(self, n: c_ast.Decl, env: dict) -> _Var | None:
        """A never-assigned integer local with an initialiser is its initialiser's interval."""
        if n.init is None or n.name in self.assigned or not isinstance(n.type, c_ast.TypeDecl) \
                or not _integer_type(n.type):
            return None
        value = self.interval(n.init, env)
        if value is None:
            return None
        # C converts the initialiser to the local's type: an interval outside that type's
        # range would have wrapped (``int h = u + 2`` with u = 4294967295u is 1), so such a
        # local is unknown, never a wrong bound
        lo, hi = _type_range(n.type)
        source = n.init.name if isinstance(n.init, c_ast.ID) and env.get(n.init.name) and \
            n.init.name not in self.assigned else None
        same = None if source is None else env[source].same or source
        return _Var(self.emit(f"_fit({value[0]}, {lo}, {hi})"), value[1], same, (lo, hi))

    def loop(self, n: c_ast.For, env: dict, ctx: _Ctx) -> None:
        env = dict(env)
        form = _loop_form(n)
        if form is None:
            self.stmt(n.init, env, _Ctx(ctx.reach, True))
            self.stmt(n.stmt, env, _Ctx(ctx.reach, True))
            return
        decl, start, cmp, bound, step = form
        self.scan(start, env, ctx)
        s, e = self.interval(start, env), self.interval(bound, env)
        d = self.interval(step, env) if isinstance(step, c_ast.Node) else (f"({step}, {step})",
                                                                            frozenset())
        # start and bound may share loops (a tile: i from t to t + 16): the last value is
        # still the bound's largest less one, reached in the last tile
        if s is None or e is None or d is None or d[1] or decl.name in self.assigned:
            env[decl.name] = None
            self.stmt(n.stmt, env, _Ctx(ctx.reach, True))
            return
        version = self.emit(f"_loop({s[0]}, {cmp!r}, {e[0]}, {d[0]})")
        env[decl.name] = _Var(version, s[1] | e[1] | {version})
        self.scan(n.cond, env, ctx)
        self.stmt(n.stmt, env, _Ctx(ctx.reach + (version,), ctx.opaque))

    # -- accesses ------------------------------------------------------------------------------
    def scan(self, n: c_ast.Node | None, env: dict, ctx: _Ctx) -> None:
        """Record the pointer accesses in an expression (narrowing through ``?:`` and ``&&``)."""
        # preorder with an explicit stack (children pushed last first); only the nodes that
        # narrow ``env`` for a part of themselves recurse.  (pycparser's node classes have
        # no subclasses: the class decides.)
        if n is None:
            return
        table = REVERSED_SLOTS
        stack = [n]
        pop, push, extend = stack.pop, stack.append, stack.extend
        while stack:
            n = pop()
            if n is None:
                continue
            cls = type(n)
            if cls is c_ast.TernaryOp:
                self.scan(n.cond, env, ctx)
                self.scan(n.iftrue, *self.refine(n.cond, True, env, ctx))
                self.scan(n.iffalse, *self.refine(n.cond, False, env, ctx))
                continue
            if cls is c_ast.BinaryOp and (n.op == "&&" or n.op == "||"):
                self.scan(n.left, env, ctx)
                self.scan(n.right, *self.refine(n.left, n.op == "&&", env, ctx))
                continue
            if cls is c_ast.UnaryOp:
                if n.op == "sizeof":
                    continue
                if n.op == "&" and type(n.expr) is c_ast.ArrayRef:
                    self.scan(n.expr.subscript, env, ctx)  # &x[n] may point one past the end
                    self.scan(n.expr.name, env, ctx)
                    continue
            elif cls is c_ast.ArrayRef and type(n.name) is c_ast.ID:
                self.access(n, env, ctx)
            slots = table.get(cls)
            if slots is None:
                slots = reversed_child_slots(cls)
            for slot in slots:
                value = getattr(n, slot)
                if value is None:
                    continue
                if type(value) is list:
                    extend(value[::-1])
                else:
                    push(value)

    def access(self, n: c_ast.ArrayRef, env: dict, ctx: _Ctx) -> None:
        name = n.name.name
        if name not in self.pointers or name in env or ctx.opaque:
            return
        index = self.interval(n.subscript, env)
        if index is None:
            return
        key = (name, index[0], ctx.reach)
        if key in self.seen:
            return
        self.seen.add(key)
        text = c_generator.CGenerator().visit(n)
        where = ""
        if n.coord is not None:
            file, line = self.origin(n.coord.line)
            where = f"{file}:{line}"
        self.accesses.append(Access(self.pointers[name], text, where))
        self.results.append(f"_top({index[0]}{''.join(', ' + r for r in ctx.reach)})")


def derive_bounds(kernel: Kernel, origin: Callable[[int], tuple[str, int]]) -> BoundsPlan | None:
    """The bounds function of one kernel, or None when no access is provably bounded.

    ``origin(line)`` maps a line of the expanded text to its .okl (file, line)
    (:meth:`Expanded.origin`: an access is named by file and line only).
    Runs on the kernel as written (after @tile expansion, before any lowering)."""
    analysis = _Analysis(kernel, origin)
    if analysis.jumps:
        return None
    analysis.stmt(kernel.node.body, {}, _Ctx())
    if not analysis.accesses:
        return None
    names = sorted(analysis.used)
    loads = [f"    p_{name} = _env[{name!r}]" for name in names]
    results = ", ".join(analysis.results) + ("," if len(analysis.results) == 1 else "")
    source = "\n".join(["def _bounds(_env):", *loads, *analysis.lines,
                        f"    return ({results})"]) + "\n"
    return BoundsPlan(analysis.accesses, source, names)


# -- helpers ----------------------------------------------------------------------------------

def _assigned(body: c_ast.Node) -> tuple[set[str], bool]:
    """Names written anywhere except by their own loop's update (``++i`` in ``for (i...)``),
    and names whose address is taken; and whether the body has a goto or a label."""
    out: set[str] = set()
    jumps = False
    # one stack walk, as ctree.walk, inlined (this runs over every node of every kernel):
    # a canonical loop's update is not pushed at all, which skips what its walk would meet
    # there (the loop's own step; a canonical update holds no other write).  (pycparser's
    # node classes have no subclasses: the class decides.)
    table = REVERSED_SLOTS
    stack = [body]
    pop, push, extend = stack.pop, stack.append, stack.extend
    assignment, unary, for_, goto, label = (c_ast.Assignment, c_ast.UnaryOp, c_ast.For,
                                            c_ast.Goto, c_ast.Label)
    while stack:
        n = pop()
        cls = type(n)
        if cls is assignment:
            target = n.lvalue
            if type(target) is c_ast.ID:
                out.add(target.name)
        elif cls is unary:
            if n.op in _WRITES:
                target = n.expr
                if type(target) is c_ast.ID:
                    out.add(target.name)
        elif cls is goto or cls is label:
            jumps = True
        slots = table.get(cls)
        if slots is None:
            slots = reversed_child_slots(cls)
        for slot in slots:  # reversed: the first child is popped first
            value = getattr(n, slot)
            if value is None:
                continue
            if type(value) is list:
                extend(value[::-1])
            elif not (slot == "next" and cls is for_ and _loop_form(n) is not None):
                push(value)
    return out, jumps


#: the unary operators that write their operand or take its address
_WRITES = frozenset({"++", "--", "p++", "p--", "&"})


def _loop_form(n: c_ast.For):
    """(declaration, start, comparison, bound, step) of a canonical loop, step a Node or an
    int; None otherwise."""
    init = n.init
    if not isinstance(init, c_ast.DeclList) or len(init.decls) != 1:
        return None
    decl = init.decls[0]
    if decl.init is None or not isinstance(decl.type, c_ast.TypeDecl) or \
            not _integer_type(decl.type) or not isinstance(n.cond, c_ast.BinaryOp):
        return None
    cond, name = n.cond, decl.name
    if isinstance(cond.left, c_ast.ID) and cond.left.name == name:
        cmp, bound = cond.op, cond.right
    elif isinstance(cond.right, c_ast.ID) and cond.right.name == name:
        cmp, bound = _FLIP.get(cond.op, ""), cond.left
    else:
        return None
    nxt = n.next
    step: c_ast.Node | int | None = None
    if isinstance(nxt, c_ast.UnaryOp) and isinstance(nxt.expr, c_ast.ID) and \
            nxt.expr.name == name:
        step = 1 if nxt.op in ("++", "p++") else -1 if nxt.op in ("--", "p--") else None
    elif isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID) and \
            nxt.lvalue.name == name and nxt.op in ("+=", "-="):
        step = nxt.rvalue if nxt.op == "+=" else c_ast.UnaryOp("-", nxt.rvalue)
    if step is None or cmp not in ("<", "<=", ">", ">="):
        return None
    return decl, decl.init, cmp, bound, step


def _only_jump(n: c_ast.Node) -> bool:
    if isinstance(n, c_ast.Compound):
        items = n.block_items or []
        return len(items) == 1 and _only_jump(items[0])
    return isinstance(n, (c_ast.Return, c_ast.Continue, c_ast.Break))


def _integer_type(t: c_ast.Node) -> bool:
    while isinstance(t, c_ast.TypeDecl) or isinstance(t, c_ast.Typename):
        t = t.type
    return isinstance(t, c_ast.IdentifierType) and bool(t.names) and \
        all(w in INTEGER_TYPES or w in ("signed", "unsigned", "long", "short", "int", "char",
                                        "const") for w in t.names)


def _type_range(t: c_ast.Node) -> tuple[int, int]:
    """The values of an integer type (names as written: int, unsigned long, int16_t ...)."""
    while isinstance(t, (c_ast.TypeDecl, c_ast.Typename)):
        t = t.type
    words = set(t.names) - {"const", "signed"}
    if words & {"_Bool", "bool"}:
        return 0, 1
    text = " ".join(sorted(words))
    unsigned = "unsigned" in words or text.startswith("uint") or text == "size_t"
    bits = 8 if ("char" in words or "8_t" in text) else 16 if ("short" in words or
                                                                 "16_t" in text) else \
        64 if ("long" in words or "64_t" in text or text in ("size_t", "ptrdiff_t",
                                                              "intptr_t", "uintptr_t")) else 32
    return (0, 2 ** bits - 1) if unsigned else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)


def _int_constant(n: c_ast.Constant) -> int | None:
    """An integer literal's value (decimal, octal, hex, binary, with suffixes), else None."""
    if not n.type.endswith("int"):  # pycparser: "int", "unsigned long int", ...; not "char"
        return None
    text = n.value.rstrip("uUlL")
    try:
        if len(text) > 1 and text[0] == "0" and text[1] not in "xXbB":
            return int(text, 8)
        return int(text, 0)
    except ValueError:
        return None
