"""OpenMP C: serial C plus ``parallel for`` on each top-level @outer loop and real atomics.

``collapse(n)`` is added when the top-level @outer loop's body is nothing but another
@outer loop whose bounds do not depend on it (a perfect, rectangular nest): OCCA
parallelises the outer-most loop only, which starves threads when it is short (e.g. 2-D
grids of a few rows).  @atomic updates become ``omp atomic`` (``atomic write`` for ``=``);
@atomic blocks and other statements become ``omp critical`` sections.
"""

from __future__ import annotations

from pycparser import c_ast

from ..transforms.astutil import ids_in
from .serial import SerialTarget

UPDATE_OPS = {"+=", "-=", "*=", "/=", "&=", "|=", "^=", "<<=", ">>="}


class OpenMPTarget(SerialTarget):
    mode = "openmp"
    check_pragma = "omp critical (okl_check)"

    def outer_pragma(self, kernel, outer) -> str:
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
        return "omp parallel for" + (f" collapse({depth})" if depth > 1 else "")

    def atomic(self, node, base, space, diags, loc):
        if isinstance(node, c_ast.Assignment) and node.op in UPDATE_OPS:
            pragma = "omp atomic"
        elif isinstance(node, c_ast.UnaryOp):
            pragma = "omp atomic"
        elif isinstance(node, c_ast.Assignment) and node.op == "=":
            pragma = "omp atomic write"
        else:
            pragma = "omp critical"
        return c_ast.Compound([c_ast.Pragma(pragma, coord=node.coord), node], coord=node.coord)


def _chain(loop):
    p = loop.parent
    while p is not None:
        yield p
        p = p.parent
