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
* ``if (t < n && C) S`` (any order of a chain of ``&&``, every term plain arithmetic): the
  bound as above, ``if (C) S`` kept in the loop.  The terms have no side effects, and ``C``
  now runs only for iterations where it ran before (``t < n`` true), so nothing new can trap.

A guard that is the same in every iteration -- ``for (a ...) if (b < 4) S``, plain arithmetic
and comparisons on variables the loop does not write, not the iterator -- goes around the
loop: ``if (b < 4) for (a ...) S``, the iterations that run unchanged; then it can be the
bound of the loop around (bk1's ``for (b < 5) for (a < 5) if (b < 4 && a < 4)`` is
``for (b < 4) for (a < 4)``; gcc could not vectorise the masked loads of the guarded lanes,
``not vectorized: no vectype for stmt: .MASK_LOAD``).  The hoisted guard runs once where it
ran once per iteration, so where the loop may run no iteration at all it must not trap: no
``/``, ``%`` or shift then, and no address of its variables taken anywhere in the kernel, no
call in the loop where it names a variable the kernel does not declare.  A guard the same in
every iteration that names the body's own declarations cannot go around the loop (the 2-D
grid's ``{ const int x = A + t, y = ...; if (x < nx && y < ny) S }``, once ``x < nx`` is the
bound); it becomes a factor 0 or 1 of the bound, y's initialiser in place of y:
``t < (Y < ny) * min(B, nx - (A))``, no iteration from a start >= 0, and nothing in it that
can trap (it now runs where the loop runs no iteration).

Only increasing loops, guards without ``else``, and bounds that are plain arithmetic on
variables neither the loop nor the guarded code writes.  @outer loops whose @exclusive slots
come from a running counter keep their guards: the counter must see every iteration.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import clone, guard_in_place, is_id, is_pure, parent_map, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel
from .loops import counted_loop


def guards_to_bounds(kernel: Kernel, counted: set[int]) -> None:
    parents = None
    declared: set[str] = set()
    # innermost loops first: a guard hoisted out of a loop may be its parent's bound
    for loop in reversed(list(kernel.loops())):
        if loop.kind != "inner" or not loop.form.increasing or not uncounted(loop, counted):
            continue
        mine = _exclusive_bound(loop.form.cmp, loop.form.bound)
        for _ in range(8):  # one bound per term of a chain of &&
            mine = _fold_guard(loop, mine)
            if mine is None:
                break
        if parents is None:  # the parent map and the declared names from one walk
            parents = parent_map(kernel.node, lambda n: _note_declared(n, declared))
        if not _hoist_guard(loop, kernel.node, parents, declared):
            _factor_guard(loop)


def _guarded(loop) -> tuple[list[c_ast.Node], c_ast.If] | None:
    """(the statements before it, the guard) of a loop body ending in ``if (C) S`` (no else)."""
    body = loop.node.stmt
    items = list(body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
    if not items or not isinstance(items[-1], c_ast.If) or items[-1].iffalse is not None:
        return None
    return items[:-1], items[-1]


_BOOLEAN = {"<", "<=", ">", ">=", "==", "!=", "&&", "||"}


def _may_trap(n: c_ast.Node) -> bool:
    """A division or remainder by anything but a non-zero constant, or a shift."""
    if not isinstance(n, c_ast.BinaryOp):
        return False
    if n.op in ("/", "%"):
        return evaluate(n.right) in (None, 0)
    return n.op in ("<<", ">>")


def _factor_guard(loop) -> None:
    """``for (t ...) { decls; if (C) S }`` with C the same in every iteration but naming the
    body's own declarations, so that it cannot go around the loop (ins's 2-D edge guard
    ``y < ny`` once ``x < nx`` is the bound): C, those names replaced by their initialisers,
    becomes a factor 0 or 1 of the bound, ``t < (C) * B`` (a product, not ?:, which would
    put control flow in the loop's condition: gcc then neither vectorises nor honours ivdep,
    "ignoring loop annotation"); 0 means no iteration from a start >= 0.  C is now evaluated
    where the loop runs no iteration too: nothing that can trap."""
    node = loop.node
    body = node.stmt
    parts = _guarded(loop)
    if parts is None:
        return
    decls, guard = parts
    cond = node.cond
    if _pure_inits(decls) is None or not isinstance(cond, c_ast.BinaryOp) or \
            cond.op != "<" or not is_id(cond.left, loop.iterator):
        return
    start = evaluate(loop.form.start)
    if start is None or start < 0:
        return
    if any(isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)) for n in walk(guard.iftrue)):
        return  # left to cpu.interchange, which takes the guard out with the loop inside
    factor = _substitute(clone(guard.cond), _typed(decls))
    if factor is None or not _invariant(factor, node.stmt, loop.iterator) or any(
            _may_trap(n) for n in walk(factor)):
        return
    once = factor if isinstance(factor, c_ast.BinaryOp) and factor.op in _BOOLEAN or \
        isinstance(factor, c_ast.UnaryOp) and factor.op == "!" else \
        c_ast.UnaryOp("!", c_ast.UnaryOp("!", factor))  # 0 or 1
    node.cond = c_ast.BinaryOp("<", c_ast.ID(loop.iterator),
                               c_ast.BinaryOp("*", once, cond.right))
    node.stmt = c_ast.Compound(decls + [guard.iftrue], coord=body.coord) \
        if decls else guard.iftrue


