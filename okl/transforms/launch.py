"""Launch plans: one device kernel per top-level @outer loop, with its grid as data.

For each axis the launched extent is the largest trip count of the loops on that axis (OCCA
takes the first path only, so a larger sibling block silently lost iterations).  A loop's
trip count may mention the iterators of the loops around it (tiles: ``_okl_tiled_i + 16``),
so each extent is a *term*: the iterators of the enclosing attributed loops bound to their
start values, then the trip-count expression -- exactly what OCCA's launcher does by copying
the loops' init declarations.  The runtime evaluates terms in Python; nothing here needs a
host C++ compiler.
"""

from __future__ import annotations

from dataclasses import field, replace

from pycparser import c_ast, c_generator

from ..ctree import clone, ids_in, walk
from ..errors import Diagnostics, SourceLoc
from ..model.consteval import evaluate
from ..model.kernel import HostVar, Kernel, Loop, Param, Program
from ..model.loops import LoopForm
from ..model.types import TypeTable
from ..parser.cpp.preprocess import Expanded
from ..record import record

_UNKNOWN = object()


@record
class Extent:
    """The trip count of one loop, with the start values of the loops around it."""

    kind: str  # "outer" | "inner"
    axis: int
    bindings: list[tuple[str, c_ast.Node]]  # (iterator, start) outermost first
    count: c_ast.Node
    loop: Loop | None = field(default=None, compare=False, repr=False)
    #: the loop's own form and the C types of the bound iterators (one per binding), for
    #: counting its iterations exactly as the C loop runs them (okl.runtime.launch.launcher)
    form: LoopForm | None = field(default=None, compare=False, repr=False)
    binding_types: list[str] = field(default_factory=list, compare=False, repr=False)

    # depends_on, value and text are computed once per extent: it holds its own copies of
    # the loop's trees, which nothing changes, and the launch plan and the lowering ask
    # each loop's sibling terms for them many times (DeviceKernel.exact).
    def _once(self, key: str, compute):
        cached = self.__dict__.get(key, _UNKNOWN)
        if cached is _UNKNOWN:
            cached = self.__dict__[key] = compute()
        return cached

    def depends_on(self) -> list[str]:
        """Iterators of enclosing attributed loops that the count mentions."""
        return list(self._once("_depends_on", self._depends_on))

    def _depends_on(self) -> tuple[str, ...]:
        names = {i.name for i in ids_in(self.count)}
        return tuple(name for name, _ in self.bindings if name in names)

    def value(self) -> int | None:
        """The trip count when it is a compile-time constant (else None)."""
        return self._once("_value", self._value)

    def _value(self) -> int | None:
        env: dict[str, int] = {}
        for name, start in self.bindings:
            v = evaluate(start, env)
            if v is None:
                env.pop(name, None)
            else:
                env[name] = v
        if self.form is not None:
            return self.form.trip_value(env)
        return evaluate(self.count, env)

    def text(self) -> str:
        """`count`, preceded by the bindings it needs: `_okl_tiled_i = 0; 16`."""
        return self._once("_text", self._text)

    def _text(self) -> str:
        gen = c_generator.CGenerator()
        needed = {i.name for i in ids_in(self.count)}
        lets = ""
        for name, start in reversed(self.bindings):
            if name in needed:
                lets = f"{name} = {gen.visit(start)}; " + lets
                needed |= {i.name for i in ids_in(start)}
        return lets + gen.visit(self.count)


