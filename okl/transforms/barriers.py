"""Automatic barriers between @inner blocks that touch @shared memory.

After an outer-most @inner loop (a *block*) that uses a @shared array, threads of the block
must wait before the next block reads what this one wrote, so a ``@barrier`` is inserted
after it when (a) another block follows it in the same @outer loop or it sits inside a plain
loop (whose next iteration re-runs earlier blocks), (b) it has no ``@nobarrier``, and (c)
the next statement is not already an explicit ``@barrier`` (OCCA doubles those).
"""

from __future__ import annotations

from pycparser import c_ast

from ..ctree import ids_in, statement_parents
from ..model.attach import AttributeMap
from ..model.kernel import Loop, Program
from ..parser.attributes import Attribute


def insert_barriers(program: Program) -> None:
    for kernel in program.kernels:
        shared = {v.name for v in kernel.shared}
        if not shared:
            continue
        parents = None  # made at the first barrier to insert (most kernels need none)
        for loop in kernel.loops():
            if loop.kind != "outer":
                continue
            blocks = [c for c in loop.children if c.kind == "inner"]
            for k, block in enumerate(blocks):
                last = k == len(blocks) - 1 and not block.in_regular
                if last or block.nobarrier or not _touches(block, shared):
                    continue
                if parents is None:
                    parents = statement_parents(kernel.node)  # a block is a statement
                _insert_after(block.node, parents, program.attrs)


def _touches(block: Loop, shared: set[str]) -> bool:
    return any(i.name in shared for i in ids_in(block.node))


def is_barrier(node: c_ast.Node, amap: AttributeMap) -> bool:
    return isinstance(node, c_ast.EmptyStatement) and amap.has(node, "barrier")


def make_barrier(amap: AttributeMap, coord, kind: str = "auto") -> c_ast.EmptyStatement:
    node = c_ast.EmptyStatement(coord=coord)
    attr = Attribute("barrier", coord.line if coord else 0, coord.column if coord else 0)
    attr.placement = kind  # "auto": inserted by okl, fenced on shared memory only
    amap.add(node, attr)
    return node


def _insert_after(node: c_ast.Node, parents: dict[int, tuple], amap: AttributeMap) -> None:
    parent, slot = parents[id(node)]
    barrier = make_barrier(amap, None)
    if isinstance(parent, c_ast.Compound):
        items = parent.block_items
        k = next(i for i, item in enumerate(items) if item is node)
        if k + 1 < len(items) and is_barrier(items[k + 1], amap):
            return
        items.insert(k + 1, barrier)
    else:
        setattr(parent, slot, c_ast.Compound([node, barrier], coord=node.coord))


