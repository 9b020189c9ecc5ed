"""Join recorded attributes to the AST nodes they belong to, by source position.

Prefix attributes belong to the first statement or declaration that starts at or after the
attribute's anchor (outermost first); all declarators of one declaration share it
(``@exclusive int a, b;``).  Suffix attributes belong to the declaration whose declarator
name sits at the anchor; 4th-clause attributes to the ``for`` at the anchor.
"""

from __future__ import annotations

import bisect

from pycparser import c_ast

from ..ctree import child_slots
from ..parser.attributes import Attribute


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
        # a plain loop, not next() over a generator: the model and the passes ask this for
        # most statements they visit (is_barrier, @atomic, @nobarrier...)
        for a in self._by_node.get(id(node), ()):
            if a.name == name:
                return a
        return None

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

    Iterative (expressions can nest thousands deep): a preorder pass records the nodes and
    each one's parent, a reversed pass lowers each parent's start (its smallest coord) to
    its children's.  Starts are ints ``line << 32 | column`` while they are compared."""
    declarators: dict[tuple[int, int], c_ast.Node] = {}
    fors: dict[tuple[int, int], c_ast.Node] = {}
    keys: list[int] = []  # per node in preorder: the start of its subtree (so far)
    ups: list[int] = []  # per node in preorder: its parent's index, -1 at the top
    marked: list[tuple[int, c_ast.Node, int]] = []  # (index, node, group) in preorder
    stack: list[tuple[c_ast.Node | None, int | None, int]] = [
        (e, id(ast), -1) for e in reversed(ast.ext)]
    table = _SLOT_GROUPS
    pop, push = stack.pop, stack.append
    decl, typedef, for_ = c_ast.Decl, c_ast.Typedef, c_ast.For
    while stack:
        node, group, up = pop()
        if node is None:
            continue
        index = len(keys)
        if group is not None:
            marked.append((index, node, group))
        c = node.coord
        keys.append(c.line << 32 | (c.column or 0) if c is not None and c.line else _NONE)
        ups.append(up)
        cls = type(node)
        if cls is decl or cls is typedef:
            name_node = _declarator(node.type)
            if name_node is not None and name_node.coord is not None:
                declarators[(name_node.coord.line, name_node.coord.column)] = node
        elif cls is for_ and c is not None:
            fors[(c.line, c.column)] = node
        groups = table.get(cls)
        # slots and list items last to first, pushed one by one, so that they are popped
        # in order (building a list of the children per node and reversing it cost three
        # times as much)
        for name, grouping in _slot_groups(cls) if groups is None else groups:
            value = getattr(node, name)
            if value is None:
                continue
            if type(value) is list:
                if grouping is None:
                    for child in reversed(value):
                        push((child, None, index))
                elif grouping == "parent":
                    g = id(node)
                    for child in reversed(value):
                        push((child, g, index))
                else:
                    for child in reversed(value):
                        push((child, id(child), index))
            elif grouping is None:
                push((value, None, index))
            elif grouping == "parent":
                push((value, id(node), index))
            else:
                push((value, id(value), index))
    for k in range(len(keys) - 1, 0, -1):  # children after their parent in preorder
        up = ups[k]
        if up >= 0 and keys[k] < keys[up]:
            keys[up] = keys[k]
    out = [(keys[index], slot, node, group)
           for slot, (index, node, group) in enumerate(marked)]
    out.sort(key=lambda item: (item[0], item[1]))
    return [((key >> 32, key & _MASK), slot, node, group) for key, slot, node, group in out], \
        declarators, fors


_NONE = (1 << 30) << 32  # no coord: after every real one, as (1 << 30, 0)
_MASK = (1 << 32) - 1


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


#: node class -> ((slot, grouping), ...) for its child slots, last slot first
_SLOT_GROUPS: dict[type, tuple[tuple[str, str | None], ...]] = {}


def _slot_groups(cls: type) -> tuple[tuple[str, str | None], ...]:
    groups = _SLOT_GROUPS.get(cls)
    if groups is None:
        groups = _SLOT_GROUPS[cls] = tuple((name, _grouping(cls, name))
                                           for name in reversed(child_slots(cls)))
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
        inside = _declaration_around(items, k, declarators, attr.anchor)
        if inside:
            for node in inside:
                amap.add(node, attr)
            continue
        if k >= len(items):
            continue
        start, _, first, group = items[k]
        for s, _, node, g in items[k:]:
            if s != start:
                break
            if g == group and (node is first or _same_declaration(first, node)):
                amap.add(node, attr)
    return amap


def _declaration_around(items, k: int, declarators: dict[tuple[int, int], c_ast.Node],
                        anchor: tuple[int, int]) -> list[c_ast.Node]:
    """The declaration(s) a prefix attribute sits *inside*, between the start of the
    declaration and its declarator name (``int @restrict *c``): the attribute belongs to
    that declaration, not to the statement after it.  Its declarators sharing that start
    (``int @restrict *a, *b``) all get it, as a prefix attribute's do.  Empty when the
    attribute is outside every declaration (the usual prefix: attached forward)."""
    if k == 0 or k < len(items) and items[k][0] == anchor:
        return []
    found: list[c_ast.Node] = []
    start = None
    # the declarations that start before the anchor, latest first: the innermost one that
    # spans it (a parameter inside its function's declaration) comes first.  Only those
    # starting on the anchor's line or the line before: the type between a declaration's
    # start and its name is short, and a scan back over the whole file per attribute would
    # cost time quadratic in the file
    for s, _, node, _ in reversed(items[:k]):
        if start is not None and s != start or s[0] < anchor[0] - 1:
            break
        if not isinstance(node, (c_ast.Decl, c_ast.Typedef)):
            continue
        name = _declarator(node.type)
        at = name.coord if name is not None else None
        if at is None or not at.line or (at.line, at.column) < anchor or \
                declarators.get((at.line, at.column)) is not node:
            continue
        start = s
        found.append(node)
    return found[::-1]


def _same_declaration(a: c_ast.Node, b: c_ast.Node) -> bool:
    return isinstance(a, c_ast.Decl) and isinstance(b, c_ast.Decl)
