"""``okl.translate``: OKL source to backend source plus kernel signatures and launch plans
(module ``okl.translation``: named apart from the function, which ``okl.translate`` is)."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from pycparser import c_ast

from . import modes
from .ctree import rewrite, walk
from .errors import Diagnostic, Diagnostics, SourceLoc, TranslationError
from .frontend import Clock, analyze
from .model.kernel import Param, Program
from .modes import MODES
from .parser.source import read_source
from .targets.emitter import Emitter, uses_of
from .targets.target import Target
from .transforms.atomics import lower_atomics
from .transforms.barriers import insert_barriers
from .transforms.checked import CheckTable, add_hidden_params, failure_function, guard_kernel
from .transforms.cpu.barriers import split_inner_barriers
from .transforms.cpu.lower import lower_cpu_kernel
from .transforms.cpu.simd import independent_inner_loops
from .transforms.float_abs import float_abs
from .transforms.gpu.lower import lower_gpu_kernel
from .transforms.gpu.tile_checks import distribute_tile_checks
from .transforms.index_bounds import BoundsPlan, derive_bounds
from .transforms.launch import KernelPlan, launcher_text, plan_kernel


@dataclass
class KernelInfo:
    """A kernel as the runtime sees it: its signature and how to launch it."""

    name: str
    params: list[Param]
    plan: KernelPlan
    entry: str | None = None  # CPU: the `_okl_entry_<name>(void **)` symbol
    bounds: BoundsPlan | None = None  # the largest index of its pointer accesses
    checks: CheckTable | None = None  # checked mode: the guarded accesses (whole file)

    @property
    def device_kernels(self):
        return self.plan.device_kernels


@dataclass
class Translation:
    mode: str
    source: str
    kernels: list[KernelInfo]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    program: Program | None = None

    def kernel(self, name: str) -> KernelInfo:
        """The KernelInfo of the kernel called ``name``; KeyError naming the file's kernels
        if there is none."""
        for k in self.kernels:
            if k.name == name:
                return k
        known = ", ".join(k.name for k in self.kernels)
        raise KeyError(f"no @kernel named '{name}' (kernels: {known})")

    def launcher(self) -> str:
        """The launch plan of every kernel as text (what ``oklc translate --launcher``
        prints)."""
        program = self.program
        with _deep_expressions(program.kernels[0].loc if program and program.kernels else None):
            return "".join(launcher_text(k.plan) for k in self.kernels)


def normalize_mode(mode: str) -> str:
    m = mode.strip().lower()
    if m not in MODES:
        raise ValueError(f"unknown mode '{mode}': choose one of {', '.join(MODES)}")
    return m


def translate(source: str | bytes, mode: str, *, defines: dict | None = None, include_dirs=(),
              filename: str | None = None, line_directives: bool = True,
              check_bounds: bool = False,
              timings: dict[str, float] | None = None) -> Translation:
    """Translate OKL ``source`` for ``mode``; raise TranslationError with diagnostics.

    ``check_bounds``: guard every access through a pointer argument (okl.transforms.checked);
    the kernels then take hidden arguments that the runtime fills.
    ``timings``, when given, receives the seconds spent per stage: the front end's
    (:func:`okl.frontend.analyze`) and :data:`LOWER_STAGES` (benchmarks/translate_time.py)."""
    mode = normalize_mode(mode)
    with _no_cycle_collection():
        program = analyze(source, filename or "<input>", mode=mode, defines=defines,
                          include_dirs=include_dirs, timings=timings)
        where = program.kernels[0].loc if program.kernels else \
            SourceLoc(filename or "<input>", 1, 1)
        with _deep_expressions(where):
            return lower_program(program, modes.get(mode).target_class()(),
                                 line_directives=line_directives,
                                 check_bounds=check_bounds, timings=timings)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off while a translation runs: a translation allocates tens of
    thousands of short-lived nodes, lists and dicts, which start a collection every 700
    allocations -- 5-10 % of a translation's time -- and frees them when it returns (their
    few cycles wait for the next collection).  Left as it was found: a program that turned
    the collector off keeps it off."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextmanager
def _deep_expressions(where: SourceLoc | None) -> Iterator[None]:
    """Room for pycparser's generator, which recurses once per operator, and a diagnostic at
    ``where`` (the first kernel: which expression is unknown here) where even that is not
    enough."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        yield
    except RecursionError:
        raise TranslationError(diagnostics=[Diagnostic(
            "error", "an expression in this kernel nests too deeply to translate",
            where or SourceLoc("<input>", 1, 1),
            hint="split it into several statements with temporary variables")]) from None
    finally:
        sys.setrecursionlimit(limit)


