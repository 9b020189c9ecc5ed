"""A ``@tile`` loop with nothing but its body in each tile runs as the loop it was (CPU only).

``for (i = s; i < N; ++i; @tile(256, @outer, @inner)) S`` is, after okl.model.tile::

    for (_okl_tiled_i = s; _okl_tiled_i < N; _okl_tiled_i += 256)          // @outer
      for (i = _okl_tiled_i; i < _okl_tiled_i + 256; ++i)                   // @inner
        if (i < N) S

The tiles are there for a GPU's blocks.  On a CPU the pair walks ``i`` from ``s`` to ``N``
in order, as the user's loop does, but in pieces of 256 that gcc cannot see through: a copy
``c[i] = a[i]`` becomes one ``memcpy`` of 2 KiB per tile, too short for the C library's
streaming stores, where the plain loop is one ``memcpy`` of the whole array (a copy moved
three words per element instead of two: serial copy at 0.66-0.71 of the hand C loop).  So
the pair becomes the user's loop again, ``for (i = s; i < N; ++i) S``: the same iterations
in the same order (on OpenMP, ``omp for`` hands each thread a run of consecutive ``i``
where it handed each a run of consecutive tiles).

Only when nothing else needs the tiles: the tile loop is a top-level @outer whose body is
the tile's @inner loop alone (no @shared or @exclusive storage, no barrier, no other
statement), which holds only the check ``if (i cmp N) S`` (``@tile(..., check=false)``
runs whole tiles past ``N``: left alone) and does not name the tile iterator.
"""

from __future__ import annotations

from pycparser import c_ast
from pycparser.c_generator import CGenerator

from ...ctree import is_id, walk
from ...model.kernel import Kernel, Loop
from ...model.loops import LoopForm
from ...model.uniformity import TILED_PREFIX


def untile(kernel: Kernel, barriers: set[int]) -> dict[int, int]:
    """Rewrite each eligible tile pair in place (the @outer loop's For node becomes the
    user's loop); returns ``{id(that For node): id(the @inner For node it replaces)}``.
    ``barriers``: ids of the barrier statements of the program (none may be inside)."""
    done: dict[int, int] = {}
    for outer in kernel.outers:
        parts = _pair(outer, barriers)
        if parts is None:
            continue
        inner, guard = parts
        node = outer.node
        done[id(node)] = id(inner.node)
        start = node.init.decls[0].init
        node.init = inner.node.init
        node.init.decls[0].init = start
        node.cond = guard.cond
        node.next = inner.node.next
        node.stmt = guard.iftrue
        form = outer.form
        outer.form = LoopForm(iterator=inner.iterator, iter_type=form.iter_type,
                              type_node=form.type_node, start=form.start, bound=form.bound,
                              cmp=form.cmp, step=inner.form.step, increasing=form.increasing)
        outer.children = []
    return done


def _pair(outer: Loop, barriers: set[int]) -> tuple[Loop, c_ast.If] | None:
    """(the tile's @inner loop, its check) where ``outer`` is an untileable tile loop."""
    node = outer.node
    init = node.init
    if not isinstance(init, c_ast.DeclList) or len(init.decls) != 1 or \
            not (init.decls[0].name or "").startswith(TILED_PREFIX) or len(outer.children) != 1:
        return None
    tiled = init.decls[0].name
    inner = outer.children[0]
    body = node.stmt
    if inner.kind != "inner" or inner.children or not isinstance(body, c_ast.Compound) or \
            (body.block_items or [None])[0] is not inner.node or len(body.block_items) != 1:
        return None
    idecl = inner.node.init
    if not isinstance(idecl, c_ast.DeclList) or len(idecl.decls) != 1 or \
            not is_id(idecl.decls[0].init, tiled):
        return None
    stmt = inner.node.stmt
    items = stmt.block_items if isinstance(stmt, c_ast.Compound) else [stmt]
    if len(items or []) != 1 or not isinstance(items[0], c_ast.If) or \
            items[0].iffalse is not None:
        return None
    guard = items[0]
    # the check is the tile loop's own condition on the user's iterator
    cond, mine = guard.cond, node.cond
    if not isinstance(cond, c_ast.BinaryOp) or not isinstance(mine, c_ast.BinaryOp) or \
            cond.op != mine.op or not is_id(cond.left, idecl.decls[0].name) or \
            not is_id(mine.left, tiled) or _text(cond.right) != _text(mine.right):
        return None
    for n in walk(guard.iftrue):
        if id(n) in barriers or isinstance(n, c_ast.ID) and n.name == tiled:
            return None
    return inner, guard


def _text(node: c_ast.Node) -> str:
    return CGenerator().visit(node)
