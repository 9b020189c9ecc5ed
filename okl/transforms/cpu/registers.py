"""@exclusive running values in registers across a plain loop around an @inner loop (CPUs).

OKL's blocked sums keep one running value per thread in an @exclusive variable and sweep a
plain loop over a block's rows, one @inner loop per row::

    for (int u = 0; u < 32; ++u)                      // plain loop P
      for (int t = 0; t < 256; ++t; @inner)           // lanes I
        { const int i = (b * 32 + u) * 256 + t; if (i < N) r_x += x[i]; }

On a CPU the running value is a slot per lane, ``r_x[t]``, and each row loads and stores
all 256 slots: one extra load and one store per element read.  At memory speed that costs
10-20 % on one core (the reduction ran at 0.83 of the hand-written ``omp simd`` sum), and
gcc cannot keep the slots in registers: after cpu.guards the lanes' bound is
``min(256, N - (b * 32 + u) * 256)``, a different count per row.

Here P is split where the row stops being full, and the full rows get the constant bound::

    int u = 0;
    for (; u < 32 && 256 <= N - (b * 32 + u) * 256; ++u)
      #pragma GCC unroll 64
      for (int t = 0; t < 256; ++t) ...                // every lane: the bound is 256
    for (; u < 32; ++u)
      for (int t = 0; t < min(256, N - (b * 32 + u) * 256); ++t) ...   // as before

The unrolled lane loop touches fixed slots, so gcc keeps all of them in vector registers
for the whole first loop (32 ymm registers of AVX-512 hold 256 floats).  The unroll count
is the slots' bytes over 16: below the lane count, so gcc vectorises the loop before it
unrolls it (a count >= the lane count unrolls the scalar loop first, and the scalar copies
were not re-vectorised), and at least the number of vectors of any width from 16 bytes up.

Legal for every body: the same iterations of P and of I run in the same order, each the
same code; the bound of a full row is the constant only where the original bound equals
it.  P's condition and the lanes' bound must be plain arithmetic, since the split
evaluates each once more (where the first loop ends); P's body must be the lane loop alone
and the lanes must start at a constant with ``++``.  Worth it only where a row reads and
writes a running @exclusive scalar, every use of it being the lane's own slot, and the
slots of those values fit 1 KiB (more would spill on a 16- or 32-register CPU) -- or 2 KiB,
the 32 zmm registers of AVX-512, when the kernel's function asks gcc for 512-bit vectors
(``targets.serial.WIDE_VECTORS``; gcc's -march=native on AVX-512 CPUs prefers 256 bits).
That is streamDot's 256 running doubles: in memory (at 256 bits 64 ymm would be needed) the
sum ran at 0.92-0.93 of the hand-written ``omp simd`` dot on one core, split at 256 bits 0.96,
split with 512-bit vectors 1.02 (this VM's Xeon, interleaved, thread CPU time); without
AVX-512 the macro is empty and the split still helps a little (-march=haswell: 0.93 -> 0.95).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from pycparser import c_ast

from ...ctree import clone, is_id, is_pure, parent_map, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel, Loop, Variable
from ...model.sizes import array_bytes
from ...targets.serial import WIDE_VECTORS
from .guards import uncounted
from .loops import rising_loop
from .simd import mark as simd_mark
from .simd import prefer_vectors, scatters
from .versions import Split

#: bytes of running slots kept in registers at 256-bit vectors: 32 ymm or 16 zmm registers
REGISTER_BYTES = 1024
#: at most, with the kernel's function asking for 512-bit vectors: 32 zmm registers
WIDE_REGISTER_BYTES = 2048
#: the narrowest vector the unroll count allows for (SSE's)
VECTOR_BYTES = 16


def keep_running_values(kernel: Kernel, independent: AbstractSet[int], counted: set[int],
                        swapped: set[int]) -> list[Split]:
    """Split each plain loop whose body is one lane loop with running @exclusive values (see
    the module's docstring); the splits made, for cpu.versions.  ``independent``,
    ``counted``, ``swapped``: lower_cpu_kernel's sets, so that the new full-row lane loop
    gets the ``ivdep`` mark where the lane loop does."""
    splits: list[Split] = []
    if not kernel.exclusive:
        return splits
    candidates = []
    for loop in kernel.loops():
        if loop.kind != "inner" or loop.children or not loop.in_regular or \
                id(loop.node) not in independent or id(loop.node) in swapped or \
                not uncounted(loop, counted) or scatters(loop.node):
            continue
        plan = _unroll_count(loop, _running(kernel, loop))
        if plan is not None:
            candidates.append((loop, *plan))
    if not candidates:
        return splits
    parents = parent_map(kernel.node)
    attributed = {id(lp.node) for lp in kernel.loops()}
    wide = False
    for loop, unroll, size in candidates:
        plain = _plain_parent(loop.node, parents)
        if plain is not None and id(plain) not in attributed and \
                _split(loop, plain, parents, unroll, splits):
            wide = wide or size > REGISTER_BYTES
    if wide:
        prefer_vectors(kernel.node.decl, WIDE_VECTORS)
    return splits


def _running(kernel: Kernel, loop: Loop) -> list[Variable] | None:
    """The @exclusive scalars the lane loop both reads and writes, each use the lane's own
    slot ``v[t]``; None where one is used any other way."""
    names = {v.name: v for v in kernel.exclusive if not v.sizes}
    slot_refs: dict[int, str] = {}  # id(the ID inside v[t]) -> v
    for n in walk(loop.node.stmt):
        if isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID) and \
                n.name.name in names and is_id(n.subscript, loop.iterator):
            slot_refs[id(n.name)] = n.name.name
    if any(isinstance(n, c_ast.ID) and n.name in names and id(n) not in slot_refs
           for n in walk(loop.node.stmt)):
        return None
    written, assigned = set(), set()  # slots written; ids of the targets of plain `=`
    for n in walk(loop.node.stmt):
        target = n.lvalue if isinstance(n, c_ast.Assignment) else (
            n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--")
            else None)
        if isinstance(target, c_ast.ArrayRef) and id(target.name) in slot_refs:
            written.add(slot_refs[id(target.name)])
            if isinstance(n, c_ast.Assignment) and n.op == "=":
                assigned.add(id(target))
    read = {slot_refs[id(n.name)] for n in walk(loop.node.stmt)
            if isinstance(n, c_ast.ArrayRef) and id(n.name) in slot_refs and
            id(n) not in assigned}
    return [names[v] for v in sorted(written & read)]


def _unroll_count(loop: Loop, running: list[Variable] | None) -> tuple[int, int] | None:
    """The ``GCC unroll`` count for the lane loop and the bytes of its running slots, or None
    where the split is not worth it or not possible: no running value, slots over
    WIDE_REGISTER_BYTES, lanes not a constant count from a constant start by ``++``, an
    iterator the body writes, or a label to duplicate."""
    if not running or loop.form.step is not None or not loop.form.increasing or \
            loop.form.inclusive:
        return None
    lanes, start = loop.trip_value, evaluate(loop.form.start)
    if lanes is None or start is None or start != 0 or lanes < 4:
        return None
    size = 0
    for var in running:
        total = array_bytes(var.node)
        if total is None or not var.slots:
            return None
        size += lanes * (total // var.slots)
    if size > WIDE_REGISTER_BYTES or \
            any(isinstance(n, c_ast.Label) for n in walk(loop.node.stmt)):
        return None
    if _writes(loop.node.stmt, loop.iterator):
        return None
    unroll = max(2, size // VECTOR_BYTES)
    return (unroll, size) if unroll < lanes else None


def _writes(body: c_ast.Node, name: str) -> bool:
    for n in walk(body):
        target = n.lvalue if isinstance(n, c_ast.Assignment) else (
            n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&")
            else None)
        if is_id(target, name):
            return True
    return False


def _plain_parent(lanes: c_ast.For, parents) -> c_ast.For | None:
    """The plain ``for`` whose whole body is the lane loop ``lanes`` (alone in a block or
    not), with a condition that is plain arithmetic; None otherwise."""
    parent, _ = parents.get(id(lanes), (None, None))
    if isinstance(parent, c_ast.Compound):
        if len(parent.block_items or []) != 1:
            return None
        parent, _ = parents.get(id(parent), (None, None))
    if not isinstance(parent, c_ast.For) or parent.cond is None or not is_pure(parent.cond):
        return None
    return parent


def _split(loop: Loop, plain: c_ast.For, parents, unroll: int, splits: list[Split]) -> bool:
    """True where the lanes of full rows got the unrolled constant-count loop; a split into
    two loops (not all rows full) is added to ``splits``."""
    lanes = loop.node
    cond = lanes.cond
    if not isinstance(cond, c_ast.BinaryOp) or cond.op != "<" or \
            not is_id(cond.left, loop.iterator) or not is_pure(cond.right):
        return False
    count = c_ast.Constant("int", str(loop.trip_value))
    unrolled = c_ast.Pragma(f"GCC unroll {unroll}", coord=lanes.coord)
    if evaluate(cond.right) == loop.trip_value:  # every row full: no split
        _set_body(plain, [unrolled, lanes])
        return True
    full = clone(lanes)
    full.cond = c_ast.BinaryOp("<", c_ast.ID(loop.iterator), count)
    head = plain.init
    rows = rising_loop(plain)
    full_row = _full_row(cond.right, count)
    first = c_ast.For(None, c_ast.BinaryOp("&&", clone(plain.cond), clone(full_row)),
                      clone(plain.next) if plain.next is not None else None,
                      c_ast.Compound([simd_mark(full), unrolled, full], coord=lanes.coord),
                      coord=plain.coord)
    plain.init = None
    items: list[c_ast.Node] = []
    if isinstance(head, c_ast.DeclList):
        items += head.decls
    elif head is not None:
        items.append(head)
    block = c_ast.Compound([*items, first, plain], coord=plain.coord)
    parent, slot = parents[id(plain)]
    if isinstance(parent, c_ast.Compound):
        k = next(i for i, x in enumerate(parent.block_items) if x is plain)
        parent.block_items[k] = block
    else:
        setattr(parent, slot, block)
    parents[id(block)] = (parent, slot)
    parents[id(plain)] = (block, "block_items")
    if rows is not None:
        decl, end, step = rows
        splits.append(Split(block, list(items), first, decl.name, clone(decl.init), clone(end),
                            step, full_row))
    return True


def _full_row(bound: c_ast.Node, count: c_ast.Constant) -> c_ast.BinaryOp:
    """The condition under which the lanes' bound is the whole count: ``C <= E`` for the
    ``(C < E) ? (C) : (E)`` that cpu.guards makes, else ``bound == C``."""
    if isinstance(bound, c_ast.TernaryOp) and isinstance(bound.cond, c_ast.BinaryOp) and \
            bound.cond.op == "<" and evaluate(bound.cond.left) == int(count.value) and \
            evaluate(bound.iftrue) == int(count.value):
        return c_ast.BinaryOp("<=", clone(bound.cond.left), clone(bound.cond.right))
    return c_ast.BinaryOp("==", clone(bound), count)


def _set_body(plain: c_ast.For, items: list[c_ast.Node]) -> None:
    plain.stmt = c_ast.Compound(items, coord=plain.stmt.coord)
