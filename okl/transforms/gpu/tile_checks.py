"""Barriers inside a @tile's bounds check on the GPU modes: every thread must reach them.

``@tile(S, @outer, @inner)`` puts ``if (i < n)`` around the tile's body so that the threads
of the last tile past the loop's end do nothing.  A barrier inside that body would be
skipped by those threads -- a hang or undefined behaviour on a GPU.  The check is applied
to each barrier region on its own instead (okl.transforms.barrier_regions), the barriers
and the loops and ``if``s that hold them standing outside it::

    if (i < n) {                        if (i < n) { tmp[i] = x[i]; }
      tmp[i] = x[i];                    __syncthreads();
      @barrier;                   ->    if (i < n) { y[i] = tmp[i] + tmp[i - 1]; }
      y[i] = tmp[i] + tmp[i - 1];
    }

A variable declared in one region and used in a later one is declared before the first
(a thread's own variable on a GPU, as before; its initializer stays where it was).  The CPU
modes get the same per-region check from okl.transforms.cpu.barriers.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import parent_map
from ...errors import Diagnostics
from ...model.kernel import Kernel, Loop, Program
from ..barrier_regions import Control, RegionSplitter, body, drop_const, splitters


def distribute_tile_checks(program: Program, kernel: Kernel, diags: Diagnostics) -> None:
    """Apply each @tile check that holds a barrier to every barrier region inside it."""
    for splitter in splitters(program, kernel, diags, GpuTileSplitter):
        if any(check in splitter.split for check in splitter.checks):
            splitter.run()


class GpuTileSplitter(RegionSplitter):
    #: the code outside the checks keeps its scopes: nothing is moved out of it
    brace_parts = False

    def lift_inner(self, node: c_ast.For, chain: tuple[Loop, ...]) -> list:
        """A nested @inner loop stays (it is a thread index on a GPU); its body is cut."""
        return [Control(node, [self.lift(node.stmt, chain + (self.loops[id(node)],))])]

    def _guard(self, check: c_ast.If, stmts: list[c_ast.Node]) -> c_ast.If:
        guard = super()._guard(check, stmts)
        self.roots.add(id(guard))
        return guard

    def run(self) -> None:
        loop = self.block.node
        stmts = self.materialize(self.lift(loop.stmt, (self.block,)), barriers=True)
        loop.stmt = body(stmts, loop.stmt)
        live = self.live_across(loop)
        parents = parent_map(loop)
        crossing = [d for d in live.crossing() if self.region_of(d, parents) is not None]
        self.unique_names(crossing, live)
        for decl in crossing:
            self._declare_before(decl, parent_map(loop))

    def _declare_before(self, decl: c_ast.Decl, parents) -> None:
        """``T x = v;`` -> ``T x;`` before the region, ``x = v;`` in its place."""
        holder = parents[id(decl)][0]
        at, k = self.statement_at(decl, parents)
        init = decl.init
        items = holder.block_items
        here = next(i for i, x in enumerate(items) if x is decl)
        if isinstance(init, c_ast.InitList):
            self.error(f"okl cannot move the declaration of '{decl.name}' out of the @tile "
                       "bounds check around this barrier region: it is initialized with "
                       "{...}", decl,
                       hint=f"declare '{decl.name}' before the first @barrier of the tile "
                            "and assign its elements one by one")
            return
        decl.init = None
        items[here:here + 1] = [] if init is None else [c_ast.Assignment(
            "=", c_ast.ID(decl.name), init, coord=decl.coord)]
        drop_const(decl)
        at.block_items.insert(k, decl)
