"""Which @inner loops may run their iterations as SIMD lanes on a CPU.

The iterations of an @inner loop are a block's threads: between two barriers a GPU runs them
at once, so an OKL kernel that gives one answer on a GPU has no dependence between them --
except through @atomic updates, which several threads may make to one place.  gcc cannot
prove this on its own: an @exclusive array indexed by the loop (``r_Aq[m][t]`` beside
``r_Aq[k][t]``) looks like a possible overlap, so gcc keeps a scalar copy of the loop behind
a run-time alias test that always fails (BK5's D^T loop ran scalar).  ``#pragma GCC ivdep``
on the innermost @inner loops says what OKL already guarantees; gcc still checks that
vectorising is legal for everything else.  Other compilers ignore the pragma.

Independent is not always worth vectorising: a loop that stores through an index it loaded
(``s_r[4 * l1[t]] += f0[t]`` behind an edge colour's ``if``, ``res[c1] = s1`` with ``c1 =
ecell[e]``) becomes masked gathers and scatters, which cost about as much per vector as the
scalar loop per element -- airfoil's hierarchical res_calc ran 2.6x slower for the mark.
Such a loop (``scatters``) keeps its scalar stores: gcc vectorises what it can prove alone.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import walk
from ...model.kernel import Kernel
from ...targets.serial import NARROW_VECTORS, WIDE_VECTORS

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


def scatters(loop: c_ast.For) -> bool:
    """The loop stores through an index loaded from memory: a subscript (or a pointer
    dereferenced) that reads an array or a pointer, calls a function, or names a variable
    whose value came from one (declared or assigned in the loop, to a fixpoint)."""
    loaded: set[str] = set()
    bindings = []  # (name, value) of every declaration and plain assignment in the loop
    stores = []  # the subscripts and dereferenced pointers of every store
    for n in walk(loop.stmt):
        if isinstance(n, c_ast.Decl) and n.name and n.init is not None:
            bindings.append((n.name, n.init))
        elif isinstance(n, c_ast.Assignment):
            target = n.lvalue
            if isinstance(target, c_ast.ID):
                bindings.append((target.name, n.rvalue))
            stores.extend(_addresses(target))
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            stores.extend(_addresses(n.expr))
    changed = True
    while changed:
        changed = False
        for name, value in bindings:
            if name not in loaded and _reads(value, loaded):
                loaded.add(name)
                changed = True
    return any(_reads(index, loaded) for index in stores)


def _addresses(target: c_ast.Node) -> list[c_ast.Node]:
    """What selects the element a store writes: every subscript of ``a[i][j]``, the pointer
    of ``*p``."""
    out = []
    while True:
        if isinstance(target, c_ast.ArrayRef):
            out.append(target.subscript)
            target = target.name
        elif isinstance(target, c_ast.StructRef):
            target = target.name
        elif isinstance(target, c_ast.UnaryOp) and target.op == "*":
            out.append(target.expr)
            return out
        else:
            return out


def _reads(expr: c_ast.Node, loaded: set[str]) -> bool:
    return any(isinstance(n, (c_ast.ArrayRef, c_ast.FuncCall)) or
               isinstance(n, c_ast.UnaryOp) and n.op == "*" or
               isinstance(n, c_ast.StructRef) and n.type == "->" or
               isinstance(n, c_ast.ID) and n.name in loaded for n in walk(expr))


def mark(loop: c_ast.For) -> c_ast.Pragma:
    return c_ast.Pragma(PRAGMA, coord=loop.coord)


def prefer_vectors(decl: c_ast.Decl, width: str) -> None:
    """Put ``width`` (targets.serial's WIDE_VECTORS or NARROW_VECTORS) in the kernel
    function's specifiers unless it asks for a width already: the first pass to ask wins
    (cpu.registers' 512 bits keep running sums in registers, which matters more than the
    256 bits cpu.divmod's straight-line lanes prefer)."""
    if not any(w in decl.funcspec for w in (WIDE_VECTORS, NARROW_VECTORS)):
        decl.funcspec = [*decl.funcspec, width]