def _fold_guard(loop, mine: c_ast.Node) -> c_ast.Node | None:
    """Make the loop's guard on its iterator its bound (``mine``: the exclusive bound so
    far); the new bound, or None when nothing more can be folded."""
    body = loop.node.stmt
    parts = _guarded(loop)
    if parts is None:
        return None
    decls, guard = parts
    for term, rest in _splits(guard):
        bound = _guard_bound(term, loop.iterator, decls)
        if bound is not None and _invariant(bound, loop.node.stmt, loop.iterator):
            new = _min(mine, bound)
            loop.node.cond = c_ast.BinaryOp("<", c_ast.ID(loop.iterator), new)
            kept = guard.iftrue if rest is None else \
                c_ast.If(rest, guard.iftrue, None, coord=guard.coord)
            loop.node.stmt = c_ast.Compound(decls + [kept], coord=body.coord) \
                if decls or rest is not None else kept
            return clone(new)
    only = _single(guard, loop.iterator) if not decls else None
    start, end = evaluate(loop.form.start), evaluate(mine)
    if only is not None and loop.form.step is None and start is not None and \
            end is not None and start <= only < end:
        loop.node.init.decls[0].init = c_ast.Constant("int", str(only))
        loop.node.cond = c_ast.BinaryOp("<", c_ast.ID(loop.iterator),
                                        c_ast.Constant("int", str(only + 1)))
        loop.node.stmt = guard.iftrue
    return None


def _splits(guard: c_ast.If):
    """(term, the other terms joined by && or None) for ``if (A && B && ...)``; the guard's
    whole condition alone where it is no such chain or a term is not plain arithmetic."""
    terms = _chain(guard.cond, "&&")
    if len(terms) == 1 or not all(is_pure(t) for t in terms):
        yield guard.cond, None
        return
    for k, term in enumerate(terms):
        rest = [clone(t) for j, t in enumerate(terms) if j != k]
        joined = rest[0]
        for t in rest[1:]:
            joined = c_ast.BinaryOp("&&", joined, t)
        yield term, joined


_SAFE_OPS = {"<", "<=", ">", ">=", "==", "!=", "&&", "||", "!"}


