"""Which @inner loops may run their iterations as SIMD lanes on a CPU.

The iterations of an @inner loop are a block's threads: between two barriers a GPU runs them
at once, so an OKL kernel that gives one answer on a GPU has no dependence between them --
except through @atomic updates, which several threads may make to one place.  gcc cannot
prove this on its own: an @exclusive array indexed by the loop (``r_Aq[m][t]`` beside
``r_Aq[k][t]``) looks like a possible overlap, so gcc keeps a scalar copy of the loop behind
a run-time alias test that always fails (BK5's D^T loop ran scalar).  ``#pragma GCC ivdep``
on the innermost @inner loops says what OKL already guarantees; gcc still checks that
vectorising is legal for everything else.  Other compilers ignore the pragma.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import walk
from ...model.kernel import Kernel

PRAGMA = "GCC ivdep"


def lane_loops(kernel: Kernel):
    """The innermost @inner loops: the ones gcc vectorises, their iterations SIMD lanes."""
    return (loop for loop in kernel.loops()
            if loop.kind == "inner" and not any(c.kind == "inner" for c in loop.children))


def independent_inner_loops(kernel: Kernel) -> set[int]:
    """``id`` of the For node of every innermost @inner loop with no @atomic inside (call
    before lower_atomics rewrites the atomic statements)."""
    atomic = {id(a.node) for a in kernel.atomics}
    return {id(loop.node) for loop in lane_loops(kernel)
            if not atomic or not any(id(n) in atomic for n in walk(loop.node))}


def mark(loop: c_ast.For) -> c_ast.Pragma:
    return c_ast.Pragma(PRAGMA, coord=loop.coord)
