"""The host side of a kernel, run in Python: no host C++ compiler, no ABI trouble.

OCCA compiles a C++ "launcher" per kernel with the host compiler (and breaks when it differs
from the one OCCA was built with, its issue #514).  Here the host statements around the
top-level @outer loops -- scalar declarations, ``if``, plain loops that launch an @outer loop
many times -- are turned into a small Python function (:mod:`.hostcode`, with C's types and
arithmetic from :mod:`.cvalues`), and every ``_okl_launch(k)`` in it calls back into the
runtime with the host variables device kernel k needs.  Each device kernel's grid is another
small function of those values.
"""

from __future__ import annotations

import contextlib
import re

from pycparser import c_ast, c_generator

from ...model.uniformity import TILED_PREFIX
from ...recursion import deep_recursion
from ...transforms.launch import DeviceKernel, Extent, KernelPlan
from . import cvalues as cv
from .hostcode import HostCodeError, HostWriter


def _declare_inputs(writer: HostWriter, dk: DeviceKernel, plan: KernelPlan) -> None:
    """Make the kernel's scalar arguments and the host variables ``dk`` reads known to
    ``writer`` by their C names and types."""
    for p in plan.params:
        t = None if p.is_pointer else cv.scalar_type(p.ctype.base, p.dtype)
        writer.declare(p.name, t, None if p.is_pointer else p.dtype)
    for h in dk.host_inputs:
        t = None if h.ctype.pointer else cv.scalar_type(h.ctype.base, h.ctype.dtype)
        writer.declare(h.name, t, h.ctype.dtype)


def _grid(dk: DeviceKernel, plan: KernelPlan) -> tuple[HostWriter, list[str]]:
    """A writer holding one line per axis (``_o0 = ...``, ``_i0 = ...``) and the C names
    those lines read."""
    writer = HostWriter(plan.types, plan.locate, depth=2)
    _declare_inputs(writer, dk, plan)
    for e in dk.extents:  # first: a tile's own width may have wrapped in the trip count
        check = _tile_check(e, writer)
        if check is not None:  # no position: the helper raises its own located error
            writer._line(check, None)
    for kind in ("outer", "inner"):
        for axis in range(dk.dims(kind)):
            extents = dk.on_axis(kind, axis)
            terms = list(dict.fromkeys(_trip_count(e, writer) for e in extents))
            node = next((e.loop.node for e in extents if e.loop is not None), None)
            value = terms[0] if len(terms) == 1 else f"max({', '.join(terms)})"
            writer._line(f"_{kind[0]}{axis} = {value}", node)
    return writer, list(writer.used)


def tile_checks(dk: DeviceKernel, plan: KernelPlan) -> bool:
    """Whether the grid of ``dk`` checks a @tile loop's range at launch (see
    :func:`_tile_check`): the CPU modes then run its grid function before each call too."""
    writer = HostWriter(plan.types, plan.locate, depth=2)
    _declare_inputs(writer, dk, plan)
    with _deep_nesting():
        return any(_tile_check(e, writer) is not None for e in dk.extents)


