"""The next @outer iteration's whole-element runs, asked for across this iteration's slabs.

A GPU-style @outer body reads its element's column of values into @exclusive registers before
its slab loop and writes the results after it (BK5: ``r_q[k] = q[base + k * Nq * Nq]`` for
every thread, then ``Aq[base + k * Nq * Nq] = r_Aq[k]``).  On a CPU those two blocks are
bursts: 4 KiB of loads at the top of each element (at N = 7), 4 KiB of stores at its end,
each a new page that the hardware prefetchers have not seen, while the slab loop between
them streams only ``ggeo``.  A hand-written CPU loop reads and writes the same arrays a row
at a time, spread over the element's arithmetic.  So each slab-loop iteration asks for its
share of the lines that the next @outer iteration's blocks outside the slab loop read or
write (written ones with ``__builtin_prefetch(p, 1)``, which fetches the line for writing)::

    for (int k = 0; k < 8; ++k) {
      if (e + 1 < Nelements) {
        for (int l = k * 64; l < k * 64 + 64; l += 8)
          __builtin_prefetch(&q[(e + 1) * 512 + l]);
        for (int l = k * 64; l < k * 64 + 64; l += 8)
          __builtin_prefetch(&Aq[(e + 1) * 512 + l], 1);
      }
      ...

One thread, BK5 at N = 7 (8^3 nodes, 977 elements: ggeo, q and Aq stream from memory),
against the hand C, an interleaved C harness (median over 11 rounds of each round's best of
20 calls): 0.91 -> 0.99, the stores' share alone 0.93 (the same bits: a prefetch changes no
value).  In cache (20 elements) the code without them already ran at 1.00 of the hand C: the
gap was memory, not arithmetic.  ``python -m benchmarks.codegen_experiments --only bk5
[--threads 2]`` (benchmarks/results/cpu-2026-11-29-bk5-ahead.txt), N = 3 / 5 / 7 / 9 against
the hand C: one thread 1.08 / 1.01 / 0.97 / 0.99 -> 1.13 / 1.12 / 1.13 / 1.08, two threads
0.99 / 0.96 / 0.98 / 0.98 -> 1.10 / 1.08 / 1.12 / 1.06 (the "after" code also has
cpu.prefetch asking only for runs under 4 lines, see there).

A prefetch changes no value, so the only legality question is that each address formed
points into the array: it is one that the next @outer iteration (which ``e + 1 < B`` says
exists) reads or writes unconditionally, or lies between two such.  Checked, refused
otherwise (the same conditions as cpu.prefetch's, whose helpers this pass shares):

- the @outer loop (one with no @outer loop inside) is ``for (T e = a; e < B; ++e)``, B free
  of side effects and of names the body writes, its body holds no ``continue``, ``break``,
  ``return`` or ``goto``, stores through no pointer but its named arrays, and has a slab
  loop among its statements: a counted loop of constant range, two iterations or more,
  that holds two @inner loops or more;
- an array is a pointer parameter of a known scalar type that the kernel never points
  elsewhere and the slab loop never names (cpu.prefetch asks for those a slab ahead);
- its references used are those reached from the @outer body through blocks and counted
  loops of constant range only, one subscript, affine in the @outer iterator and the loops'
  iterators with the same coefficient of the @outer iterator in each; their ranges, merged
  where less than a line apart, each at least half dense and at least a line per slab
  (a shorter run is one or two misses, not a burst);
- at most 512 lines (32 KiB) an @outer iteration, all arrays together.
"""

from __future__ import annotations

from typing import NamedTuple

from pycparser import c_ast

from ...ctree import clone, walk
from ...model.kernel import Kernel, Loop
from .facts import array_root, fresh_name
from .loops import counted_loop
from .prefetch import (
    LINE,
    Affine,
    affine_reference,
    dense_span,
    merge_spans,
    number,
    plus,
    references,
    slab_loops,
    steady_outer,
    times,
    typed_pointers,
)

#: at most this many lines asked for per @outer iteration, all arrays together
MOST_LINES = 512


def prefetch_next_elements(kernel: Kernel) -> int:
    """Add the prefetches to every @outer loop the conditions allow; return how many."""
    params = _steady_pointers(kernel)
    if not params:
        return 0
    inner = {id(loop.node) for loop in kernel.loops() if loop.kind == "inner"}
    return sum(_outer(kernel, outer, params, inner) for outer in kernel.loops()
               if outer.kind == "outer" and not any(c.kind == "outer" for c in outer.children))


