"""What a statement or expression does, as the CPU rewrites of whole-thread work (cpu.columns,
cpu.forward, cpu.hoist, cpu.pad) ask it before moving code: whether a thread may leave a
body early, whether an expression only computes, which names a statement writes, where an
array reference starts and what it indexes by.  One module, so that the passes' legality
tests cannot drift apart."""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import walk
from ...model.basetypes import INTEGER_TYPES, canonical_base, integer_bits
from ...model.kernel import Kernel
from .loops import leaves


def leaves_early(body: c_ast.Node) -> bool:
    """A thread may stop before the end of ``body``: a ``continue``/``break`` of its loop,
    or a ``return``/``goto`` anywhere."""
    return leaves(body, continues=True) or any(
        isinstance(n, (c_ast.Return, c_ast.Goto, c_ast.Label)) for n in walk(body))


def no_effects(expr: c_ast.Node) -> bool:
    """Arithmetic and loads: evaluating ``expr`` later, with the same values, gives the same
    result and changes nothing."""
    return all(isinstance(n, _VALUE) and not (
        isinstance(n, c_ast.UnaryOp) and n.op in _WRITES)
        for n in walk(expr))


_VALUE = (c_ast.ID, c_ast.Constant, c_ast.BinaryOp, c_ast.UnaryOp, c_ast.TernaryOp,
          c_ast.Cast, c_ast.Typename, c_ast.TypeDecl, c_ast.IdentifierType, c_ast.ArrayRef,
          c_ast.PtrDecl)
#: unary operators that write their operand, or let it be written (``&``)
_WRITES = ("++", "--", "p++", "p--", "&")


def unchanged_by(expr: c_ast.Node, written: set[str], readonly: set[str]) -> bool:
    """``expr`` has the same value before and after statements that store only to
    ``written`` (:func:`written_names`): it only computes, reads no name of ``written``, and
    loads only from ``readonly`` arrays (:func:`readonly_arguments`: nothing stores there),
    never through a pointer it dereferences."""
    return no_effects(expr) and not any(
        type(n) is c_ast.ID and n.name in written or
        type(n) is c_ast.ArrayRef and not (type(n.name) is c_ast.ID and
                                           n.name.name in readonly) or
        type(n) is c_ast.UnaryOp and n.op == "*"
        for n in walk(expr))


def written_names(root: c_ast.Node) -> set[str]:
    """The variables a statement under ``root`` stores to (an assignment, ++/--, or its
    address taken); ``"*"`` when a store goes through a pointer, to anything."""
    out: set[str] = set()
    for n in walk(root):
        name = _target_root(n)
        if name is not None:
            out.add(name)
    return out


def _target_root(n: c_ast.Node) -> str | None:
    target = n.lvalue if isinstance(n, c_ast.Assignment) else (
        n.expr if isinstance(n, c_ast.UnaryOp) and n.op in _WRITES else None)
    while isinstance(target, (c_ast.ArrayRef, c_ast.StructRef)):
        target = target.name
    if isinstance(target, c_ast.UnaryOp) and target.op == "*":
        return "*"  # a store through a pointer: unknown
    return target.name if isinstance(target, c_ast.ID) else (None if target is None else "*")


def array_root(ref: c_ast.ArrayRef) -> str | None:
    """The array ``a`` of ``a[i][j]``; None when the reference starts elsewhere."""
    node: c_ast.Node = ref
    while isinstance(node, c_ast.ArrayRef):
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else None


def subscripts(ref: c_ast.ArrayRef) -> list[c_ast.Node]:
    """``[i, j]`` of ``a[i][j]``, outermost first."""
    out = []
    node: c_ast.Node = ref
    while isinstance(node, c_ast.ArrayRef):
        out.append(node.subscript)
        node = node.name
    return out[::-1]


def only_child(loop: c_ast.For, child: c_ast.For) -> bool:
    """``child`` is all of ``loop``'s body (pragmas aside)."""
    body = loop.stmt
    if body is child:
        return True
    items = body.block_items or [] if isinstance(body, c_ast.Compound) else []
    return [x for x in items if not isinstance(x, c_ast.Pragma)] == [child]


def fresh_name(taken: set[str], name: str) -> str:
    """``name``, or ``name2``, ``name3``... the first not in ``taken`` (which then holds it)."""
    new, n = name, 1
    while new in taken:
        n += 1
        new = f"{name}{n}"
    taken.add(new)
    return new


def readonly_arguments(kernel: Kernel) -> set[str]:
    """The pointer parameters declared ``@restrict const T *`` (or ``const T * restrict``):
    nothing in the kernel writes what they point to."""
    out = set()
    for p in kernel.params:
        t = p.node.type
        if isinstance(t, c_ast.PtrDecl) and (p.restrict or "restrict" in t.quals) and \
                isinstance(t.type, c_ast.TypeDecl) and "const" in t.type.quals:
            out.add(p.name)
    return out


def declared_integer(t: c_ast.Node) -> tuple[int, bool] | None:
    """(bits, signed) of a declaration's plain integer type (``int``, ``unsigned long``...);
    None for any other type, typedef names and ``char`` (whose signedness is the compiler's)
    included."""
    if type(t) is not c_ast.TypeDecl or type(t.type) is not c_ast.IdentifierType:
        return None
    base = canonical_base(t.type.names)
    return integer_bits(base) if base in INTEGER_TYPES and base != "char" else None
