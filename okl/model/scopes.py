"""Which declaration each name in a function refers to, by C's block scopes.

Passes that move statements between scopes (the CPU barrier split hoists a thread's
variables out of the @inner loops) or reason about one variable's values (the barrier
uniformity check) must tell apart two variables of one name in sibling or nested blocks;
comparing names is not enough.  :func:`bindings` resolves every identifier once.
"""

from __future__ import annotations

from pycparser import c_ast

from ..ctree import children

#: id(ID node) -> the Decl it names, or None (a file-scope name, a function, an enumerator)
Bindings = dict[int, c_ast.Decl | None]


def bindings(func: c_ast.FuncDef) -> Bindings:
    """Resolve every identifier of ``func`` (its parameters are declarations too).  A
    struct member after ``.``/``->`` and a goto label are not identifiers of variables and
    are left out."""
    out: Bindings = {}
    scopes: list[dict[str, c_ast.Decl]] = [{}]
    ftype = func.decl.type
    if isinstance(ftype, c_ast.FuncDecl) and ftype.args is not None:
        for p in ftype.args.params:
            if isinstance(p, c_ast.Decl) and p.name:
                scopes[0][p.name] = p
    _resolve(func.body, scopes, out)
    return out


def _lookup(scopes: list[dict[str, c_ast.Decl]], name: str) -> c_ast.Decl | None:
    for scope in reversed(scopes):
        decl = scope.get(name)
        if decl is not None:
            return decl
    return None


def _resolve(node: c_ast.Node | None, scopes: list[dict[str, c_ast.Decl]],
             out: Bindings) -> None:
    """Iterative on statement lists, recursive on nesting (a kernel nests a few levels)."""
    if node is None:
        return
    cls = type(node)
    if cls is c_ast.ID:
        out[id(node)] = _lookup(scopes, node.name)
    elif cls is c_ast.StructRef:
        _resolve(node.name, scopes, out)  # node.field names a member
    elif cls is c_ast.Compound:
        scopes.append({})
        for item in node.block_items or []:
            _resolve(item, scopes, out)
        scopes.pop()
    elif cls is c_ast.For:
        scopes.append({})
        for part in (node.init, node.cond, node.next, node.stmt):
            _resolve(part, scopes, out)
        scopes.pop()
    elif cls is c_ast.Decl:
        for part in (node.type, node.init, node.bitsize):
            _resolve(part, scopes, out)
        if node.name and not isinstance(node.type, c_ast.FuncDecl):
            scopes[-1][node.name] = node
    elif cls in (c_ast.Goto, c_ast.Label):
        if cls is c_ast.Label:
            _resolve(node.stmt, scopes, out)
    elif cls in (c_ast.FuncDecl, c_ast.Struct, c_ast.Union):
        return  # a prototype's parameter names, a struct's members: not names in scope
    else:
        for child in children(node):
            _resolve(child, scopes, out)
