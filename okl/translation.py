"""``okl.translate``: OKL source to backend source plus kernel signatures and launch plans
(module ``okl.translation``: named apart from the function, which ``okl.translate`` is)."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import field
from typing import TYPE_CHECKING

from pycparser import c_ast

from . import modes
from .errors import Diagnostic, Diagnostics, SourceLoc, TranslationError
from .frontend import Clock, analyze
from .model.kernel import Param, Program
from .modes import MODES
from .parser.source import STRING_NAME, read_source
from .record import record
from .recursion import deep_recursion
from .targets.emitter import emit_file
from .targets.target import Target
from .transforms.atomics import lower_atomics
from .transforms.barriers import insert_barriers
from .transforms.float_abs import float_abs
from .transforms.globals import internal_linkage, lower_global
from .transforms.launch import KernelPlan, device_memory_reads, launcher_text, plan_kernel
from .transforms.spelling import spell

# the passes of one kind of target, and of the checkers, are imported where they run: a
# translation for cuda loads no CPU pass (and the command line starts that much sooner)
if TYPE_CHECKING:
    from .transforms.checked import CheckTable
    from .transforms.index_bounds import BoundsPlan
    from .transforms.races import RaceTable


@record
class KernelInfo:
    """A kernel as the runtime sees it: its signature and how to launch it."""

    name: str
    params: list[Param]
    plan: KernelPlan
    entry: str | None = None  # CPU: the `_okl_entry_<name>(void **)` symbol
    bounds: BoundsPlan | None = None  # the largest index of its pointer accesses
    checks: CheckTable | None = None  # checked mode: the guarded accesses (whole file)
    races: RaceTable | None = None  # the race checker's accesses and regions (whole file)
    user_params: int = 0  # how many of ``params`` the user wrote (the rest are hidden)

    @property
    def device_kernels(self):
        return self.plan.device_kernels


@record
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
        raise KeyError(f"no @kernel named {name!r} (kernels: {known})")

    def launcher(self) -> str:
        """The launch plan of every kernel as text (what ``oklc translate --launcher``
        prints)."""
        program = self.program

        def where() -> SourceLoc:
            return program.kernels[0].loc if program and program.kernels else \
                SourceLoc(STRING_NAME, 1, 1)

        with _deep_expressions(where):
            return "".join(launcher_text(k.plan) for k in self.kernels)


def normalize_mode(mode: str) -> str:
    m = mode.strip().lower()
    if m not in MODES:
        raise ValueError(f"unknown mode '{mode}': choose one of {', '.join(MODES)}")
    return m


def translate(source: str | bytes, mode: str, *, defines: dict | None = None, include_dirs=(),
              filename: str | None = None, line_directives: bool = True,
              check_bounds: bool = False, check_races: bool = False,
              bounds_plans: bool = True,
              timings: dict[str, float] | None = None) -> Translation:
    """Translate OKL ``source`` for ``mode``; raise TranslationError with diagnostics.

    ``filename`` names the source in diagnostics; without one it is ``<string>``, as
    Device.build_kernel_from_string names it (and ``oklc`` names standard input ``<stdin>``).
    ``check_bounds``: guard every access through a pointer argument (okl.transforms.checked);
    ``check_races``: report every access to the race checker's shadow state (serial and
    openmp; okl.transforms.races).  Either way the kernels take hidden arguments that the
    runtime fills.
    ``bounds_plans=False`` leaves out what only the runtime reads before a launch, the
    largest index of each kernel's pointer accesses (``KernelInfo.bounds`` is None, as for a
    kernel with no provably bounded access): ``oklc translate`` prints the same text and
    diagnostics without deriving them, 3 % of its time.
    ``timings``, when given, receives the seconds spent per stage: the front end's
    (:func:`okl.frontend.analyze`) and :data:`LOWER_STAGES` (benchmarks/translate_time.py)."""
    mode = normalize_mode(mode)
    with _no_cycle_collection():
        program = analyze(source, filename or STRING_NAME, mode=mode, defines=defines,
                          include_dirs=include_dirs, timings=timings)
        def where() -> SourceLoc:
            return program.kernels[0].loc if program.kernels else \
                SourceLoc(filename or STRING_NAME, 1, 1)

        with _deep_expressions(where):
            return lower_program(program, modes.get(mode).target_class()(),
                                 line_directives=line_directives,
                                 check_bounds=check_bounds, check_races=check_races,
                                 bounds_plans=bounds_plans, timings=timings)


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
def _deep_expressions(where: Callable[[], SourceLoc]) -> Iterator[None]:
    """Room for pycparser's generator, which recurses once per operator, and a diagnostic at
    ``where()`` (the first kernel: which expression is unknown here) where even that is not
    enough.  (A function: finding a column aligns a line's tokens with its original's, and
    most translations need no location at all.)"""
    try:
        with deep_recursion():
            yield
    except RecursionError:
        raise TranslationError(diagnostics=[Diagnostic(
            "error", "an expression in this kernel nests too deeply to translate", where(),
            hint="split it into several statements with temporary variables")]) from None


def translate_file(path: str | os.PathLike, mode: str, **kw) -> Translation:
    """:func:`translate` of a file; SourceFileError (an OKLError) when it cannot be read."""
    return translate(read_source(path), mode, filename=os.fspath(path), **kw)


#: What :func:`lower_program` reports in ``timings``: analyses over the whole program
#: (float_abs, bounds, barriers, launch plans), lowering of every kernel and global for the
#: target, printing the C text.
LOWER_STAGES = ("analyses", "lower", "emit")


def lower_program(program: Program, target: Target, *, line_directives: bool = True,
                  check_bounds: bool = False, check_races: bool = False,
                  bounds_plans: bool = True,
                  timings: dict[str, float] | None = None) -> Translation:
    """The validated ``program`` as ``target``'s source text plus what the runtime needs
    (without the bounds plans where ``bounds_plans`` is False: see :func:`translate`)."""
    if check_races and target.gpu:
        raise ValueError(f"the race checker runs on serial and openmp, not {target.mode}")
    clock = Clock(timings)
    diags = Diagnostics()
    float_abs(program, diags)
    if check_bounds:
        from .transforms.checked import CheckTable, add_hidden_params, guard_accesses
    if check_races:
        from .transforms.races import (
            FunctionInstrumenter,
            RaceInstrumenter,
            RaceTable,
            add_race_params,
            shadow_source,
        )
    if target.gpu:
        from .transforms.gpu.lower import lower_gpu_kernel
        from .transforms.gpu.tile_checks import distribute_tile_checks
    else:
        from .targets.serial import ENTRY_PREFIX
        from .transforms.cpu.barriers import split_inner_barriers
        from .transforms.cpu.lower import lower_cpu_kernel
        from .transforms.cpu.simd import independent_inner_loops
    checks = CheckTable() if check_bounds else None
    user_params = {k.name: len(k.params) for k in program.kernels}
    # checked mode: the kernel checks every access itself, so no static check before launch
    bounds: dict[str, BoundsPlan | None] = dict.fromkeys(user_params)
    if checks is None and bounds_plans:
        from .transforms.index_bounds import derive_bounds

        bounds = {k.name: derive_bounds(k, program.expanded.origin) for k in program.kernels}
    if checks is not None:
        for k in program.kernels:
            add_hidden_params(k, checks)
    races = RaceTable() if check_races else None
    if races is not None:
        for k in program.kernels:
            add_race_params(k)
    insert_barriers(program)
    plans = {k.name: plan_kernel(k, program, diags) for k in program.kernels}
    if target.gpu:
        for plan in plans.values():
            device_memory_reads(plan, diags)
    clock.lap("analyses")
    kernels_by_node = {id(k.node): k for k in program.kernels}
    infos = []
    out: list[c_ast.Node] = []
    lowered: dict[str, list[c_ast.Node]] = {}
    for ext in program.ast.ext:
        kernel = kernels_by_node.get(id(ext))
        if kernel is not None:
            # barriers inside @inner loops: split into regions on the CPU modes; on GPUs
            # only @tile's bounds check is applied per region
            if target.gpu:
                distribute_tile_checks(program, kernel, diags)
            else:
                split_inner_barriers(program, kernel, diags, keep_barriers=races is not None)
            # checked mode records the first bad access: its loops stay scalar; GPU lowering
            # has no SIMD lanes to mark
            independent = independent_inner_loops(kernel) \
                if checks is None and races is None and not target.gpu else set()
            instrumenter = None
            if races is not None and not diags.errors:
                instrumenter = RaceInstrumenter(program, kernel, races)
                instrumenter.run()
            lower_atomics(program, kernel, target, diags)
            plan = plans[kernel.name]
            nodes = lowered[kernel.name] = \
                lower_gpu_kernel(program, kernel, plan, target, diags) if target.gpu else \
                lower_cpu_kernel(program, kernel, target, independent,
                                 sequential=races is not None)
            if instrumenter is not None:
                instrumenter.register(nodes[0])
            out.extend(nodes)
            entry = None if target.gpu else f"{ENTRY_PREFIX}{kernel.name}"
            infos.append(KernelInfo(kernel.name, kernel.params, plan, entry,
                                    bounds[kernel.name], checks, races,
                                    user_params[kernel.name]))
        else:
            if races is not None and isinstance(ext, c_ast.FuncDef):
                FunctionInstrumenter(program, ext, races).run()
            lowered_ext = lower_global(ext, target, program, diags)
            if lowered_ext is not None:
                out.append(lowered_ext)
    spell(out, target)
    if not target.gpu:
        internal_linkage(out)
    target.finish_functions(out, program, diags)
    diags.raise_if_errors()
    if checks is not None and lowered:
        guard_accesses(out, lowered, program, target, checks)
    if target.pointer_offsets:  # last: the guards above read the parameters' positions
        from .transforms.gpu.pointer_offsets import add_pointer_offsets
        for info in infos:
            add_pointer_offsets(lowered[info.name], len(info.params))
    clock.lap("lower")
    text = emit_file(out, program.expanded, target, line_directives=line_directives)
    if races is not None:
        text = shadow_source(len(races.regions)) + text
    warnings = program.warnings + diags.warnings
    clock.lap("emit")
    return Translation(target.mode, text, infos, warnings, program)


__all__ = ["Translation", "KernelInfo", "translate", "translate_file", "TranslationError"]