def _tile_check(e: Extent, writer: HostWriter) -> str | None:
    """``_tile_fits(...)`` for the tile loop of a ``@tile`` (okl.model.tile), or None where
    its range provably fits (a constant bound, or any loop that is not a tile's).

    The tile loop ``for (T t = s; t < e; t += W)`` and the in-tile loop's ``i < t + W`` reach
    ``t + W`` past the last tile start, and OpenMP counts the tiles from ``e - s + W - 1`` in
    T: where the bound is within a tile width of T's limit, or the range plus a tile exceeds
    T, the C loop overflows (a hang on serial, nothing done on openmp, thread indices
    wrapping negative past the ``i < e`` check on GPUs), though the user's ``for (T i = s;
    i < e; ...)`` is fine.  Every mode refuses such a launch from the same numbers, so each
    gives the same answer; the check costs nothing in the generated loops, which keep the
    form every later pass (untile, index bounds, GPU lowering) recognises."""
    form = e.form
    if form is None or e.loop is None or not form.iterator.startswith(TILED_PREFIX) or \
            form.step is None:
        return None
    t = cv.scalar_type(form.iter_type, None)
    if t is None or t.floating:
        return None
    writer.scopes.append({})
    try:
        lets = _bindings(e, writer)
        start = writer.convert(writer.scalar(form.start), t, form.start)
        bound = writer.scalar(form.bound)
        if bound.type is None or bound.type.floating:
            return None
        cmp = cv.common(t, bound.type)
        start, bound = writer.convert(start, cmp, form.start), \
            writer.convert(bound, cmp, form.bound)
        width, widest = _width(form.step, t, writer)
    finally:
        writer.scopes.pop()
    if form.increasing and bound.hi + widest <= t.hi and \
            bound.hi - start.lo + widest <= t.hi or not form.increasing and \
            bound.lo - widest >= t.lo and start.hi - bound.lo + widest <= t.hi:
        return None  # a tile past the bound, and the range plus a tile, fit T
    loop = e.loop
    loc = loop.loc
    gen = c_generator.CGenerator()
    facts = (form.iterator[len(TILED_PREFIX):], form.iter_type, gen.visit(form.bound),
             form.increasing, form.inclusive, (loc.file, loc.line, loc.col, loc.text))
    code = f"_tile_fits({start.code}, {bound.code}, {width}, {t.lo}, {t.hi}, {facts!r})"
    used: list[str] = []
    for py, let in reversed(lets):  # a binding may read an outer one
        if re.search(rf"\b{py}\b", " ".join([code, *used])):
            used.insert(0, let)
    return f"[{', '.join(used)}, {code}]" if used else code


def _width(step: c_ast.Node, t: cv.CScalar, writer: HostWriter) -> tuple[str, int]:
    """The tile's width ``S * d`` as exact Python code (C's product could wrap, and the
    check must see the width the user asked for) and its largest possible value."""
    if isinstance(step, c_ast.BinaryOp) and step.op == "*":
        a = writer.convert(writer.scalar(step.left), t, step.left)
        b = writer.convert(writer.scalar(step.right), t, step.right)
        return f"({a.code}) * ({b.code})", max(x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi))
    width = writer.convert(writer.scalar(step), t, step)
    return width.code, width.hi


def _bindings(e: Extent, writer: HostWriter) -> list[tuple[str, str]]:
    """Declare the iterators of the loops around ``e`` (in the writer's current scope) bound
    to their start values: (Python name, ``(name := start)``) outermost first."""
    lets: list[tuple[str, str]] = []
    for (name, start), base in zip(e.bindings, e.binding_types, strict=True):
        t = writer.number(cv.scalar_type(base, None), start)
        init = writer.convert(writer.scalar(start), t, start)
        var = writer.declare(name, t)
        lets.append((var.py, f"({var.py} := {init.code})"))
    return lets


def _trip_count(e: Extent, writer: HostWriter) -> str:
    """How many times the loop of ``e`` runs, as one Python expression: its start converted
    to the iterator's type, then to the type the condition compares in, subtracted from the
    bound exactly (a C loop that would not run gives 0 or less, never a wrapped count); a
    walrus binds each enclosing iterator the count needs to its start value."""
    value = e.value()
    if value is not None or e.form is None:
        return str(value)
    form = e.form
    writer.scopes.append({})
    lets = _bindings(e, writer)  # (Python name, binding)
    t = writer.number(cv.scalar_type(form.iter_type, None), form.start)
    start = writer.convert(writer.scalar(form.start), t, form.start)
    bound = writer.scalar(form.bound)
    cmp = cv.common(t, writer.number(bound.type, form.bound))
    lo, hi = writer.convert(start, cmp, form.start), writer.convert(bound, cmp, form.bound)
    if not form.increasing:
        lo, hi = hi, lo
    count = f"{hi.code} - {lo.code}" + (" + 1" if form.inclusive else "")
    if form.step is not None:
        step = writer.convert(writer.scalar(form.step), t, form.step)
        count = f"_trips({count}, {step.code})"
    writer.scopes.pop()
    used: list[str] = []
    for py, let in reversed(lets):
        if re.search(rf"\b{py}\b", " ".join([count, *used])):
            used.insert(0, let)
    return f"[{', '.join(used)}, {count}][-1]" if used else f"({count})"


