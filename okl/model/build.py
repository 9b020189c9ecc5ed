"""Build the kernel model from the attributed AST and check every OKL rule on the way.

All problems are collected (never the first only) so a user sees every error of a file at
once.  Wording follows OCCA's messages (notes §2.1) where OCCA has one, so that people who
search for an OCCA error find ours too; each error says what to do.  The builder is one
object in four rooms: positions and errors (okl.model.builder_base), where attributes may
stand (okl.model.placement), the loop tree's shape (okl.model.looptree), and here the walk
that makes the model.
"""

from __future__ import annotations

from pycparser import c_ast

from ..errors import SourceLoc, note
from ..parser.attributes import Attribute
from .consteval import evaluate
from .kernel import Atomic, Barrier, Kernel, Loop, Param, Program, Variable
from .loops import LoopFormError, canonical_form
from .looptree import LoopTreeChecks
from .names import undeclared
from .placement import KNOWN, PlacementChecks
from .uniformity import check_barriers

#: the longest kernel name: every backend takes the device kernels' names (``_okl_`` + name +
#: ``_`` + index) -- PoCL aborts the process on a 1000-character one and keeps 240
KERNEL_NAME_CHARS = 200


class ModelBuilder(PlacementChecks, LoopTreeChecks):
    """The whole file: kernels, device functions, constants, each kernel's loops,
    @shared/@exclusive variables, barriers and atomics."""

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

    # -- one kernel ------------------------------------------------------------------------
    def _kernel(self, fn: c_ast.FuncDef) -> Kernel:
        decl = fn.decl
        kernel = Kernel(decl.name, fn, self.later(decl))
        if len(decl.name) > KERNEL_NAME_CHARS:
            self.error(f"[@kernel] name of {len(decl.name)} characters: okl allows at most "
                       f"{KERNEL_NAME_CHARS}", decl,
                       hint="give the kernel a shorter name (OpenCL drivers refuse or crash on "
                            "long ones)")
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
            elif not ctype.pointer and ctype.descr is None:
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


def _quals(t) -> list[str]:
    while isinstance(t, (c_ast.ArrayDecl,)):
        t = t.type
    return list(getattr(t, "quals", []) or [])