def translate_file(path: str | os.PathLike, mode: str, **kw) -> Translation:
    """:func:`translate` of a file; SourceFileError (an OKLError) when it cannot be read."""
    return translate(read_source(path), mode, filename=os.fspath(path), **kw)


#: What :func:`lower_program` reports in ``timings``: analyses over the whole program
#: (float_abs, bounds, barriers, launch plans), lowering of every kernel and global for the
#: target, printing the C text.
LOWER_STAGES = ("analyses", "lower", "emit")


def lower_program(program: Program, target: Target, *, line_directives: bool = True,
                  check_bounds: bool = False,
                  timings: dict[str, float] | None = None) -> Translation:
    """The validated ``program`` as ``target``'s source text plus what the runtime needs."""
    clock = Clock(timings)
    diags = Diagnostics()
    float_abs(program, diags)
    checks = CheckTable() if check_bounds else None
    # checked mode: the kernel checks every access itself, so no static check before launch
    bounds = {k.name: None if checks else derive_bounds(k, program.expanded.origin)
              for k in program.kernels}
    if checks is not None:
        for k in program.kernels:
            add_hidden_params(k, checks)
    insert_barriers(program)
    plans = {k.name: plan_kernel(k, program, diags) for k in program.kernels}
    clock.lap("analyses")
    kernels_by_node = {id(k.node): k for k in program.kernels}
    infos = []
    out: list[c_ast.Node] = []
    lowered: dict[str, list[c_ast.Node]] = {}
    for ext in program.ast.ext:
        kernel = kernels_by_node.get(id(ext))
        if kernel is not None:
            # checked mode records the first bad access: its loops stay scalar; GPU lowering
            # has no SIMD lanes to mark
            if target.gpu:
                distribute_tile_checks(program, kernel, diags)
            else:
                split_inner_barriers(program, kernel, diags)
            independent = independent_inner_loops(kernel) \
                if checks is None and not target.gpu else set()
            lower_atomics(program, kernel, target, diags)
            plan = plans[kernel.name]
            nodes = lowered[kernel.name] = \
                lower_gpu_kernel(program, kernel, plan, target, diags) if target.gpu else \
                lower_cpu_kernel(program, kernel, target, independent)
            out.extend(nodes)
            entry = None if target.gpu else f"_okl_entry_{kernel.name}"
            infos.append(KernelInfo(kernel.name, kernel.params, plan, entry,
                                    bounds[kernel.name], checks))
        else:
            out.append(_lower_global(ext, target, program, diags))
    _spell(out, target)
    if not target.gpu:
        _internal_linkage(out)
    target.finish_functions(out, program, diags)
    diags.raise_if_errors()
    if checks is not None and lowered:
        _guard_accesses(out, lowered, program, target, checks)
    clock.lap("lower")
    emitter = Emitter(program.expanded, line_directives=line_directives)
    defined = {n.decl.name for n in out if isinstance(n, c_ast.FuncDef)} | \
        {n.name for n in out if isinstance(n, c_ast.Typedef)}
    uses = uses_of(out) - defined  # what the prologue must declare
    parts = [target.prologue(uses)]
    for inc in dict.fromkeys(program.expanded.system_includes):
        if not (target.gpu and inc in target.builtin_headers) and \
                f"#include {inc}\n" not in parts[0]:
            parts.append(f"#include {inc}\n")
    parts.append("\n")
    parts.append("\n".join(emitter.emit_external(node) for node in out))
    warnings = program.warnings + diags.warnings
    text = emitter.resolve("".join(parts))
    clock.lap("emit")
    return Translation(target.mode, text, infos, warnings, program)


def _guard_accesses(out: list[c_ast.Node], lowered: dict[str, list[c_ast.Node]],
                    program: Program, target: Target, checks: CheckTable) -> None:
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


