"""A 2-D @inner plane that names its threads only by their row-major number runs as one loop.

BK5 at p_Nq = 10 (N = 9) reads and writes its @exclusive columns as ``r_q[k][i + 10 * j]``
and its global arrays as ``q[e * 1000 + j * 10 + i]``: a block of threads whose body uses
``j`` and ``i`` only in the sum ``j * 10 + i``.  Left as two loops, gcc vectorises each row of
ten lanes as two full 4-wide vectors and a 2-wide tail: a fifth of the lanes in the tail.
As one loop over ``ji = j * 10 + i`` the hundred lanes are 25 full vectors::

    for (int j = 0; j < J; ++j) {            #pragma GCC ivdep
      #pragma GCC ivdep                 ->    for (int ji = 0; ji < J * I; ++ji) {
      for (int i = 0; i < I; ++i) {             ... r_q[k][ji] ... q[e * 1000 + ji] ...
        ... r_q[k][i + 10 * j] ...            }
        ... q[e * 1000 + j * 10 + i] ...
      }
    }

BK5 N = 9, one thread, interleaved in one process with the hand C (best of 40, thread CPU
time, AMD EPYC): 0.1355 -> 0.1471 GDOF/s, the hand C 0.1499; N = 5 (rows of 6): +4 %.  Rows
that are whole vectors gain nothing (N = 7, rows of 8: the same within noise) and are left
alone, as are rows of 4 or fewer.

Legal because the plane's threads are independent (the row loop is marked for SIMD: an
innermost @inner loop with no @atomic and no scatter, cpu.simd) and so are the rows, @inner
threads of the same block between the same barriers; the body sees the same number for
every thread.  Checked, refused otherwise:

- the row loop is an @inner loop ``for (int j = 0; j < J; ++j)`` whose body is the marked
  lane loop ``for (int i = 0; i < I; ++i)`` alone (pragmas aside), both counted from 0 by 1
  with constant bounds, ``I`` more than 4 and not a whole number of 4-wide vectors;
- every use of ``i`` and ``j`` in the lane loop is a term of a chain of ``+``: ``i`` and
  ``j * I`` (or ``I * j``) side by side, with no other use and no store to either;
- the terms before the pair are integer arithmetic of integer variables and constants, so
  ``(P + j * I) + i`` and ``P + ji`` are the same value (only the grouping changes; a
  floating-point ``P`` would round differently);
- nothing leaves the lane loop early (a ``break`` of the row would end one row, not all).
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import is_id, parent_map, rewrite, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel
from .facts import fresh_name, leaves_early
from .loops import count_loop, counted_loop
from .pad import VECTOR

_INTEGER_TYPES = frozenset({"int", "long", "short", "unsigned", "signed", "size_t",
                            "ptrdiff_t", "int32_t", "int64_t", "uint32_t", "uint64_t"})
_INTEGER_CONSTANTS = frozenset({"int", "long int", "unsigned int", "unsigned long int",
                                "long long int", "unsigned long long int"})


def collapse_planes(kernel: Kernel, lane_ids: set[int]) -> int:
    """Collapse the planes the conditions allow; ``lane_ids`` (the ids of the For nodes marked
    for SIMD) has each collapsed lane loop replaced by its new loop, which is marked as the
    lane loop was (its pragmas moved in front of it).  Returns how many were collapsed."""
    inner = {id(loop.node) for loop in kernel.loops() if loop.kind == "inner"}
    integers = _integer_names(kernel.node)
    taken = {n.name for n in walk(kernel.node) if isinstance(n, (c_ast.ID, c_ast.Decl))
             and n.name}
    parents = parent_map(kernel.node)
    done = 0
    for row in [n for n in walk(kernel.node) if isinstance(n, c_ast.For) and id(n) in inner]:
        lane = _lane_of(row, lane_ids)
        if lane is None:
            continue
        flat = _collapse(row, lane, integers, taken)
        if flat is None:
            continue
        parent, slot = parents[id(row)]
        if not isinstance(parent, c_ast.Compound):
            continue  # a row loop is a statement of a block in every lowering okl makes
        items = parent.block_items
        k = next(k for k, x in enumerate(items) if x is row)
        pragmas = [x for x in row.stmt.block_items if isinstance(x, c_ast.Pragma)] \
            if isinstance(row.stmt, c_ast.Compound) else []
        items[k:k + 1] = [*pragmas, flat]
        lane_ids.discard(id(lane))
        lane_ids.add(id(flat))
        done += 1
    return done


def _lane_of(row: c_ast.For, lane_ids: set[int]) -> c_ast.For | None:
    """The marked lane loop that is all of ``row``'s body (pragmas aside), if there is one."""
    body = row.stmt
    items = body.block_items or [] if isinstance(body, c_ast.Compound) else [body]
    rest = [x for x in items if not isinstance(x, c_ast.Pragma)]
    return rest[0] if len(rest) == 1 and id(rest[0]) in lane_ids else None


