"""Where each OKL attribute may stand, and what arguments it takes (the model builder's
placement checks; wording follows OCCA's where OCCA has a message)."""

from __future__ import annotations

from pycparser import c_ast

from ..ctree import walk
from ..parser.attributes import Attribute
from ..parser.source import STRING_NAME
from .builder_base import BuilderBase
from .consteval import evaluate

NO_ARGS = {"kernel", "shared", "exclusive", "nobarrier", "restrict", "atomic", "globalPtr",
           "global"}
KNOWN = NO_ARGS | {"outer", "inner", "tile", "barrier", "max_inner_dims", "simd_length", "dim",
                   "dimOrder", "directive"}
LOOP_ONLY = {"outer", "inner", "tile", "nobarrier", "max_inner_dims", "simd_length"}


#: What each attribute applies to, for 'Cannot apply attribute' hints.
_TARGETS = {
    "kernel": "a function definition: @kernel void name(...) { ... }",
    "outer": "a for loop: for (...; ...; ...; @outer)",
    "inner": "a for loop: for (...; ...; ...; @inner)",
    "tile": "a for loop: for (...; ...; ...; @tile(16, @outer, @inner))",
    "nobarrier": "an @inner for loop",
    "max_inner_dims": "the outer-most @outer for loop",
    "simd_length": "the outer-most @outer for loop",
    "shared": "an array declaration: @shared float s[16];",
    "global": "a pointer parameter of a device function: @global const float *x",
    "exclusive": "a variable declaration: @exclusive float r;",
    "barrier": "an empty statement: @barrier;",
    "atomic": "an update statement (x += v;) or a { block }",
    "dim": "a declaration: float *x @dim(N, M)",
    "dimOrder": "a declaration that has @dim",
    "restrict": "a pointer parameter: @restrict const float *x",
    "globalPtr": "a variable declaration",
    "directive": 'file level: @directive("#define N 8")',
}


def describe(node: c_ast.Node) -> str:
    """How a node is named in 'Cannot apply attribute to a [...]' messages."""
    names = {c_ast.For: "for", c_ast.While: "while", c_ast.DoWhile: "do-while",
             c_ast.If: "if", c_ast.Compound: "block", c_ast.Decl: "declaration",
             c_ast.Typedef: "typedef", c_ast.FuncDef: "function", c_ast.Return: "return",
             c_ast.EmptyStatement: "empty", c_ast.Switch: "switch"}
    for cls, name in names.items():
        if isinstance(node, cls):
            return name
    return "expression"


