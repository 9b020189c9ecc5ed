"""Small helpers for rewriting pycparser trees in place."""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast


def rewrite(node: c_ast.Node, fn: Callable[[c_ast.Node], c_ast.Node | None]) -> c_ast.Node:
    """Post-order rewrite: ``fn(child)`` returns a replacement or None to keep the child."""
    for slot in node.__slots__:
        if slot in ("coord", "__weakref__"):
            continue
        value = getattr(node, slot, None)
        if isinstance(value, c_ast.Node):
            rewrite(value, fn)
            new = fn(value)
            if new is not None:
                setattr(node, slot, new)
        elif isinstance(value, list):
            for k, item in enumerate(value):
                if isinstance(item, c_ast.Node):
                    rewrite(item, fn)
                    new = fn(item)
                    if new is not None:
                        value[k] = new
    return node


def replace_node(root: c_ast.Node, old: c_ast.Node, new: c_ast.Node) -> bool:
    """Put ``new`` where ``old`` is below ``root``; stops at the first match (a whole-tree
    rewrite per replaced loop made lowering quadratic in the kernel's size)."""
    stack = [root]
    while stack:
        node = stack.pop()
        for slot in node.__slots__:
            value = getattr(node, slot, None)
            if value is old:
                setattr(node, slot, new)
                return True
            if isinstance(value, c_ast.Node):
                stack.append(value)
            elif isinstance(value, list):
                for k, item in enumerate(value):
                    if item is old:
                        value[k] = new
                        return True
                    if isinstance(item, c_ast.Node):
                        stack.append(item)
    return False


def walk(node: c_ast.Node):
    """Pre-order iteration over a subtree."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed([c for _, c in n.children()]))


def ids_in(node: c_ast.Node) -> list[c_ast.ID]:
    """Every identifier *use* in the subtree (struct member names excluded)."""
    out: list[c_ast.ID] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.ID):
            out.append(n)
            continue
        if isinstance(n, c_ast.StructRef):
            stack.append(n.name)
            continue
        stack.extend(c for _, c in n.children())
    return out


#: node types of plain arithmetic: reading variables, no call, store or memory access
_PURE = (c_ast.ID, c_ast.Constant, c_ast.BinaryOp, c_ast.UnaryOp, c_ast.TernaryOp, c_ast.Cast,
         c_ast.Typename, c_ast.TypeDecl, c_ast.IdentifierType)


def is_pure(expr: c_ast.Node) -> bool:
    """Plain arithmetic on variables: evaluating it again, or not at all, changes nothing."""
    return all(isinstance(n, _PURE) and not (
        isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "*", "&"))
        for n in walk(expr))


def with_coord(node: c_ast.Node, coord) -> c_ast.Node:
    for n in walk(node):
        if n.coord is None:
            n.coord = coord
    return node