@record
class DeviceKernel:
    name: str
    index: int
    outer_loop: Loop
    extents: list[Extent]
    captured: list[HostVar] = field(default_factory=list)  # device kernel arguments
    #: every host variable the launch reads: the captured ones and those that only size it
    host_inputs: list[HostVar] = field(default_factory=list)

    def dims(self, kind: str) -> int:
        axes = [e.axis for e in self.extents if e.kind == kind]
        return max(axes) + 1 if axes else 0

    def on_axis(self, kind: str, axis: int) -> list[Extent]:
        return [e for e in self.extents if e.kind == kind and e.axis == axis]

    def constant_dims(self, kind: str) -> tuple[int, ...] | None:
        """The extents per axis when all are compile-time constants (for launch bounds)."""
        out = []
        for axis in range(self.dims(kind)):
            values = [e.value() for e in self.on_axis(kind, axis)]
            known = [v for v in values if v is not None]
            if not known or len(known) < len(values):
                return None
            out.append(max(known))
        return tuple(out)

    def exact(self, loop: Loop) -> bool:
        """True when the launched extent on the loop's axis is provably its trip count, so the
        device code needs no bounds guard: every loop on the axis has the same constant trip
        count, or the same count expression (``t < m`` in every block) that does not depend on
        an enclosing iterator."""
        terms = self.on_axis(loop.kind, loop.axis)
        mine = loop.trip_value
        if mine is not None and all(t.value() == mine for t in terms):
            return True
        own = next((t for t in terms if t.loop is loop), None)
        if own is None or own.depends_on():
            return False
        return all(t.text() == own.text() and not t.depends_on() for t in terms)

    @property
    def max_inner_dims(self) -> tuple[int, ...] | None:
        """@max_inner_dims of the outer-most loop: the runtime must not launch more."""
        return self.outer_loop.max_inner_dims

    def arguments(self, params: list[Param]) -> list[str]:
        return [p.name for p in params] + [h.name for h in self.captured]


@record
class KernelPlan:
    name: str
    params: list[Param]
    device_kernels: list[DeviceKernel]
    host: c_ast.Compound  # kernel body; top-level @outer loops replaced by _okl_launch(k)
    #: the file's types (host declarations may use its typedefs and structs) and positions
    types: TypeTable = field(default_factory=TypeTable, repr=False)
    expanded: Expanded | None = field(default=None, repr=False)

    def locate(self, node: c_ast.Node) -> SourceLoc | None:
        """Where ``node`` is in the .okl source (None when unknown)."""
        if self.expanded is None or node.coord is None or not node.coord.line:
            return None
        return self.expanded.locate(node.coord.line, node.coord.column or 1)


def plan_kernel(kernel: Kernel, program: Program | None = None,
                diags: Diagnostics | None = None) -> KernelPlan:
    """The launch plan of ``kernel`` (of ``program``); extents that no single launch size
    can serve are reported to ``diags``."""
    kernels = []
    for k, outer in enumerate(kernel.outers):
        extents: list[Extent] = []
        _collect(outer, [], [], extents)
        dk = DeviceKernel(f"_okl_{kernel.name}_{k}", k, outer, extents,
                          host_inputs=kernel.captured(outer))
        dk.captured = _device_uses(dk, dk.host_inputs)
        kernels.append(dk)
        if diags is not None:
            _check_extents(dk, diags)
    # Copy the body with each top-level @outer loop replaced by its launch marker: copying
    # the loops themselves (most of a kernel) would cost seconds for large kernels.
    markers = {id(o.node): c_ast.FuncCall(c_ast.ID("_okl_launch"),
                                          c_ast.ExprList([c_ast.Constant("int", str(k))]),
                                          coord=o.node.coord)
               for k, o in enumerate(kernel.outers)}
    host = clone(kernel.node.body, markers)
    if program is None:
        return KernelPlan(kernel.name, kernel.params, kernels, host)
    return KernelPlan(kernel.name, kernel.params, kernels, host, program.types,
                      program.expanded)


def _check_extents(dk: DeviceKernel, diags: Diagnostics) -> None:
    for e in dk.extents:
        names = e.depends_on()
        if names and e.loop is not None:
            it = e.loop.iterator
            diags.error(f"the trip count of this @{e.kind} loop depends on '{names[0]}', the "
                        f"iterator of an enclosing loop, but all {e.kind} iterations of a "
                        "launch must have one size (OCCA sizes it for the first iteration "
                        "only)", e.loop.loc,
                        hint=f"loop over the largest range and skip the rest: for (... {it} < "
                             f"<largest>; ...) {{ if (<your condition on {it}>) {{ ... }} }}")


def _device_uses(dk: DeviceKernel, captured: list[HostVar]) -> list[HostVar]:
    """The captured host variables that device code reads: a loop bound that only sizes the
    launch (the loop needs no guard) stays on the host."""
    if not captured:  # nothing to look for (most kernels): no walk of the loop nest
        return []
    skip: set[int] = set()
    for loop in dk.outer_loop.walk():
        if dk.exact(loop) and loop.node.cond is not None:
            skip.update(id(n) for n in walk(loop.node.cond))
    used = {n.name for n in ids_in(dk.outer_loop.node) if id(n) not in skip}
    return [h for h in captured if h.name in used]


