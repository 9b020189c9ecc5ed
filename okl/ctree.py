"""Small helpers for walking, copying and rewriting pycparser trees in place.

Every pass walks trees, so these are the hot loops of a translate.  They read a node's
children from a per-class table of its child slots (:func:`child_slots`) instead of calling
``Node.children()``, which builds a ``("name[k]", child)`` tuple per child: walking is
about three times faster that way, in the same order.  :func:`clone` replaces
``copy.deepcopy``, which goes through ``__reduce_ex__`` and a memo per object and cost a
few ms per translate (a fifth of the back end on GPU modes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pycparser import c_ast

_CHILD_SLOTS: dict[type, tuple[str, ...]] = {}


def child_slots(cls: type[c_ast.Node]) -> tuple[str, ...]:
    """The slots of node class ``cls`` that hold child nodes (a node, None or a list of
    nodes), in the order of ``Node.children()``: pycparser generates both from one field
    list, where the slots that are not children are ``attr_names`` (and ``coord``)."""
    slots = _CHILD_SLOTS.get(cls)
    if slots is None:
        slots = _CHILD_SLOTS[cls] = tuple(
            s for s in cls.__slots__ if s not in cls.attr_names and s not in ("coord",
                                                                              "__weakref__"))
    return slots


def children(node: c_ast.Node) -> list[c_ast.Node]:
    """The child nodes of ``node`` in ``Node.children()`` order (without their names)."""
    out: list[c_ast.Node] = []
    slots = _CHILD_SLOTS.get(type(node))
    for slot in child_slots(type(node)) if slots is None else slots:
        value = getattr(node, slot)
        if value is None:
            continue
        if type(value) is list:
            out.extend(value)
        else:
            out.append(value)
    return out


def node_slots(cls: type[c_ast.Node]) -> tuple[str, ...]:
    """The slots of node class ``cls`` that may hold nodes: its child slots, and ``align``
    (a list of ``_Alignas`` nodes that pycparser does not count among the children).  The
    other slots hold strings, lists of strings or the coord."""
    slots = _NODE_SLOTS.get(cls)
    if slots is None:
        slots = _NODE_SLOTS[cls] = child_slots(cls) + (("align",) if "align" in cls.__slots__
                                                       else ())
    return slots


_NODE_SLOTS: dict[type, tuple[str, ...]] = {}


def rewrite(node: c_ast.Node, fn: Callable[[c_ast.Node], c_ast.Node | None]) -> c_ast.Node:
    """Post-order rewrite: ``fn(child)`` returns a replacement or None to keep the child."""
    slots = _NODE_SLOTS.get(type(node))
    for slot in node_slots(type(node)) if slots is None else slots:
        value = getattr(node, slot, None)
        if value is None:
            continue
        if type(value) is list:
            for k, item in enumerate(value):
                if isinstance(item, c_ast.Node):
                    rewrite(item, fn)
                    new = fn(item)
                    if new is not None:
                        value[k] = new
        elif isinstance(value, c_ast.Node):
            rewrite(value, fn)
            new = fn(value)
            if new is not None:
                setattr(node, slot, new)
    return node


def substitute(expr: c_ast.Node, names: dict[str, c_ast.Node]) -> c_ast.Node:
    """``expr`` with each ID of ``names`` replaced by a copy of its value, all at once (the
    copies are not substituted again); in place, except that an ``expr`` that is itself such
    an ID comes back as the copy."""
    def value(n: c_ast.Node) -> c_ast.Node | None:
        return clone(names[n.name]) if isinstance(n, c_ast.ID) and n.name in names else None
    whole = value(expr)
    return whole if whole is not None else rewrite(expr, value)


def walk(node: c_ast.Node) -> Iterator[c_ast.Node]:
    """Pre-order iteration over a subtree."""
    table = REVERSED_SLOTS
    stack = [node]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        n = pop()
        yield n
        slots = table.get(type(n))
        if slots is None:
            slots = reversed_child_slots(type(n))
        for slot in slots:  # reversed: the first child is popped first
            value = getattr(n, slot)
            if value is None:
                continue
            if type(value) is list:
                extend(value[::-1])
            else:
                push(value)


#: node class -> its child slots in reverse order: what a walk with an explicit stack pushes
#: (:func:`walk`, okl.model.names), read inline where a call per node would cost
REVERSED_SLOTS: dict[type, tuple[str, ...]] = {}


def reversed_child_slots(cls: type) -> tuple[str, ...]:
    """:func:`child_slots` of ``cls``, last first, entered in :data:`REVERSED_SLOTS`."""
    slots = REVERSED_SLOTS[cls] = child_slots(cls)[::-1]
    return slots


def ids_in(node: c_ast.Node) -> list[c_ast.ID]:
    """Every identifier *use* in the subtree (struct member names excluded)."""
    out: list[c_ast.ID] = []
    table = _CHILD_SLOTS
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        cls = type(n)
        if cls is c_ast.ID:
            out.append(n)
            continue
        if cls is c_ast.StructRef:
            push(n.name)
            continue
        slots = table.get(cls)
        for slot in child_slots(cls) if slots is None else slots:
            value = getattr(n, slot)
            if value is None:
                continue
            if type(value) is list:
                stack.extend(value)
            else:
                push(value)
    return out


def parent_map(root: c_ast.Node, visit: Callable[[c_ast.Node], object] | None = None,
               ) -> dict[int, tuple[c_ast.Node, str]]:
    """id(child) -> (parent, the slot holding it) for every node below ``root``; ``visit``,
    when given, is called with every node in preorder (a pass that needs the map and a
    walk gets both from one traversal)."""
    return _parents(root, visit, REVERSED_SLOTS, reversed_child_slots)


def statement_parents(root: c_ast.Node, visit: Callable[[c_ast.Node], object] | None = None,
                      ) -> dict[int, tuple[c_ast.Node, str]]:
    """:func:`parent_map` of the statements below ``root`` only: id(child) -> (parent, slot)
    for every node in a slot that holds statements or declarations (a block's items, a
    loop's or label's statement, an if's branches, a case's statements, a for's
    declarations), found without entering expressions, types or initialisers -- no
    statement is ever inside one (pycparser has no statement expressions).  Attributed
    nodes (loops, @shared declarations, barriers, @atomic updates) are all in such slots:
    the passes that move them need only this, a fifth of the nodes of a kernel.  ``visit``,
    when given, is called with ``root`` and every statement in preorder."""
    return _parents(root, visit, _STATEMENT_SLOTS, _no_slots)


def _no_slots(cls: type) -> tuple[str, ...]:
    return ()


def _parents(root: c_ast.Node, visit: Callable[[c_ast.Node], object] | None,
             table: dict[type, tuple[str, ...]],
             missing: Callable[[type], tuple[str, ...]]) -> dict[int, tuple[c_ast.Node, str]]:
    """The walk of :func:`parent_map` and :func:`statement_parents`: a node's child slots
    (reversed) from ``table``, or ``missing(its class)``.  One stack walk (as :func:`walk`,
    inlined): each node's slots are read once, for the map and for the walk; a list's
    children share one (parent, slot) tuple."""
    out: dict[int, tuple[c_ast.Node, str]] = {}
    stack = [root]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        n = pop()
        if visit is not None:
            visit(n)
        slots = table.get(type(n))
        if slots is None:
            slots = missing(type(n))
        for slot in slots:  # reversed: the first child is popped first
            value = getattr(n, slot)
            if value is None:
                continue
            if type(value) is list:
                if value:
                    entry = (n, slot)
                    for child in value:
                        out[id(child)] = entry
                    extend(value[::-1])
            else:
                out[id(value)] = (n, slot)
                push(value)
    return out


def rewrite_statements(root: c_ast.Node, fn: Callable[[c_ast.Node], c_ast.Node | None],
                       ) -> c_ast.Node:
    """:func:`rewrite` of the statements below ``root`` only (the nodes in the slots that
    :func:`statement_parents` follows): ``fn(statement)`` returns a replacement, which is
    not entered, or None to keep the statement and look inside it.  For a pass that
    replaces statements (barriers): a call per statement, not per node."""
    table = _STATEMENT_SLOTS
    stack = [root]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        for slot in table.get(type(n), ()):
            value = getattr(n, slot)
            if value is None:
                continue
            if type(value) is list:
                for k, item in enumerate(value):
                    new = fn(item)
                    if new is None:
                        push(item)
                    else:
                        value[k] = new
            else:
                new = fn(value)
                if new is None:
                    push(value)
                else:
                    setattr(n, slot, new)
    return root


#: node class -> its slots that hold statements or declarations, last first (as
#: :data:`REVERSED_SLOTS`); a class not here holds none
_STATEMENT_SLOTS: dict[type, tuple[str, ...]] = {
    c_ast.FileAST: ("ext",), c_ast.FuncDef: ("body",), c_ast.Compound: ("block_items",),
    c_ast.For: ("stmt", "init"), c_ast.While: ("stmt",), c_ast.DoWhile: ("stmt",),
    c_ast.If: ("iffalse", "iftrue"), c_ast.Switch: ("stmt",), c_ast.Case: ("stmts",),
    c_ast.Default: ("stmts",), c_ast.Label: ("stmt",), c_ast.DeclList: ("decls",),
}


def replace_child(parent: c_ast.Node, slot: str, old: c_ast.Node, new: c_ast.Node) -> None:
    """Put ``new`` where ``old`` is in ``parent`` (``slot`` as :func:`parent_map` gives it:
    a field's name; a list field -- a call's arguments, a block's statements -- is searched
    for ``old`` by identity, never replaced whole)."""
    field = slot.split("[", 1)[0]
    value = getattr(parent, field)
    if type(value) is list:
        value[next(k for k, x in enumerate(value) if x is old)] = new
    else:
        setattr(parent, field, new)


def guard_in_place(parents: dict[int, tuple[c_ast.Node, str]], node: c_ast.Node,
                   cond: c_ast.Node, coord=None) -> c_ast.If:
    """Replace ``node`` by ``if (cond) { node }`` in its parent, keeping ``parents`` (a
    :func:`parent_map`) right for the three nodes involved; returns the ``if``."""
    parent, slot = parents[id(node)]
    block = c_ast.Compound([node], coord=node.coord)
    guarded = c_ast.If(cond, block, None, coord=node.coord if coord is None else coord)
    if isinstance(parent, c_ast.Compound):
        k = next(i for i, x in enumerate(parent.block_items) if x is node)
        parent.block_items[k] = guarded
    else:
        setattr(parent, slot, guarded)
    parents[id(guarded)] = (parent, slot)
    parents[id(block)] = (guarded, "iftrue")
    parents[id(node)] = (block, "block_items")
    return guarded


def clone(node: c_ast.Node, replace: dict[int, c_ast.Node] | None = None) -> c_ast.Node:
    """A deep copy of the tree under ``node``: new nodes and new lists, shared strings and
    coords (no pass changes a coord in place).  ``replace`` maps id(node) to what stands
    for that node in the copy (itself not copied).  Unlike ``copy.deepcopy`` a node met
    twice is copied twice; okl's trees share no nodes where that matters."""
    if replace is not None:
        stand_in = replace.get(id(node))
        if stand_in is not None:
            return stand_in
    copier = _COPIERS.get(type(node))
    return (_copier(type(node)) if copier is None else copier)(node, replace)