def _steady_pointers(kernel: Kernel) -> dict[str, int]:
    """Name -> element size of the pointer parameters of a known scalar type that the body
    neither assigns, steps, takes the address of, nor declares again."""
    body = kernel.node.body
    moved = {n.lvalue.name for n in walk(body)
             if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID)} | \
        {n.expr.name for n in walk(body) if isinstance(n, c_ast.UnaryOp) and
         n.op in ("++", "--", "p++", "p--", "&") and isinstance(n.expr, c_ast.ID)}
    return {n: size for n, (size, _) in typed_pointers(kernel).items() if n not in moved}


class _Run(NamedTuple):
    """A run of the next @outer iteration's values of one array: ``name[c_e * (e + 1) +
    offset + l]`` for ``0 <= l < length``, ``per_line`` values to a cache line."""
    name: str
    c_e: int
    offset: int
    length: int
    per_line: int

    @property
    def lines(self) -> int:
        return -(-self.length // self.per_line)


def _outer(kernel: Kernel, outer: Loop, params: dict[str, int], inner: set[int]) -> int:
    steady = steady_outer(outer)
    if steady is None:
        return 0
    e, bound, _, body, written = steady
    for slab in slab_loops(body, inner):  # the first that runs twice or more
        shape = counted_loop(slab)
        if shape is not None and shape[2] >= 2:
            break
    else:
        return 0
    k, first, count = shape
    in_slab = {n.name for n in walk(slab) if isinstance(n, c_ast.ID)}
    stored = {id(n.lvalue) for n in walk(body) if isinstance(n, c_ast.Assignment)} | \
        {id(n.expr) for n in walk(body)
         if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--")}
    forms: dict[str, list[tuple[Affine, dict[str, range]]]] = {}
    writes: set[str] = set()
    for ref, path in references(body, set(params) - in_slab):
        name = array_root(ref)
        assert name is not None
        if id(ref) in stored:
            writes.add(name)
        found = affine_reference(ref, path, (e,), written)
        if found is not None:
            forms.setdefault(name, []).append(found)
    runs: list[_Run] = []
    for name, refs in forms.items():
        c_e = refs[0][0][e]
        spans = [dense_span(form, ranges) for form, ranges in refs]
        if any(form[e] != c_e for form, _ in refs) or None in spans:
            continue
        per_line = max(LINE // params[name], 1)
        found_runs = (_Run(name, c_e, lo, n, per_line) for lo, n in
                      merge_spans([x for x in spans if x is not None], per_line))
        runs += [run for run in found_runs if run.lines >= count]  # a line a slab at least
    if not runs or sum(run.lines for run in runs) > MOST_LINES:
        return 0
    taken = {n.name for n in walk(kernel.node) if isinstance(n, (c_ast.ID, c_ast.Decl))
             and n.name}
    assert isinstance(slab.stmt, c_ast.Compound)
    slab.stmt.block_items = [_ask(slab, k, first, count, runs, writes, e, bound, taken),
                             *(slab.stmt.block_items or [])]
    return 1


def _ask(slab: c_ast.For, k: str, first: int, count: int, runs: list[_Run], writes: set[str],
         e: str, bound: c_ast.Node, taken: set[str]) -> c_ast.If:
    """``if (e + 1 < B) { for (int l = k * P; l < k * P + P; l += line) prefetch... }``:
    slab ``k`` (from ``first``, ``count`` iterations) asks for its P values of each run of
    the next @outer iteration."""
    items: list[c_ast.Node] = []
    for run in runs:
        share = -(-run.lines // count) * run.per_line  # values a slab: whole lines
        line = fresh_name(set(taken), "l")  # each loop declares its own
        start = times(share, plus(c_ast.ID(k), -first))
        cond: c_ast.Node = c_ast.BinaryOp("<", c_ast.ID(line), c_ast.BinaryOp(
            "+", clone(start), number(share)))
        if share * count > run.length:
            cond = c_ast.BinaryOp("&&", cond,
                                  c_ast.BinaryOp("<", c_ast.ID(line), number(run.length)))
        where = c_ast.BinaryOp("+", plus(times(run.c_e, plus(c_ast.ID(e), 1)), run.offset),
                               c_ast.ID(line))
        args: list[c_ast.Node] = [c_ast.UnaryOp("&", c_ast.ArrayRef(c_ast.ID(run.name), where))]
        if run.name in writes:
            args.append(number(1))
        call = c_ast.FuncCall(c_ast.ID("__builtin_prefetch"), c_ast.ExprList(args))
        items.append(c_ast.For(
            c_ast.DeclList([c_ast.Decl(line, [], [], [], [], c_ast.TypeDecl(
                line, [], None, c_ast.IdentifierType(["int"])), start, None)]),
            cond, c_ast.Assignment("+=", c_ast.ID(line), number(run.per_line)), call,
            coord=slab.coord))
    more = c_ast.BinaryOp("<", plus(c_ast.ID(e), 1), clone(bound))
    return c_ast.If(more, c_ast.Compound(items, coord=slab.coord), None, coord=slab.coord)