def _lower_global(ext: c_ast.Node, target: Target, program: Program,
                  diags: Diagnostics) -> c_ast.Node:
    """Device functions and file-scope variables outside the kernels."""
    decl = ext.decl if isinstance(ext, c_ast.FuncDef) else ext
    if target.c99_inline and isinstance(decl, c_ast.Decl) and \
            isinstance(decl.type, c_ast.FuncDecl) and "inline" in decl.funcspec and \
            not {"static", "extern"} & set(decl.storage):
        # C99 (and OpenCL C): a plain `inline` definition provides no external symbol, so a
        # call the compiler does not inline fails to link
        decl.storage = ["static"] + list(decl.storage)
    if not target.gpu:
        return ext
    if isinstance(ext, c_ast.FuncDef):
        ext.decl.storage = list(target.device_function_storage) + list(ext.decl.storage)
        return ext
    if isinstance(ext, c_ast.Decl) and isinstance(ext.type, c_ast.FuncDecl):
        ext.storage = list(target.device_function_storage) + list(ext.storage)
        return ext
    if isinstance(ext, c_ast.Decl) and ext.name and not isinstance(ext.type, c_ast.FuncDecl):
        if not _is_const(ext.type):
            loc = program.expanded.locate(ext.coord.line, ext.coord.column) if ext.coord \
                else None
            diags.error(f"file-scope variable '{ext.name}' must be const to be used by GPU "
                        "kernels", loc, hint=f"declare it as const, or pass '{ext.name}' as a "
                                             "kernel argument")
            return ext
        ext.storage = [target.constant_storage] + [s for s in ext.storage if s != "static"]
    return ext


def _internal_linkage(nodes: list[c_ast.Node]) -> None:
    """CPU kernels are shared libraries loaded into the Python process: a kernel or helper
    with external linkage is interposed by a same-named symbol loaded earlier (glibc exports
    `step`, and a kernel called `step` then runs glibc's).  Everything the file defines is
    made static; only the `_okl_entry_*` wrappers stay visible."""
    defined = {n.decl.name for n in nodes if isinstance(n, c_ast.FuncDef)}
    for n in nodes:
        decl = n.decl if isinstance(n, c_ast.FuncDef) else n
        if not isinstance(decl, c_ast.Decl) or not decl.name or \
                decl.name.startswith("_okl_entry_") or {"static", "extern"} & set(decl.storage):
            continue
        if isinstance(decl.type, c_ast.FuncDecl) and decl.name not in defined:
            continue  # a prototype of something defined elsewhere (libc)
        decl.storage = ["static"] + list(decl.storage)


def _is_const(t: c_ast.Node) -> bool:
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    return "const" in getattr(t, "quals", [])


def _spell(nodes: list[c_ast.Node], target: Target) -> None:
    """Backend spellings: restrict qualifiers, pragmas, OpenCL keywords used as names (one
    walk) and OpenCL math function names."""
    reserved = target.reserved
    math_names = target.math_names
    for root in nodes:
        calls: list[c_ast.FuncCall] = []  # the calls the walk meets, for math_names
        aligned = False  # some node has an _Alignas (a part of the tree walk skips)
        for n in walk(root):
            cls = type(n)
            if cls is c_ast.FuncCall and n is not root:  # (rewrite passes no root to fn)
                calls.append(n)
            elif cls in _ALIGNED and n.align:
                aligned = True
            if isinstance(n, c_ast.PtrDecl) and "restrict" in n.quals:
                n.quals = [target.restrict if q == "restrict" else q for q in n.quals]
            elif isinstance(n, c_ast.Compound) and any(
                    isinstance(x, c_ast.Pragma) for x in n.block_items or []):
                items = []
                for x in n.block_items:
                    if isinstance(x, c_ast.Pragma):
                        text = target.pragma(x.string)
                        if text is None:
                            continue
                        x.string = text
                    items.append(x)
                n.block_items = items
            if reserved:
                _rename_reserved(n, reserved)
        # (no math name is reserved: the order does not matter)
        if math_names and aligned:  # rewrite also visits what _Alignas holds
            rewrite(root, lambda n: _rename_call(n, math_names))
        elif math_names:
            for n in calls:
                _rename_call(n, math_names)


#: the node classes with an ``align`` slot (_Alignas nodes, which walk does not visit)
_ALIGNED = frozenset({c_ast.Decl, c_ast.TypeDecl, c_ast.Typename})


def _rename_reserved(n: c_ast.Node, reserved: frozenset[str]) -> None:
    """A C identifier that is an OpenCL keyword (`half`, `global`...) gets an _okl_ prefix."""
    if isinstance(n, c_ast.ID) and n.name in reserved:
        n.name = "_okl_" + n.name
    elif isinstance(n, c_ast.Decl) and n.name in reserved:
        n.name = "_okl_" + n.name
    elif isinstance(n, c_ast.TypeDecl) and n.declname in reserved:
        n.declname = "_okl_" + n.declname


def _rename_call(n: c_ast.Node, names: dict[str, str]):
    if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and \
            n.name.name in names:
        n.name = c_ast.ID(names[n.name.name], coord=n.name.coord)
    return None


__all__ = ["Translation", "KernelInfo", "translate", "translate_file", "TranslationError"]