#: node class -> the function that copies one node of it (see :func:`_copier`)
_COPIERS: dict[type, Callable[[c_ast.Node, dict | None], c_ast.Node]] = {}


def _copier(cls: type[c_ast.Node]) -> Callable[[c_ast.Node, dict | None], c_ast.Node]:
    """The copier of node class ``cls`` for :func:`clone`: every slot but __weakref__ (an
    unset one left unset), nodes and the nodes in lists copied by their classes' copiers
    called from here, so that a copy takes one Python frame per tree level, as the
    recursive clone this replaced took, and deep expressions meet the recursion limit where
    they did.

    The copiers were once generated as straight-line code per class and compiled with
    ``exec``: faster to run, but 0.7 ms to compile per class, 7 ms of the first translation
    in a process (``oklc translate``, issue 30; ten classes for bk5.okl), where all the
    clones of a translation take 0.4 ms this way (0.3 ms that way)."""
    slots = tuple(s for s in cls.__slots__ if s != "__weakref__")
    new_node, copiers, make, node_type = object.__new__, _COPIERS, _copier, c_ast.Node

    def child(x: c_ast.Node, replace: dict | None) -> c_ast.Node:
        """The stand-in ``replace`` gives for ``x``, else a copy of it."""
        stand_in = None if replace is None else replace.get(id(x))
        if stand_in is None:
            copier = copiers.get(type(x))
            stand_in = (make(type(x)) if copier is None else copier)(x, replace)
        return stand_in

    def copy(node: c_ast.Node, replace: dict | None) -> c_ast.Node:
        new: c_ast.Node = new_node(cls)
        for slot in slots:
            try:
                value = getattr(node, slot)
            except AttributeError:
                continue
            if isinstance(value, node_type):
                value = child(value, replace)
            elif type(value) is list:
                value = [child(x, replace) if isinstance(x, node_type) else x for x in value]
            setattr(new, slot, value)
        return new

    _COPIERS[cls] = copy
    return copy