def _collect(loop: Loop, bindings: list[tuple[str, c_ast.Node]], types: list[str],
             out: list[Extent]) -> None:
    out.append(Extent(loop.kind, loop.axis, list(bindings), clone(loop.trip_count()),
                      loop, _form_copy(loop.form), list(types)))
    inner = bindings + [(loop.iterator, clone(loop.form.start))]
    for child in loop.children:
        _collect(child, inner, types + [loop.form.iter_type], out)


def _form_copy(form: LoopForm) -> LoopForm:
    """``form`` with its own trees: lowering rewrites the loop's nodes afterwards."""
    return replace(form, type_node=clone(form.type_node), start=clone(form.start),
                   bound=clone(form.bound), step=None if form.step is None else clone(form.step))


def launcher_text(plan: KernelPlan) -> str:
    """Human-readable launch plan (``oklc translate --launcher``)."""
    gen = c_generator.CGenerator()
    lines = [f"kernel {plan.name}({', '.join(p.c_type + ' ' + p.name for p in plan.params)})"]
    for dk in plan.device_kernels:
        lines.append(f"  device kernel {dk.index}: {dk.name}"
                     f"({', '.join(dk.arguments(plan.params))})")
        for kind in ("outer", "inner"):
            for axis in range(dk.dims(kind)):
                terms = list(dict.fromkeys(t.text() for t in dk.on_axis(kind, axis))) or ["1"]
                shown = terms[0] if len(terms) == 1 else "max(" + ", ".join(terms) + ")"
                lines.append(f"    {kind}[{axis}] = {shown}")
        if dk.max_inner_dims:
            lines.append(f"    max_inner_dims = {', '.join(map(str, dk.max_inner_dims))}")
    lines.append("  host:")
    body = gen.visit(plan.host)
    lines.extend(("    " + line).rstrip() for line in body.rstrip().split("\n")
                 if line.strip())
    return "\n".join(lines) + "\n"


def device_memory_reads(plan: KernelPlan, diags: Diagnostics) -> None:
    """On a GPU mode the launch sizes (the trip counts of the @outer and @inner loops) and
    the code around the @outer loops run on the host, before any device kernel: they cannot
    read the memory a pointer argument points to, which lives on the device.  Reported at
    translation (``oklc check`` included), not first when the launcher is built."""
    pointers = {p.name for p in plan.params if p.is_pointer}
    if not pointers:
        return
    trees: list[c_ast.Node] = [plan.host]
    for dk in plan.device_kernels:
        for e in dk.extents:
            trees.append(e.count)
            trees.extend(start for _, start in e.bindings)
    reported: set[tuple[int, int]] = set()
    for tree in trees:
        for n in walk(tree):
            if isinstance(n, c_ast.ArrayRef):
                root = n.name
            elif isinstance(n, c_ast.UnaryOp) and n.op == "*":
                root = n.expr
            elif isinstance(n, c_ast.StructRef) and n.type == "->":
                root = n.name
            else:
                continue
            while isinstance(root, (c_ast.ArrayRef, c_ast.StructRef, c_ast.Cast,
                                    c_ast.UnaryOp, c_ast.BinaryOp)):
                root = root.name if isinstance(root, (c_ast.ArrayRef, c_ast.StructRef)) else \
                    root.expr if isinstance(root, (c_ast.Cast, c_ast.UnaryOp)) else root.left
            where = (n.coord.line, n.coord.column or 0) if n.coord else (0, 0)
            if not isinstance(root, c_ast.ID) or root.name not in pointers or \
                    where in reported:
                continue
            reported.add(where)
            text = c_generator.CGenerator().visit(n)
            diags.error("on GPU modes launch sizes and the code around the @outer loops run on "
                        "the host, before the kernel: they cannot read device memory "
                        f"('{text}' reads through pointer argument '{root.name}')",
                        plan.locate(n),
                        hint="pass the value as a scalar argument (const int n) instead")
