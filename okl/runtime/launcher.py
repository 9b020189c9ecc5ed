"""The host side of a kernel, run in Python: no host C++ compiler, no ABI trouble.

OCCA compiles a C++ "launcher" per kernel with the host compiler (and breaks when it differs
from the one OCCA was built with, its issue #514).  Here the host statements around the
top-level @outer loops -- scalar declarations, ``if``, plain loops that launch an @outer loop
many times -- are turned into a small Python function, and every ``_okl_launch(k)`` in it
calls back into the runtime with the host variables the device kernel captured.  Each device
kernel's grid is another small function of the kernel's scalars.

C semantics kept: integer ``/`` and ``%`` truncate toward zero; comparisons give 0/1.
"""

from __future__ import annotations

import functools
import math
import re

from pycparser import c_ast, c_generator

from ..errors import LaunchError, TranslationError
from ..transforms.astutil import ids_in, walk
from ..transforms.launch import DeviceKernel, Extent, KernelPlan

_INT_TYPES = {"char", "short", "int", "long", "unsigned", "signed", "size_t", "ptrdiff_t",
              "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t",
              "uint64_t", "_Bool", "bool"}


def _cdiv(a, b):
    if isinstance(a, int) and isinstance(b, int):
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    return a / b


def _cmod(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a - b * _cdiv(a, b)
    return math.fmod(a, b)


def _int(x):
    return int(x)


def _field(value, name: str):
    """`s.name` of a struct argument (a numpy structured scalar or 0-d array) on the host."""
    field = value[name]
    return field.item() if getattr(field, "ndim", 0) == 0 and field.dtype.fields is None \
        else field


def _check_max_inner(name: str, inner: tuple, limit: tuple) -> None:
    """@max_inner_dims is a promise the CPU @exclusive arrays and launch bounds rely on."""
    for axis, (n, m) in enumerate(zip(inner, limit, strict=False)):
        if n > m:
            raise LaunchError(f"{name}: the @inner loops need {n} threads on axis {axis}, more "
                              f"than @max_inner_dims allows ({m}); raise @max_inner_dims")


RUNTIME_NAMES = {"_check_max_inner": _check_max_inner,
                 "_cdiv": _cdiv, "_cmod": _cmod, "_int": _int, "_field": _field, "math": math,
                 "max": max, "min": min}
_MATH = {"sqrt", "sqrtf", "exp", "expf", "log", "logf", "pow", "powf", "floor", "floorf",
         "ceil", "ceilf", "fabs", "fabsf", "sin", "cos", "log2", "exp2"}


class HostCodeError(TranslationError):
    pass


class PythonWriter:
    """C expression/statement AST -> Python source (host subset only)."""

    def __init__(self, pointers: set[str]):
        self.pointers = pointers
        self.lines: list[str] = []
        self.loops: list[list[c_ast.Node]] = []  # 'next' statements of enclosing for loops

    # -- expressions ---------------------------------------------------------------------------
    def expr(self, n: c_ast.Node) -> str:
        if isinstance(n, c_ast.Constant):
            return _constant(n)
        if isinstance(n, c_ast.ID):
            if n.name in ("true", "false"):
                return "1" if n.name == "true" else "0"
            if n.name in self.pointers:
                self._unsupported(n, "host code cannot use device memory")
            return n.name
        if isinstance(n, c_ast.BinaryOp):
            a, b = self.expr(n.left), self.expr(n.right)
            if n.op == "/":
                return f"_cdiv({a}, {b})"
            if n.op == "%":
                return f"_cmod({a}, {b})"
            if n.op == "&&":
                return f"int(bool({a}) and bool({b}))"
            if n.op == "||":
                return f"int(bool({a}) or bool({b}))"
            if n.op in ("<", "<=", ">", ">=", "==", "!="):
                return f"int({a} {n.op} {b})"
            return f"({a} {n.op} {b})"
        if isinstance(n, c_ast.UnaryOp):
            if n.op == "!":
                return f"int(not {self.expr(n.expr)})"
            if n.op in ("-", "+", "~"):
                return f"({n.op}{self.expr(n.expr)})"
            self._unsupported(n, f"'{n.op}' inside a host expression")
        if isinstance(n, c_ast.StructRef) and n.type == ".":
            return f"_field({self.expr(n.name)}, {n.field.name!r})"
        if isinstance(n, c_ast.TernaryOp):
            return (f"({self.expr(n.iftrue)} if {self.expr(n.cond)} "
                    f"else {self.expr(n.iffalse)})")
        if isinstance(n, c_ast.Cast):
            names = _type_names(n.to_type)
            inner = self.expr(n.expr)
            return f"_int({inner})" if names and set(names) <= _INT_TYPES else f"float({inner})"
        if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID):
            args = [self.expr(a) for a in (n.args.exprs if n.args else [])]
            name = n.name.name
            if name in ("max", "min", "fmax", "fmin", "fmaxf", "fminf"):
                return f"{name.lstrip('f').rstrip('f')}({', '.join(args)})"
            if name in _MATH:
                base = name[:-1] if name.endswith("f") and name[:-1] in _MATH else name
                return f"math.{base}({', '.join(args)})"
        self._unsupported(n, "this expression in host code")
        return ""

    # -- statements ----------------------------------------------------------------------------
    def stmt(self, n: c_ast.Node | None, depth: int) -> None:
        pad = "    " * depth
        if n is None or isinstance(n, c_ast.EmptyStatement):
            return
        if isinstance(n, c_ast.Compound):
            for item in n.block_items or []:
                self.stmt(item, depth)
        elif isinstance(n, c_ast.Decl):
            if isinstance(n.type, (c_ast.PtrDecl, c_ast.ArrayDecl)):
                self.pointers.add(n.name)
                return
            self.lines.append(f"{pad}{n.name} = {self.expr(n.init) if n.init else '0'}")
        elif isinstance(n, c_ast.DeclList):
            for d in n.decls:
                self.stmt(d, depth)
        elif isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and \
                n.name.name == "_okl_launch":
            self.lines.append(f"{pad}_launch({n.args.exprs[0].value}, locals())")
        elif isinstance(n, c_ast.Assignment):
            target = self.expr(n.lvalue)
            value = self.expr(n.rvalue)
            if n.op == "=":
                self.lines.append(f"{pad}{target} = {value}")
            elif n.op == "/=":
                self.lines.append(f"{pad}{target} = _cdiv({target}, {value})")
            elif n.op == "%=":
                self.lines.append(f"{pad}{target} = _cmod({target}, {value})")
            else:
                self.lines.append(f"{pad}{target} {n.op} {value}")
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            sign = "+" if "+" in n.op else "-"
            self.lines.append(f"{pad}{self.expr(n.expr)} {sign}= 1")
        elif isinstance(n, c_ast.If):
            self.lines.append(f"{pad}if {self.expr(n.cond)}:")
            self._body(n.iftrue, depth + 1)
            if n.iffalse is not None:
                self.lines.append(f"{pad}else:")
                self._body(n.iffalse, depth + 1)
        elif isinstance(n, c_ast.For):
            self.stmt(n.init, depth)
            cond = self.expr(n.cond) if n.cond is not None else "1"
            self.lines.append(f"{pad}while {cond}:")
            self.loops.append([n.next] if n.next is not None else [])
            self._body(n.stmt, depth + 1)
            self.loops.pop()
            if n.next is not None:
                self.stmt(n.next, depth + 1)
        elif isinstance(n, c_ast.While):
            self.lines.append(f"{pad}while {self.expr(n.cond)}:")
            self.loops.append([])
            self._body(n.stmt, depth + 1)
            self.loops.pop()
        elif isinstance(n, c_ast.DoWhile):
            self.lines.append(f"{pad}while True:")
            self.loops.append([])
            self._body(n.stmt, depth + 1)
            self.loops.pop()
            self.lines.append(f"{pad}    if not {self.expr(n.cond)}:")
            self.lines.append(f"{pad}        break")
        elif isinstance(n, c_ast.Break):
            self.lines.append(f"{pad}break")
        elif isinstance(n, c_ast.Continue):
            for nxt in (self.loops[-1] if self.loops else []):
                self.stmt(nxt, depth)
            self.lines.append(f"{pad}continue")
        elif isinstance(n, c_ast.Return):
            self.lines.append(f"{pad}return")
        else:
            self._unsupported(n, "this statement in host code")

    def _body(self, n, depth: int) -> None:
        start = len(self.lines)
        self.stmt(n, depth)
        if len(self.lines) == start:
            self.lines.append("    " * depth + "pass")

    def _unsupported(self, n: c_ast.Node, what: str):
        text = c_generator.CGenerator().visit(n)
        raise HostCodeError(f"okl cannot run {what} on the host: '{text}' (code outside the "
                            "@outer loops runs in the Python launcher; keep it to scalar "
                            "arithmetic, if and loops)")


