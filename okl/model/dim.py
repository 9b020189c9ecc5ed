"""``@dim``/``@dimOrder``: turn call syntax ``x(i, j)`` on a dimmed array into ``x[i + D0 * j]``.

The first index is fastest (OCCA's convention): ``x(i0, i1, i2)`` with ``@dim(D0, D1, D2)``
indexes ``i0 + D0 * (i1 + D1 * i2)``.  ``@dimOrder(p...)`` pairs call argument ``p[k]`` with
dimension ``p[k]`` in position k.  Dims may be given on a parameter, a local variable or a
typedef (then every variable of that type is dimmed).  Runs before the model, like OCCA.
"""

from __future__ import annotations

import functools

from pycparser import c_ast

from ..ctree import clone, rewrite, walk
from ..errors import Diagnostics
from ..parser.attributes import Attribute
from ..parser.cparse import parse_expression
from ..parser.cpp.preprocess import Expanded
from ..record import record
from .attach import AttributeMap
from .consteval import evaluate


@record
class Dims:
    sizes: list[c_ast.Node]
    order: list[int]


def apply_dims(ast: c_ast.FileAST, amap: AttributeMap, typedef_names, expanded: Expanded,
               diags: Diagnostics) -> None:
    by_type: dict[str, Dims] = {}
    for ext in ast.ext:
        if isinstance(ext, c_ast.Typedef):
            dims = _dims_of(ext, amap, typedef_names, expanded, diags)
            if dims:
                by_type[ext.name] = dims
    if not by_type and not amap.any_named("dim") and not amap.any_named("dimOrder"):
        return  # nothing to index (the walk below would find nothing)
    for ext in ast.ext:
        if not isinstance(ext, c_ast.FuncDef):
            continue
        dimmed: dict[str, Dims] = {}
        for node in walk(ext):
            if isinstance(node, c_ast.Decl) and node.name:
                dims = _dims_of(node, amap, typedef_names, expanded, diags)
                tname = _type_name(node.type)
                if dims is None and tname in by_type:
                    dims = by_type[tname]
                if dims is not None:
                    dimmed[node.name] = dims
        if dimmed:
            rewrite(ext.body, functools.partial(_index, dimmed=dimmed, expanded=expanded,
                                                diags=diags))


def _type_name(t) -> str | None:
    while isinstance(t, (c_ast.TypeDecl, c_ast.PtrDecl)):
        t = t.type
    return " ".join(t.names) if isinstance(t, c_ast.IdentifierType) else None


def _dims_of(node, amap: AttributeMap, typedef_names, expanded: Expanded,
             diags: Diagnostics) -> Dims | None:
    dim: Attribute | None = amap.get(node, "dim")
    order_attr: Attribute | None = amap.get(node, "dimOrder")
    if dim is None:
        if order_attr is not None:
            diags.error("[@dimOrder] needs @dim on the same declaration",
                        expanded.locate(order_attr.line, order_attr.col),
                        hint="give the sizes first: float *x @dim(N, M) @dimOrder(1, 0)")
        return None
    here = expanded.locate(dim.line, dim.col)
    if not dim.args:
        diags.error("[@dim] expects at least one dimension", here, hint="write @dim(N, M)")
        return None
    sizes = []
    for arg in dim.args:
        try:
            sizes.append(parse_expression(arg.text, typedef_names))
        except Exception:
            diags.error(f"[@dim] argument '{arg.text}' is not an expression",
                        expanded.locate(arg.line, arg.col),
                        hint="each argument is the size of one dimension, e.g. @dim(N, M)")
            return None
    order = list(range(len(sizes)))
    if order_attr is not None:
        where = expanded.locate(order_attr.line, order_attr.col)
        values = [evaluate(_safe_parse(a.text)) for a in order_attr.args]
        known = [v for v in values if v is not None]
        if len(values) != len(sizes) or len(known) != len(values) or sorted(known) != order:
            hint = (f"name each of the indices {', '.join(map(str, order))} once, e.g. "
                    f"@dimOrder({', '.join(map(str, reversed(order)))})")
            if len(set(values)) != len(values) and None not in values:
                diags.error("[@dimOrder] Duplicate index", where, hint=hint)
            else:
                diags.error("[@dimOrder] arguments must be known at compile-time and an "
                            f"ordering of {order}", where, hint=hint)
            return None
        order = known
    return Dims(sizes, order)


def _safe_parse(text: str):
    try:
        return parse_expression(text)
    except Exception:
        return None


def _index(node, dimmed: dict[str, Dims], expanded: Expanded, diags: Diagnostics):
    if not (isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID)
            and node.name.name in dimmed):
        return None
    dims = dimmed[node.name.name]
    args = node.args.exprs if node.args else []
    n = len(dims.sizes)
    if len(args) != n:
        what = "Too many" if len(args) > n else "Missing"
        c = node.coord
        diags.error(f"{what} dimensions, expected {n} argument(s)",
                    expanded.locate(c.line, c.column) if c else None,
                    hint=f"'{node.name.name}' is declared with @dim of {n} sizes")
        return None
    args = [args[p] for p in dims.order]
    sizes = [dims.sizes[p] for p in dims.order]
    index = args[-1]
    for k in range(n - 2, -1, -1):
        index = c_ast.BinaryOp("+", args[k],
                               c_ast.BinaryOp("*", clone(sizes[k]), index))
    return c_ast.ArrayRef(node.name, index, coord=node.coord)
