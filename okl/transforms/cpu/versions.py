"""A second copy of a block's code for blocks whose rows are all full (CPUs).

cpu.registers splits the plain loop over a block's rows where the rows stop being full::

    int u = 0;
    for (; u < 32 && 256 <= N - (b * 32 + u) * 256; ++u) <full row: constant lanes>
    for (; u < 32; ++u) <part row>

Every block but the last has full rows only, yet the part-row loop is still there: the
running sums must be in memory where the two loops meet, so each block stores them after its
rows and loads them again for its tree -- and so do the blocks that never run a part row.
On one core of the AMD EPYC VM that tail made the blocked sum 0.88 of the hand-written
``omp simd`` sum (the hand C reduces one vector register per block).  Here the block's code
from the split to the end of its list of statements gets a second copy, taken where every row
is full, whose rows loop has no part-row loop and no test per row::

    if (256 <= N - (b * 32 + (32 - 1)) * 256) {     // the last row is full: all are
      { int u = 0; for (; u < 32; ++u) <full row> }
      <the rest of the block's code>
    } else {
      <the split, as before>
      <the rest of the block's code>
    }

With its tree's levels written out (cpu.levels) the copy keeps the sums in registers to the
end.  The function also gets ``_okl_no_jam`` (targets.serial.NO_JAM): gcc's unroll-and-jam
turns the copy's rows loop, countable now, into one that adds two rows per iteration into
the same sums, and that ran the stream dot at 0.4 of the split's speed (the blocked sum at
0.93 of the hand C, against 0.97 without it; measured in C on that core, one thread).

Legal: where the test holds, every row of the split's first loop is full (below), so that
loop runs every row and the part-row loop none -- the copy runs the same rows in the same
order with the same code; elsewhere the original runs.  The full-row test ``C <= E(u)`` of
row ``u`` holds for every row ``S <= u < U`` when it holds where ``E`` is least: ``E`` goes
down (or up) as ``u`` grows through ``+``, ``-``, products by constants and divisions and
shifts by positive constants of signed integer variables and constants only (no unsigned
wrap-around, and signed overflow is undefined in C), so at the last row ``U - 1`` (for a
step ``c``, ``S + (U - 1 - S) / c * c``; or at ``S``).  The test reads only variables that
neither the rows nor the code between the copy's start and the rows write, whose address is
never taken, and it cannot trap (no ``/``, ``%`` or shift by anything but a positive
constant): evaluated once where the rows may run none, it changes nothing.  No copy where
the code to copy defines a label or holds a ``case``, nor where it is larger than
:data:`MAX_NODES`.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import clone, parent_map, substitute, walk
from ...model.consteval import evaluate, integer_type
from ...model.kernel import Kernel
from ...record import record
from ...targets.serial import NO_JAM
from .facts import declared_integer, written_names

#: the most nodes of code copied for one full block
MAX_NODES = 3000


@record
class Split:
    """A rows loop cpu.registers split: what the full-block copy needs of it."""

    block: c_ast.Compound  # { <the rows' iterator>; first; rest }: the split, in its list
    head: list[c_ast.Node]  # the block's statements before ``first`` (the iterator's start)
    first: c_ast.For  # the full rows' loop: ``for (; P && full(u); step) <full row>``
    iterator: str
    start: c_ast.Node  # S
    end: c_ast.Node  # U
    step: int  # the rows' step, a constant
    full: c_ast.BinaryOp  # the full-row test ``C <= E(u)``


def version_full_blocks(kernel: Kernel, splits: list[Split]) -> None:
    """Give each split a full-block copy where that is legal (see the module's docstring)."""
    if not splits:
        return
    parents = parent_map(kernel.node)
    signed = _signed_names(kernel)
    for split in splits:
        test = _all_full(split, signed)
        if test is None:
            continue
        parent, _ = parents.get(id(split.block), (None, None))
        if not isinstance(parent, c_ast.Compound):
            continue
        items = parent.block_items
        k = next(i for i, x in enumerate(items) if x is split.block)
        names = {n.name for n in walk(test) if type(n) is c_ast.ID}
        if names & written_names(split.block) - {split.iterator}:
            continue  # the rows change what the test reads
        start = k
        while start > 0 and not _writes(items[start - 1], names):
            start -= 1
        region = items[start:]
        if any(isinstance(n, (c_ast.Label, c_ast.Case, c_ast.Default))
               for x in region for n in walk(x)) or \
                sum(1 for x in region for _ in walk(x)) > MAX_NODES:
            continue
        own = c_ast.BinaryOp("<", c_ast.ID(split.iterator), clone(split.end))  # u < U
        rows = c_ast.For(None, own, clone(split.first.next),
                         clone(split.first.stmt), coord=split.first.coord)
        head = [clone(x) for x in split.head]
        fast_block = c_ast.Compound([*head, rows], coord=split.block.coord)
        fast = [fast_block if x is split.block else clone(x) for x in region]
        copy = c_ast.If(test, c_ast.Compound(fast, coord=split.block.coord),
                        c_ast.Compound(region, coord=split.block.coord),
                        coord=split.block.coord)
        parent.block_items = [*items[:start], copy]
        parents = parent_map(kernel.node)  # the split's list moved into the else branch
        decl = kernel.node.decl
        if NO_JAM not in decl.funcspec:
            decl.funcspec = [NO_JAM, *decl.funcspec]


def _writes(stmt: c_ast.Node, names: set[str]) -> bool:
    """``stmt`` declares or stores to one of ``names`` (the test's names: their address is
    never taken, so no store through a pointer reaches them)."""
    return bool(written_names(stmt) & names) or any(
        isinstance(n, c_ast.Decl) and n.name in names for n in walk(stmt))


def _all_full(split: Split, signed: set[str]) -> c_ast.Node | None:
    """The test that every row is full (the full-row test at the row where ``E`` is least),
    or None where okl cannot prove that one row's test answers for all."""
    full = split.full
    if full.op != "<=" or evaluate(full.left) is None:
        return None
    direction = _direction(full.right, split.iterator, signed)
    if direction is None or not _safe(full.right) or not _safe(split.end) or \
            not _safe(split.start):
        return None
    if direction == 0:
        return clone(full)
    row = split.start if direction > 0 else _last_row(split)
    weakest = substitute(clone(full.right), {split.iterator: row})
    return c_ast.BinaryOp("<=", clone(full.left), weakest)


def _last_row(split: Split) -> c_ast.Node:
    """``U - 1``, or for a step ``c`` other than 1 ``S + (U - 1 - S) / c * c``: the last row
    where there is one (a division by a positive constant: nothing to trap)."""
    last = c_ast.BinaryOp("-", clone(split.end), c_ast.Constant("int", "1"))
    if split.step == 1:
        return last
    step = c_ast.Constant("int", str(split.step))
    return c_ast.BinaryOp("+", clone(split.start), c_ast.BinaryOp("*", c_ast.BinaryOp(
        "/", c_ast.BinaryOp("-", last, clone(split.start)), step), step))


def _direction(e: c_ast.Node, u: str, signed: set[str]) -> int | None:
    """+1 (-1) where ``e`` never decreases (increases) as ``u`` grows, 0 where it does not
    depend on ``u``; None where okl cannot tell, or ``e`` is not signed arithmetic."""
    if type(e) is c_ast.ID:
        if e.name not in signed:
            return None
        return 1 if e.name == u else 0
    if type(e) is c_ast.Constant:
        t = integer_type(e)
        return 0 if t is not None and t[1] else None
    if type(e) is c_ast.UnaryOp and e.op in ("-", "+"):
        d = _direction(e.expr, u, signed)
        return None if d is None else (-d if e.op == "-" else d)
    if type(e) is not c_ast.BinaryOp:
        return None
    left, right = _direction(e.left, u, signed), _direction(e.right, u, signed)
    if left is None or right is None:
        return None
    if e.op == "+":
        return _combine(left, right)
    if e.op == "-":
        return _combine(left, -right)
    if e.op == "*":
        if left == 0 and right == 0:
            return 0
        factor, d = (evaluate(e.left), right) if left == 0 else (evaluate(e.right), left)
        if factor is None or (left != 0 and right != 0):
            return None
        return 0 if factor == 0 else d * (1 if factor > 0 else -1)
    if e.op in ("/", ">>"):
        divisor = evaluate(e.right)
        return left if right == 0 and divisor is not None and divisor > 0 and \
            (e.op == "/" or divisor < 32) else None
    return None


def _combine(a: int, b: int) -> int | None:
    return a if b == 0 else b if a == 0 else a if a == b else None


def _safe(e: c_ast.Node) -> bool:
    """Plain arithmetic that cannot trap: IDs, constants, + - *, and / % >> << by positive
    constants only."""
    for n in walk(e):
        if type(n) is c_ast.BinaryOp:
            if n.op in ("/", "%", ">>", "<<"):
                d = evaluate(n.right)
                if d is None or d <= 0 or n.op in (">>", "<<") and d >= 32:
                    return False
            elif n.op not in ("+", "-", "*", "<", "<=", ">", ">=", "==", "!="):
                return False
        elif type(n) is c_ast.UnaryOp:
            if n.op not in ("-", "+"):
                return False
        elif type(n) not in (c_ast.ID, c_ast.Constant):
            return False
    return True


def _signed_names(kernel: Kernel) -> set[str]:
    """The kernel's names declared (everywhere the same way) as signed integers, not char,
    whose address is never taken: a store through a pointer cannot change them."""
    types: dict[str, tuple[int, bool] | None] = {p.name: declared_integer(p.node.type)
                                                 for p in kernel.params}
    for n in walk(kernel.node.body):
        if isinstance(n, c_ast.Decl) and n.name:
            t = declared_integer(n.type)
            types[n.name] = t if types.get(n.name, t) == t else None
    taken = {n.expr.name for n in walk(kernel.node.body)
             if type(n) is c_ast.UnaryOp and n.op == "&" and isinstance(n.expr, c_ast.ID)}
    return {name for name, t in types.items() if t is not None and t[1] and name not in taken}
