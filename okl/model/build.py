"""Build the kernel model from the attributed AST and check every OKL rule on the way.

All problems are collected (never the first only) so a user sees every error of a file at
once.  Wording follows OCCA's messages (notes §2.1) where OCCA has one, so that people who
search for an OCCA error find ours too; each error says what to do.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable

from pycparser import c_ast

from ..ctree import clone, ids_in, walk
from ..errors import Diagnostics, SourceLoc, note
from ..parser.attributes import Attribute
from ..parser.cpp.preprocess import Expanded
from .attach import AttributeMap
from .consteval import evaluate
from .kernel import Atomic, Barrier, HostVar, Kernel, Loop, Param, Program, Variable
from .loops import LoopFormError, canonical_form
from .names import undeclared
from .types import TypeTable
from .uniformity import check_barriers

NO_ARGS = {"kernel", "shared", "exclusive", "nobarrier", "restrict", "atomic", "globalPtr",
           "global"}
KNOWN = NO_ARGS | {"outer", "inner", "tile", "barrier", "max_inner_dims", "simd_length", "dim",
                   "dimOrder", "directive"}
LOOP_ONLY = {"outer", "inner", "tile", "nobarrier", "max_inner_dims", "simd_length"}
MAX_NESTING = 3


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


class ModelBuilder:
    def __init__(self, ast: c_ast.FileAST, amap: AttributeMap, types: TypeTable,
                 expanded: Expanded, diags: Diagnostics):
        self.ast = ast
        self.amap = amap
        self.types = types
        self.expanded = expanded
        self.diags = diags

    # -- positions -------------------------------------------------------------------------
    def loc(self, node: c_ast.Node | None) -> SourceLoc | None:
        return self.later(node)()

    def aloc(self, attr: Attribute) -> SourceLoc:
        return self.expanded.locate(attr.line, attr.col)

    def later(self, where: c_ast.Node | Attribute | None) -> Callable[[], SourceLoc | None]:
        """What :meth:`loc` (or :meth:`aloc` for an attribute) says, as a function to call
        when it is needed (okl.model.kernel.Deferred): the position is taken now, before
        the transforms change the tree; only finding its column waits."""
        if isinstance(where, Attribute):
            return functools.partial(self.expanded.locate, where.line, where.col)
        coord = where.coord if where is not None else None
        if where is not None and (coord is None or not coord.line):
            coord = next((n.coord for n in walk(where) if n.coord is not None and n.coord.line),
                         coord)
        if coord is None:
            return _nowhere
        return functools.partial(self.expanded.locate, coord.line, coord.column or 1)

    def error(self, message: str, where, **kw) -> None:
        loc = self.aloc(where) if isinstance(where, Attribute) else (
            where if isinstance(where, SourceLoc) or where is None else self.loc(where))
        self.diags.error(message, loc, **kw)

    # -- whole file ------------------------------------------------------------------------
    def build(self, attrs: list[Attribute]) -> Program:
        kernels, functions, constants = [], [], []
        for a in attrs:
            if not a.used:
                self.error(f"[@{a.name}] does not apply to anything here", a,
                           hint="put the attribute before a statement or declaration, or as "
                                "the 4th clause of a for-header")
        self._check_placement()
        defined: dict[str, c_ast.Decl] = {}  # function name -> its definition
        for ext in self.ast.ext:
            if isinstance(ext, c_ast.FuncDef) and not isinstance(ext.decl.type, c_ast.FuncDecl):
                self.error(f"'{ext.decl.name}' is not a function: a function definition needs "
                           "a return type and a parameter list", ext.decl,
                           hint=f"write it as @kernel void {ext.decl.name}(...) {{ ... }}")
            elif isinstance(ext, c_ast.FuncDef) and ext.decl.name in defined:
                # C's error; later passes find functions by name and would mix the two up
                first = defined[ext.decl.name]
                self.error(f"redefinition of '{ext.decl.name}'", ext.decl,
                           notes=[note("previous definition is here", self.loc(first))],
                           hint="rename one of them (a macro that makes kernels may have "
                                "been called twice with the same arguments)")
            elif isinstance(ext, c_ast.FuncDef):
                defined[ext.decl.name] = ext.decl
                if self.amap.has(ext, "kernel"):
                    kernels.append(self._kernel(ext))
                else:
                    functions.append(ext)
                    self._no_okl_loops(ext)
            elif isinstance(ext, c_ast.Decl) and not isinstance(ext.type, c_ast.FuncDecl) \
                    and ext.name:
                constants.append(ext)
        for ident in undeclared(self.ast):
            # a warning: the application may define it when it builds (OCCA's defines/...),
            # and the backend compiler refuses it then anyway
            self.diags.warning(f"use of undeclared identifier '{ident.name}'",
                               self.loc(ident),
                               hint="declare it, pass it as a kernel argument, or define "
                                    f"the macro when building (-D {ident.name}=...)")
        if not kernels and not self.diags.errors:
            # nekRS keeps variants of a kernel in `#if p_knl == N` groups: with other defines
            # the file holds none, and translating it is still meaningful (to nothing).  OCCA
            # stops with "No [@kernel] functions found" (okl::kernelsAreValid).
            loc = SourceLoc(self._main_file(), 1, 1, self.expanded.source_line(
                self._main_file(), 1))
            self.diags.warning("no @kernel in this file: the translation defines no kernel "
                               "(OCCA rejects such a file)", loc,
                               hint="mark a kernel with @kernel, or check the #if conditions "
                                    "and -D values that leave out every @kernel")
        return Program(self.ast, self.amap, self.types, self.expanded, kernels, functions,
                       constants, [])

    def _main_file(self) -> str:
        return self.expanded.origins[0][0] if self.expanded.origins else "<input>"

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
        if a.name == "restrict" and isinstance(node, c_ast.FuncDef):
            self.diags.warning("[@restrict] on a function's return value has no effect; "
                               "ignored", self.aloc(a),
                               hint="put @restrict on pointer parameters, where it tells the "
                                    "compiler that they do not overlap")
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
        if a.name == "restrict" and isinstance(node, c_ast.Decl) and \
                not isinstance(node.type, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            self.error("[@restrict] can only be applied to pointer function arguments", a,
                       hint="remove @restrict here: it only promises that pointers do not "
                            "alias")

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
        return tuple(values)

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

    # -- one kernel ------------------------------------------------------------------------
    def _kernel(self, fn: c_ast.FuncDef) -> Kernel:
        decl = fn.decl
        kernel = Kernel(decl.name, fn, self.later(decl))
        ret = decl.type.type
        if not (isinstance(ret, c_ast.TypeDecl) and isinstance(ret.type, c_ast.IdentifierType)
                and ret.type.names == ["void"]):
            self.error("[@kernel] functions must have a [void] return type", decl,
                       hint=f"declare it as @kernel void {decl.name}(...)")
        kernel.params = self._params(decl.type)
        self.host_vars: dict[str, c_ast.Node] = {}
        self.broken = False
        self._visit(fn.body, kernel, _Context())
        if self.broken:  # a loop's own error was reported; its structure is unknown
            pass
        elif not kernel.outers:
            self.error("[@kernel] requires at least one [@outer] for-loop", decl,
                       hint="loop over blocks with for (int b = 0; b < nb; ++b; @outer) and "
                            "over threads with an @inner loop inside it")
        elif not any(loop.kind == "inner" for loop in kernel.loops()):
            self.error("[@kernel] requires at least one [@inner] for-loop", decl,
                       hint="put an @inner loop in the @outer loop: "
                            "for (int t = 0; t < 64; ++t; @inner) { ... }")
        elif all([self._structure(outer) for outer in kernel.outers]):
            self._extents(kernel)
            self._max_inner_dims_respected(kernel)
            self._exclusive_slots(kernel)
            check_barriers(kernel, self.amap, self.diags, self.loc)
        self._uses_outside_inner(kernel)
        self._captures(kernel)
        return kernel

    def _params(self, ftype: c_ast.FuncDecl) -> list[Param]:
        params = []
        for p in (ftype.args.params if ftype.args else []):
            if isinstance(p, c_ast.EllipsisParam):
                self.error("kernels cannot take variable arguments (...)", p,
                           hint="list every argument with its type")
                continue
            if isinstance(p, c_ast.Typename):  # f(void)
                continue
            if isinstance(p, c_ast.ID):  # K&R: a name without a type
                self.error(f"kernel argument '{p.name}' has no type", p,
                           hint=f"declare it with its type, e.g. float *{p.name}")
                continue
            ctype = self.types.resolve(p.type)
            if ctype.pointer and isinstance(getattr(p.type, "type", None), c_ast.PtrDecl):
                self.error(f"kernel argument '{p.name}' is a pointer to a pointer; pass a "
                           "flat array instead", p)
            elif not ctype.pointer and ctype.dtype is None:
                self.error(f"kernel argument '{p.name}' has type '{ctype.text}', which cannot "
                           "be passed from Python", p,
                           hint="use a scalar type (int, float, ...), a struct of scalars, "
                                "or a pointer")
            for a in self.amap.of(p):
                if a.name in ("shared", "exclusive"):
                    self.error(f"kernel argument '{p.name}' cannot be [@{a.name}]", a,
                               hint="declare @shared and @exclusive arrays inside the @outer "
                                    "loop; device function parameters may be @shared")
            restrict = self.amap.has(p, "restrict") or "restrict" in _quals(p.type)
            params.append(Param(p.name, ctype, p, self.later(p), restrict))
        return params

    def _visit(self, node: c_ast.Node | None, kernel: Kernel, ctx: _Context) -> None:
        if node is None:
            return
        if isinstance(node, c_ast.For):
            self._for(node, kernel, ctx)
        elif isinstance(node, (c_ast.While, c_ast.DoWhile)):
            self._visit(node.stmt, kernel, ctx.plain_loop())
        elif isinstance(node, c_ast.Switch):
            self._visit(node.stmt, kernel, ctx.switch())
        elif isinstance(node, (c_ast.Break, c_ast.Continue)):
            allowed = ctx.loop_ok or (isinstance(node, c_ast.Break) and ctx.switch_ok)
            if ctx.stack and not allowed:
                loop = ctx.stack[-1]
                self.error(f"Statement cannot be directly inside an [@{loop.kind}] loop", node,
                           notes=[note(f"[@{loop.kind}] loop is here", loop.loc)],
                           hint="device threads cannot leave an @outer/@inner loop; use if "
                                "to skip the work instead")
        elif isinstance(node, c_ast.Return):
            if ctx.stack:
                self.error(f"return inside an [@{ctx.stack[-1].kind}] loop", node,
                           notes=[note(f"[@{ctx.stack[-1].kind}] loop is here",
                                       ctx.stack[-1].loc)],
                           hint="a return ends one thread on a GPU but the whole kernel on a "
                                "CPU; guard the work with if instead")
        elif isinstance(node, c_ast.Decl):
            self._decl(node, kernel, ctx)
        elif isinstance(node, c_ast.EmptyStatement):
            barrier = self.amap.get(node, "barrier")
            if barrier is not None:
                if not ctx.outers and not ctx.unsure:
                    self.error("[@barrier] must be inside an [@outer] loop", barrier,
                               hint="a barrier synchronizes the threads of one block: put it "
                                    "between the @inner loops of an @outer loop")
                kind = self._barrier_kind(barrier)
                kernel.barriers.append(Barrier(node, kind, self.later(barrier)))
        elif isinstance(node, c_ast.Compound):
            atomic = self.amap.get(node, "atomic")
            if atomic is not None:
                self._atomic(node, atomic, kernel, ctx)
            for item in node.block_items or []:
                self._visit(item, kernel, ctx)
        elif isinstance(node, c_ast.If):
            self._visit(node.iftrue, kernel, ctx)
            self._visit(node.iffalse, kernel, ctx)
        elif isinstance(node, (c_ast.Label, c_ast.Case, c_ast.Default)):
            for child in ([node.stmt] if isinstance(node, c_ast.Label) else node.stmts or []):
                self._visit(child, kernel, ctx)
        elif isinstance(node, (c_ast.Assignment, c_ast.UnaryOp)):
            atomic = self.amap.get(node, "atomic")
            if atomic is not None:
                self._atomic(node, atomic, kernel, ctx)
        elif isinstance(node, c_ast.DeclList):
            for d in node.decls:
                self._decl(d, kernel, ctx)

    def _barrier_kind(self, a: Attribute) -> str:
        if a.args and a.args[0].kind == "string":
            return a.args[0].string_value
        return ""

    def _atomic(self, node, atomic: Attribute, kernel: Kernel, ctx: _Context) -> None:
        if not ctx.inners and not ctx.unsure:
            self.error("[@atomic] must be inside an [@inner] loop", atomic,
                       hint="atomic updates are made by device threads: move the update into "
                            "an @inner loop")
        kernel.atomics.append(Atomic(node, self.later(atomic)))

    def _for(self, node: c_ast.For, kernel: Kernel, ctx: _Context) -> None:
        attrs = self.amap.of(node)
        kinds = [a for a in attrs if a.name in ("outer", "inner")]
        if len(kinds) > 1 or any(a.name == "tile" or a.name not in KNOWN for a in attrs):
            # @outer and @inner together, a @tile that could not be expanded or an unknown
            # attribute: that error is reported, and what the loop should be is unknown, so
            # nothing below it is checked against it.
            self.broken = True
            self._visit(node.stmt, kernel, ctx.unknown())
            return
        if not kinds:
            if not ctx.stack and node.init is not None:
                self._visit(node.init, kernel, ctx)
            self._visit(node.stmt, kernel, ctx.plain_loop())
            return
        attr = kinds[0]
        kind = attr.name
        try:
            form = canonical_form(node, self.types, f"@{kind}")
        except LoopFormError as e:
            self.error(str(e), e.node if e.node.coord else node, hint=e.hint)
            self.broken = True
            self._visit(node.stmt, kernel, ctx.unknown())
            return
        if ctx.unsure:
            self._visit(node.stmt, kernel, ctx)
            return
        loop = Loop(kind, node, form, self.later(node), in_regular=ctx.regular)
        axis = self._axis(attr)
        if axis is not None:
            loop.axis, loop.explicit_axis = axis, True
        if kind == "inner" and not ctx.outers:
            self.error("Cannot have [@inner] loop outside of an [@outer] loop", attr,
                       hint="put it inside an @outer loop: for (...; @outer) { for (...; "
                            "@inner) ... }")
            self.broken = True
        elif kind == "outer" and ctx.inners:
            self.error("Cannot have [@outer] loop inside an [@inner] loop", attr,
                       notes=[note("[@inner] loop is here", ctx.inners[-1].loc)],
                       hint="@outer loops enclose @inner loops: swap the two loops, or make "
                            "this one a plain loop")
            self.broken = True
        else:
            if ctx.stack:
                loop.parent = ctx.stack[-1]
                ctx.stack[-1].children.append(loop)
            else:
                kernel.outers.append(loop)
        nobarrier = self.amap.get(node, "nobarrier")
        if nobarrier is not None:
            if kind != "inner":
                self.error("[@nobarrier] applies to @inner loops", nobarrier,
                           hint="it drops the barrier added after an @inner loop that uses "
                                "@shared memory")
            loop.nobarrier = True
        for name in ("max_inner_dims", "simd_length"):
            a = self.amap.get(node, name)
            if a is not None and (kind != "outer" or ctx.stack):
                self.error(f"[@{name}] applies to the outer-most @outer loop", a,
                           hint="move it to the first @outer loop of this nest")
        mid = self.amap.get(node, "max_inner_dims")
        if mid is not None and kind == "outer" and not ctx.stack:
            loop.max_inner_dims = self._max_inner_dims(mid)
        self._visit(node.stmt, kernel, ctx.enter(loop))

    def _decl(self, node: c_ast.Decl, kernel: Kernel, ctx: _Context) -> None:
        kinds = [a for a in self.amap.of(node) if a.name in ("shared", "exclusive")]
        if not ctx.stack and node.name:
            self.host_vars[node.name] = node
        if not kinds or ctx.unsure:
            return
        if len(kinds) > 1:
            self.error("a variable cannot be both @shared and @exclusive", kinds[1],
                       hint="@shared has one copy per block, @exclusive one per thread: "
                            "keep one of them")
            return
        a = kinds[0]
        if not ctx.outers:
            self.error(f"Must define [@{a.name}] variables between [@outer] and [@inner] "
                       "loops", a, hint="declare it in the @outer loop body, before the "
                                        "@inner loops")
            return
        if ctx.inners:
            self.error(f"Cannot define [@{a.name}] variables inside an [@inner] loop", a,
                       notes=[note("[@inner] loop is here", ctx.inners[-1].loc)],
                       hint="declare it in the @outer loop body, before the @inner loop")
            return
        sizes, dims = [], []
        t = node.type
        while isinstance(t, c_ast.ArrayDecl):
            sizes.append(evaluate(t.dim))
            dims.append(t.dim)
            t = t.type
        var = Variable(a.name, node.name, node, self.later(a), ctx.outers[-1], sizes)
        if a.name == "shared":
            if not sizes:
                self.error("[@shared] variables must be arrays", node,
                           hint=f"declare it as an array, e.g. {node.name}[1]")
                return
            for size, dim in zip(sizes, dims, strict=True):
                if size is None:
                    self.error("[@shared] variables must have sizes known at compile-time",
                               dim or node, hint="use literal sizes or macros, e.g. -D p_N=16 "
                                                 "with s[p_N]")
                    return
                if size <= 0:
                    self.error(f"[@shared] array sizes must be positive, this one is {size}",
                               dim, hint="check the macros the size is made of")
                    return
            if node.init is not None:
                self.error("[@shared] variables cannot have an initializer", node.init,
                           hint="fill it inside an @inner loop")
            kernel.shared.append(var)
        else:
            kernel.exclusive.append(var)

    # -- checks over the loop tree ---------------------------------------------------------
    def _structure(self, outer: Loop) -> bool:
        """Check the loop tree under one outer-most @outer loop; False when it is malformed."""
        ok = True
        leaves = [loop for loop in outer.walk() if not loop.children]
        shapes = []
        too_deep: set[int] = set()
        for leaf in leaves:
            chain = []
            loop = leaf
            while loop is not None:
                chain.append(loop)
                loop = loop.parent
            chain.reverse()
            n_outer = sum(1 for lp in chain if lp.kind == "outer")
            n_inner = len(chain) - n_outer
            shapes.append((n_outer, n_inner))
            if n_inner == 0:
                ok = False
                self.error("Missing an [@inner] loop", leaf.node,
                           hint="every @outer loop needs an @inner loop inside it")
            for kind in ("outer", "inner"):
                same = [lp for lp in chain if lp.kind == kind]
                if len(same) > MAX_NESTING:
                    ok = False
                    if id(same[MAX_NESTING]) not in too_deep:
                        too_deep.add(id(same[MAX_NESTING]))
                        self.error(f"More than {MAX_NESTING} nested [@{kind}] loops",
                                   same[MAX_NESTING].node,
                                   hint="GPUs have 3 axes (x, y, z); merge two of these loops "
                                        "into one")
        for leaf, shape in zip(leaves, shapes, strict=True):
            if shape != shapes[0] and shape[1] and shapes[0][1]:
                ok = False
                k = 1 if shape[0] == shapes[0][0] else 0
                kind = ("outer", "inner")[k]
                self.error(f"Mismatch of [@{kind}] loops: this path has {_count(shape[k], kind)}"
                           f", the first path has {shapes[0][k]}", leaf.node,
                           notes=[note("the first path ends here", leaves[0].loc)],
                           hint=f"every path through this @outer loop must nest the same "
                                f"number of @{kind} loops")
                break
        return self._assign_axes(outer) and ok

    def _assign_axes(self, outer: Loop) -> bool:
        ok = True

        def below(loop: Loop, kind: str) -> int:
            return max((below(c, kind) + (c.kind == kind) for c in loop.children), default=0)

        for loop in outer.walk():
            if not loop.explicit_axis:
                loop.axis = below(loop, loop.kind)
        for leaf in (lp for lp in outer.walk() if not lp.children):
            seen: dict[tuple[str, int], Loop] = {}
            loop = leaf
            while loop is not None:
                key = (loop.kind, loop.axis)
                if key in seen:
                    self.error(f"two [@{loop.kind}] loops on one path use axis {loop.axis}",
                               seen[key].node,
                               notes=[note(f"the other @{loop.kind}({loop.axis}) is here",
                                           loop.loc)],
                               hint="give nested loops different indices, e.g. @inner(1) "
                                    "around @inner(0)")
                    ok = False
                    break
                seen[key] = loop
                loop = loop.parent
        return ok

    def _extents(self, kernel: Kernel) -> None:
        for loop in kernel.loops():
            blocks = [c for c in loop.children if c.kind == "inner"]
            if loop.kind != "outer" or len(blocks) < 2:
                continue
            first = _extent(blocks[0])
            for block in blocks[1:]:
                other = _extent(block)
                if first is not None and other is not None and first != other:
                    self.error("@inner blocks of one @outer loop must have the same extent: "
                               f"this block runs {_show(other)} threads, the first "
                               f"{_show(first)}", block.node,
                               notes=[note(f"the first @inner block ({_show(first)}) is here",
                                           blocks[0].loc)],
                               hint="all blocks run on the same threads: give them the same "
                                    "bounds and skip the extra threads with if (i < n)")

    def _exclusive_slots(self, kernel: Kernel) -> None:
        for var in list(kernel.exclusive):
            self._rehome(kernel, var)
        for var in kernel.exclusive:
            outer = var.outer
            top = outer
            while top.parent is not None:
                top = top.parent
            blocks = [c for c in outer.children if c.kind == "inner"]
            extent = _extent(blocks[0]) if blocks else None
            product = None if extent is None else _product(extent.values())
            limit = _product(top.max_inner_dims) if top.max_inner_dims else None
            var.slots = product if product is not None else limit
            if var.slots is None:
                self.error(f"cannot size @exclusive '{var.name}' for CPU backends: the @inner "
                           "loops of this @outer loop have no compile-time extent", var.loc,
                           hint="make the @inner bounds compile-time constants (e.g. -D "
                                "p_N=16) or add @max_inner_dims(x, y, z) to the outer-most "
                                "@outer loop")

    def _rehome(self, kernel: Kernel, var: Variable) -> None:
        """Move an @exclusive declared in an @outer loop whose threads run in nested @outer
        loops (no @inner block of its own) into each nested @outer loop that holds the
        @inner blocks.  Each thread has its own copy on a GPU wherever it is declared, and
        its uses all sit in @inner loops, so the meaning is unchanged; on a CPU the copies
        are then sized and indexed per block like any other @exclusive."""
        homes = _exclusive_homes(var.outer)
        items = var.outer.node.stmt.block_items if isinstance(var.outer.node.stmt,
                                                              c_ast.Compound) else None
        if homes == [var.outer] or not items or not any(d is var.node for d in items):
            return
        items.remove(var.node)
        attrs = [a for a in self.amap.of(var.node) if a.name == "exclusive"]
        copies = []
        for k, home in enumerate(homes):
            decl = var.node if k == 0 else clone(var.node)
            for a in attrs:
                if decl is not var.node:
                    self.amap.add(decl, a)
            home.node.stmt.block_items.insert(0, decl)
            copies.append(Variable(var.kind, var.name, decl, var.loc, home, var.sizes))
        at = kernel.exclusive.index(var)
        kernel.exclusive[at:at + 1] = copies

    def _max_inner_dims_respected(self, kernel: Kernel) -> None:
        for top in kernel.outers:
            if not top.max_inner_dims:
                continue
            limit = dict(enumerate(top.max_inner_dims))
            for loop in top.walk():
                for block in (c for c in loop.children
                              if c.kind == "inner" and loop.kind == "outer"):
                    extent = _extent(block) or {}
                    over = [a for a, n in extent.items() if n > limit.get(a, 1)]
                    if over:
                        self.error("[@inner] loop dimensions larger than allowed by "
                                   f"[@max_inner_dims]: {_show(extent)} threads, at most "
                                   f"{_show(limit)}", block.node,
                                   notes=[note("@max_inner_dims is given here",
                                               self.aloc(self.amap.get(top.node,
                                                                       "max_inner_dims")))],
                                   hint="raise @max_inner_dims or make the @inner loops "
                                        "shorter")

    def _uses_outside_inner(self, kernel: Kernel) -> None:
        names = {v.name: v for v in kernel.shared + kernel.exclusive}
        if not names:
            return
        reported: set[tuple[str, int]] = set()
        for outer in kernel.outers:
            for ident in _ids_outside_inner(outer.node.stmt, self.amap):
                var = names.get(ident.name)
                line = ident.coord.line if ident.coord else 0
                if var is not None and (var.name, line) not in reported:
                    reported.add((var.name, line))
                    self.error(f"Cannot use [@{var.kind}] variables outside an [@inner] loop",
                               ident, notes=[note(f"'{var.name}' is declared here", var.loc)],
                               hint="read and write it inside an @inner loop")

    def _captures(self, kernel: Kernel) -> None:
        if not self.host_vars:  # nothing declared outside the loops: nothing to capture
            return
        for outer in kernel.outers:
            uses = [i for i in ids_in(outer.node) if i.name in self.host_vars]
            if not uses:
                continue
            # one walk for the names declared inside and the writes to plain names (checked
            # below once the captured variables are known: nothing changes the tree between)
            inside: set[str] = set()
            writes: list[tuple[c_ast.Node, c_ast.Node]] = []
            for n in walk(outer.node):
                if isinstance(n, c_ast.Decl):
                    inside.add(n.name)
                elif isinstance(n, c_ast.Assignment):
                    writes.append((n, n.lvalue))
                elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
                    writes.append((n, n.expr))
            found: list[HostVar] = []
            for ident in uses:
                name = ident.name
                if name in inside or any(h.name == name for h in found):
                    continue
                decl = self.host_vars[name]
                ctype = self.types.resolve(decl.type)
                if ctype.pointer or ctype.dtype is None:
                    self.error(f"host variable '{name}' ({ctype.text}) is used inside an "
                               "[@outer] loop; only scalars computed on the host can be "
                               "passed to device code", ident,
                               notes=[note(f"'{name}' is declared here", self.loc(decl))],
                               hint="pass it as a kernel argument instead")
                    continue
                found.append(HostVar(name, ctype, decl))
            if not found:
                continue
            for n, target in writes:
                if isinstance(target, c_ast.ID) and any(h.name == target.name for h in found):
                    self.error(f"cannot assign host variable '{target.name}' inside an "
                               "[@outer] loop: device code cannot write host variables", n,
                               hint="declare a separate variable inside the loop")
            order = list(self.host_vars)  # declaration order
            kernel.captures[id(outer.node)] = sorted(found, key=lambda h: order.index(h.name))


def _nowhere() -> None:
    return None


class _Context:
    """Where the walker is: attributed loops above, and what break/continue may leave."""

    def __init__(self, stack=(), regular=False, loop_ok=False, switch_ok=False,
                 unsure=False):
        self.stack: list[Loop] = list(stack)
        self.regular = regular
        self.loop_ok = loop_ok
        self.switch_ok = switch_ok
        self.unsure = unsure  # inside a loop whose attributes are in error: check nothing

    @property
    def outers(self) -> list[Loop]:
        return [lp for lp in self.stack if lp.kind == "outer"]

    @property
    def inners(self) -> list[Loop]:
        return [lp for lp in self.stack if lp.kind == "inner"]

    def enter(self, loop: Loop) -> _Context:
        return _Context(self.stack + [loop])

    def plain_loop(self) -> _Context:
        return _Context(self.stack, bool(self.stack), True, True, self.unsure)

    def switch(self) -> _Context:
        return _Context(self.stack, self.regular, self.loop_ok, True, self.unsure)

    def unknown(self) -> _Context:
        return _Context(self.stack, self.regular, True, True, unsure=True)


def _ids_outside_inner(node, amap: AttributeMap) -> list[c_ast.ID]:
    """Identifier uses in an @outer body that are not inside an @inner loop or a declaration
    of a @shared/@exclusive variable, in source order."""
    out: list[c_ast.ID] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None or isinstance(n, c_ast.For) and amap.has(n, "inner"):
            continue
        if isinstance(n, c_ast.For) and amap.has(n, "outer"):
            stack.append(n.stmt)
        elif isinstance(n, c_ast.Decl) and (amap.has(n, "shared") or amap.has(n, "exclusive")):
            continue
        elif isinstance(n, c_ast.ID):
            out.append(n)
        elif isinstance(n, c_ast.StructRef):
            stack.append(n.name)
        else:
            stack.extend(child for _, child in reversed(n.children()))
    return out


def _exclusive_homes(outer: Loop) -> list[Loop]:
    """The @outer loops at or below ``outer`` whose bodies hold the @inner blocks."""
    nested = [c for c in outer.children if c.kind == "outer"]
    if any(c.kind == "inner" for c in outer.children) or not nested or not all(
            isinstance(c.node.stmt, c_ast.Compound) for c in nested):
        return [outer]
    return [home for c in nested for home in _exclusive_homes(c)]


def _extent(block: Loop) -> dict[int, int] | None:
    """{axis: trip count} along a block's first deepest path of @inner loops, if constant."""
    out = {}
    for loop in block.path():
        value = loop.trip_value
        if value is None:
            return None
        out[loop.axis] = value
    return out


def _count(n: int, kind: str) -> str:
    return f"{n} @{kind} loop" + ("s" if n != 1 else "")


def _show(extent: dict[int, int]) -> str:
    return " x ".join(str(extent[k]) for k in sorted(extent))


def _product(values) -> int:
    p = 1
    for v in values:
        p *= v
    return p


def _param_decls(ftype: c_ast.FuncDecl) -> list[c_ast.Node]:
    return list(ftype.args.params) if ftype.args else []


def _quals(t) -> list[str]:
    while isinstance(t, (c_ast.ArrayDecl,)):
        t = t.type
    return list(getattr(t, "quals", []) or [])


def _expr(text: str):
    from ..parser.cparse import parse_expression
    try:
        return parse_expression(text)
    except Exception:
        return None
