"""Guards inside @inner loops become loop bounds on CPUs.

OKL code sizes a block smaller than its launch with a guard in the thread body: the tree
reduction's ``if (t < n)``, the ``@tile`` check, ``const int i = base + t; if (i < N)`` over
the last partial block, ``if (t == 0)`` for work one thread does.  On a GPU the guard idles
threads; on a CPU, where the @inner loop is a plain loop, it runs empty iterations and keeps
gcc from vectorising the loop (``not vectorized: control flow in loop``).  Each guard here
becomes the loop's bound, so the iterations that run are the same ones in the same order:

* ``for (t = 0; t < B; ++t) if (t < n) S``  ->  ``for (t = 0; t < min(B, n); ++t) S``
* ``for (t ...) { const int i = A + t; if (i < N) S }``  ->  bound ``min(B, N - (A))``,
  the declarations kept (``A`` may go through earlier declarations of the body);
* ``for (t = 0; t < B; ++t) if (t == c) S``  ->  ``for (t = c; t < c + 1; ++t) S``;
* ``if (x < nx && y < ny)``, x = A + t, y not depending on t (the 2-D grid's edge guard)
  ->  bound ``(y < ny) * min(B, nx - (A))``: the terms on t give the minimum, the others
  (y's initialiser in place of y) 1 or 0, no iteration from a start >= 0.

Only increasing loops, guards without ``else``, and bounds that are plain arithmetic on
variables neither the loop nor the guarded code writes.  @outer loops whose @exclusive slots
come from a running counter keep their guards: the counter must see every iteration.
"""

from __future__ import annotations

from pycparser import c_ast

from ..model.consteval import evaluate
from ..model.kernel import Kernel
from .astutil import clone, is_pure, walk


def guards_to_bounds(kernel: Kernel, counted: set[int]) -> None:
    for loop in kernel.loops():
        if loop.kind != "inner" or not loop.form.increasing or not uncounted(loop, counted):
            continue
        body = loop.node.stmt
        items = list(body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
        if not items:
            continue
        *decls, guard = items
        bound, conds = _guard_bound(guard, loop.iterator, decls)
        mine = _exclusive_bound(loop.form.cmp, loop.form.bound)
        start = evaluate(loop.form.start)
        if bound is not None and _invariant(bound, loop.node.stmt, loop.iterator) and \
                (conds is None or (start is not None and start >= 0 and
                                   _invariant(conds, loop.node.stmt, loop.iterator))):
            end = _min(mine, bound)
            if conds is not None:
                # the loop-invariant terms: 1 (all true) or 0 times the bound, 0 meaning no
                # iteration from a start >= 0 (a product, not ?:, which would put control
                # flow in the loop's condition: gcc then neither vectorises nor honours
                # ivdep, "ignoring loop annotation")
                end = c_ast.BinaryOp("*", conds, end)
            loop.node.cond = c_ast.BinaryOp("<", c_ast.ID(loop.iterator), end)
            loop.node.stmt = c_ast.Compound(decls + [guard.iftrue], coord=body.coord) \
                if decls else guard.iftrue
            continue
        only = _single(guard, loop.iterator) if not decls else None
        end = evaluate(mine)
        if only is not None and loop.form.step is None and start is not None and \
                end is not None and start <= only < end:
            loop.node.init.decls[0].init = c_ast.Constant("int", str(only))
            loop.node.cond = c_ast.BinaryOp("<", c_ast.ID(loop.iterator),
                                            c_ast.Constant("int", str(only + 1)))
            loop.node.stmt = guard.iftrue


def uncounted(loop, counted: set[int]) -> bool:
    """The @outer loop around ``loop`` gives @exclusive slots by position, not by a running
    counter (lower_exclusive's ``counted``): its @inner iterations may be skipped or
    reordered."""
    outer = loop.parent
    while outer is not None and outer.kind != "outer":
        outer = outer.parent
    return outer is not None and id(outer.node) not in counted


def _guard_bound(guard, iterator: str, decls: list) -> tuple[c_ast.Node | None,
                                                               c_ast.Node | None]:
    """(bound, conds) of the guard ``if (T1 && T2 && ...)`` (no else): ``bound``, the
    exclusive upper bound on ``iterator`` that its terms ``E < X`` (``<=``, or flipped) set,
    where E is the iterator or a variable the ``decls`` before the guard define as
    ``A + iterator`` (several such terms: their minimum); ``conds``, the ``&&`` of the other
    terms, which must not depend on the iterator (the body's own names replaced by their
    initialisers), or None when there are none.  (None, None) for any other statement, or
    when a term is neither, or when a term after the first divides (evaluated where ``&&``
    would not have: the loop bound evaluates every bound term, the guard stopped at the
    first false one)."""
    if not isinstance(guard, c_ast.If) or guard.iffalse is not None:
        return None, None
    inits = _pure_inits(decls)  # what runs before the guard must be worth skipping
    if inits is None:
        return None, None
    terms = _conjuncts(guard.cond)
    bounds, conds = [], []
    for k, term in enumerate(terms):
        if k and any(isinstance(n, c_ast.BinaryOp) and n.op in ("/", "%")
                     for n in walk(term)):
            return None, None
        bound = _term_bound(term, iterator, inits)
        if bound is not None:
            bounds.append(bound)
            continue
        if len(terms) == 1:
            return None, None
        cond = _substitute(clone(term), _typed(decls))
        if cond is None or not is_pure(cond) or any(
                isinstance(i, c_ast.ID) and i.name == iterator for i in walk(cond)):
            return None, None
        conds.append(cond)
    if not bounds:
        return None, None
    bound = bounds[0]
    for b in bounds[1:]:
        bound = _min(bound, b)
    cond = None
    for c in conds:
        cond = c if cond is None else c_ast.BinaryOp("&&", cond, c)
    return bound, cond


def _typed(decls: list) -> dict[str, c_ast.Node]:
    """name -> ``(T) (init)`` of the (integer scalar) declarations: the value the name has,
    converted as the declaration converts it."""
    return {d.name: c_ast.Cast(c_ast.Typename(None, [], None, c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(list(d.type.type.names)))), clone(d.init))
        for d in decls}