def _collapse(row: c_ast.For, lane: c_ast.For, integers: set[str],
              taken: set[str]) -> c_ast.For | None:
    """The one loop that replaces ``row`` and ``lane``; None where a condition fails."""
    rows, lanes = counted_loop(row), counted_loop(lane)
    if rows is None or lanes is None:
        return None
    j, j0, count_j = rows
    i, i0, count_i = lanes
    if j0 != 0 or i0 != 0 or count_j < 1 or count_i <= VECTOR or count_i % VECTOR == 0 \
            or j == i or leaves_early(lane.stmt):
        return None
    ji = fresh_name(set(taken), j + i)  # one name for every plane: each is its own scope
    body = lane.stmt
    if not _rename_pairs(body, i, j, count_i, ji, integers):
        return None
    return count_loop(ji, 0, count_j * count_i, body, row.coord)


def _rename_pairs(body: c_ast.Node, i: str, j: str, count: int, ji: str,
                  integers: set[str]) -> bool:
    """Replace, in place, every pair ``j * count`` and ``i`` of a ``+`` chain in ``body`` by
    ``ji``; False (``body`` unchanged) where ``i`` or ``j`` is used any other way or a term
    before a pair is not integer arithmetic."""
    tops: set[int] = set()
    paired: set[int] = set()
    for top, terms in _chains(body):
        k = _pair(terms, i, j, count)
        if k is None:
            continue
        if not all(_integer(t, integers) for t in terms[:k]):
            return False
        tops.add(id(top))
        paired.update(id(n) for t in terms[k:k + 2] for n in walk(t))
    for n in walk(body):
        if isinstance(n, c_ast.ID) and n.name in (i, j) and id(n) not in paired or \
                isinstance(n, c_ast.Decl) and n.name in (i, j):
            return False

    def renamed(n: c_ast.Node) -> c_ast.Node | None:
        if id(n) not in tops:
            return None
        terms = _terms(n)  # its terms as they are now: a term's own chains are done
        k = _pair(terms, i, j, count)
        assert k is not None
        new = [*terms[:k], c_ast.ID(ji, coord=terms[k].coord), *terms[k + 2:]]
        total = new[0]
        for t in new[1:]:
            total = c_ast.BinaryOp("+", total, t, coord=n.coord)
        return total
    rewrite(body, renamed)
    return True


def _pair(terms: list[c_ast.Node], i: str, j: str, count: int) -> int | None:
    """The index of the first of two neighbouring terms that are ``i`` and ``j * count``."""
    for k in range(len(terms) - 1):
        a, b = terms[k], terms[k + 1]
        if is_id(a, i) and _times(b, j, count) or is_id(b, i) and _times(a, j, count):
            return k
    return None


def _chains(root: c_ast.Node) -> list[tuple[c_ast.BinaryOp, list[c_ast.Node]]]:
    """Every maximal chain of ``+`` under ``root``: its top node and its terms."""
    inside: set[int] = set()
    out = []
    for n in walk(root):
        if isinstance(n, c_ast.BinaryOp) and n.op == "+" and id(n) not in inside:
            node: c_ast.Node = n
            while isinstance(node, c_ast.BinaryOp) and node.op == "+":
                inside.add(id(node))
                node = node.left
            out.append((n, _terms(n)))
    return out


def _terms(top: c_ast.BinaryOp) -> list[c_ast.Node]:
    """The terms of the chain of ``+`` at ``top``, left to right as C groups them (``a + b +
    c`` is ``(a + b) + c``; a parenthesised ``b + c`` on the right is one term)."""
    terms = []
    node: c_ast.Node = top
    while isinstance(node, c_ast.BinaryOp) and node.op == "+":
        terms.append(node.right)
        node = node.left
    terms.append(node)
    return terms[::-1]


def _times(node: c_ast.Node, j: str, count: int) -> bool:
    """``node`` is ``j * count`` or ``count * j`` (``count`` any constant expression)."""
    if not isinstance(node, c_ast.BinaryOp) or node.op != "*":
        return False
    return is_id(node.left, j) and evaluate(node.right) == count or \
        is_id(node.right, j) and evaluate(node.left) == count


def _integer(expr: c_ast.Node, integers: set[str]) -> bool:
    """``expr`` is ``+ - *`` of integer constants and variables declared with integer
    types only."""
    for n in walk(expr):
        if isinstance(n, c_ast.BinaryOp):
            if n.op not in ("+", "-", "*"):
                return False
        elif isinstance(n, c_ast.ID):
            if n.name not in integers:
                return False
        elif isinstance(n, c_ast.Constant):
            if n.type not in _INTEGER_CONSTANTS:
                return False
        else:
            return False
    return True


def _integer_names(root: c_ast.Node) -> set[str]:
    """The names every declaration of which under ``root`` (parameters included) gives an
    integer type."""
    good: set[str] = set()
    bad: set[str] = set()
    for n in walk(root):
        if isinstance(n, c_ast.Decl) and n.name:
            t = n.type
            if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) \
                    and set(t.type.names) <= _INTEGER_TYPES:
                good.add(n.name)
            else:
                bad.add(n.name)
    return good - bad
