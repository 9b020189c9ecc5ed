"""Host C statements and expressions -> Python source that computes what C computes.

Every expression is translated together with its C type (:mod:`.cvalues`): operands get the
usual arithmetic conversions, integer results are wrapped into their type unless the
operands' known ranges prove that they fit (so ``i + 1`` on a ``char`` costs nothing extra,
while ``u - 1`` on an ``unsigned int`` is masked), and assignments convert to the variable's
type.  Each C variable becomes a Python local ``v<n>_<name>``: no C name can collide with a
Python keyword, a builtin or okl's own ``_``-names, and shadowed declarations stay apart.

The generated code is flat where C nests: an ``if`` stores its condition in a guard
variable and the statements of its branches are guarded one by one, so only loops indent
(Python allows 100 levels of indentation; C code nests ``if`` freely).  Each generated line
remembers the .okl position of its statement, so a run-time failure (undefined behaviour
such as a division by zero) is reported as a LaunchError at that position.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

import numpy as np
from pycparser import c_ast, c_generator

from ...errors import Diagnostic, SourceLoc, TranslationError
from ...model.types import TypeTable
from . import cvalues as cv
from .cvalues import DOUBLE, FLOAT, INT, ULONG, CScalar
from .hostrun import HOST_RUNTIME_NAMES

_MAX_DEPTH = 90  # Python refuses more than 100 indentation levels


class HostCodeError(TranslationError):
    """Host code that okl cannot run outside the C backends."""


@dataclass(frozen=True)
class Val:
    """A translated expression: Python source, C type (None: a struct) and what is known
    about its value at translation time (integer range, or the constant itself)."""

    code: str
    type: CScalar | None
    lo: int = 0
    hi: int = 0
    const: int | float | None = None
    dtype: np.dtype | None = None  # structs: the layout, for field access


@dataclass(frozen=True)
class Var:
    py: str
    type: CScalar | None  # None: a struct (read-only fields) or an unusable pointer/array
    dtype: np.dtype | None = None


def literal(value: int | float) -> str:
    """Python source for a constant (negative numbers parenthesised, inf/nan by name)."""
    if isinstance(value, float):
        if math.isnan(value):
            return "_nan"
        if math.isinf(value):
            return "_inf" if value > 0 else "(-_inf)"
        text = repr(value)
        return f"({text})" if text.startswith("-") else text
    return str(value) if value >= 0 else f"({value})"


def const_val(value: int | float, t: CScalar) -> Val:
    if t.floating:
        return Val(literal(value), t, const=value)
    whole = int(value)  # an integer type's value: an int already (or a bool)
    return Val(literal(value), t, whole, whole, value)


def _range(t: CScalar) -> tuple[int, int]:
    return (0, 0) if t.floating else (t.lo, t.hi)


_NAMESPACE = dict(cv.HELPERS)


_NAMESPACE.update(HOST_RUNTIME_NAMES)


class HostWriter:
    """Translate host statements (or single expressions) into flat Python lines."""

    def __init__(self, types: TypeTable, locate: Callable[[c_ast.Node], SourceLoc | None],
                 depth: int = 1):
        self.types = types
        self.locate = locate
        self.scopes: list[dict[str, Var]] = [{}]
        self.lines: list[str] = []
        self.where: dict[int, tuple] = {}  # index in lines -> (file, line, col, text)
        self.depth = depth
        self.guard: str | None = None
        self.loops: list[list[c_ast.Node]] = []  # the 'next' of each enclosing for loop
        self.count = 0
        self.launch: Callable[[int], list[str]] | None = None  # k -> C names to pass
        self.used: dict[str, Var] = {}  # outermost-scope C names read, for loading them

    # -- names ---------------------------------------------------------------------------------
    def fresh(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def declare(self, name: str, t: CScalar | None, dtype: np.dtype | None = None) -> Var:
        var = Var(self.fresh("v") + "_" + name, t, dtype)
        self.scopes[-1][name] = var
        return var

    def lookup(self, name: str, node: c_ast.Node) -> Var:
        for scope in reversed(self.scopes):
            if name in scope:
                var = scope[name]
                if scope is self.scopes[0]:
                    self.used.setdefault(name, var)
                return var
        return self.fail(node, f"'{name}', which is not a host variable or scalar argument")

    # -- lines ---------------------------------------------------------------------------------
    def _line(self, text: str, node: c_ast.Node | None) -> None:
        if node is not None and node.coord is not None:
            loc = self.locate(node)
            if loc is not None:
                self.where[len(self.lines)] = (loc.file, loc.line, loc.col, loc.text)
        self.lines.append("    " * self.depth + text)

    def emit(self, text: str, node: c_ast.Node | None) -> None:
        """A simple statement, under the current guard."""
        self._line(f"if {self.guard}: {text}" if self.guard else text, node)

    def block(self, header: str, node: c_ast.Node, body: Callable[[], None]) -> None:
        """A compound Python statement (a loop) with ``body`` inside, unguarded there."""
        guard, depth = self.guard, self.depth
        if guard:
            self._line(f"if {guard}:", None)
            self.depth += 1
        if self.depth + 1 > _MAX_DEPTH:
            self.fail(node, "loops nested this deeply")
        self.guard = None
        self._line(header, node)
        self.depth += 1
        start = len(self.lines)
        body()
        if len(self.lines) == start:
            self._line("pass", None)
        self.guard, self.depth = guard, depth

    def fail(self, node: c_ast.Node, what: str) -> NoReturn:
        text = c_generator.CGenerator().visit(node)
        loc = self.locate(node)
        raise HostCodeError(diagnostics=[Diagnostic(
            "error", f"okl cannot run {what} on the host: '{text}'", loc,
            hint="code outside the @outer loops runs in the Python launcher on GPU modes; "
                 "keep it to scalar arithmetic, if and loops")])

    # -- conversions ---------------------------------------------------------------------------
    def fold(self, v: Val, *operands: Val) -> Val:
        """Evaluate ``v`` now when its operands are constants (an expression that fails, as
        1 / 0 does, stays code so that it fails at run time, at its line)."""
        if v.const is not None or not operands or any(o.const is None for o in operands) \
                or v.type is None:  # (a struct is never a constant)
            return v
        try:
            value = eval(v.code, dict(_NAMESPACE))  # noqa: S307 - our own generated code
        except Exception:  # undefined behaviour: reported when (if) it runs
            return v
        return const_val(value, v.type)

    def convert(self, v: Val, t: CScalar, node: c_ast.Node) -> Val:
        s = v.type
        if s is None:
            self.fail(node, "a struct where a number is needed")
        if s == t:
            return v
        if t is cv.BOOL:
            if not s.floating and 0 <= v.lo and v.hi <= 1:
                return Val(v.code, t, v.lo, v.hi, v.const)
            return self.fold(Val(f"(1 if {v.code} else 0)", t, 0, 1), v)
        if t.floating:
            if s.floating:
                return Val(v.code, t, const=v.const) if t is DOUBLE else \
                    self.fold(Val(f"_f32({v.code})", t), v)
            if t is DOUBLE or max(-v.lo, v.hi) <= 1 << 24:
                return self.fold(Val(f"float({v.code})", t), v)
            return self.fold(Val(f"_i2f32({v.code})", t), v)
        if s.floating:
            return self.fold(Val(f"{cv.f2i_name(t)}({v.code})", t, t.lo, t.hi), v)
        if t.lo <= v.lo and v.hi <= t.hi:
            return Val(v.code, t, v.lo, v.hi, v.const)
        return self.fold(Val(cv.wrap_code(v.code, t), t, t.lo, t.hi), v)

    def checked(self, code: str, t: CScalar, lo: int, hi: int, *operands: Val) -> Val:
        """An integer result: wrapped into ``t`` unless ``lo..hi`` proves it fits."""
        if lo < t.lo or hi > t.hi:
            code, lo, hi = cv.wrap_code(code, t), t.lo, t.hi
        return self.fold(Val(code, t, lo, hi), *operands)

    # -- expressions ---------------------------------------------------------------------------
    def expr(self, n: c_ast.Node) -> Val:
        method = getattr(self, "_" + type(n).__name__, None)
        if method is None:
            self.fail(n, "this expression")
        return method(n)

    def _Constant(self, n: c_ast.Constant) -> Val:
        try:
            if n.type == "char" or n.value.startswith("'"):
                return const_val(*cv.char_literal(n.value))
            if n.type in ("float", "double"):
                return const_val(*cv.float_literal(n.value))
            if "int" in n.type:
                return const_val(*cv.int_literal(n.value))
        except ValueError:
            pass
        return self.fail(n, f"a constant of type {n.type}")

    def _ID(self, n: c_ast.ID) -> Val:
        if n.name in ("true", "false"):
            return const_val(int(n.name == "true"), INT)
        var = self.lookup(n.name, n)
        if var.type is None:
            if var.dtype is None:
                self.fail(n, "device memory (pointers, arrays)")
            return Val(var.py, None, dtype=var.dtype)
        return Val(var.py, var.type, *_range(var.type))

    def _BinaryOp(self, n: c_ast.BinaryOp) -> Val:
        if n.op in ("&&", "||"):
            a, b = self.scalar(n.left), self.scalar(n.right)
            word = "and" if n.op == "&&" else "or"
            return self.fold(Val(f"(1 if {a.code} {word} {b.code} else 0)", INT, 0, 1), a, b)
        return self.binary(n.op, self.scalar(n.left), self.scalar(n.right), n)

    def scalar(self, n: c_ast.Node) -> Val:
        v = self.expr(n)
        self.number(v.type, n)
        return v

    def number(self, t: CScalar | None, n: c_ast.Node) -> CScalar:
        """``t``, the type of a value or variable that must be a number (None: a struct)."""
        if t is None:
            self.fail(n, "a struct where a number is needed")
        return t

    def binary(self, op: str, a: Val, b: Val, n: c_ast.Node) -> Val:
        if op in ("<<", ">>"):
            return self.shift(op, a, b, n)
        t = cv.common(self.number(a.type, n), self.number(b.type, n))
        x, y = self.convert(a, t, n), self.convert(b, t, n)
        if op in ("<", "<=", ">", ">=", "==", "!="):
            return self.fold(Val(f"(1 if {x.code} {op} {y.code} else 0)", INT, 0, 1), x, y)
        if t.floating:
            if op not in ("+", "-", "*", "/"):
                self.fail(n, f"'{op}' on floating-point operands (C rejects it)")
            code = f"({x.code} {op} {y.code})"
            if op == "/" and not y.const:
                code = f"_fdiv({x.code}, {y.code})"
            return self.fold(Val(f"_f32({code})" if t is FLOAT else code, t), x, y)
        corners = [(p, q) for p in (x.lo, x.hi) for q in (y.lo, y.hi)]
        if op in ("+", "-", "*"):
            values = [p + q if op == "+" else p - q if op == "-" else p * q
                      for p, q in corners]
            return self.checked(f"({x.code} {op} {y.code})", t, min(values), max(values),
                                x, y)
        if op == "/":
            m = max(-x.lo, x.hi)
            fast = y.const is not None and y.const > 0 and x.lo >= 0
            code = f"({x.code} // {y.code})" if fast else f"_idiv({x.code}, {y.code})"
            return self.checked(code, t, -m, m, x, y)
        if op == "%":
            m = max(-y.lo, y.hi, 1) - 1
            fast = y.const is not None and y.const > 0 and x.lo >= 0
            code = f"({x.code} % {y.code})" if fast else f"_imod({x.code}, {y.code})"
            return self.fold(Val(code, t, max(min(x.lo, 0), -m), min(max(x.hi, 0), m)), x, y)
        if op in ("&", "|", "^"):
            lo, hi = t.lo, t.hi
            if x.lo >= 0 and y.lo >= 0:
                lo, hi = 0, (min(x.hi, y.hi) if op == "&" else
                             (1 << max(x.hi, y.hi).bit_length()) - 1)
            return self.fold(Val(f"({x.code} {op} {y.code})", t, lo, hi), x, y)
        return self.fail(n, f"the operator '{op}'")

    def shift(self, op: str, a: Val, b: Val, n: c_ast.Node) -> Val:
        ta, tb = self.number(a.type, n), self.number(b.type, n)
        if ta.floating or tb.floating:
            self.fail(n, f"'{op}' on floating-point operands (C rejects it)")
        t = cv.promote(ta)
        x, y = self.convert(a, t, n), self.convert(b, cv.promote(tb), n)
        count = y.code if 0 <= y.lo and y.hi < t.bits else f"_shc({y.code}, {t.bits})"
        c_lo, c_hi = max(min(y.lo, t.bits - 1), 0), min(max(y.hi, 0), t.bits - 1)
        if op == ">>":
            lo, hi = (x.lo, max(x.hi, 0)) if x.lo < 0 else (0, x.hi)
            return self.fold(Val(f"({x.code} >> {count})", t, lo, hi), x, y)
        values = [p << c for p in (x.lo, x.hi) for c in (c_lo, c_hi)]
        return self.checked(f"({x.code} << {count})", t, min(values), max(values), x, y)

    def _UnaryOp(self, n: c_ast.UnaryOp) -> Val:
        op = n.op
        if op == "sizeof":
            if isinstance(n.expr, c_ast.Typename):
                dtype = self.types.resolve(n.expr.type).dtype
                size = dtype.itemsize if dtype is not None else None
            else:
                v = self.expr(n.expr)
                size = v.type.bits // 8 if v.type is not None else \
                    v.dtype.itemsize if v.dtype is not None else None
            if size is None:
                self.fail(n, "sizeof of this type")
            return const_val(size, ULONG)
        if op in ("++", "--", "p++", "p--"):
            var, new = self.step(n)
            vt = self.number(var.type, n)
            if op in ("++", "--"):
                return Val(f"({var.py} := {new.code})", vt, *_range(vt))
            old = self.fresh("_t")
            return Val(f"({old} := {var.py}, {var.py} := {new.code})[0]", vt, *_range(vt))
        v = self.scalar(n.expr)
        if op == "!":
            return self.fold(Val(f"(0 if {v.code} else 1)", INT, 0, 1), v)
        t = cv.promote(self.number(v.type, n))
        x = self.convert(v, t, n)
        if op == "+":
            return x
        if op == "-":
            if t.floating:
                return self.fold(Val(f"(-{x.code})", t), x)
            return self.checked(f"(-{x.code})", t, -x.hi, -x.lo, x)
        if op == "~" and not t.floating:
            if t.signed:
                return self.fold(Val(f"(~{x.code})", t, -x.hi - 1, -x.lo - 1), x)
            return self.fold(Val(f"({t.hi} ^ {x.code})", t, t.hi - x.hi, t.hi - x.lo), x)
        return self.fail(n, f"the operator '{op}'")

    def step(self, n: c_ast.UnaryOp) -> tuple[Var, Val]:
        """``x++``/``--x``...: the variable and its new value (``x + 1`` converted back)."""
        var = self.target(n.expr)
        one = const_val(1, INT)
        new = self.binary("+" if "+" in n.op else "-", self._ID(n.expr), one, n)
        return var, self.convert(new, self.number(var.type, n), n)

    def target(self, n: c_ast.Node) -> Var:
        if not isinstance(n, c_ast.ID):
            self.fail(n, "an assignment to anything but a scalar variable")
        var = self.lookup(n.name, n)
        if var.type is None:
            self.fail(n, "an assignment to a struct, pointer or array")
        return var

    def assigned(self, n: c_ast.Assignment) -> tuple[Var, Val]:
        """The variable an assignment writes and the value, converted to its type."""
        var = self.target(n.lvalue)
        value = self.scalar(n.rvalue)
        if n.op != "=":
            value = self.binary(n.op[:-1], self._ID(n.lvalue), value, n)
        return var, self.convert(value, self.number(var.type, n), n)

    def _Assignment(self, n: c_ast.Assignment) -> Val:
        var, value = self.assigned(n)
        return Val(f"({var.py} := {value.code})", var.type, value.lo, value.hi)

    def _TernaryOp(self, n: c_ast.TernaryOp) -> Val:
        c, a, b = self.scalar(n.cond), self.scalar(n.iftrue), self.scalar(n.iffalse)
        t = cv.common(self.number(a.type, n), self.number(b.type, n))
        x, y = self.convert(a, t, n), self.convert(b, t, n)
        if c.const is not None:
            return x if c.const else y
        return Val(f"({x.code} if {c.code} else {y.code})", t, min(x.lo, y.lo),
                   max(x.hi, y.hi))

    def _Cast(self, n: c_ast.Cast) -> Val:
        ctype = self.types.resolve(n.to_type.type)
        t = None if ctype.pointer else cv.scalar_type(ctype.base, ctype.dtype)
        if t is None:
            self.fail(n, f"a cast to '{ctype.text}'")
        return self.convert(self.scalar(n.expr), t, n)

    def _ExprList(self, n: c_ast.ExprList) -> Val:
        values = [self.expr(e) for e in n.exprs]
        if len(values) == 1:
            return values[0]
        last = values[-1]
        return Val(f"({', '.join(v.code for v in values)})[-1]", last.type, last.lo, last.hi,
                   dtype=last.dtype)

    def _StructRef(self, n: c_ast.StructRef) -> Val:
        s = self.expr(n.name)
        if n.type != "." or s.type is not None or s.dtype is None or \
                s.dtype.fields is None or n.field.name not in s.dtype.fields:
            self.fail(n, "this member access")
        dtype = s.dtype.fields[n.field.name][0]
        code = f"_field({s.code}, {n.field.name!r})"
        t = cv.scalar_type("", dtype) if dtype.shape == () else None
        if t is None:
            return Val(code, None, dtype=dtype)
        return Val(code, t, *_range(t))

    def _FuncCall(self, n: c_ast.FuncCall) -> Val:
        name = n.name.name if isinstance(n.name, c_ast.ID) else ""
        args = [self.scalar(a) for a in (n.args.exprs if n.args else [])]
        base = name[:-1] if name.endswith("f") and name[:-1] in cv.MATH_FUNCTIONS else name
        arity = 2 if base in ("pow", "fmod", "fmin", "fmax", "min", "max") else 1
        if len(args) != arity or not (base in cv.MATH_FUNCTIONS or base in (
                "fmin", "fmax", "min", "max", "abs", "labs", "llabs")):
            self.fail(n, "this function call")
        if base in ("min", "max"):  # okl's type-generic min/max: a < b ? a : b in C
            t = cv.common(self.number(args[0].type, n), self.number(args[1].type, n))
            x, y = (self.convert(a, t, n) for a in args)
            return self.fold(Val(f"_{base}({x.code}, {y.code})", t, min(x.lo, y.lo),
                                 max(x.hi, y.hi)), x, y)
        if base in ("abs", "labs", "llabs"):
            t = {"abs": INT, "labs": cv.LONG, "llabs": cv.LLONG}[base]
            x = self.convert(args[0], t, n)
            return self.checked(f"abs({x.code})", t, 0, max(-x.lo, x.hi), x)
        t = FLOAT if base != name else DOUBLE
        xs = [self.convert(a, t, n) for a in args]
        code = f"_{base}({', '.join(x.code for x in xs)})" if base in ("fmin", "fmax") else \
            f"_m_{base}({', '.join(x.code for x in xs)})"
        return self.fold(Val(f"_f32({code})" if t is FLOAT else code, t), *xs)

    # -- statements ----------------------------------------------------------------------------
    def stmt(self, n: c_ast.Node | None) -> None:
        if n is None or isinstance(n, c_ast.EmptyStatement):
            return
        method = getattr(self, "_s_" + type(n).__name__, None)
        if method is not None:
            method(n)
        elif isinstance(n, c_ast.Assignment):
            var, value = self.assigned(n)
            self.emit(f"{var.py} = {value.code}", n)
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            var, value = self.step(n)
            self.emit(f"{var.py} = {value.code}", n)
        elif isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and \
                n.name.name == "_okl_launch" and self.launch is not None:
            k = int(n.args.exprs[0].value)
            env = []
            for name in self.launch(k):
                var = self.lookup(name, n)
                env.append(f"{name!r}: {var.py}")
            self.emit(f"_launch({k}, {{{', '.join(env)}}})", None)
        elif isinstance(n, c_ast.ExprList):
            for e in n.exprs:
                self.stmt(e)
        else:
            v = self.expr(n)  # evaluated for its side effects and failures
            if v.const is None:
                self.emit(v.code, n)

    def scoped(self, n: c_ast.Node | None) -> None:
        self.scopes.append({})
        self.stmt(n)
        self.scopes.pop()

    def _s_Compound(self, n: c_ast.Compound) -> None:
        self.scopes.append({})
        for item in n.block_items or []:
            self.stmt(item)
        self.scopes.pop()

    def _s_Typedef(self, n: c_ast.Typedef) -> None:
        self.types.add_typedef(n)

    def _s_Decl(self, n: c_ast.Decl) -> None:
        if n.name is None:  # a struct or enum declaration
            self.types.add_decl(n)
            return
        ctype = self.types.resolve(n.type)
        t = None if ctype.pointer else cv.scalar_type(ctype.base, ctype.dtype)
        if t is None:
            if n.init is not None:
                self.fail(n, f"a host variable of type '{ctype.text}'")
            self.declare(n.name, None)
            return
        if isinstance(n.init, c_ast.InitList):
            self.fail(n, "a braced initializer")
        value = self.convert(self.scalar(n.init), t, n) if n.init is not None else \
            const_val(0.0 if t.floating else 0, t)
        var = self.declare(n.name, t)
        self.emit(f"{var.py} = {value.code}", n)

    def _s_DeclList(self, n: c_ast.DeclList) -> None:
        for d in n.decls:
            self.stmt(d)

    def _s_If(self, n: c_ast.If) -> None:
        cond = self.scalar(n.cond)
        parent = self.guard
        then = self.fresh("_g")
        self._line(f"{then} = {parent} and {cond.code}" if parent else
                   f"{then} = {cond.code}", n)
        self.guard = then
        self.scoped(n.iftrue)
        if n.iffalse is not None:
            other = self.fresh("_g")
            self._line(f"{other} = {parent} and not {then}" if parent else
                       f"{other} = not {then}", None)
            self.guard = other
            self.scoped(n.iffalse)
        self.guard = parent

    def _s_For(self, n: c_ast.For) -> None:
        self.scopes.append({})
        self.stmt(n.init)
        cond = self.scalar(n.cond).code if n.cond is not None else "True"

        def body() -> None:
            self.loops.append([n.next] if n.next is not None else [])
            self.scoped(n.stmt)
            self.loops.pop()
            self.stmt(n.next)
        self.block(f"while {cond}:", n, body)
        self.scopes.pop()

    def _s_While(self, n: c_ast.While) -> None:
        cond = self.scalar(n.cond).code

        def body() -> None:
            self.loops.append([])
            self.scoped(n.stmt)
            self.loops.pop()
        self.block(f"while {cond}:", n, body)

    def _s_DoWhile(self, n: c_ast.DoWhile) -> None:
        first = self.fresh("_d")
        self.emit(f"{first} = 1", None)
        cond = self.scalar(n.cond).code

        def body() -> None:
            self._line(f"{first} = 0", None)
            self.loops.append([])
            self.scoped(n.stmt)
            self.loops.pop()
        self.block(f"while {first} or {cond}:", n, body)

    def _s_Break(self, n: c_ast.Break) -> None:
        self.emit("break", n)

    def _s_Continue(self, n: c_ast.Continue) -> None:
        for nxt in (self.loops[-1] if self.loops else []):
            self.stmt(nxt)
        self.emit("continue", n)

    def _s_Return(self, n: c_ast.Return) -> None:
        if n.expr is not None:
            self.fail(n, "a return with a value")
        self.emit("return", n)

    def function(self, header: list[str]) -> str:
        """``header`` lines, then the written lines inside ``try`` when any of them can fail
        at a known position, then the position table ``_LINES``."""
        body = self.lines or ["    " * self.depth + "pass"]
        if not self.where:
            return "\n".join(header + [line[4:] for line in body]) + "\n"
        first = len(header) + 2  # the line number of body[0]
        where = {first + i: loc for i, loc in self.where.items()}
        return "\n".join(header + ["    try:", *body, "    except Exception as _e:",
                                   "        _located(_e, _LINES)", "        raise",
                                   f"_LINES = {where!r}"]) + "\n"