class PlacementChecks(BuilderBase):
    def _main_file(self) -> str:
        return self.expanded.origins[0][0] if self.expanded.origins else STRING_NAME

    def _check_placement(self) -> None:
        for node in self.amap.nodes.values():
            seen: set[str] = set()
            for a in self.amap.of(node):
                if a.name in seen and a.name not in ("tile",):
                    self.error(f"[@{a.name}] is given twice", a, hint="remove one of them")
                seen.add(a.name)
                self._check_attribute(a, node)
            if "outer" in seen and "inner" in seen:
                self.error("Cannot have @inner and @outer on the same loop",
                           self.amap.get(node, "inner"),
                           hint="a loop runs either over blocks (@outer) or over the threads "
                                "of a block (@inner); nest an @inner loop in the @outer loop")

    def _check_attribute(self, a: Attribute, node: c_ast.Node) -> None:
        if a.name not in KNOWN:
            import difflib  # here: only a misspelt attribute needs it

            close = difflib.get_close_matches(a.name, sorted(KNOWN), n=1)
            self.error(f"Unknown attribute [@{a.name}]", a,
                       hint=f"did you mean @{close[0]}?" if close else
                       "OKL attributes: " + ", ".join(sorted(f"@{k}" for k in KNOWN)))
            return
        if a.name in NO_ARGS and (a.args or a.kwargs):
            self.error(f"[@{a.name}] does not take arguments", a, hint=f"write @{a.name}")
        elif a.kwargs and a.name not in ("tile",):
            self.error(f"[@{a.name}] does not take kwargs", a,
                       hint="only @tile takes a keyword argument (check=...)")
        ok = {
            "kernel": isinstance(node, c_ast.FuncDef) or (
                isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.FuncDecl)),
            "shared": isinstance(node, c_ast.Decl) and not isinstance(node.type,
                                                                       c_ast.FuncDecl),
            "barrier": isinstance(node, c_ast.EmptyStatement),
            "atomic": isinstance(node, (c_ast.Assignment, c_ast.UnaryOp, c_ast.Compound)),
            "dim": isinstance(node, (c_ast.Decl, c_ast.Typedef)),
            "restrict": isinstance(node, (c_ast.Decl, c_ast.Typedef, c_ast.FuncDef)),
            "globalPtr": isinstance(node, c_ast.Decl),
            "global": isinstance(node, c_ast.Decl),
        }
        ok["exclusive"] = ok["shared"]
        ok["dimOrder"] = ok["dim"]
        for name in LOOP_ONLY:
            ok[name] = isinstance(node, c_ast.For)
        if not ok.get(a.name, False):
            self.error(f"Cannot apply attribute [@{a.name}] to a [{describe(node)}] "
                       "statement", a, hint=f"@{a.name} applies to {_TARGETS[a.name]}")
            return
        if a.name == "atomic" and isinstance(node, c_ast.UnaryOp) and \
                node.op not in ("++", "--", "p++", "p--"):
            self.error("[@atomic] applies to an update statement (x += v;, x++;) or a "
                       "{ block }", a, hint="write x += v;, x -= v;, ++x; or --x;, or wrap "
                                            "the statements in { }")
        if a.name == "barrier":
            self._check_barrier_args(a)
        if a.name in ("outer", "inner"):
            self._axis(a, report=True)
        if a.name == "max_inner_dims":
            self._max_inner_dims(a, report=True)
        if a.name == "simd_length":
            value = evaluate(_expr(a.args[0].text)) if len(a.args) == 1 else None
            if value is None or value < 0:
                self.error("[@simd_length] takes one non-negative compile-time integer", a,
                           hint="e.g. @simd_length(16)")
        if a.name == "restrict":
            self._restrict_target(a, node)

    def _restrict_target(self, a: Attribute, node: c_ast.Node) -> None:
        """@restrict on anything but a pointer is one case, whatever it sits on: a warning,
        and okl drops it.  OCCA's default transpiler refuses it on a return type and on a
        scalar alike; its clang transpiler keeps it on a return type (harmless: C++ compilers
        accept and ignore it) and passes a scalar's to the compiler, which refuses it.  No
        compiler ever sees it from okl, so refusing the kernel would protect nothing, and a
        kernel that runs with OCCA's newer transpiler keeps running."""
        if isinstance(node, c_ast.FuncDef) or isinstance(node, c_ast.Decl) and isinstance(
                node.type, c_ast.FuncDecl):
            what = "a function's return value"
        elif isinstance(node, c_ast.Decl) and \
                not isinstance(node.type, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            what = f"'{node.name}', which is not a pointer,"
        else:
            return
        self.diags.warning(f"[@restrict] on {what} has no effect; ignored", self.aloc(a),
                           hint="remove it here; put @restrict on pointer parameters, where it "
                                "tells the compiler that they do not overlap")

    def _check_barrier_args(self, a: Attribute) -> str:
        if len(a.args) > 1:
            self.error("[@barrier] takes at most one argument", a,
                       hint='write @barrier or @barrier("warp")')
            return ""
        if not a.args:
            return ""
        arg = a.args[0]
        if arg.kind != "string":
            self.error("[@barrier] must have no arguments or have one string argument", a,
                       hint='write @barrier or @barrier("warp")')
            return ""
        value = arg.string_value
        if value in ("local", "global"):
            self.diags.warning(f'@barrier("{value}") is accepted as a block-wide barrier; '
                               'OKL only knows @barrier and @barrier("warp")', self.aloc(a))
            return ""
        if value != "warp":
            self.error(f"[@barrier] has an invalid barrier type: {value}", a,
                       hint='use @barrier or @barrier("warp")')
            return ""
        return value

    def _axis(self, a: Attribute, report: bool = False) -> int | None:
        """The explicit index of @outer(d)/@inner(d); errors are reported once, by the
        placement check (report=True)."""
        if not a.args:
            return None
        if len(a.args) > 1:
            if report:
                self.error(f"[@{a.name}] takes at most one index", a,
                           hint=f"write @{a.name}(0), @{a.name}(1) or @{a.name}(2)")
            return None
        value = evaluate(_expr(a.args[0].text)) if a.args[0].kind == "expr" else None
        if value not in (0, 1, 2):
            if report:
                self.error(f"[@{a.name}] argument must be 0, 1, or 2", a,
                           hint="a compile-time index: 0 is x (fastest), 1 is y, 2 is z")
            return None
        return value

    def _max_inner_dims(self, a: Attribute, report: bool = False) -> tuple[int, ...] | None:
        if not a.args or len(a.args) > 3:
            if report:
                self.error("[@max_inner_dims] takes 1 to 3 arguments", a,
                           hint="the largest @inner extent per axis: @max_inner_dims(x, y, z)")
            return None
        values = [evaluate(_expr(arg.text)) for arg in a.args]
        if any(v is None or v <= 0 for v in values):
            if report:
                self.error("[@max_inner_dims] arguments must be positive compile-time "
                           "integers", a, hint="e.g. @max_inner_dims(256) or "
                                              "@max_inner_dims(16, 16)")
            return None
        return tuple(v for v in values if v is not None)

    def _no_okl_loops(self, fn: c_ast.FuncDef) -> None:
        params = _param_decls(fn.decl.type)
        for node in walk(fn):
            for a in self.amap.of(node):
                if a.name in ("shared", "global") and any(node is p for p in params):
                    self._shared_param(node, a)
                elif a.name in ("outer", "inner", "barrier"):
                    self.error(f"[@{a.name}] used outside a [@kernel] function", a,
                               hint=f"'{fn.decl.name}' is a device function; only @kernel "
                                    "functions may contain @outer/@inner loops")
                elif a.name in ("shared", "exclusive"):
                    self.error(f"[@{a.name}] used outside a [@kernel] function", a,
                               hint="declare the array in the kernel's @outer loop and pass "
                                    f"it to '{fn.decl.name}', whose parameter may be @shared")

    def _shared_param(self, param: c_ast.Decl, a: Attribute) -> None:
        """A @shared parameter of a device function only says where its argument points
        (OpenCL needs it in the type); it has no storage of its own, so no size rules."""
        t = self.types.resolve(param.type)
        if not t.pointer:
            self.error(f"[@{a.name}] parameter '{param.name}' must be an array or a pointer", a,
                       hint=f"declare it as a pointer: @{a.name} float *{param.name}")


def _param_decls(ftype: c_ast.FuncDecl) -> list[c_ast.Node]:
    return list(ftype.args.params) if ftype.args else []


def _expr(text: str):
    from ..parser.cparse import parse_expression
    try:
        return parse_expression(text)
    except Exception:
        return None