def _conjuncts(cond: c_ast.Node) -> list[c_ast.Node]:
    """The terms of a chain of ``&&``, in evaluation order."""
    if isinstance(cond, c_ast.BinaryOp) and cond.op == "&&":
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    return [cond]


def _term_bound(cond, iterator: str, inits: dict[str, c_ast.Node]) -> c_ast.Node | None:
    """The exclusive upper bound on ``iterator`` that the comparison ``E < X`` (``<=``, or
    flipped) sets, where E is the iterator or a variable of ``inits`` defined as
    ``A + iterator``; None for any other expression."""
    if not isinstance(cond, c_ast.BinaryOp):
        return None
    flip = {">": "<", ">=": "<="}
    if cond.op in ("<", "<="):
        op, var, bound = cond.op, cond.left, cond.right
    elif cond.op in flip:
        op, var, bound = flip[cond.op], cond.right, cond.left
    else:
        return None
    if not isinstance(var, c_ast.ID):
        return None
    bound = _exclusive_bound(op, bound)
    if var.name == iterator:
        return bound
    if var.name not in inits:
        return None
    offset = _offset(inits[var.name], iterator)
    if offset is None:
        return None
    offset = _substitute(offset, inits)
    if offset is None or any(i.name == iterator for i in walk(offset)
                             if isinstance(i, c_ast.ID)):
        return None
    return c_ast.BinaryOp("-", bound, offset)