#: node types of plain arithmetic: reading variables, no call, store or memory access
_PURE = (c_ast.ID, c_ast.Constant, c_ast.BinaryOp, c_ast.UnaryOp, c_ast.TernaryOp, c_ast.Cast,
         c_ast.Typename, c_ast.TypeDecl, c_ast.IdentifierType)


def is_id(node, name: str) -> bool:
    """``node`` is the identifier ``name``."""
    return isinstance(node, c_ast.ID) and node.name == name


def is_void_param(p: c_ast.Node) -> bool:
    """The ``void`` of a parameter list ``(void)``: no parameter at all."""
    return isinstance(p, c_ast.Typename) and isinstance(p.type, c_ast.TypeDecl) and \
        getattr(p.type.type, "names", None) == ["void"]


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


def root_name(node: c_ast.Node | None) -> str | None:
    """The variable an lvalue or pointer expression starts from (``x`` of ``x[i].f``,
    ``*(q + e * n)``, ``&s[j][0]``); None when it starts from anything else."""
    while node is not None:
        if isinstance(node, c_ast.ID):
            return node.name
        if isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
            node = node.name
        elif isinstance(node, c_ast.UnaryOp) and node.op in ("*", "&"):
            node = node.expr
        elif isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
            node = node.left
        elif isinstance(node, c_ast.Cast):
            node = node.expr
        else:
            return None
    return None
