"""Join recorded attributes to the AST nodes they belong to, by source position.

Prefix attributes belong to the first statement or declaration that starts at or after the
attribute's anchor (outermost first); all declarators of one declaration share it
(``@exclusive int a, b;``).  Suffix attributes belong to the declaration whose declarator
name sits at the anchor; 4th-clause attributes to the ``for`` at the anchor.
"""

from __future__ import annotations

import bisect

from pycparser import c_ast

from ..parser.attributes import Attribute
from ..transforms.astutil import child_slots


class AttributeMap:
    """id(node) -> attributes; also remembers which node each attribute landed on."""

    def __init__(self) -> None:
        self._by_node: dict[int, list[Attribute]] = {}
        self.nodes: dict[int, c_ast.Node] = {}

    def add(self, node: c_ast.Node, attr: Attribute) -> None:
        self._by_node.setdefault(id(node), []).append(attr)
        self.nodes[id(node)] = node
        attr.used = True

    def of(self, node: c_ast.Node) -> list[Attribute]:
        return self._by_node.get(id(node), [])

    def get(self, node: c_ast.Node, name: str) -> Attribute | None:
        return next((a for a in self.of(node) if a.name == name), None)

    def has(self, node: c_ast.Node, name: str) -> bool:
        return self.get(node, name) is not None

    def named(self, name: str) -> list[c_ast.Node]:
        """The nodes that have attribute ``name``."""
        return [self.nodes[key] for key, attrs in self._by_node.items()
                if any(a.name == name for a in attrs)]

    def any_named(self, name: str) -> bool:
        """Whether some node has attribute ``name`` (passes for one attribute skip their
        walk of the tree when none has it)."""
        return any(a.name == name for attrs in self._by_node.values() for a in attrs)

    def remove(self, node: c_ast.Node, name: str) -> None:
        self._by_node[id(node)] = [a for a in self.of(node) if a.name != name]



def _attachables(ast: c_ast.FileAST):
    """(start, preorder index, node, parent list id) for every statement/declaration.

    Iterative (expressions can nest thousands deep): a preorder pass records the nodes, a
    reversed pass computes each subtree's start (its smallest coord) from its children's."""
    out: list = []
    declarators: dict[tuple[int, int], c_ast.Node] = {}
    fors: dict[tuple[int, int], c_ast.Node] = {}
    none = (1 << 30, 0)
    # (node, slot, group, children)
    preorder: list[tuple[c_ast.Node, int | None, int | None, list[c_ast.Node]]] = []
    stack: list[tuple[c_ast.Node | None, int | None]] = [(e, id(ast)) for e in reversed(ast.ext)]
    table = _SLOT_GROUPS
    while stack:
        node, group = stack.pop()
        if node is None:
            continue
        slot = None
        if group is not None:
            slot = len(out)
            out.append(None)
        kids: list[c_ast.Node] = []
        preorder.append((node, slot, group, kids))
        cls = type(node)
        if cls is c_ast.Decl or cls is c_ast.Typedef:
            name_node = _declarator(node.type)
            if name_node is not None and name_node.coord is not None:
                declarators[(name_node.coord.line, name_node.coord.column)] = node
        elif cls is c_ast.For and node.coord is not None:
            fors[(node.coord.line, node.coord.column)] = node
        groups = table.get(cls)
        pushed = []
        for name, grouping in _slot_groups(cls) if groups is None else groups:
            value = getattr(node, name)
            if value is None:
                continue
            values = value if type(value) is list else [value]
            kids.extend(values)
            if grouping == "parent":
                g = id(node)
                pushed += [(child, g) for child in values]
            elif grouping == "child":
                pushed += [(child, id(child)) for child in values]
            else:
                pushed += [(child, None) for child in values]
        if pushed:
            pushed.reverse()
            stack.extend(pushed)
    starts: dict[int, tuple[int, int]] = {}
    for node, slot, group, kids in reversed(preorder):
        c = node.coord
        best = (c.line, c.column or 0) if c is not None and c.line else none
        for child in kids:
            start = starts.get(id(child), none)
            if start < best:
                best = start
        starts[id(node)] = best
        if slot is not None:
            out[slot] = (best, slot, node, group)
    out.sort(key=lambda item: (item[0], item[1]))
    return out, declarators, fors


def _grouping(cls: type, name: str) -> str | None:
    """Which list of siblings a child in slot ``name`` of a ``cls`` node belongs to for
    prefix attributes: "parent" (the node's children are one list), "child" (a list of
    its own), or None."""
    if issubclass(cls, (c_ast.Compound, c_ast.FileAST, c_ast.ParamList, c_ast.DeclList,
                        c_ast.Case, c_ast.Default, c_ast.Struct)):
        return "parent"
    if issubclass(cls, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Label)) and \
            name == "stmt":
        return "child"
    if issubclass(cls, c_ast.If) and name in ("iftrue", "iffalse"):
        return "child"
    if issubclass(cls, c_ast.FuncDef) and name == "decl":
        return "parent"
    return None


#: node class -> ((slot, grouping), ...) for its child slots
_SLOT_GROUPS: dict[type, tuple[tuple[str, str | None], ...]] = {}


def _slot_groups(cls: type) -> tuple[tuple[str, str | None], ...]:
    groups = _SLOT_GROUPS.get(cls)
    if groups is None:
        groups = _SLOT_GROUPS[cls] = tuple((name, _grouping(cls, name))
                                           for name in child_slots(cls))
    return groups


def _declarator(t):
    while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl, c_ast.FuncDecl)):
        t = t.type
    return t if isinstance(t, c_ast.TypeDecl) else None


def attach(ast: c_ast.FileAST, attrs: list[Attribute]) -> AttributeMap:
    """Attach every attribute it can; the caller reports those left with ``used`` False."""
    amap = AttributeMap()
    items, declarators, fors = _attachables(ast)
    starts = [item[0] for item in items]
    for attr in attrs:
        if attr.placement == "for":
            node = fors.get(attr.anchor)
            if node is not None:
                amap.add(node, attr)
            continue
        if attr.placement == "suffix":
            node = declarators.get(attr.anchor)
            if node is not None:
                amap.add(node, attr)
            continue
        k = bisect.bisect_left(starts, attr.anchor)
        if k >= len(items):
            continue
        start, _, first, group = items[k]
        for s, _, node, g in items[k:]:
            if s != start:
                break
            if g == group and (node is first or _same_declaration(first, node)):
                amap.add(node, attr)
    return amap


def _same_declaration(a: c_ast.Node, b: c_ast.Node) -> bool:
    return isinstance(a, c_ast.Decl) and isinstance(b, c_ast.Decl)