def _pure_inits(decls: list) -> dict[str, c_ast.Node] | None:
    """name -> initialiser of integer scalar declarations with pure initialisers, or None
    when a statement before the guard is anything else."""
    inits = {}
    for d in decls:
        if not isinstance(d, c_ast.Decl) or not isinstance(d.type, c_ast.TypeDecl) or \
                d.init is None or not is_pure(d.init) or \
                not isinstance(d.type.type, c_ast.IdentifierType) or \
                not set(d.type.type.names) <= {"int", "long", "unsigned", "short", "signed"}:
            return None
        inits[d.name] = d.init
    # an initialiser naming a variable declared after it means another variable (one of
    # the enclosing scope, shadowed later): substituting would mix the two up
    for k, d in enumerate(decls):
        later = {e.name for e in decls[k:]}
        if any(isinstance(n, c_ast.ID) and n.name in later for n in walk(d.init)):
            return None
    return inits


def _offset(expr: c_ast.Node, iterator: str) -> c_ast.Node | None:
    """A of ``A + iterator`` (or ``iterator + A``, any order of a chain of +); None when
    ``expr`` is not of that form."""
    terms: list[c_ast.Node] = []

    def flatten(n):
        if isinstance(n, c_ast.BinaryOp) and n.op == "+":
            flatten(n.left)
            flatten(n.right)
        else:
            terms.append(n)

    flatten(expr)
    hits = [k for k, t in enumerate(terms) if isinstance(t, c_ast.ID) and t.name == iterator]
    if len(hits) != 1 or len(terms) < 2:
        return None
    rest = [t for k, t in enumerate(terms) if k != hits[0]]
    offset = clone(rest[0])
    for t in rest[1:]:
        offset = c_ast.BinaryOp("+", offset, clone(t))
    return offset


def _substitute(expr: c_ast.Node, inits: dict[str, c_ast.Node], depth: int = 0):
    """``expr`` with the body's own declared names replaced by their initialisers."""
    if depth > 16:
        return None
    if isinstance(expr, c_ast.ID) and expr.name in inits:
        return _substitute(clone(inits[expr.name]), inits, depth + 1)
    for name, child in expr.children():
        new = _substitute(child, inits, depth)
        if new is None:
            return None
        if new is not child:
            _set_child(expr, name, new)
    return expr


def _set_child(node: c_ast.Node, name: str, new: c_ast.Node) -> None:
    if "[" in name:
        field, index = name[:-1].split("[")
        getattr(node, field)[int(index)] = new
    else:
        setattr(node, name, new)


def _single(guard, iterator: str) -> int | None:
    """c of ``if (iterator == c) S`` (no else) with a constant c."""
    if not isinstance(guard, c_ast.If) or guard.iffalse is not None or \
            not isinstance(guard.cond, c_ast.BinaryOp) or guard.cond.op != "==":
        return None
    left, right = guard.cond.left, guard.cond.right
    if _is_id(right, iterator):
        left, right = right, left
    return evaluate(right) if _is_id(left, iterator) else None


def _exclusive_bound(op: str, bound: c_ast.Node) -> c_ast.Node:
    return bound if op == "<" else c_ast.BinaryOp("+", bound, c_ast.Constant("int", "1"))


def _invariant(bound: c_ast.Node, body: c_ast.Node, iterator: str) -> bool:
    """The bound is plain arithmetic on variables that neither the loop nor its body write."""
    if not is_pure(bound):
        return False
    names = {n.name for n in walk(bound) if isinstance(n, c_ast.ID)}
    if iterator in names:
        return False
    for n in walk(body):
        target = n.lvalue if isinstance(n, c_ast.Assignment) else (
            n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--")
            else None)
        if isinstance(n, c_ast.UnaryOp) and n.op == "&":  # written through a pointer?
            target = n.expr
        if isinstance(target, c_ast.ID) and target.name in names:
            return False
        if isinstance(n, c_ast.Decl) and n.name in names:
            return False
    return True


def _min(a: c_ast.Node, b: c_ast.Node) -> c_ast.Node:
    va, vb = evaluate(a), evaluate(b)
    if va is not None and vb is not None:
        return c_ast.Constant("int", str(min(va, vb)))
    return c_ast.TernaryOp(c_ast.BinaryOp("<", a, b), clone(a), clone(b))


def _is_id(node, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name
