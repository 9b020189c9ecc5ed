"""Checked mode: every ``x[i]`` through a kernel's pointer argument is tested against the
element count of the buffer passed for ``x``.

What compute-sanitizer does for CUDA, for every backend, at the cost of a distinct
translation.  Each kernel gets hidden arguments after the user's: one ``long`` element count
per pointer parameter (negative: unknown, not checked) and ``int *_okl_err``, a small buffer

    [0] id + 1 of the first failing access (0: none)   [2..3] its index   [4..5] the size
    [8 ...] a read sink (zeros) and a write sink, where a failing access goes instead

An access ``x[e]`` becomes ``(*_okl_at_<kernel>_<k>(x, e, n_x, id, err, write))``: ``e`` is
evaluated once, a failing read yields 0 (the read sink is never written), a failing write
lands in the write sink, and nothing outside the buffers is touched, so the process lives to
raise okl.LaunchError.  The first failure wins (the backend's ``check_claim`` condition: an
atomic compare-and-swap on GPUs and OpenCL, a critical section on OpenMP).

Not guarded: pointer arithmetic dereferenced without ``[]`` (``*(x + i)``), accesses inside
device functions (they receive plain pointers without counts), and pointer parameters the
kernel reassigns or shadows with a local of the same name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast, c_parser

from ..ctree import clone, is_void_param, rewrite, walk
from ..model.kernel import Kernel, Param, Program
from ..model.types import CType
from ..targets.target import Target

ERR = "_okl_err"
HEADER_INTS = 8  # ints before the sinks in the error buffer
_WRITES = ("++", "--", "p++", "p--", "&")

_TEMPLATE = """
typedef int _okl_T;
void _okl_fail(int *err, int id, long i, long n) {
    if (CLAIM) {
        err[2] = (int) i;
        err[3] = (int) (i >> 32);
        err[4] = (int) n;
        err[5] = (int) (n >> 32);
    }
}
_okl_T *_okl_at(_okl_T *x, long i, long n, int id, int *err, int w) {
    if (i >= 0 && (n < 0 || i < n))
        return x + i;
    _okl_fail(err, id, i, n);
    return (_okl_T *) (err + HEADER + w * SINK);
}
"""


@dataclass
class CheckTable:
    """The accesses a checked translation guards: id -> (file, line, column, array name),
    and the size of each sink in ints (the runtime allocates the error buffer)."""

    sites: list[tuple[str, int, int, str]] = field(default_factory=list)
    sink_ints: int = HEADER_INTS
    _ids: dict[tuple, int] = field(default_factory=dict)

    def site(self, where: tuple[str, int, int, str]) -> int:
        if where not in self._ids:
            self._ids[where] = len(self.sites)
            self.sites.append(where)
        return self._ids[where]

    @property
    def buffer_ints(self) -> int:
        return HEADER_INTS + 2 * self.sink_ints


def count_name(name: str) -> str:
    return f"_okl_n_{name}"


def add_hidden_params(kernel: Kernel, table: CheckTable) -> None:
    """Append the counts and the error buffer to the kernel's parameters (before lowering, so
    that every backend passes and spells them like the user's own)."""
    pointers = [p for p in kernel.params if p.is_pointer]
    for p in pointers:
        size = p.dtype.itemsize if p.dtype is not None else 1
        table.sink_ints = max(table.sink_ints, -(-size // 32) * 8)  # 32-byte multiples
    hidden = [hidden_param(count_name(p.name), "long", "int64", kernel) for p in pointers]
    hidden.append(hidden_param(ERR, "int *", "int32", kernel))
    append_params(kernel, hidden)


def append_params(kernel: Kernel, hidden: list[Param]) -> None:
    """``hidden`` after the kernel's parameters, in its model and in its C declaration."""
    kernel.params.extend(hidden)
    decl = kernel.node.decl.type
    if decl.args is None:
        decl.args = c_ast.ParamList([])
    decl.args.params = [q for q in decl.args.params
                        if not is_void_param(q)] + [h.node for h in hidden]


def hidden_param(name: str, text: str, descr: str, kernel: Kernel) -> Param:
    """A parameter okl adds: ``text`` is its C type (``"long"``, ``"int *"``), ``descr`` its
    value's numpy name (``"int64"``)."""
    pointer = text.endswith("*")
    base = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(text.rstrip(" *").split()))
    node = c_ast.Decl(name, [], [], [], [], c_ast.PtrDecl([], base) if pointer else base,
                      None, None)
    ctype = CType(text, text.rstrip(" *"), descr, pointer, False)
    return Param(name, ctype, node, kernel.loc)


def guard_kernel(nodes: list[c_ast.Node], kernel: Kernel, program: Program, target: Target,
                 table: CheckTable) -> list[c_ast.FuncDef]:
    """Guard the accesses in the lowered functions of ``kernel`` (those taking the error
    buffer); return the helper functions to place before them."""
    funcs = [n for n in nodes if isinstance(n, c_ast.FuncDef) and
             any(d.name == ERR for d in _params(n))]
    if not funcs:
        return []
    first = _params(funcs[0])
    pointers = [k for k, p in enumerate(kernel.params) if p.is_pointer and p.name != ERR]
    helpers: list[c_ast.FuncDef] = []
    for slot, k in enumerate(pointers):
        helper = f"_okl_at_{kernel.name}_{k}"
        helpers.append(_helper(helper, first[k].type, _err_type(funcs[0]), target, table))
        for f in funcs:
            decls = _params(f)
            name = decls[k].name
            if name in _assigned_or_shadowed(f.body):
                continue
            count = decls[len(kernel.params) - len(pointers) - 1 + slot].name
            _guard(f.body, name, helper, count, program, table)
    return helpers


def failure_function(nodes: list[c_ast.Node], target: Target) -> c_ast.FuncDef:
    """``_okl_fail(err, id, i, n)``: records the first failure (defined once per file)."""
    func = next(n for n in nodes if isinstance(n, c_ast.FuncDef) and
                any(d.name == ERR for d in _params(n)))
    fail, _ = _parse_template(target)
    _retype(fail, "err", _err_type(func))
    fail.decl.storage = list(target.device_function_storage) + ["static"]
    fail.decl.funcspec = ["inline"]
    if target.check_pragma:
        claim = fail.body.block_items[0]
        fail.body.block_items = [c_ast.Pragma(target.check_pragma), c_ast.Compound([claim])]
    return fail


def _params(f: c_ast.FuncDef) -> list[c_ast.Decl]:
    args = f.decl.type.args
    return [d for d in (args.params if args else []) if isinstance(d, c_ast.Decl)]


def _err_type(f: c_ast.FuncDef) -> c_ast.Node:
    return next(d.type for d in _params(f) if d.name == ERR)


def _parse_template(target: Target) -> tuple[c_ast.FuncDef, c_ast.FuncDef]:
    text = _TEMPLATE.replace("CLAIM", target.check_claim).replace("HEADER", str(HEADER_INTS))
    ast = c_parser.CParser().parse(text.replace("SINK", "_okl_sink"))
    for n in walk(ast):
        n.coord = None  # positions in the template, not in the user's file
    return ast.ext[1], ast.ext[2]


def _helper(name: str, ptype: c_ast.Node, err_type: c_ast.Node, target: Target,
            table: CheckTable) -> c_ast.FuncDef:
    _, at = _parse_template(target)
    for n in walk(at):
        if isinstance(n, c_ast.ID) and n.name == "_okl_sink":
            n.name = str(table.sink_ints)
    pointer = clone(ptype)
    if isinstance(pointer, c_ast.ArrayDecl):  # `float a[]` decays
        pointer = c_ast.PtrDecl([], pointer.type)
    pointer.quals = [q for q in pointer.quals if q != target.restrict]
    _retype(at, "x", pointer)
    _retype(at, "err", err_type)
    at.decl.name = name
    at.decl.type.type = _named(pointer, name)
    cast = next(n for n in walk(at) if isinstance(n, c_ast.Cast))
    cast.to_type = c_ast.Typename(None, [], None, _named(pointer, None))
    at.decl.storage = list(target.device_function_storage) + ["static"]
    at.decl.funcspec = ["inline"]
    return at


def _named(t: c_ast.Node, name: str | None) -> c_ast.Node:
    t = clone(t)
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = name
    return t


def _retype(f: c_ast.FuncDef, param: str, t: c_ast.Node) -> None:
    for d in _params(f):
        if d.name == param:
            d.type = _named(t, param)


def _assigned_or_shadowed(body: c_ast.Node) -> set[str]:
    """Names a guard cannot trust: reassigned (``x += 4``) or redeclared inside."""
    out = set()
    for n in walk(body):
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
            out.add(n.lvalue.name)
        elif isinstance(n, c_ast.UnaryOp) and n.op in _WRITES[:4] and \
                isinstance(n.expr, c_ast.ID):
            out.add(n.expr.name)
        elif isinstance(n, c_ast.Decl) and n.name:
            out.add(n.name)
    return out


def _written(body: c_ast.Node) -> set[int]:
    """ids of the ArrayRefs that are assigned, incremented or have their address taken."""
    out = set()
    for n in walk(body):
        target = n.lvalue if isinstance(n, c_ast.Assignment) else (
            n.expr if isinstance(n, c_ast.UnaryOp) and n.op in _WRITES else None)
        while isinstance(target, (c_ast.ArrayRef, c_ast.StructRef)):
            if isinstance(target, c_ast.StructRef) and target.type != ".":
                break
            out.add(id(target))
            target = target.name
    return out


def _prefetched(body: c_ast.Node) -> set[int]:
    """ids of the array references that only name an address for ``__builtin_prefetch``
    (cpu.prefetch's hints): a prefetch reads nothing, so there is no access to check."""
    out: set[int] = set()
    for n in walk(body):
        if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and \
                n.name.name == "__builtin_prefetch" and n.args is not None:
            out.update(id(m) for m in walk(n.args) if isinstance(m, c_ast.ArrayRef))
    return out


def _guard(body: c_ast.Node, name: str, helper: str, count: str, program: Program,
           table: CheckTable) -> None:
    written = _written(body)
    hints = _prefetched(body)

    def fn(n: c_ast.Node):
        if not (isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID) and
                n.name.name == name) or id(n) in hints:
            return None
        coord = n.name.coord or n.coord
        loc = program.expanded.locate(coord.line, coord.column)
        site = table.site((loc.file, loc.line, loc.col, name))
        args = [c_ast.ID(name), n.subscript, c_ast.ID(count), c_ast.Constant("int", str(site)),
                c_ast.ID(ERR), c_ast.Constant("int", "1" if id(n) in written else "0")]
        call = c_ast.FuncCall(c_ast.ID(helper), c_ast.ExprList(args), coord=n.coord)
        return c_ast.UnaryOp("*", call, coord=n.coord)

    rewrite(body, fn)


def guard_accesses(out: list[c_ast.Node], lowered: dict[str, list[c_ast.Node]],
                    program: Program, target: Target,
                    checks: CheckTable) -> None:
    """Checked mode: guard each kernel's accesses; its helpers go right before it, after
    the user's types, and the failure recorder before the first of them."""
    first = True
    for kernel in program.kernels:
        nodes = lowered[kernel.name]
        helpers = guard_kernel(nodes, kernel, program, target, checks)
        if first:
            helpers.insert(0, failure_function(nodes, target))
            first = False
        k = next(i for i, n in enumerate(out) if n is nodes[0])
        out[k:k] = helpers
