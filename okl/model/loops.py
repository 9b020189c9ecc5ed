"""Canonical facts of an attributed for-loop: iterator, start, bound, step, trip count.

Accepts exactly OCCA's loop forms (notes §1.3): one declared, initialised integer
iterator; a ``<``/``<=``/``>``/``>=`` comparison with the iterator alone on either side; an
update by ``++``, ``--``, ``+=`` or ``-=``.  The trip count uses OCCA's formula
(``hi - lo``, ``+1`` when inclusive, ``(count + step - 1) / step`` with a step) so launch
sizes agree with OCCA's.
"""

from __future__ import annotations

from pycparser import c_ast

from ..record import record
from .basetypes import INTEGER_TYPES, integer_bits
from .consteval import common, convert, evaluate, integer_type, promote
from .types import TypeTable

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


class LoopFormError(Exception):
    """A loop header OKL cannot map onto threads; ``node`` is where to point the caret."""

    def __init__(self, message: str, node: c_ast.Node, hint: str = ""):
        super().__init__(message)
        self.node = node
        self.hint = hint


@record
class LoopForm:
    iterator: str
    iter_type: str  # canonical C type of the iterator, e.g. "int", "long", "unsigned int"
    type_node: c_ast.Node  # the iterator's declared type (for re-declaring it)
    start: c_ast.Node
    bound: c_ast.Node
    cmp: str  # with the iterator on the left: '<', '<=', '>', '>='
    step: c_ast.Node | None  # None for ++/--
    increasing: bool

    @property
    def inclusive(self) -> bool:
        return self.cmp in ("<=", ">=")

    def trip_count(self) -> c_ast.Node:
        """OCCA's iteration-count expression as an AST (fresh nodes every call)."""
        hi, lo = (self.bound, self.start) if self.increasing else (self.start, self.bound)
        count: c_ast.Node = _difference(hi, lo)
        if self.inclusive:
            count = c_ast.BinaryOp("+", count, c_ast.Constant("int", "1"))
        if self.step is not None:
            step = self.step
            count = c_ast.BinaryOp(
                "/", c_ast.BinaryOp("-", c_ast.BinaryOp("+", count, step),
                                    c_ast.Constant("int", "1")), step)
        return count

    def trip_value(self, env: dict[str, int] | None = None) -> int | None:
        """The iterations the C loop runs (0 or less: none) when start, bound and step are
        constants (with ``env`` binding names), else None.  Start and bound are compared in
        the type C compares them in, so ``for (int i = -1; i < 5u; ...)`` counts 0, not 6."""
        start, bound = evaluate(self.start, env), evaluate(self.bound, env)
        step = 1 if self.step is None else evaluate(self.step, env)
        if start is None or bound is None or step is None or (cmp := common(
                promote(integer_bits(self.iter_type)), integer_type(self.bound))) is None:
            return evaluate(self.trip_count(), env)  # (a tile's `i < _t + S` still counts S)
        start = convert(convert(start, integer_bits(self.iter_type)), cmp)
        bound = convert(bound, cmp)
        count = (bound - start) if self.increasing else (start - bound)
        count += 1 if self.inclusive else 0
        return -(-count // step) if count > 0 and step > 0 else 0

    def step_value(self) -> int | None:
        return 1 if self.step is None else evaluate(self.step)


def canonical_form(loop: c_ast.For, types: TypeTable, label: str) -> LoopForm:
    """Return the loop's facts or raise LoopFormError with OCCA's wording, prefixed by label."""
    init = loop.init
    if init is None:
        raise LoopFormError(f"[{label}] OKL for loop init-statement cannot be a null statement",
                            loop, hint="declare the iterator: for (int i = 0; ...)")
    if not isinstance(init, c_ast.DeclList):
        raise LoopFormError(f"[{label}] OKL for loop init-statement must be a simple "
                            "declaration with initializer", init,
                            hint="declare the iterator in the loop: for (int i = 0; ...)")
    if len(init.decls) != 1:
        raise LoopFormError(f"[{label}] OKL for loops can only have 1 iterator variable",
                            init.decls[1], hint="declare the other variables before the loop "
                                                "or inside its body")
    decl = init.decls[0]
    if decl.init is None:
        raise LoopFormError(f"[{label}] OKL for loop variable is not initialized", decl,
                            hint=f"write {decl.name} = <start>")
    ctype = types.resolve(decl.type)
    if ctype.pointer or ctype.base not in INTEGER_TYPES:
        raise LoopFormError(f"[{label}] Iterator variable needs to be of an integer type "
                            f"[char, short, int, long, ptrdiff_t, size_t], not '{ctype.text}'",
                            decl, hint="loop over an integer index and compute the value "
                                       "from it")
    name = decl.name
    cmp, bound = _condition(loop, name, label)
    increasing, step = _update(loop, name, label)
    if increasing != (cmp in ("<", "<=")):
        raise LoopFormError(f"[{label}] OKL for loop range is empty or infinite: [{name}] "
                            f"{'increases' if increasing else 'decreases'} but is compared "
                            f"with '{cmp}'", loop.next,
                            hint="count up (++i, i += s) with < or <=, down (--i, i -= s) "
                                 "with > or >=")
    form = LoopForm(name, ctype.base, decl.type, decl.init, bound, cmp, step, increasing)
    step_value = form.step_value()
    if step_value is not None and step_value <= 0:
        raise LoopFormError(f"[{label}] OKL for loop step must be positive", loop.next,
                            hint="the step of += or -= must be a positive number; count down "
                                 "with -=")
    trips = form.trip_value()
    if trips is not None and trips <= 0:
        raise LoopFormError(f"[{label}] OKL for loop range is empty or infinite "
                            f"(it runs {trips} times)", loop.cond,
                            hint="check the start value and the bound")
    return form


def _condition(loop: c_ast.For, name: str, label: str) -> tuple[str, c_ast.Node]:
    cond = loop.cond
    if cond is None:
        raise LoopFormError(f"[{label}] Expected comparing [{name}] with some bound", loop,
                            hint=f"the loop needs a condition such as {name} < N")
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in _FLIP:
        raise LoopFormError(f"[{label}] Expected to compare [{name}] with one of these "
                            "operators [<, <=, >=, >]", cond,
                            hint=f"write {name} < N, {name} <= N, {name} > N or {name} >= N")
    if _is_id(cond.left, name):
        return cond.op, cond.right
    if _is_id(cond.right, name):
        return _FLIP[cond.op], cond.left
    raise LoopFormError(f"[{label}] Expected comparing [{name}] with some bound", cond,
                        hint=f"compare the iterator itself, e.g. {name} < N")


def _update(loop: c_ast.For, name: str, label: str) -> tuple[bool, c_ast.Node | None]:
    nxt = loop.next
    if nxt is None:
        raise LoopFormError(f"[{label}] Expected to update [{name}]", loop,
                            hint=f"the loop needs an update such as ++{name} or {name} += 4")
    message = f"[{label}] Expected update [{name}] with one of these operators [++, --, +=, -=]"
    if isinstance(nxt, c_ast.UnaryOp) and _is_id(nxt.expr, name):
        if nxt.op in ("++", "p++"):
            return True, None
        if nxt.op in ("--", "p--"):
            return False, None
    if isinstance(nxt, c_ast.Assignment) and _is_id(nxt.lvalue, name):
        if nxt.op == "+=":
            return True, nxt.rvalue
        if nxt.op == "-=":
            return False, nxt.rvalue
    raise LoopFormError(message, nxt, hint=f"write ++{name}, {name}++, --{name}, {name}--, "
                                           f"{name} += step or {name} -= step")


def _is_id(node, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name


def _difference(hi: c_ast.Node, lo: c_ast.Node) -> c_ast.Node:
    """``hi - lo`` with two simplifications that keep extents constant where they are:
    ``x - 0`` is ``x`` and ``(a + b) - a`` is ``b`` (the in-tile loop of @tile)."""
    if evaluate(lo) == 0:
        return hi
    if isinstance(hi, c_ast.BinaryOp) and hi.op == "+" and same_expr(hi.left, lo):
        return hi.right
    if isinstance(lo, c_ast.BinaryOp) and lo.op == "-" and same_expr(lo.left, hi):
        return lo.right
    return c_ast.BinaryOp("-", hi, lo)


def same_expr(a: c_ast.Node, b: c_ast.Node) -> bool:
    from pycparser import c_generator
    gen = c_generator.CGenerator()
    return gen.visit(a) == gen.visit(b)