def _hoist_guard(loop, root, parents, declared: set[str]) -> bool:
    """``for (...) if (C) S`` -> ``if (C) for (...) S`` where C is the same in every
    iteration and evaluating it once more (or once where no iteration runs) is harmless."""
    node = loop.node
    parts = _guarded(loop)
    if parts is None or parts[0]:
        return False
    guard = parts[1]
    cond = guard.cond
    if not is_pure(cond) or id(node) not in parents:
        return False
    names = {n.name for n in walk(cond) if isinstance(n, c_ast.ID)}
    if loop.iterator in names or not _invariant(cond, node, loop.iterator):
        return False
    runs = loop.form.step is None and _runs(node, loop.iterator)
    if not runs and any(isinstance(n, (c_ast.BinaryOp, c_ast.UnaryOp)) and
                        n.op not in _SAFE_OPS for n in walk(cond)):
        return False
    if any(isinstance(n, c_ast.UnaryOp) and n.op == "&" and
           any(isinstance(i, c_ast.ID) and i.name in names for i in walk(n.expr))
           for n in walk(root)):
        return False
    if not names <= declared and any(isinstance(n, c_ast.FuncCall) for n in walk(node)):
        return False
    guard_in_place(parents, node, cond, guard.coord)
    node.stmt = guard.iftrue
    parents[id(guard.iftrue)] = (node, "stmt")
    return True


def _runs(node: c_ast.For, iterator: str) -> bool:
    """``for (int t = c0; t < c1; ++t)`` with constants ``c0 < c1``: the first test passes."""
    form = counted_loop(node)
    return form is not None and form[0] == iterator and form[2] > 0


def _note_declared(n: c_ast.Node, declared: set[str]) -> None:
    if isinstance(n, c_ast.Decl) and n.name:
        declared.add(n.name)


def uncounted(loop, counted: set[int]) -> bool:
    """The @outer loop around ``loop`` gives @exclusive slots by position, not by a running
    counter (lower_exclusive's ``counted``): its @inner iterations may be skipped or
    reordered."""
    outer = loop.parent
    while outer is not None and outer.kind != "outer":
        outer = outer.parent
    return outer is not None and id(outer.node) not in counted


def _guard_bound(cond: c_ast.Node, iterator: str, decls: list) -> c_ast.Node | None:
    """The exclusive upper bound on ``iterator`` that a guard's condition ``T1 && T2 && ...``
    sets when every term is ``E < X`` (``<=``, or flipped), E the iterator or a variable the
    ``decls`` before the guard define as ``A + iterator`` (several terms: their minimum);
    None otherwise, or when a term after the first divides (evaluated where ``&&`` would not
    have: the loop bound evaluates every term)."""
    inits = _pure_inits(decls)  # what runs before the guard must be worth skipping
    if inits is None:
        return None
    bounds = []
    for k, term in enumerate(_chain(cond, "&&")):
        if k and any(isinstance(n, c_ast.BinaryOp) and n.op in ("/", "%")
                     for n in walk(term)):
            return None
        bound = _term_bound(term, iterator, inits)
        if bound is None:
            return None
        bounds.append(bound)
    bound = bounds[0]
    for b in bounds[1:]:
        bound = _min(bound, b)
    return bound


def _typed(decls: list) -> dict[str, c_ast.Node]:
    """name -> ``(T) (init)`` of the (integer scalar) declarations: the value the name has,
    converted as the declaration converts it."""
    return {d.name: c_ast.Cast(c_ast.Typename(None, [], None, c_ast.TypeDecl(
        None, [], None, c_ast.IdentifierType(list(d.type.type.names)))), clone(d.init))
        for d in decls}


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
    if is_id(inits[var.name], iterator):  # a copy (cpu.grid's ``const int x = 1 + lx`` or
        return bound                      # ``x = lx`` from ``x = bx * 8 + lx``)
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


def _chain(expr: c_ast.Node, op: str) -> list[c_ast.Node]:
    """The operands of ``a op b op c ...`` (any grouping), left to right."""
    terms: list[c_ast.Node] = []
    stack = [expr]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.BinaryOp) and n.op == op:
            stack += [n.right, n.left]
        else:
            terms.append(n)
    return terms


def _offset(expr: c_ast.Node, iterator: str) -> c_ast.Node | None:
    """A of ``A + iterator`` (or ``iterator + A``, any order of a chain of +); None when
    ``expr`` is not of that form."""
    terms = _chain(expr, "+")
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
    if is_id(right, iterator):
        left, right = right, left
    return evaluate(right) if is_id(left, iterator) else None


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


