"""@atomic: find each atomic statement's target type and memory space, let the target lower it.

The backend needs the C type of the updated location (``atomicAdd`` on ``double`` vs a
compare-and-swap loop on OpenCL) and whether it lives in global or @shared memory (OpenCL
address spaces), so this pass resolves the lvalue's root variable in the kernel's scope.
"""

from __future__ import annotations

from pycparser import c_ast

from ..ctree import root_name, statement_parents, walk
from ..errors import Diagnostics
from ..model.basetypes import canonical_base
from ..model.kernel import Kernel, Program
from ..model.loops import same_expr
from ..targets.target import Target


def lower_atomics(program: Program, kernel: Kernel, target: Target, diags: Diagnostics) -> None:
    if not kernel.atomics:
        return
    scope = _scope(kernel)
    shared = {v.name for v in kernel.shared}
    parents = statement_parents(kernel.node)  # an @atomic update is a statement
    for atomic in kernel.atomics:
        node = atomic.node
        if isinstance(node, c_ast.Assignment) and node.op == "=":
            node = _as_update(node)
            if node is not atomic.node:
                parent, slot = parents[id(atomic.node)]
                _replace(parent, slot, atomic.node, node)
                parents[id(node)] = (parent, slot)
            elif _reads(node.rvalue, node.lvalue):
                # `x = f(x)` is a read-modify-write no atomic instruction does
                if target.gpu:
                    diags.error("@atomic x = <expression of x> is not an atomic update on "
                                f"{target.mode}", atomic.loc,
                                hint="write it as x += v (or -=, &=, |=, ^=), or keep the "
                                     "update on the host")
                    continue
                block = c_ast.Compound([node], coord=node.coord)  # OpenMP: a critical section
                parent, slot = parents[id(node)]
                _replace(parent, slot, node, block)
                parents[id(block)] = (parent, slot)
                node = block
        if isinstance(node, c_ast.Compound):
            base, space = "", "global"
        else:
            lvalue = node.lvalue if isinstance(node, c_ast.Assignment) else node.expr
            root = root_name(lvalue)
            space = "shared" if root in shared else "global"
            found = lvalue_type(lvalue, scope, program)
            if found is None:
                diags.error("cannot tell the type of this @atomic target", atomic.loc,
                            hint="update an element of a kernel argument, a @shared array or "
                                 "a local variable")
                continue
            base = found
        new = target.atomic(node, base, space, diags, atomic)
        if new is not node:
            parent, slot = parents[id(node)]
            _replace(parent, slot, node, new)


_COMMUTATIVE = {"+", "&", "|", "^", "*"}


def _as_update(node: c_ast.Assignment) -> c_ast.Node:
    """``x = x op e`` (or ``x = e op x`` for commutative op) as ``x op= e``."""
    rhs = node.rvalue
    if isinstance(rhs, c_ast.BinaryOp) and rhs.op in _COMMUTATIVE | {"-", "/", "<<", ">>"}:
        if same_expr(rhs.left, node.lvalue) and not _reads(rhs.right, node.lvalue):
            return c_ast.Assignment(rhs.op + "=", node.lvalue, rhs.right, coord=node.coord)
        if rhs.op in _COMMUTATIVE and same_expr(rhs.right, node.lvalue) and \
                not _reads(rhs.left, node.lvalue):
            return c_ast.Assignment(rhs.op + "=", node.lvalue, rhs.left, coord=node.coord)
    return node


def _reads(expr: c_ast.Node, lvalue: c_ast.Node) -> bool:
    """Does ``expr`` contain the location ``lvalue`` (spelled the same)?"""
    return any(same_expr(n, lvalue) for n in walk(expr) if type(n) is type(lvalue))


def _replace(parent, slot, old, new) -> None:
    value = getattr(parent, slot)
    if isinstance(value, list):
        value[next(i for i, x in enumerate(value) if x is old)] = new
    else:
        setattr(parent, slot, new)


def _scope(kernel: Kernel) -> dict[str, c_ast.Node]:
    out = {p.name: p.node.type for p in kernel.params}
    for n in walk(kernel.node.body):
        if isinstance(n, c_ast.Decl) and n.name:
            out.setdefault(n.name, n.type)
    return out


def lvalue_type(expr, scope: dict[str, c_ast.Node], program: Program) -> str | None:
    """Canonical base type ('float', 'unsigned int', ...) of an lvalue expression."""
    t = _type_of(expr, scope, program)
    if t is None:
        return None
    resolved = program.types.resolve(t)
    if resolved.pointer:
        return None
    return resolved.base if resolved.descr is not None else None


def _type_of(expr, scope, program):
    if isinstance(expr, c_ast.ID):
        return scope.get(expr.name)
    if isinstance(expr, (c_ast.ArrayRef, c_ast.UnaryOp)):
        inner = expr.name if isinstance(expr, c_ast.ArrayRef) else expr.expr
        t = _type_of(inner, scope, program)
        t = _through_typedef(t, program)
        return t.type if isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)) else None
    if isinstance(expr, c_ast.StructRef):
        t = _through_typedef(_type_of(expr.name, scope, program), program)
        if expr.type == "->" and isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            t = _through_typedef(t.type, program)
        while isinstance(t, c_ast.TypeDecl):
            t = t.type
        if isinstance(t, c_ast.IdentifierType):
            t = _through_typedef(program.types.typedefs.get(" ".join(t.names)), program)
            while isinstance(t, c_ast.TypeDecl):
                t = t.type
        if isinstance(t, c_ast.Struct):
            decl = t if t.decls is not None else program.types.structs.get(t.name)
            for field in (decl.decls if decl else None) or []:
                if field.name == expr.field.name:
                    return field.type
    return None


def _through_typedef(t, program):
    """Follow `TypeDecl(IdentifierType([typedef name]))` to the typedef's declared type."""
    for _ in range(16):
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType):
            name = canonical_base(t.type.names)
            target = program.types.typedefs.get(name)
            if target is None or name in ("size_t",):
                return t
            t = target
        else:
            return t
    return t
