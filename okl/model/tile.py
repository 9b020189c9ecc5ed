"""``@tile(S, @A, @B, check=true)``: split one loop into a loop over tiles and a loop in a tile.

``for (T i = s; i < e; i += d; @tile(S, @outer, @inner))`` becomes::

    for (T _okl_tiled_i = s; _okl_tiled_i < e; _okl_tiled_i += (S) * d; @outer)
      for (T i = _okl_tiled_i; i < _okl_tiled_i + (S) * d; i += d; @inner)
        if (i < e) { body }        // omitted with check=false

so the in-tile loop runs exactly S times (OCCA's inner bound ignores the step: a bug when
d > 1).  Decreasing loops mirror this with ``-``/``>``; ``<=`` bounds keep ``<=`` on the tile
loop, a strict comparison inside the tile and the original comparison in the check.
Runs before the model is built, like OCCA, so tiled loops are validated as ordinary ones.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from pycparser import c_ast

from ..ctree import clone, statement_parents, walk, with_coord
from ..errors import Diagnostics, SourceLoc
from ..parser.attributes import Attribute
from ..parser.cparse import parse_expression
from ..parser.cpp.preprocess import Expanded
from .attach import AttributeMap
from .consteval import evaluate
from .loops import LoopFormError, canonical_form
from .types import TypeTable

#: The largest tile size: the size is an ``int`` in the generated loops.
INT_MAX = 2**31 - 1


def expand_tiles(ast: c_ast.FileAST, amap: AttributeMap, types: TypeTable,
                 expanded: Expanded, diags: Diagnostics) -> None:
    if not amap.any_named("tile"):
        return
    tiled_outer: set[int] = set()  # ids of the @outer loops tiles made: only those float
    # the parser's loops that carry @tile, in source order: the order of a walk of the tree
    tiled = sorted((n for n in amap.nodes.values()
                    if isinstance(n, c_ast.For) and amap.has(n, "tile")),
                   key=lambda n: (n.coord.line, n.coord.column))
    for node in tiled:
        if amap.has(node, "tile"):
            _expand(node, amap, types, expanded, diags, tiled_outer)
    if not tiled_outer:
        return
    for ext in ast.ext:
        if isinstance(ext, c_ast.FuncDef):
            _float_outer_loops(ext, amap, tiled_outer)


def _expand(loop: c_ast.For, amap: AttributeMap, types: TypeTable, expanded: Expanded,
            diags: Diagnostics, tiled_outer: set[int]) -> None:
    tile = amap.get(loop, "tile")
    assert tile is not None  # called for the loops that have one
    here = _here(tile, expanded)
    parts = _tile_args(tile, expanded, diags)
    if parts is None:
        return
    size_text, outer_attrs, inner_attrs, check = parts
    for other in ("outer", "inner"):
        if amap.has(loop, other):
            diags.error(f"[@tile] cannot be combined with @{other} on the same loop", here(),
                        hint=f"write @tile(S, @outer, @inner) instead of @{other}")
            return
    try:
        form = canonical_form(loop, types, "@tile")
    except LoopFormError as e:
        coord = e.node.coord
        diags.error(str(e), expanded.locate(coord.line, coord.column) if coord else here(),
                    hint=e.hint)
        return
    try:
        size = parse_expression(size_text, types.typedefs)
    except Exception:
        diags.error(f"[@tile] size '{size_text}' is not an expression", here(),
                    hint="the first argument is the tile size, e.g. @tile(16, @outer, @inner)")
        return
    # The size is pasted into the loops as an int: anything but an int constant in range
    # wraps the tile loop's increment (to 0 for 2^32: a loop that never ends) or truncates.
    value = evaluate(size)
    if value is None:
        diags.error(f"[@tile] size '{size_text}' is not an integer constant expression", here(),
                    hint="the tile size must be known when translating, e.g. 16 or a "
                         "#define'd constant")
        return
    if not 0 < value <= INT_MAX:
        diags.error(f"[@tile] size must be between 1 and {INT_MAX}, got {value}", here(),
                    hint="the first argument is the number of iterations per tile")
        return
    amap.remove(loop, "tile")  # on errors it stays: the model then leaves this loop alone
    coord = loop.coord
    tiled = f"_okl_tiled_{form.iterator}"
    width = size if form.step is None else c_ast.BinaryOp("*", size, clone(form.step))
    sign = "+" if form.increasing else "-"
    body = loop.stmt
    if check:
        guard = c_ast.BinaryOp(form.cmp, c_ast.ID(form.iterator), clone(form.bound))
        body = c_ast.Compound([c_ast.If(guard, body, None, coord=coord)], coord=coord)
    inner = c_ast.For(
        c_ast.DeclList([_decl(form.iterator, form.type_node, c_ast.ID(tiled))]),
        c_ast.BinaryOp("<" if form.increasing else ">", c_ast.ID(form.iterator),
                       c_ast.BinaryOp(sign, c_ast.ID(tiled), clone(width))),
        loop.next, body, coord=coord)
    loop.init = c_ast.DeclList([_decl(tiled, form.type_node, form.start)])
    loop.cond = c_ast.BinaryOp(form.cmp, c_ast.ID(tiled), form.bound)
    loop.next = c_ast.Assignment(f"{sign}=", c_ast.ID(tiled), width)
    loop.stmt = c_ast.Compound([inner], coord=coord)
    with_coord(loop, coord)
    for a in outer_attrs:
        amap.add(loop, a)
    if any(a.name == "outer" for a in outer_attrs):
        tiled_outer.add(id(loop))
    for a in inner_attrs:
        amap.add(inner, a)
    if amap.has(inner, "tile"):
        _expand(inner, amap, types, expanded, diags, tiled_outer)


def _float_outer_loops(fn: c_ast.FuncDef, amap: AttributeMap, tiled_outer: set[int]) -> None:
    """Nested tiles: ``@tile(4, @outer, @inner)`` around ``@tile(16, @outer, @inner)`` puts
    the second tile's @outer loop inside the first one's @inner loop.  As OCCA does, move it
    up above the @inner loops (and the tile checks) that hold nothing else, so the result is
    @outer, @outer, @inner, @inner.  A loop whose header reads an iterator it would move
    above stays where it is (and the model reports the misplaced @outer)."""
    moved = True
    while moved:
        moved = False
        found, parents = _tiled_outers(fn.body, tiled_outer)
        for node in found:
            chain, p = [], _parent(parents, node)
            child = node
            while p is not None and _wraps(p, child, amap):
                chain.append(p)
                child, p = p, _parent(parents, p)
            tops = [k for k, q in enumerate(chain) if isinstance(q, c_ast.For) and
                    amap.has(q, "inner")]
            if not tops:
                continue
            chain = chain[:tops[-1] + 1]
            crossed = {d.name for q in chain if isinstance(q, c_ast.For)
                       for d in (q.init.decls if isinstance(q.init, c_ast.DeclList) else [])}
            header = [node.init, node.cond, node.next]
            if any(i.name in crossed for h in header if h is not None for i in _ids(h)):
                continue
            top = chain[-1]
            _replace_child(parents[id(node)][0], node, node.stmt)
            _replace_child(parents[id(top)][0], top, node)
            node.stmt = c_ast.Compound([top], coord=node.coord)
            moved = True
            break


def _tiled_outers(root: c_ast.Node, tiled_outer: set[int]):
    """The tiled @outer loops under ``root`` in preorder, and the parent map of its
    statements (one walk: loops are statements)."""
    found: list[c_ast.For] = []

    def visit(n: c_ast.Node) -> None:
        if type(n) is c_ast.For and id(n) in tiled_outer:
            found.append(n)

    return found, statement_parents(root, visit)


def _parent(parents, n: c_ast.Node) -> c_ast.Node | None:
    entry = parents.get(id(n))
    return None if entry is None else entry[0]


def _wraps(parent: c_ast.Node, child: c_ast.Node, amap: AttributeMap) -> bool:
    """``parent`` holds nothing but ``child``: a one-statement block, an if without else,
    or an @inner loop."""
    if isinstance(parent, c_ast.Compound):
        return len(parent.block_items or []) == 1
    if isinstance(parent, c_ast.If):
        return parent.iffalse is None and parent.iftrue is child
    if isinstance(parent, c_ast.For):
        return parent.stmt is child and amap.has(parent, "inner")
    return False


def _replace_child(parent: c_ast.Node, old: c_ast.Node, new: c_ast.Node) -> None:
    if isinstance(parent, c_ast.Compound):
        items = new.block_items or [] if isinstance(new, c_ast.Compound) else [new]
        k = next(i for i, x in enumerate(parent.block_items) if x is old)
        parent.block_items[k:k + 1] = items
    elif isinstance(parent, c_ast.If):
        parent.iftrue = new
    elif isinstance(parent, c_ast.For):
        parent.stmt = new
    else:  # pragma: no cover - _wraps admits nothing else
        raise TypeError(type(parent).__name__)


def _ids(node: c_ast.Node):
    return (n for n in walk(node) if isinstance(n, c_ast.ID))


def _decl(name: str, type_node: c_ast.Node, init: c_ast.Node) -> c_ast.Decl:
    t = clone(type_node)
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = name
    return c_ast.Decl(name, [], [], [], [], t, init, None)


def _here(tile: Attribute, expanded: Expanded) -> Callable[[], SourceLoc]:
    """Where ``tile`` is, found when an error needs it: finding the column aligns the
    expanded line with the original (about 0.1 ms), and a valid tile needs none."""
    return functools.partial(expanded.locate, tile.line, tile.col)


def _tile_args(tile: Attribute, expanded: Expanded, diags: Diagnostics):
    here = _here(tile, expanded)
    if not tile.args:
        diags.error("[@tile] expects at least one argument", here(),
                    hint="write @tile(16, @outer, @inner)")
        return None
    if len(tile.args) > 3:
        diags.error("[@tile] takes 1-3 arguments, the last 2 being attributes for the block "
                    "and in-block loops respectively", here(),
                    hint="write @tile(16, @outer, @inner)")
        return None
    if tile.args[0].kind != "expr":
        diags.error("[@tile] the first argument must be the tile size", here(),
                    hint="write @tile(16, @outer, @inner)")
        return None
    lists = []
    for arg in tile.args[1:]:
        if arg.kind != "attr" or arg.attr is None or arg.attr.name not in ("outer", "inner"):
            diags.error("[@tile] can only take attributes for the 2nd and 3rd arguments "
                        "(@outer or @inner)", expanded.locate(arg.line, arg.col),
                        hint="write @tile(16, @outer, @inner); leave one out for a plain loop")
            return None
        lists.append([arg.attr])
    while len(lists) < 2:
        lists.append([])
    check = True
    for key, value in tile.kwargs.items():
        if key != "check":
            diags.error(f"[@tile] does not take this kwarg: {key}",
                        expanded.locate(value.line, value.col), hint="only check=true|false")
            return None
        if value.text not in ("true", "false", "1", "0"):
            diags.error("[@tile] 'check' argument must be true or false",
                        expanded.locate(value.line, value.col),
                        hint="check=false drops the bounds check of the last tile")
            return None
        check = value.text in ("true", "1")
    return tile.args[0].text, lists[0], lists[1], check