def _constant(n: c_ast.Constant) -> str:
    v = n.value
    if n.type == "char":
        return str(ord(bytes(v[1:-1], "utf-8").decode("unicode_escape")))
    if n.type in ("float", "double"):
        return repr(float(v.rstrip("fFlL")))
    text = v.rstrip("uUlL")
    if len(text) > 1 and text[0] == "0" and text[1] not in "xXbB.":
        return str(int(text, 8))
    return str(int(text, 0))


def _type_names(t) -> list[str]:
    while not isinstance(t, c_ast.IdentifierType):
        t = getattr(t, "type", None)
        if t is None:
            return []
    return t.names


def host_source(plan: KernelPlan) -> str:
    """Python source of `_host(<params>, _launch)`; `_launch(k, locals())` starts kernel k."""
    params = [p.name for p in plan.params]
    writer = PythonWriter({p.name for p in plan.params if p.is_pointer})
    writer.stmt(plan.host, 1)
    header = f"def _host({', '.join(params + ['_launch'])}):"
    return "\n".join([header] + (writer.lines or ["    pass"])) + "\n"


def dims_source(dk: DeviceKernel, plan: KernelPlan) -> str:
    """Python source of `_dims(env) -> (outer, inner)` for one device kernel."""
    writer = PythonWriter({p.name for p in plan.params if p.is_pointer})
    sizes = []
    for kind in ("outer", "inner"):
        terms = []
        for axis in range(dk.dims(kind)):
            exprs = list(dict.fromkeys(_extent_expr(e, writer) for e in dk.on_axis(kind, axis)))
            terms.append(exprs[0] if len(exprs) == 1 else "max(" + ", ".join(exprs) + ")"
                         if exprs else "1")
        sizes.append(f"    _{kind} = ({', '.join(terms)}{',' if len(terms) == 1 else ''})")
    used = set(re.findall(r"[A-Za-z_]\w*", "".join(sizes)))
    # A size may read any host scalar declared before the launch, whether or not the device
    # code reads it too (only those it reads are passed to the device kernel as `captured`).
    names = [p.name for p in plan.params if not p.is_pointer] + [h.name for h in dk.host_inputs]
    names += [n.name for n in walk(plan.host) if isinstance(n, c_ast.Decl) and n.name]
    loads = [f"    {name} = _env[{name!r}]" for name in dict.fromkeys(names) if name in used]
    checks = []
    if dk.max_inner_dims:
        limit = tuple(dk.max_inner_dims)
        checks.append(f"    _check_max_inner({dk.name!r}, _inner, {limit!r})")
    return "\n".join(["def _dims(_env):", *loads, *sizes, *checks,
                      "    return _outer, _inner"]) + "\n"


def _extent_expr(e: Extent, writer: PythonWriter) -> str:
    """A trip count with the bindings it needs, as one Python expression (a walrus per
    binding); a compile-time constant extent is just its value."""
    value = e.value()
    if value is not None:
        return str(value)
    text = writer.expr(e.count)
    needed = {i.name for i in ids_in(e.count)}
    lets = []
    for name, start in reversed(e.bindings):
        if name in needed:
            lets.insert(0, f"({name} := {writer.expr(start)})")
            needed |= {i.name for i in ids_in(start)}
    return f"[{', '.join(lets)}, {text}][-1]" if lets else text


@functools.lru_cache(maxsize=1024)
def compiled(source: str, filename: str):
    """Python's compile() costs ~0.3 ms; a warm build_kernel on a new Device is ~1 ms in all,
    so generated code objects are kept for the process."""
    return compile(source, filename, "exec")


def compile_function(source: str, name: str, filename: str):
    """Turn generated launcher source (ours, never user text) into a function."""
    namespace = dict(RUNTIME_NAMES)
    exec(compiled(source, filename), namespace)  # noqa: S102 - generated code
    return namespace[name]
