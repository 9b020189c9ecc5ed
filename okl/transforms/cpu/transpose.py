"""A transposed copy of a @shared matrix that SIMD lanes read down its columns (CPU only).

On a CPU the innermost @inner loop runs its iterations as SIMD lanes, so a read
``s[i][m]`` with that loop's iterator ``i`` in the *first* subscript strides through memory:
gcc gathers it element by element, or gives up vectorising the loop (BK5's r-derivative
``s_D[i][m] * s_q[j][m]`` at p_Nq = 10: ``no vectype for stmt``).  A GPU thread block reads
@shared memory at any stride for the same cost, so OKL code is full of such reads.

When every use of a 2-D @shared array is a plain element access, okl keeps a transposed twin
``s__t[B][A]``: each store ``s[x][y] = v`` is followed by ``s__t[y][x] = s[x][y]``, and the
column reads become row reads ``s__t[m][i]``.  Every other read keeps the original.  The twin
is equal to the transpose after every statement (the block's iterations run one after another
on a CPU), so the answers do not change; a matrix loaded once and read many times (a
derivative operator) pays one extra store per element.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import clone, is_pure, parent_map, walk
from ...model.kernel import Kernel
from .simd import lane_loops

SUFFIX = "__t"
_STORES = ("=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=")


def transpose_shared(kernel: Kernel) -> None:
    matrices = [var for var in kernel.shared if _is_matrix(var.node)]
    if not matrices:
        return
    lanes = _lane_loops(kernel)
    # One parent map and one walk for all the matrices: transposing one adds statements
    # that name only it and its twin, so the others' uses and parents stay as found.  A
    # name met again (two @outer loops with a `s` each) is looked up afresh.
    wanted = {var.name for var in matrices}
    parents, names = _index(kernel.node, wanted)
    done: set[str] = set()
    for var in matrices:
        decl = var.node
        if var.name in done:
            parents, names = _index(kernel.node, wanted)
        uses = _uses(names[var.name], parents)
        if uses is None:
            continue
        column = [ref for ref, store in uses if store is None and id(ref) in lanes and
                  _mentions(ref.name.subscript, lanes[id(ref)]) and
                  not _mentions(ref.subscript, lanes[id(ref)])]
        stores = [ref for ref, store in uses if store is not None]
        if not column or not all(is_pure(r.name.subscript) and is_pure(r.subscript)
                                 for r in stores):
            continue
        _twin_stores(parents, var.name, uses)
        for ref in column:
            ref.name.name.name = var.name + SUFFIX
            ref.name.subscript, ref.subscript = ref.subscript, ref.name.subscript
        _declare_twin(parents, decl)
        done.add(var.name)


def _lane_loops(kernel: Kernel) -> dict[int, str]:
    """id(node) -> the iterator of the innermost @inner loop (the one gcc vectorises) that
    holds the node."""
    return {id(n): loop.iterator for loop in lane_loops(kernel) for n in walk(loop.node.stmt)}


def _is_matrix(decl: c_ast.Decl) -> bool:
    t = decl.type
    return isinstance(t, c_ast.ArrayDecl) and isinstance(t.type, c_ast.ArrayDecl) and \
        isinstance(t.type.type, c_ast.TypeDecl) and decl.init is None


def _index(root: c_ast.Node, wanted: set[str]):
    """The parent map of ``root`` and, per name in ``wanted``, its identifiers in preorder."""
    names: dict[str, list[c_ast.ID]] = {name: [] for name in wanted}

    def visit(n: c_ast.Node) -> None:
        if type(n) is c_ast.ID and n.name in names:
            names[n.name].append(n)

    return parent_map(root, visit), names


def _uses(ids: list[c_ast.ID], parents):
    """[(ref, store statement or None)] for every element access ``name[x][y]`` among the
    identifiers ``ids`` of one name; None when the name is used any other way (its address
    taken, passed on, one subscript)."""
    out = []
    for n in ids:
        inner = parents.get(id(n))
        if inner is None or not isinstance(inner[0], c_ast.ArrayRef) or inner[1] != "name":
            if isinstance(inner[0] if inner else None, c_ast.Decl):
                continue
            return None
        outer = parents.get(id(inner[0]))
        if outer is None or not isinstance(outer[0], c_ast.ArrayRef) or outer[1] != "name":
            return None
        ref = outer[0]
        holder, slot = parents[id(ref)]
        if isinstance(holder, c_ast.UnaryOp) and holder.op in ("++", "--", "p++", "p--", "&"):
            return None
        store = None
        if isinstance(holder, c_ast.Assignment) and slot == "lvalue":
            if holder.op not in _STORES or not isinstance(parents[id(holder)][0],
                                                          c_ast.Compound):
                return None  # a store inside an expression: no statement to follow it
            store = holder
        out.append((ref, store))
    return out


def _mentions(expr: c_ast.Node, name: str) -> bool:
    return any(isinstance(n, c_ast.ID) and n.name == name for n in walk(expr))


def _twin_stores(parents, name: str, uses) -> None:
    """Follow each store to ``name`` with the same element's store to the twin."""
    for ref, store in uses:
        if store is None:
            continue
        block = parents[id(store)][0]
        k = next(i for i, x in enumerate(block.block_items) if x is store)
        x, y = ref.name.subscript, ref.subscript
        twin = c_ast.ArrayRef(c_ast.ArrayRef(c_ast.ID(name + SUFFIX), clone(y)),
                              clone(x))
        block.block_items.insert(k + 1, c_ast.Assignment("=", twin, clone(ref),
                                                         coord=store.coord))


def _declare_twin(parents, decl: c_ast.Decl) -> None:
    block = parents[id(decl)][0]
    twin = clone(decl)
    twin.name = decl.name + SUFFIX
    rows, cols = twin.type, twin.type.type
    rows.dim, cols.dim = clone(decl.type.type.dim), clone(decl.type.dim)
    leaf = cols.type
    leaf.declname = twin.name
    k = next(i for i, x in enumerate(block.block_items) if x is decl)
    block.block_items.insert(k + 1, twin)
