"""The next slab's short runs of a read-only array, prefetched at the top of a slab loop.

A GPU-style @outer body walks its element in a plain loop (the slab loop, BK5's ``k``) whose
iterations run @inner blocks; at BK5 N = 3 each slab reads seven runs of 16 doubles of
``ggeo`` (one per geometric factor, 512 bytes apart) between blocks of arithmetic that wait on
them.  Runs of two lines are too short for the hardware prefetchers to follow, so each slab
-- and worst, slab 0 of each element -- starts with seven misses.  The OKL-order hand C
(benchmarks/peers/openmp/bk5_okl_order.c) reads six of the seven factors of a whole element
in one light loop, whose misses overlap.  okl's translation executes fewer instructions
(callgrind, AVX2 build, N = 3: 533 k against the peer's 620 k for the same elements) and in
cache runs 1.10-1.17 times as fast as the peer, yet streaming 500 k nodes from memory it ran
0.88-0.92 of it.  So the top of each slab-loop iteration asks for the lines the next iteration
reads (at the last slab, slab 0 of the next @outer iteration)::

    if (k + 1 < 4 || e + 1 < Nelements) {
      const int ggeo__next = k + 1 < 4 ? e * 448 + (k + 1) * 16 : (e + 1) * 448;
      for (int l = 0; l < 16; l += 8) {
        __builtin_prefetch(&ggeo[ggeo__next + l]);
        __builtin_prefetch(&ggeo[ggeo__next + 64 + l]);
        ...
      }
    }

A prefetch changes no value (the same bits), so the only legality question is that each
address it forms points into the array: it is one that the next slab (or the next @outer
iteration's first slab, which ``e + 1 < bound`` says exists) reads unconditionally, or lies
between two such reads.  Checked, refused otherwise:

- the @outer loop (one with no @outer loop inside) is ``for (T e = a; e < B; ++e)``, B free of
  side effects and of names the body writes, its body holds no ``continue``, ``break``,
  ``return`` or ``goto`` of its own, and the slab loop is one of its body's statements (not
  under a branch), a counted loop of constant range that holds two @inner loops or more
  (so other blocks' work separates its reads; one block is a plain loop nest, which the
  hardware prefetcher follows);
- the loads are of a ``const``-qualified pointer parameter of a known scalar type (and the
  kernel stores through no other pointer than its named arrays), one subscript, reached
  from the slab loop's body through blocks and counted loops of constant range only (no
  ``if``, ``?:``, ``&&``, ``||`` or other loop on the way);
- the subscript is affine in the @outer iterator, the slab iterator and the counted loops'
  iterators (locals declared with an initialiser in a block around the load, never written,
  are read through): ``c_e e + c_k k + sum c_v v + c``, ``c_e`` and ``c_k`` not zero and the
  same for every load of the array; per slab, the loads' ranges, merged where less than a
  line apart, each at most twice as long as the number of values that read it.

Only runs shorter than 4 lines (256 bytes) are prefetched, a line each (a run that fits one
line: one prefetch, no loop), at most 64 lines a slab.  At BK5 N = 7 and 9 (runs of 8 and
12.5 lines) the same prefetches cost 3-10 %; at N = 5 (runs of 4.5 lines), once cpu.ahead
(okl/transforms/cpu/ahead.py) asked for the next element's q and Aq, they cost 4 % on one
thread and 12 % on two (against the hand C, from Python on the same arrays, in turn: one
thread 1.11 with them, 1.15 without; two threads 0.96-0.98 with, 1.09-1.10 without;
without cpu.ahead too, two threads 0.94 with, 1.01 without).  The hardware prefetcher
follows runs that long; the prefetches only add to the traffic that two threads share.
What the next @outer iteration reads or writes outside its slab loop is cpu.ahead's.  One
thread, ratio to the OKL-order hand C (an interleaved C harness, the median over 12 rounds
of each round's best of 3 calls, two runs): N = 3 0.88 -> 1.16-1.25; OpenMP, 2 threads: N =
3 0.89 -> 1.17-1.18; with cpu.ahead, against the hand C, one thread 0.91 -> 1.24, two
threads 0.89 -> 1.10.  The prefetches add 3-4 % of the instructions (callgrind).  Measured
on one x86 VM (gcc 12, AVX-512); ``__builtin_prefetch`` is gcc's and clang's (okl's CPU
compilers).
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import clone, is_id, is_pure, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel, Loop
from .facts import array_root, fresh_name, leaves_early, subscripts, written_names
from .loops import counted_loop

#: bytes per cache line
LINE = 64
#: runs this many lines or longer are left to the hardware prefetcher
LONG_RUN = 4
#: at most this many lines prefetched per slab
MOST_LINES = 64
SIZES = {("double",): 8, ("float",): 4, ("int",): 4, ("unsigned", "int"): 4,
          ("unsigned",): 4, ("long",): 8, ("long", "long"): 8, ("short",): 2,
          ("char",): 1, ("int64_t",): 8, ("int32_t",): 4, ("uint64_t",): 8,
          ("uint32_t",): 4}
#: an affine form: iterator -> coefficient, "" -> the constant term
Affine = dict[str, int]


def prefetch_next_slabs(kernel: Kernel) -> int:
    """Add the prefetches to every slab loop the conditions allow; return how many."""
    params = _read_only_params(kernel)
    if not params:
        return 0
    inner = {id(loop.node) for loop in kernel.loops() if loop.kind == "inner"}
    done = 0
    for outer in kernel.loops():
        if outer.kind != "outer" or any(c.kind == "outer" for c in outer.children):
            continue
        done += _outer(kernel, outer, params, inner)
    return done


def typed_pointers(kernel: Kernel) -> dict[str, tuple[int, bool]]:
    """Name -> (element size, ``const``) of the ``T *`` parameters of a known scalar T that
    the body does not declare again (a name declared again may mean a local array there)."""
    func = kernel.node.decl.type
    out = {}
    for p in func.args.params if isinstance(func.args, c_ast.ParamList) else []:
        t = getattr(p, "type", None)
        if isinstance(t, c_ast.PtrDecl) and isinstance(t.type, c_ast.TypeDecl) and \
                isinstance(t.type.type, c_ast.IdentifierType) and p.name:
            size = SIZES.get(tuple(t.type.type.names))
            if size is not None:
                out[p.name] = (size, "const" in t.type.quals)
    declared = {n.name for n in walk(kernel.node.body) if isinstance(n, c_ast.Decl)}
    return {n: v for n, v in out.items() if n not in declared}


def _read_only_params(kernel: Kernel) -> dict[str, int]:
    """Name -> element size of the ``const T *`` parameters of a known scalar T that nothing
    in the kernel writes (no store through any pointer either)."""
    written = written_names(kernel.node.body)
    if "*" in written:
        return {}
    return {n: size for n, (size, const) in typed_pointers(kernel).items()
            if const and n not in written}


def outer_shape(node: c_ast.For) -> tuple[str, c_ast.Node, list[str]] | None:
    """(iterator, bound, T) of ``for (T e = a; e < B; ++e)``, T an integer type."""
    init, cond, step = node.init, node.cond, node.next
    if not isinstance(init, c_ast.DeclList) or len(init.decls) != 1:
        return None
    name, t = init.decls[0].name, init.decls[0].type
    if not isinstance(t, c_ast.TypeDecl) or not isinstance(t.type, c_ast.IdentifierType) or \
            tuple(t.type.names) not in SIZES or tuple(t.type.names) in (("double",), ("float",)):
        return None
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op == "<" and is_id(cond.left, name)):
        return None
    if not (isinstance(step, c_ast.UnaryOp) and step.op in ("++", "p++") and
            is_id(step.expr, name)):
        return None
    return name, cond.right, list(t.type.names)


def steady_outer(outer: Loop) -> tuple[str, c_ast.Node, list[str], c_ast.Compound,
                                      set[str]] | None:
    """(iterator, bound, T, body, the names the body writes) of an @outer loop
    ``for (T e = a; e < B; ++e)`` whose every iteration runs its whole body (no
    ``continue``, ``break``, ``return``, ``goto``) and whose bound B the body cannot change
    (free of side effects and of names the body writes; no store through a pointer):
    iteration e + 1 exists exactly when e + 1 < B."""
    shape = outer_shape(outer.node)
    body = outer.node.stmt
    if shape is None or not isinstance(body, c_ast.Compound) or leaves_early(body):
        return None
    e, bound, index = shape
    written = written_names(body)
    if not is_pure(bound) or "*" in written or \
            any(isinstance(n, c_ast.ID) and n.name in written for n in walk(bound)):
        return None
    return e, bound, index, body, written


def slab_loops(body: c_ast.Compound, inner: set[int]) -> list[c_ast.For]:
    """The statements of ``body`` that are slab loops: plain counted loops of constant range
    (cpu.loops) whose braced bodies hold two @inner loops or more (ids in ``inner``)."""
    return [item for item in body.block_items or []
            if isinstance(item, c_ast.For) and id(item) not in inner and
            isinstance(item.stmt, c_ast.Compound) and counted_loop(item) is not None and
            _blocks(item.stmt, inner) >= 2]


def _outer(kernel: Kernel, outer: Loop, params: dict[str, int], inner: set[int]) -> int:
    steady = steady_outer(outer)
    if steady is None:
        return 0
    e, bound, index, body, written = steady
    done = 0
    for item in slab_loops(body, inner):
        block = _slab_prefetch(kernel, item, e, bound, index, params, written)
        if block is not None:
            assert isinstance(item.stmt, c_ast.Compound)
            item.stmt.block_items = [block, *(item.stmt.block_items or [])]
            done += 1
    return done


def _blocks(body: c_ast.Node, inner: set[int]) -> int:
    """How many outermost @inner loops ``body`` holds."""
    if id(body) in inner:
        return 1
    return sum(_blocks(c, inner) for _, c in body.children())


def _slab_prefetch(kernel: Kernel, slab: c_ast.For, e: str, bound: c_ast.Node,
                   index: list[str], params: dict[str, int],
                   written: set[str]) -> c_ast.Node | None:
    k, first, count = counted_loop(slab)  # type: ignore[misc]
    if count < 1:
        return None
    loads: dict[str, list[tuple[Affine, dict[str, range]]]] = {}
    refused: set[str] = set()
    for ref, path in references(slab.stmt, set(params)):
        name = array_root(ref)
        assert name is not None
        found = affine_reference(ref, path, (e, k), written)
        if found is None:
            refused.add(name)
        else:
            loads.setdefault(name, []).append(found)
    blocks = []
    for name, forms in loads.items():
        if name in refused:
            continue
        runs = _runs(forms, e, k, params[name])
        if runs is None:
            continue
        c_e, c_k, kept = runs
        if kept:
            blocks.append((name, c_e, c_k, kept))
    if not blocks:
        return None
    taken = {n.name for n in walk(kernel.node) if isinstance(n, c_ast.ID)} | \
        {n.name for n in walk(kernel.node) if isinstance(n, c_ast.Decl) and n.name}
    return _emit(blocks, e, bound, index, k, first, count, params, taken, slab.coord)


def references(root: c_ast.Node, names: set[str]):
    """(reference, path from ``root``) of the one-subscript references to ``names`` that
    every pass through ``root`` evaluates; references under anything else are reported
    with a path of None (refused)."""
    plain = (c_ast.Compound, c_ast.Decl, c_ast.TypeDecl, c_ast.Assignment, c_ast.BinaryOp,
             c_ast.UnaryOp, c_ast.Cast, c_ast.Typename, c_ast.IdentifierType, c_ast.ID,
             c_ast.Constant, c_ast.ArrayRef, c_ast.DeclList, c_ast.ArrayDecl, c_ast.PtrDecl,
             c_ast.Pragma, c_ast.ExprList, c_ast.FuncCall, c_ast.Return, c_ast.EmptyStatement)

    def visit(n: c_ast.Node, path: list[c_ast.Node] | None):
        if isinstance(n, c_ast.ArrayRef) and array_root(n) in names:
            yield n, (path if path is not None and len(subscripts(n)) == 1 else None)
        here: list[c_ast.Node] | None = path
        if path is not None:
            conditional = isinstance(n, c_ast.BinaryOp) and n.op in ("&&", "||")
            counted = isinstance(n, c_ast.For) and counted_loop(n) is not None and \
                counted_loop(n)[2] > 0  # type: ignore[index]
            if counted:
                here = [*path, n]
            elif conditional or not isinstance(n, plain):
                here = None
            else:
                here = [*path, n]
        for _, c in n.children():
            yield from visit(c, here)
    yield from visit(root, [])


def affine_reference(ref: c_ast.ArrayRef, path: list[c_ast.Node] | None,
                     iterators: tuple[str, ...],
                     written: set[str]) -> tuple[Affine, dict[str, range]] | None:
    """The subscript of ``ref`` as an affine form in ``iterators`` (each with a coefficient
    other than 0) and the counted loops on ``path``, with those loops' ranges; None when it
    is not one."""
    if path is None:
        return None
    ranges: dict[str, range] = {}
    locals_: dict[str, c_ast.Node] = {}
    declared: set[str] = set()
    for n, child in zip(path, [*path[1:], ref], strict=True):
        if isinstance(n, c_ast.For):
            shape = counted_loop(n)
            if shape is None or child is not n.stmt:
                return None
            ranges[shape[0]] = range(shape[1], shape[1] + shape[2])
        elif isinstance(n, c_ast.Compound):
            for item in n.block_items or []:
                if item is child:
                    break
                if isinstance(item, c_ast.Decl) and item.name:
                    declared.add(item.name)
                if isinstance(item, c_ast.Decl) and item.name and item.init is not None and \
                        isinstance(item.type, c_ast.TypeDecl) and item.name not in written:
                    locals_[item.name] = item.init
                elif isinstance(item, c_ast.Decl) and item.name:
                    locals_.pop(item.name, None)
    if set(iterators) & set(ranges) or len(set(iterators)) < len(iterators) or \
            declared & {*iterators, *ranges}:
        return None  # an iterator declared again on the way: refused
    form = _affine(subscripts(ref)[0], {*iterators, *ranges}, locals_, 0)
    if form is None or not all(form.get(v) for v in iterators):
        return None
    return form, ranges


def _affine(n: c_ast.Node, names: set[str], locals_: dict[str, c_ast.Node],
            depth: int) -> Affine | None:
    if depth > 16:
        return None
    value = evaluate(n)
    if value is not None:
        return {"": value}
    if isinstance(n, c_ast.ID):
        if n.name in names:
            return {n.name: 1}
        if n.name in locals_:
            return _affine(locals_[n.name], names, locals_, depth + 1)
        return None
    if isinstance(n, c_ast.Cast):
        return _affine(n.expr, names, locals_, depth + 1)
    if isinstance(n, c_ast.UnaryOp) and n.op in ("-", "+"):
        inner = _affine(n.expr, names, locals_, depth + 1)
        return None if inner is None else _scale(inner, -1 if n.op == "-" else 1)
    if isinstance(n, c_ast.BinaryOp) and n.op in ("+", "-", "*"):
        left = _affine(n.left, names, locals_, depth + 1)
        right = _affine(n.right, names, locals_, depth + 1)
        if left is None or right is None:
            return None
        if n.op == "*":
            if set(left) <= {""}:
                return _scale(right, left.get("", 0))
            if set(right) <= {""}:
                return _scale(left, right.get("", 0))
            return None
        sign = -1 if n.op == "-" else 1
        out = dict(left)
        for key, c in right.items():
            out[key] = out.get(key, 0) + sign * c
        return out
    return None


def _scale(form: Affine, c: int) -> Affine:
    return {key: v * c for key, v in form.items()}


def _runs(forms: list[tuple[Affine, dict[str, range]]], e: str, k: str,
          size: int) -> tuple[int, int, list[tuple[int, int]]] | None:
    """(c_e, c_k, [(offset, length)]) of the array's short runs per slab, offsets from
    ``c_e e + c_k k``; None when the loads do not share c_e and c_k or a range is sparse."""
    c_e, c_k = forms[0][0][e], forms[0][0][k]
    spans = []
    for form, ranges in forms:
        if form[e] != c_e or form[k] != c_k:
            return None
        found = dense_span(form, ranges)
        if found is None:
            return None
        spans.append(found)
    per_line = max(LINE // size, 1)
    kept = [(lo, n) for lo, n in merge_spans(spans, per_line) if n * size < LONG_RUN * LINE]
    lines = sum(-(-n // per_line) for _, n in kept)
    if lines > MOST_LINES:
        return None
    return c_e, c_k, kept


def dense_span(form: Affine, ranges: dict[str, range]) -> tuple[int, int] | None:
    """(lowest, highest) offset from the form's iterators' terms that the counted loops'
    ``ranges`` reach; None when they reach fewer than half the values between (a sparse
    run: its lines are not worth asking for)."""
    lo = hi = form.get("", 0)
    points = 1
    for v, r in ranges.items():
        c = form.get(v, 0)
        if c:
            lo += min(c * r[0], c * r[-1])
            hi += max(c * r[0], c * r[-1])
            points *= len(r)
    return None if hi - lo + 1 > 2 * points else (lo, hi)


def merge_spans(spans: list[tuple[int, int]], per_line: int) -> list[tuple[int, int]]:
    """(offset, length) of the runs that ``spans`` make, spans less than a line apart
    joined."""
    merged: list[list[int]] = []
    for lo, hi in sorted(spans):
        if merged and lo <= merged[-1][1] + per_line:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [(lo, hi - lo + 1) for lo, hi in merged]


def number(v: int) -> c_ast.Constant:
    return c_ast.Constant("int", str(v))


def times(c: int, expr: c_ast.Node) -> c_ast.Node:
    return expr if c == 1 else c_ast.BinaryOp("*", expr, number(c))


def plus(a: c_ast.Node, c: int) -> c_ast.Node:
    if c == 0:
        return a
    return c_ast.BinaryOp("-" if c < 0 else "+", a, number(abs(c)))


def add_all(terms: list[c_ast.Node]) -> c_ast.Node:
    out = terms[0]
    for t in terms[1:]:
        out = c_ast.BinaryOp("+", out, t)
    return out


def _emit(blocks, e: str, bound: c_ast.Node, index: list[str], k: str, first: int,
          count: int, params: dict[str, int], taken: set[str], coord) -> c_ast.Node:
    """``if (k + 1 < end || e + 1 < B) { const T A__next = ...; for (l) prefetch... }``, T the
    @outer iterator's type."""
    end = first + count
    more_slabs = c_ast.BinaryOp("<", plus(c_ast.ID(k), 1), number(end))
    items: list[c_ast.Node] = []
    for name, c_e, c_k, runs in blocks:
        nxt = fresh_name(taken, f"{name}__next")
        same = add_all([times(c_e, c_ast.ID(e)), times(c_k, plus(c_ast.ID(k), 1))])
        after = add_all([times(c_e, plus(c_ast.ID(e), 1)),
                      *([times(c_k, number(first))] if first else [])])
        items.append(c_ast.Decl(nxt, ["const"], [], [], [], c_ast.TypeDecl(
            nxt, ["const"], None, c_ast.IdentifierType(list(index))),
            c_ast.TernaryOp(clone(more_slabs), same, after), None, coord=coord))
        per_line = max(LINE // params[name], 1)
        by_length: dict[int, list[int]] = {}
        for offset, length in runs:
            by_length.setdefault(length, []).append(offset)
        for length, offsets in by_length.items():
            line = fresh_name(set(taken), "l")
            calls = [c_ast.FuncCall(c_ast.ID("__builtin_prefetch"), c_ast.ExprList([
                c_ast.UnaryOp("&", c_ast.ArrayRef(c_ast.ID(name), c_ast.BinaryOp(
                    "+", plus(c_ast.ID(nxt), offset), c_ast.ID(line))
                    if length > per_line else plus(c_ast.ID(nxt), offset)))]))
                for offset in offsets]
            if length <= per_line:  # a line each: no loop
                items.extend(calls)
                continue
            body = calls[0] if len(calls) == 1 else c_ast.Compound(calls)
            items.append(c_ast.For(
                c_ast.DeclList([c_ast.Decl(line, [], [], [], [], c_ast.TypeDecl(
                    line, [], None, c_ast.IdentifierType(["int"])), number(0), None)]),
                c_ast.BinaryOp("<", c_ast.ID(line), number(length)),
                c_ast.Assignment("+=", c_ast.ID(line), number(per_line)), body, coord=coord))
    more_elements = c_ast.BinaryOp("<", plus(c_ast.ID(e), 1), clone(bound))
    return c_ast.If(c_ast.BinaryOp("||", more_slabs, more_elements),
                    c_ast.Compound(items, coord=coord), None, coord=coord)
