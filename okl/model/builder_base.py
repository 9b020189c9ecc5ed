"""The model builder's ground: where things are, and how errors are reported.

:class:`BuilderBase` holds what every part of the model builder shares (the AST, the
attribute map, the types, the expanded text and the diagnostics) and turns nodes and
attributes into positions.  The builder's checks live in three rooms built on it:
okl.model.placement (where each attribute may stand), okl.model.looptree (the shape of the
loop tree) and okl.model.build (the walk that makes the model, and the whole file).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from pycparser import c_ast

from ..ctree import walk
from ..errors import Diagnostics, SourceLoc
from ..parser.attributes import Attribute
from ..parser.cpp.preprocess import Expanded
from .attach import AttributeMap
from .types import TypeTable


class BuilderBase:
    def __init__(self, ast: c_ast.FileAST, amap: AttributeMap, types: TypeTable,
                 expanded: Expanded, diags: Diagnostics):
        self.ast = ast
        self.amap = amap
        self.types = types
        self.expanded = expanded
        self.diags = diags
        self.host_vars: dict[str, c_ast.Node] = {}  # one kernel's, by name (build.py)

    # -- positions -------------------------------------------------------------------------
    def loc(self, node: c_ast.Node | None) -> SourceLoc | None:
        return self.later(node)()

    def aloc(self, attr: Attribute) -> SourceLoc:
        return self.expanded.locate(attr.line, attr.col)

    def later(self, where: c_ast.Node | Attribute | None) -> Callable[[], SourceLoc | None]:
        """What :meth:`loc` (or :meth:`aloc` for an attribute) says, as a function to call
        when it is needed (okl.model.kernel.Deferred): the position is taken now, before
        the transforms change the tree; only finding its column waits."""
        if isinstance(where, Attribute):
            return functools.partial(self.expanded.locate, where.line, where.col)
        coord = where.coord if where is not None else None
        if where is not None and (coord is None or not coord.line):
            coord = next((n.coord for n in walk(where) if n.coord is not None and n.coord.line),
                         coord)
        if coord is None:
            return _nowhere
        return functools.partial(self.expanded.locate, coord.line, coord.column or 1)

    def error(self, message: str, where, **kw) -> None:
        loc = self.aloc(where) if isinstance(where, Attribute) else (
            where if isinstance(where, SourceLoc) or where is None else self.loc(where))
        self.diags.error(message, loc, **kw)


def _nowhere() -> None:
    return None
