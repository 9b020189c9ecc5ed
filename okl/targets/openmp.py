"""OpenMP C: serial C plus ``parallel for`` on each top-level @outer loop and real atomics.

``collapse(n)`` is added when the top-level @outer loop's body is nothing but another
@outer loop whose bounds do not depend on it (a perfect, rectangular nest): OCCA
parallelises the outer-most loop only, which starves threads when it is short (e.g. 2-D
grids of a few rows).  Top-level @outer loops that follow one another share one
``omp parallel`` region, an ``omp for`` each (one team wake-up per launch); a loop of one
iteration gets no pragma and runs after the region (see ``outer_pragma``).  @atomic
updates become ``omp atomic`` (``atomic write`` for ``=``); @atomic blocks and other
statements become ``omp critical`` sections.
"""

from __future__ import annotations

from pycparser import c_ast, c_generator

from ..ctree import clone, ids_in
from ..model.basetypes import integer_bits
from ..model.consteval import evaluate
from .serial import SerialTarget

UPDATE_OPS = {"+=", "-=", "*=", "/=", "&=", "|=", "^=", "<<=", ">>="}


class OpenMPTarget(SerialTarget):
    mode = "openmp"
    check_pragma = "omp critical (okl_check)"

    def outer_pragma(self, kernel, outer) -> str | None:
        """None for a loop of one iteration with no @outer loop inside (a kernel's final
        pass over its blocks' partial results, ``for (b = 0; b < 1; ++b; @outer)``): one
        thread runs it, so as its own region it only wakes the team, and in a region shared
        with the loops before it, it adds a barrier the others wait at -- on a loaded
        2-core VM reduceShared ran at 0.80 of the hand C (median of 100 interleaved pairs),
        1.00-1.05 with that loop run after the region, as the hand C sums its partials."""
        if outer.form.trip_value() == 1 and not any(c.kind == "outer" for c in outer.children):
            return None
        depth, loop = 1, outer
        while True:
            body = loop.node.stmt
            items = body.block_items if isinstance(body, c_ast.Compound) else [body]
            child = next((c for c in loop.children if c.kind == "outer"), None)
            if child is None or len(items or []) != 1 or items[0] is not child.node:
                break
            header = [child.node.init, child.node.cond, child.node.next]
            above = {o.iterator for o in _chain(child)}
            if any(i.name in above for h in header for i in ids_in(h)):
                break
            depth, loop = depth + 1, child
        if depth > 1:
            return f"omp parallel for collapse({depth})"
        more = _second_iteration(outer.form)
        return "omp parallel for" + ("" if more is None else f" {IF_CLAUSE}{more})")

    def simd_pragma(self, pragma: str) -> str:
        """``omp parallel for simd``: the threads' runs of iterations are SIMD lanes too, as
        ``GCC ivdep`` says of @inner loops (which cannot follow an OpenMP pragma)."""
        return pragma.replace("omp parallel for", "omp parallel for simd", 1)

    def share_region(self, pragmas: list[str]) -> tuple[str, list[str]] | None:
        """``parallel for`` loops in a row: ``omp parallel`` around them, ``omp for`` (its
        clauses kept) on each; the barrier at the end of each ``omp for`` keeps them in
        order.  The loops' ``if`` clauses go to the region, joined by ``||``: it wakes the
        team when one of its loops has a second iteration (none when a loop has no clause:
        it always may)."""
        head = "omp parallel for"
        if not all(p == head or p.startswith(head + " ") for p in pragmas):
            return None
        tests, loops = [], []
        for p in pragmas:
            k = p.find(" " + IF_CLAUSE)
            tests.append(None if k < 0 else p[k + 1 + len(IF_CLAUSE):-1])
            loops.append("omp for" + p[len(head):k if k >= 0 else len(p)])
        region = "omp parallel"
        if all(t is not None for t in tests):
            tests = list(dict.fromkeys(tests))  # the same test once
            joined = " || ".join(f"({t})" for t in tests) if len(tests) > 1 else tests[0]
            region += f" {IF_CLAUSE}{joined})"
        return region, loops

    def outer_guard(self, outer) -> c_ast.Node | None:
        """OpenMP counts a parallel loop's iterations in its iterator's type, where C compares
        start and bound in their common type: with an unsigned ``n`` and a negative ``s``,
        ``for (int i = s; i < n; ++i)`` runs no iteration in C and ``n - s`` under OpenMP.
        C's first test, made once before the loop, gives back C's answer: when it passes,
        both count the same iterations.  Only a signed iterator counting up from a start
        that may be negative can differ without undefined behaviour."""
        form = outer.form
        start = evaluate(form.start)
        if form.trip_value() is not None or not integer_bits(form.iter_type)[1] or \
                not form.increasing or (start is not None and start >= 0):
            return None
        start = c_ast.Cast(c_ast.Typename(None, [], None, clone(form.type_node)),
                           clone(form.start))
        return c_ast.BinaryOp(form.cmp, start, clone(form.bound))

    def atomic(self, node, base, space, diags, where):
        if isinstance(node, c_ast.Assignment) and node.op in UPDATE_OPS:
            pragma = "omp atomic"
        elif isinstance(node, c_ast.UnaryOp):
            pragma = "omp atomic"
        elif isinstance(node, c_ast.Assignment) and node.op == "=":
            pragma = "omp atomic write"
        else:
            pragma = "omp critical"
        return c_ast.Compound([c_ast.Pragma(pragma, coord=node.coord), node], coord=node.coord)


#: the clause that keeps a parallel loop of one iteration on the launching thread
IF_CLAUSE = "if(parallel: "


def _second_iteration(form) -> str | None:
    """C for "the loop has a second iteration", ``(T) (start) + 1 < bound``, of an @outer loop
    counting up by one to an exclusive bound whose count is not a constant; None otherwise.
    A parallel loop of one iteration (OP2's last block colours, a tiny mesh) runs on one
    thread either way, but as a region it first wakes the team: 40 us a launch on a 2-core
    VM with OMP_WAIT_POLICY=passive.  OpenMP's ``if`` clause only picks whether a team
    runs the loop, never what it computes, so a test that overflows costs at most that."""
    if form.trip_value() is not None or not form.increasing or form.cmp != "<" or \
            form.step is not None:
        return None
    text = c_generator.CGenerator()
    bound = text.visit(form.bound)
    bound = bound if type(form.bound) in (c_ast.ID, c_ast.Constant) else f"({bound})"
    first = evaluate(form.start)
    if first is not None:
        return f"{first + 1} < {bound}"
    start = text.visit(form.start)
    start = start if type(form.start) is c_ast.ID else f"({start})"
    return f"({text.visit(form.type_node)}) {start} + 1 < {bound}"


def _chain(loop):
    p = loop.parent
    while p is not None:
        yield p
        p = p.parent