@contextlib.contextmanager
def _deep_nesting():
    """The writer recurses per statement and operator, as pycparser does: C nests deeper
    than Python's default recursion limit allows (okl.recursion: the room is shared with
    translations in other threads, never lowered under one)."""
    try:
        with deep_recursion():
            yield
    except RecursionError:
        raise HostCodeError("host code nests too deeply to run in the Python launcher; "
                            "split it into several statements") from None


def host_source(plan: KernelPlan) -> str:
    """Python source of `_host(<params>, _launch)`; `_launch(k, env)` starts device kernel k
    with ``env``, the values (by C name) that its grid and its captured variables need."""
    needs = {}
    with _deep_nesting():
        for dk in plan.device_kernels:
            needs[dk.index] = list(dict.fromkeys(_grid(dk, plan)[1] +
                                                 [h.name for h in dk.captured]))
    writer = HostWriter(plan.types, plan.locate, depth=2)
    params = []
    for p in plan.params:
        t = None if p.is_pointer else cv.scalar_type(p.ctype.base, p.dtype)
        params.append(writer.declare(p.name, t, None if p.is_pointer else p.dtype).py)
    writer.launch = needs.__getitem__
    with _deep_nesting():
        writer.stmt(plan.host)
    return writer.function([f"def _host({', '.join(params + ['_launch'])}):"])


def host_limits_source(plan: KernelPlan, checked: list[DeviceKernel]) -> str:
    """Python source of `_dims(_env)` that runs the kernel's host code and the grids of
    ``checked`` (their launch checks) for each launch it makes: the CPU modes' check of a
    device kernel whose sizes depend on host variables of the kernel, which only the host
    code computes.  Raises HostCodeError where that code cannot run in Python."""
    host = host_source(plan)
    grids = [dims_source(dk, plan) if any(dk is c for c in checked) else None
             for dk in plan.device_kernels]
    values = "".join("None, " if p.is_pointer else f"_env[{p.name!r}], " for p in plan.params)
    return (f"def _dims(_env):\n    _run_host(_HOST, _GRIDS, ({values}))\n"
            f"_HOST = {host!r}\n_GRIDS = {grids!r}\n")


def dims_source(dk: DeviceKernel, plan: KernelPlan) -> str:
    """Python source of `_dims(_env) -> (outer, inner)` for one device kernel; ``_env`` maps
    C names to values (the kernel's scalar arguments and the host variables it reads)."""
    with _deep_nesting():
        writer, names = _grid(dk, plan)
    loads = [f"    {writer.used[name].py} = _env[{name!r}]" for name in names]
    sizes = []
    for kind in ("outer", "inner"):
        terms = [f"_{kind[0]}{axis}" for axis in range(dk.dims(kind))]
        sizes.append(f"    _{kind} = ({', '.join(terms)}{',' if len(terms) == 1 else ''})")
    if dk.max_inner_dims:
        sizes.append(f"    _check_max_inner({dk.name!r}, _inner, {tuple(dk.max_inner_dims)!r})")
    sizes.append("    return _outer, _inner")
    source = writer.function(["def _dims(_env):", *loads])
    head, _, table = source.partition("_LINES = ")
    return head + "\n".join(sizes) + "\n" + (f"_LINES = {table}" if table else "")
