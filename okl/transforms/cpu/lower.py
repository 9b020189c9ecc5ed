"""Lowering for CPU targets (serial, OpenMP): the kernel stays one C function.

@outer and @inner loops stay loops, @shared arrays stay local arrays (one per @outer
iteration, so private to an OpenMP thread; thread-local where too large for a stack:
cpu.offstack), @exclusive variables get one slot per @inner
iteration, barriers disappear (inner loops already run one after another), and OpenMP puts
``parallel for`` on each top-level @outer loop (loops in a row: one ``parallel`` region,
``omp for`` on each).  A ``_okl_entry_<name>(void **args)``
wrapper gives the runtime one C ABI for every kernel: ``args[i]`` is the address of scalar
argument i, or the data pointer of array argument i; ``stop`` is the launch's Ctrl-C flag,
which each top-level @outer iteration reads first (see :func:`add_stop_checks`).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from pycparser import c_ast

from ...ctree import clone, guard_in_place, is_void_param, parent_map, walk
from ...model.kernel import Kernel, Program
from ...targets.serial import ENTRY_PREFIX, NARROW_VECTORS
from ...targets.target import Target
from ..barriers import is_barrier
from .ahead import prefetch_next_elements
from .buckets import list_lanes_by_value
from .collapse import collapse_planes
from .columns import defer_column_sums
from .divmod import split_divmod_lanes
from .exclusive import lower_exclusive
from .forward import forward_shared_copies
from .gathers import prefetch_gathers
from .grid import merge_grid_tiles
from .guards import guards_to_bounds, uncounted
from .hoist import hoist_constant_fills
from .interchange import interchange_lanes
from .levels import unroll_levels
from .offstack import move_off_stack
from .pad import pad_lane_rows
from .prefetch import prefetch_next_slabs
from .registers import keep_running_values
from .simd import mark as simd_mark
from .simd import prefer_vectors, scatters
from .staging import forward_staged_arguments
from .transpose import transpose_shared
from .untile import untile
from .versions import version_full_blocks

#: id(node) -> (parent, slot), as ctree.parent_map makes it
Parents = dict[int, tuple[c_ast.Node, str]]


def lower_cpu_kernel(program: Program, kernel: Kernel, target: Target,
                     independent: AbstractSet[int] = frozenset(),
                     sequential: bool = False) -> list[c_ast.Node]:
    """``independent``: the @inner loops (ids of For nodes) to mark for SIMD (cpu.simd).
    ``sequential`` (the race checker's code): no loop is rewritten for speed and no @outer
    loop runs in parallel -- the checker's shadow state is one thread's."""
    if not sequential:
        # a column of sums across a slab loop, finished where it is read (before the
        # @exclusive variables get their slots: the saved values are @exclusive too)
        defer_column_sums(kernel)
    counted = lower_exclusive(kernel)
    if not sequential:
        # a @shared copy of an @exclusive element: the readers read the element's slot
        forward_shared_copies(kernel)
        # a @shared copy of a read-only argument: the readers read the argument
        forward_staged_arguments(kernel)
    move_off_stack(kernel)
    if sequential:
        _drop_block_unrolls(program, kernel)
        add_stop_checks(kernel, {})
        _spell_params(kernel, target)
        return [kernel.node, entry_point(kernel)]
    barriers = [n for n in program.attrs.named("barrier") if is_barrier(n, program.attrs)]
    # tile loops with nothing but their body in each tile: the user's loop again; its
    # iterations SIMD lanes where the tile's were
    untiled = untile(kernel, {id(n) for n in barriers})
    # 2-D grids of blocks that only tile two indices: the row and column loops they tile
    merge_grid_tiles(kernel, {id(n) for n in barriers})
    lanes = {outer for outer, inner in untiled.items() if inner in independent}
    guards_to_bounds(kernel, counted)
    transpose_shared(kernel)
    # @shared arrays filled with the same values in every @outer iteration: filled once
    # (per OpenMP thread, at the top of the loop's own parallel region)
    prelude = hoist_constant_fills(kernel) if _fill_once_allowed(kernel, target) else []
    _drop_block_unrolls(program, kernel)
    # lanes of run-time-length loops go inside them (their new lane loops marked for SIMD)
    swapped = interchange_lanes(
        kernel, lambda loop: id(loop.node) in independent and uncounted(loop, counted))
    # running @exclusive values of full rows in registers across the plain loop around lanes
    splits = keep_running_values(kernel, independent, counted, swapped)
    # one parent map for what follows: _guard and _prefix keep it up to date
    parents = parent_map(kernel.node)
    _drop_barriers(barriers, parents)
    simd_lanes = set()
    for loop in kernel.loops():
        if id(loop.node) in independent and id(loop.node) not in swapped and \
                uncounted(loop, counted) and not scatters(loop.node):
            _prefix(parents, loop.node, simd_mark(loop.node))
            simd_lanes.add(id(loop.node))
    # planes of rows that end in a part vector, addressed by the thread's number: one loop
    collapse_planes(kernel, simd_lanes)
    # rows of lanes that end in a part vector: their leading sums over whole vectors
    pad_lane_rows(kernel, simd_lanes)
    # a slab loop's next iteration's short runs of read-only arrays: asked for a slab ahead
    prefetch_next_slabs(kernel)
    # the next @outer iteration's runs outside its slab loop: spread over this one's slabs
    prefetch_next_elements(kernel)
    marked = []  # (pragma, loop) of the parallel @outer loops with no guard around them
    pragmas: dict[int, str] = {}  # id(top-level @outer For node) -> its parallel pragma
    for outer in kernel.outers:
        pragma = target.outer_pragma(kernel, outer)
        if pragma:
            pragmas[id(outer.node)] = pragma
        if id(outer.node) in lanes and not scatters(outer.node):
            if pragma:
                pragma = target.simd_pragma(pragma)
            else:
                _prefix(parents, outer.node, simd_mark(outer.node))
        if pragma:
            guard = target.outer_guard(outer)
            if guard is not None:
                guard_in_place(parents, outer.node, guard)
            mark = c_ast.Pragma(pragma, coord=outer.node.coord)
            _prefix(parents, outer.node, mark)
            if guard is None and not (prelude and
                                      _private_prelude(parents, prelude, mark, outer.node, target)):
                marked.append((mark, outer.node))
    # parallel loops one after the other: one parallel region (last: parents go stale)
    _share_regions(parents, marked, target)
    # marked lane loops that use t / C, t % C count t in two loops
    _, unrolled = split_divmod_lanes(kernel.node)
    if unrolled:  # gcc's straight-line lanes at 256 bits (see cpu.divmod)
        prefer_vectors(kernel.node.decl, NARROW_VECTORS)
    # a loop over values running the lanes that hold each: the lanes listed by value once
    list_lanes_by_value(kernel)
    # loads through index arrays: each iteration asks for the lines of one AHEAD later
    prefetch_gathers(kernel)
    # last, as they copy code that the passes above find through the kernel's loops: a
    # tree's levels one by one, and blocks whose rows are all full without the part rows
    unroll_levels(kernel)
    version_full_blocks(kernel, splits)
    add_stop_checks(kernel, pragmas, skip=set(untiled))
    _spell_params(kernel, target)
    return [kernel.node, entry_point(kernel)]


#: the kernel's Ctrl-C flag parameter: the entry passes the launch's ``stop`` pointer
STOP = "_okl_stop"
#: the C type of that flag (``volatile sig_atomic_t``: a signal handler may write it)
STOP_TYPE = "sig_atomic_t"


def add_stop_checks(kernel: Kernel, pragmas: dict[int, str],
                    skip: AbstractSet[int] = frozenset()) -> None:
    """Ctrl-C for a running CPU kernel: the kernel takes ``volatile sig_atomic_t *_okl_stop``
    (its last parameter) and each top-level @outer iteration starts with
    ``if (*_okl_stop) break;`` -- ``continue`` in a parallel loop (``pragmas``: OpenMP's, by
    id of the loop), which cannot be left early: the remaining iterations each cost one load.
    A collapsed nest (``collapse(k)``) is checked in its k-th loop, the iteration OpenMP
    hands out; nested @outer loops below need no check of their own.  The runtime points
    ``stop`` at a flag its SIGINT handler sets during a launch from Python's main thread, and
    at a zero elsewhere (okl.runtime.drivers.cpu_interrupt).  Passed per launch rather than
    read from a global, so Ctrl-C never stops another thread's launch of the same library;
    one load per @outer iteration, of a line no one writes until Ctrl-C, costs nothing
    measurable.

    ``skip``: untiled @tile loops (cpu.untile), whose iterations are the user's elements, not
    blocks -- a check there would stop their vectorisation -- are left unchecked."""
    _add_stop_param(kernel)
    for outer in kernel.outers:
        if id(outer.node) in skip:
            continue
        pragma = pragmas.get(id(outer.node))
        loop = outer
        depth = _collapsed(pragma) if pragma else 1
        for _ in range(depth - 1):
            child = next((c for c in loop.children if c.kind == "outer"), None)
            if child is None:
                break
            loop = child
        leave: c_ast.Node = c_ast.Continue() if pragma else c_ast.Break()
        check = c_ast.If(c_ast.UnaryOp("*", c_ast.ID(STOP)), leave, None,
                         coord=loop.node.coord)
        body = loop.node.stmt
        if isinstance(body, c_ast.Compound):
            body.block_items = [check, *(body.block_items or [])]
        else:
            loop.node.stmt = c_ast.Compound([check, body], coord=loop.node.coord)


def _collapsed(pragma: str) -> int:
    """k of a ``collapse(k)`` clause in ``pragma`` (1 without one)."""
    words = pragma.replace("(", " ( ").replace(")", " ) ").split()
    for k, word in enumerate(words[:-3]):
        if word == "collapse" and words[k + 1] == "(" and words[k + 2].isdigit():
            return int(words[k + 2])
    return 1


def _stop_decl() -> c_ast.Decl:
    """``volatile sig_atomic_t *_okl_stop``"""
    return c_ast.Decl(STOP, [], [], [], [], c_ast.PtrDecl([], c_ast.TypeDecl(
        STOP, ["volatile"], None, c_ast.IdentifierType([STOP_TYPE]))), None, None)


def _add_stop_param(kernel: Kernel) -> None:
    func = kernel.node.decl.type
    params = func.args.params if isinstance(func.args, c_ast.ParamList) else []
    params = [p for p in params if not is_void_param(p)]
    func.args = c_ast.ParamList([*params, _stop_decl()])


def _drop_block_unrolls(program: Program, kernel: Kernel) -> None:
    """``#pragma unroll`` before a plain loop around @inner blocks is meant for the GPU's
    per-thread loop; on a CPU it would unroll whole blocks (a 7x bigger, 5x slower-to-build
    BK5 for at most 20%), so it is dropped there."""
    if "unroll" not in program.expanded.text:
        return  # no such pragma (pragmas are lines of the expanded text)
    for n in walk(kernel.node):
        if not isinstance(n, c_ast.Compound) or not n.block_items or \
                not any(type(x) is c_ast.Pragma for x in n.block_items):
            continue
        items, keep = n.block_items, []
        for k, item in enumerate(items):
            nxt = items[k + 1] if k + 1 < len(items) else None
            if isinstance(item, c_ast.Pragma) and item.string.split()[:1] == ["unroll"] and \
                    isinstance(nxt, (c_ast.For, c_ast.While, c_ast.DoWhile)) and any(
                        isinstance(x, c_ast.For) and program.attrs.has(x, "inner")
                        for x in walk(nxt)):
                continue
            keep.append(item)
        n.block_items = keep


def _drop_barriers(barriers: list[c_ast.Node], parents: Parents) -> None:
    """Remove those of the program's barrier statements that are the kernel's (in its
    parent map)."""
    for n in barriers:
        if id(n) in parents:
            parent, slot = parents[id(n)]
            if isinstance(parent, c_ast.Compound):
                parent.block_items = [x for x in parent.block_items if x is not n]


def _prefix(parents: Parents, node: c_ast.Node, new: c_ast.Node) -> None:
    """Put ``new`` (a pragma: no children) right before ``node``."""
    parent, slot = parents[id(node)]
    if isinstance(parent, c_ast.Compound):
        k = next(i for i, x in enumerate(parent.block_items) if x is node)
        parent.block_items.insert(k, new)
        parents[id(new)] = (parent, slot)
    else:
        block = c_ast.Compound([new, node], coord=node.coord)
        setattr(parent, slot, block)
        parents[id(block)] = (parent, slot)
        parents[id(new)] = parents[id(node)] = (block, "block_items")


def _fill_once_allowed(kernel: Kernel, target: Target) -> bool:
    """cpu.hoist's fill may go before the kernel's one @outer loop: it is not parallel, or
    it is an OpenMP ``parallel for`` (no guard before it) that can become a region of its own
    with the fill at its top (see :func:`_private_prelude`)."""
    if len(kernel.outers) != 1:
        return False
    outer = kernel.outers[0]
    pragma = target.outer_pragma(kernel, outer)
    return pragma is None or (target.outer_guard(outer) is None and
                              target.share_region([pragma]) is not None)


def _private_prelude(parents: Parents, prelude: list[c_ast.Node], mark: c_ast.Pragma,
                     loop: c_ast.For, target: Target) -> bool:
    """``prelude`` (cpu.hoist's arrays and their fill, right before ``mark`` and ``loop``)
    inside the loop's own parallel region: ``#pragma omp parallel { prelude; #pragma omp
    for loop }``.  Each thread fills its own copy once; an array declared outside the region
    would be shared, reached through a pointer that gcc must assume the loop's stores may
    change (BK5 at N = 9: 0.55 of the hand C instead of 0.81).  False (nothing changed) where
    the target has no such region or the statements are not in that order."""
    block, _ = parents[id(loop)]
    shared = target.share_region([mark.string])
    if shared is None or not isinstance(block, c_ast.Compound):
        return False
    items = block.block_items
    k = next((i for i, x in enumerate(items) if x is prelude[0]), None)
    n = len(prelude)
    if k is None or any(items[k + i] is not x for i, x in enumerate(prelude)) or \
            k + n + 1 >= len(items) or items[k + n] is not mark or items[k + n + 1] is not loop:
        return False
    region, inner = shared
    body = c_ast.Compound([*prelude, c_ast.Pragma(inner[0], coord=mark.coord), loop],
                          coord=loop.coord)
    items[k:k + n + 2] = [c_ast.Pragma(region, coord=mark.coord), body]
    parents[id(loop)] = (body, f"block_items[{n + 1}]")
    return True


def _share_regions(parents: Parents, marked: list, target: Target) -> None:
    """Runs of parallel @outer loops that follow one another in a block, nothing but their
    pragmas between them, share one parallel region: ``#pragma omp parallel`` around them,
    ``omp for`` on each (the target's ``share_region`` spells both).  Each ``omp for`` ends
    in a barrier, so the second loop still starts when the first is done everywhere, as
    after the end of the first region; what the loops declare stays private to a thread
    and what they read from outside stays shared, as before.  One team wake-up instead of
    one per loop (a kernel with an interior and a boundary loop launches once per step)."""
    mine = {id(m): loop for m, loop in marked}
    blocks = {}
    for m, loop in marked:
        parent, _ = parents[id(loop)]
        if isinstance(parent, c_ast.Compound) and parents[id(m)][0] is parent:
            blocks[id(parent)] = parent
    for block in blocks.values():
        items, out, k = block.block_items, [], 0
        while k < len(items):
            run = 0  # pragma-loop pairs from k on
            while k + 2 * run + 1 < len(items) and \
                    mine.get(id(items[k + 2 * run])) is items[k + 2 * run + 1]:
                run += 1
            shared = target.share_region([items[k + 2 * j].string for j in range(run)]) \
                if run > 1 else None
            if shared is None:  # a lone pair, or one item that is no pragma of ours
                step = 2 * run if run else 1
                out.extend(items[k:k + step])
                k += step
                continue
            region, inner = shared
            body = []
            for j in range(run):
                mark, loop = items[k + 2 * j], items[k + 2 * j + 1]
                body += [c_ast.Pragma(inner[j], coord=mark.coord), loop]
            out += [c_ast.Pragma(region, coord=items[k].coord),
                    c_ast.Compound(body, coord=items[k + 1].coord)]
            k += 2 * run
        block.block_items = out


def _spell_params(kernel: Kernel, target: Target) -> None:
    for p in kernel.params:
        if p.restrict and isinstance(p.node.type, c_ast.PtrDecl):
            quals = p.node.type.quals
            if "restrict" not in quals:
                quals.append("restrict")


def entry_point(kernel: Kernel) -> c_ast.FuncDef:
    """``void _okl_entry_<name>(void **args, volatile sig_atomic_t *stop)
    { name(*(int *) args[0], (float *) args[1], stop); }``"""
    args = []
    for k, p in enumerate(kernel.params):
        slot = c_ast.ArrayRef(c_ast.ID("args"), c_ast.Constant("int", str(k)))
        ptype = _abstract(p.node.type)
        if p.is_pointer:
            args.append(c_ast.Cast(ptype, slot))
        else:
            args.append(c_ast.UnaryOp("*", c_ast.Cast(c_ast.Typename(
                None, [], None, c_ast.PtrDecl([], ptype.type)), slot)))
    args.append(c_ast.ID("stop"))
    call = c_ast.FuncCall(c_ast.ID(kernel.name), c_ast.ExprList(args))
    name = f"{ENTRY_PREFIX}{kernel.name}"
    void_pp = c_ast.PtrDecl([], c_ast.PtrDecl([], c_ast.TypeDecl(
        "args", [], None, c_ast.IdentifierType(["void"]))))
    stop = _stop_decl()
    stop.name = stop.type.type.declname = "stop"
    params = c_ast.ParamList([c_ast.Decl("args", [], [], [], [], void_pp, None, None), stop])
    decl = c_ast.Decl(name, [], [], [], [], c_ast.FuncDecl(params, c_ast.TypeDecl(
        name, [], None, c_ast.IdentifierType(["void"]))), None, None)
    return c_ast.FuncDef(decl, None, c_ast.Compound([call]), coord=kernel.node.coord)


def _abstract(t: c_ast.Node) -> c_ast.Typename:
    """A parameter's type without its name, as a Typename for casts (arrays decay)."""
    t = clone(t)
    if isinstance(t, c_ast.ArrayDecl):
        t = c_ast.PtrDecl([], t.type)
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        if isinstance(inner, c_ast.PtrDecl):
            inner.quals = [q for q in inner.quals if q != "restrict"]
        inner = inner.type
    inner.declname = None
    return c_ast.Typename(None, [], None, t)
