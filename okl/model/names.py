"""Undeclared identifiers, reported at their .okl line instead of by a backend compiler.

A name read in a kernel or device function must be declared before it: a parameter, a local
in an enclosing block or for-header, a file-scope variable, function or enum constant, or a
name every backend provides (``BUILTIN``).  Function names are not checked: kernels call math
and backend functions (``sqrt``, ``atomicAdd``, ``get_local_id``) that okl cannot list
completely, and the backend compiler names a missing one precisely.  A variable is what goes
wrong silently on some backends (a macro defined for one mode only) and loudly, with a
generated-code position, on others.
"""

from __future__ import annotations

from collections.abc import Iterator

from pycparser import c_ast

from ..ctree import REVERSED_SLOTS, children, reversed_child_slots

#: Names the backends or their headers provide without a declaration in the kernel file.
BUILTIN = frozenset({
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",  # CUDA / HIP
    "NULL", "INFINITY", "NAN", "HUGE_VAL", "HUGE_VALF", "FLT_MAX", "FLT_MIN", "FLT_EPSILON",
    "DBL_MAX", "DBL_MIN", "DBL_EPSILON", "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX",
    "LONG_MIN", "ULONG_MAX", "CHAR_BIT", "MAXFLOAT",
    "M_E", "M_LOG2E", "M_LOG10E", "M_LN2", "M_LN10", "M_PI", "M_PI_2", "M_PI_4", "M_1_PI",
    "M_2_PI", "M_2_SQRTPI", "M_SQRT2", "M_SQRT1_2", "M_E_F", "M_PI_F", "M_SQRT2_F",
    "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "true", "false",
})


def undeclared(ast: c_ast.FileAST) -> Iterator[c_ast.ID]:
    """Every use of an undeclared variable in the file's function bodies, in source order."""
    file_scope: set[str] = set(BUILTIN)
    for ext in ast.ext:
        if isinstance(ext, c_ast.FuncDef):
            file_scope.add(ext.decl.name)
            yield from _Scopes(file_scope).function(ext)
        else:
            file_scope.update(_declared_by(ext))


def _declared_by(node: c_ast.Node) -> set[str]:
    """Names a declaration brings into scope: its own and any enum constants it defines."""
    names = set()
    if isinstance(node, (c_ast.Decl, c_ast.Typedef)) and node.name:
        names.add(node.name)
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Enumerator):
            names.add(n.name)
        stack.extend(children(n))
    return names


class _Scopes:
    def __init__(self, file_scope: set[str]):
        self.stack: list[set[str]] = [file_scope]

    def declared(self, name: str) -> bool:
        for scope in self.stack:
            if name in scope:
                return True
        return False

    def function(self, fn: c_ast.FuncDef) -> Iterator[c_ast.ID]:
        params = set()
        args = getattr(fn.decl.type, "args", None)
        for p in (args.params if args else []):
            if getattr(p, "name", None):
                params.add(p.name)
        self.stack.append(params)
        yield from self.visit(fn.body)
        self.stack.pop()

    def visit(self, root: c_ast.Node | None) -> Iterator[c_ast.ID]:
        """Source-order walk with an explicit stack (expressions thousands of terms long
        must not hit Python's recursion limit).  Items are nodes, or the markers POP (leave
        a scope) and ("declare", decl) (its names enter scope after its initialiser).
        The children of the common nodes (expressions, most statements) are pushed from
        their slots directly, as :func:`okl.ctree.walk` does."""
        todo: list = [root]
        pop, push, extend = todo.pop, todo.append, todo.extend
        table = REVERSED_SLOTS
        while todo:
            node = pop()
            if node is None:
                continue
            cls = type(node)
            if cls is c_ast.ID:
                if not self.declared(node.name):
                    yield node
            elif cls in _SPECIAL:
                extend(reversed(self._parts(node)))
            elif node is _POP:
                self.stack.pop()
            elif cls is tuple:
                self.stack[-1].update(_declared_by(node[1]))
            else:  # children(node), last first
                slots = table.get(cls)
                if slots is None:
                    slots = reversed_child_slots(cls)
                for slot in slots:
                    value = getattr(node, slot)
                    if value is None:
                        continue
                    if type(value) is list:
                        extend(value[::-1])
                    else:
                        push(value)

    def _parts(self, node: c_ast.Node) -> list:
        """What to visit in place of ``node`` (one of _SPECIAL), in order."""
        if isinstance(node, (c_ast.Compound, c_ast.For)):
            self.stack.append(set())
            return [*children(node), _POP]
        if isinstance(node, (c_ast.Decl, c_ast.Typedef)):
            return [getattr(node, "init", None), *_dims(node.type), ("declare", node)]
        if isinstance(node, c_ast.StructRef):
            return [node.name]  # node.field names a member, not a variable
        if isinstance(node, c_ast.FuncCall):
            callee = [] if isinstance(node.name, c_ast.ID) else [node.name]
            return [*callee, node.args]
        if isinstance(node, c_ast.NamedInitializer):
            return [node.expr]  # .x = ...: x is a member
        if isinstance(node, (c_ast.Goto, c_ast.Label)):
            return [getattr(node, "stmt", None)]
        if isinstance(node, (c_ast.Typename, c_ast.TypeDecl, c_ast.IdentifierType)):
            return _dims(node)
        return children(node)


_POP = object()
#: the node classes that _Scopes._parts does not visit as plain children (pycparser's node
#: classes have no subclasses, so the class itself decides)
_SPECIAL = frozenset({
    c_ast.Compound, c_ast.For, c_ast.Decl, c_ast.Typedef, c_ast.StructRef, c_ast.FuncCall,
    c_ast.NamedInitializer, c_ast.Goto, c_ast.Label, c_ast.Typename, c_ast.TypeDecl,
    c_ast.IdentifierType})


def _dims(t) -> list[c_ast.Node]:
    """Array sizes inside a type are expressions: check them too."""
    out = []
    while t is not None and not isinstance(t, (c_ast.IdentifierType, c_ast.Struct,
                                               c_ast.Union, c_ast.Enum, c_ast.FuncDecl)):
        if isinstance(t, c_ast.ArrayDecl):
            out.append(t.dim)
        t = getattr(t, "type", None)
    return out
