"""``abs(x)`` of a floating-point ``x`` becomes ``fabs(x)`` on every backend.

Kernels written for CUDA use C++'s overloaded ``abs``, which keeps a ``double`` a ``double``.
In C (serial, OpenMP) ``abs`` takes an ``int``: the value is truncated and the kernel gives a
different answer without a word; OpenCL C refuses the call as ambiguous.  Where okl can tell
that the argument is floating (a floating variable, element, member, literal, cast, math call
or arithmetic on one), it calls ``fabs``, the function that means the same everywhere, and
says so in a warning.  An argument of unknown type is left alone.
"""

from __future__ import annotations

import re

from pycparser import c_ast

from ..ctree import walk
from ..errors import Diagnostics
from ..model.kernel import Program
from .atomics import lvalue_type

_FLOATING = {"float", "double"}
_ABS = re.compile(r"\babs\b")
_FLOAT_FUNCTIONS = set(
    "sqrt sqrtf rsqrt cbrt exp expf exp2 log logf log2 log10 pow powf sin sinf cos cosf tan "
    "asin acos atan atan2 sinh cosh tanh fabs fabsf fmin fminf fmax fmaxf fmod floor ceil "
    "round trunc hypot erf erfc tgamma lgamma".split())


def float_abs(program: Program, diags: Diagnostics) -> None:
    if not _ABS.search(program.expanded.text):
        return  # no call of abs (every identifier of the tree is in the expanded text)
    functions = [ext for ext in program.ast.ext if isinstance(ext, c_ast.FuncDef)]
    if any(fn.decl.name == "abs" for fn in functions):
        return  # the file's own abs
    globals_ = {ext.name: ext.type for ext in program.ast.ext
                if isinstance(ext, c_ast.Decl) and ext.name}
    for fn in functions:
        calls = [n for n in walk(fn.body) if isinstance(n, c_ast.FuncCall)
                 and isinstance(n.name, c_ast.ID) and n.name.name == "abs"
                 and n.args is not None and len(n.args.exprs) == 1]
        if not calls:
            continue
        scope = dict(globals_)
        args = getattr(fn.decl.type, "args", None)
        for p in (args.params if args else []):
            if isinstance(p, c_ast.Decl) and p.name:
                scope[p.name] = p.type
        for n in walk(fn.body):
            if isinstance(n, c_ast.Decl) and n.name:
                scope.setdefault(n.name, n.type)
        for call in calls:
            if _floating(call.args.exprs[0], scope, program):
                call.name = c_ast.ID("fabs", coord=call.name.coord)
                where = program.expanded.locate(call.coord.line, call.coord.column) \
                    if call.coord else None
                diags.warning("abs() of a floating-point value: okl calls fabs() (C's abs "
                              "takes an int and would truncate it)", where,
                              hint="write fabs(x) for floating values")


def _floating(e: c_ast.Node, scope: dict, program: Program) -> bool:
    if isinstance(e, c_ast.Constant):
        return e.type in _FLOATING
    if isinstance(e, (c_ast.ID, c_ast.ArrayRef, c_ast.StructRef)) or (
            isinstance(e, c_ast.UnaryOp) and e.op == "*"):
        return lvalue_type(e, scope, program) in _FLOATING
    if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+"):
        return _floating(e.expr, scope, program)
    if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-", "*", "/"):
        return _floating(e.left, scope, program) or _floating(e.right, scope, program)
    if isinstance(e, c_ast.TernaryOp):
        return _floating(e.iftrue, scope, program) or _floating(e.iffalse, scope, program)
    if isinstance(e, c_ast.Cast):
        t = program.types.resolve(e.to_type.type)
        return not t.pointer and t.base in _FLOATING
    if isinstance(e, c_ast.FuncCall) and isinstance(e.name, c_ast.ID):
        return e.name.name in _FLOAT_FUNCTIONS
    return False
