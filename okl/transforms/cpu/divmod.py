"""A lane loop that divides its iterator by a constant becomes a two-level nest (CPU only).

A GPU mapping often numbers a block's threads flat and splits the number itself: 25 threads
per 5x5 block, ``l = t / 5`` and ``k = t % 5`` (blocksolver).  On a CPU the @inner loop is
a SIMD loop, and gcc vectorises ``t / 5`` as a multiply-high and shifts per vector and then
gathers ``x[colIdx[n] * 5 + l]`` element by element, though ``l`` takes only five values.
Counting ``t`` in two loops makes both parts loop counters::

    #pragma GCC ivdep
    for (int t = 0; t < 25; ++t) { ... t / 5 ... t % 5 ... t ... }

becomes::

    #pragma GCC ivdep
    #pragma GCC unroll 5
    for (int t__hi = 0; t__hi < 5; ++t__hi) {
      #pragma GCC ivdep
      for (int t__lo = 0; t__lo < 5; ++t__lo) {
        const int t = t__hi * 5 + t__lo;
        ... t__hi ... t__lo ... t ...
      }
    }

Where the lane body is straight-line code, the outer loop is unrolled completely (``#pragma
GCC unroll``, which clang reads too): then the per-lane values of a uniform loop around the
lanes (blocksolver's ``acc__x[t]``) live in registers, and gcc vectorises the straight-line
lanes (SLP).  Without it gcc unrolls only some nests (5 x 5: yes; 8 x 4: no), and a lane
loop of 32 split 8 x 4 ran 0.6x the speed of the flat loop in a C test (gcc 12, -O3
-march=native), 64 split 8 x 8 0.5x; with it the shapes tried (16 to 64 lanes, C from 2 to
16, a streaming loop and blocksolver's accumulation) ran 0.96x (noise) to 1.7x the flat
loop, 25 = 5 x 5 1.3x-1.7x.  A body with a loop of its own (blocksolver's residual, ``for
(m < 5) res -= s_p[r][m * 5 + l]``) is left to gcc: split, it ran 2.2x-6x the flat loop
without the pragma, and mostly slower with it (25 = 5 x 5: 3.9x without, 2.5x with; the
whole blocksolver kernel 9% slower).  Bigger loops gain nothing (100 = 10 x 10: 0.97x) and
unroll into much code, so only loops of at most 64 lanes are split, and a straight-line
body only where N / C copies of it stay small.

Those measurements were on Intel CPUs, where gcc's -march=native prefers 256-bit vectors.
gcc 12 takes AMD's Zen 4 for Zen 3, a CPU without AVX-512, and then prefers no width: its SLP
packs blocksolver's 25 running sums into 512-bit vectors built lane by lane from scalar
conversions and inserts, and the whole kernel ran 0.73x the hand C (46 against 33 ms a solve,
one thread).  A kernel with such a nest is therefore built preferring 256 bits
(``targets.serial.NARROW_VECTORS``, unless cpu.registers asked for 512): 31 ms there, 1.05x
the hand C; on a Sapphire Rapids host, whose gcc 13 prefers 256 anyway, 49.1 against 49.2 ms
(the same code).

The nest runs the same values of ``t`` in the same order, and for ``t >= 0`` C's integer
division gives exactly ``t / C == t__hi`` and ``t % C == t__lo``.  okl does this only where
that is certain: the loop is a lane loop okl marked for SIMD (``#pragma GCC ivdep`` right
before it), ``for (int t = c0; t < c1; ++t)`` with constant bounds, ``c0 >= 0``; ``t`` is a
plain ``int`` that the body neither writes, takes the address of nor declares again; every
``t / C`` and ``t % C`` in the body has one constant ``C > 1`` (a plain ``int`` constant: no
suffix, no cast) that divides ``c0`` and the trip count; no ``break`` leaves the loop (it
would leave only the inner one; a ``continue`` goes on with the next ``t`` in both), no
``goto`` or label.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import is_id, rewrite, walk
from ...model.consteval import evaluate
from .loops import count_loop, counted_loop, leaves
from .simd import PRAGMA

HI, LO = "__hi", "__lo"
#: most lanes a split loop may have, and most AST nodes its unrolled outer loop may copy
MAX_LANES = 64
MAX_UNROLLED = 2048


def split_divmod_lanes(root: c_ast.Node) -> tuple[int, int]:
    """Split every marked lane loop below ``root`` that qualifies; returns how many, and how
    many of those have their outer loop unrolled (straight-line lanes for gcc's SLP)."""
    taken: set[str] = set()  # the names in use (identifiers and declared names)
    blocks = []
    for n in walk(root):  # one walk for both
        if isinstance(n, c_ast.ID):
            taken.add(n.name)
        elif isinstance(n, c_ast.Decl):
            if n.name:
                taken.add(n.name)
        elif isinstance(n, c_ast.Compound) and n.block_items:
            blocks.append(n)
    done = unrolled = 0
    for block in blocks:
        items, out = block.block_items, []
        for k, item in enumerate(items):
            new = _split(item, taken) if k and _is_mark(items[k - 1]) and \
                isinstance(item, c_ast.For) else None
            if new is None:
                out.append(item)
                continue
            out.extend(new)
            done += 1
            unrolled += len(new) > 1  # [the unroll pragma, the nest]
        block.block_items = out
    return done, unrolled


def _is_mark(item) -> bool:
    return isinstance(item, c_ast.Pragma) and item.string.strip() == PRAGMA


def _split(loop: c_ast.For, taken: set[str]) -> list[c_ast.Node] | None:
    """``[#pragma GCC unroll, the nest]`` for ``loop`` (the nest alone where the body has a
    loop of its own), or None where it stays."""
    form = _int_lanes(loop)
    if form is None or form[2] > MAX_LANES:
        return None
    t, first, count = form
    body = loop.stmt
    nodes = list(walk(body))  # the body's nodes in preorder, for the checks below
    parts = [n for n in nodes if isinstance(n, c_ast.BinaryOp) and n.op in ("/", "%") and
             is_id(n.left, t)]
    if not parts:  # no t / C or t % C: nothing to split (checked first: most loops)
        return None
    if _touched(nodes, t) or leaves(body, continues=False) or \
            any(isinstance(n, (c_ast.Goto, c_ast.Label)) for n in nodes):
        return None
    dead = _dead_inits(nodes)
    divisors = {_divisor(n, t) for n in parts if id(n) not in dead}
    if len(divisors) != 1:
        return None  # none, or several different ones, or one that is not a plain constant
    c = divisors.pop()
    if c is None or c < 2 or count % c or first % c:
        return None
    unroll = not any(isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)) for n in nodes)
    if unroll and count // c * len(nodes) > MAX_UNROLLED:
        return None
    hi, lo = t + HI, t + LO
    if hi in taken or lo in taken:
        return None
    coord = loop.coord

    def to_parts(n):
        if isinstance(n, c_ast.BinaryOp) and n.op in ("/", "%") and is_id(n.left, t):
            return c_ast.ID(hi if n.op == "/" else lo, coord=n.coord)
        return None

    holder = c_ast.Compound([body], coord=coord)
    rewrite(holder, to_parts)
    body = holder.block_items[0]
    items = list(body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
    if any(is_id(n, t) for n in walk(holder)):
        items.insert(0, _const_int(t, c_ast.BinaryOp(
            "+", c_ast.BinaryOp("*", c_ast.ID(hi), _int(c)), c_ast.ID(lo)), coord))
    inner = count_loop(lo, 0, c, c_ast.Compound(items, coord=coord), coord)
    nest = count_loop(hi, first // c, (first + count) // c,
                  c_ast.Compound([c_ast.Pragma(PRAGMA, coord=coord), inner], coord=coord),
                  coord)
    return [c_ast.Pragma(f"GCC unroll {count // c}", coord=coord), nest] if unroll else [nest]


def _int_lanes(loop: c_ast.For) -> tuple[str, int, int] | None:
    """(iterator, first, count) of a counted loop (cpu.loops) of at least 2 lanes from
    ``0 <= c0``, ``t`` a plain ``int``."""
    form = counted_loop(loop)
    if form is None:
        return None
    d = loop.init.decls[0]
    if d.storage or d.bitsize is not None or not isinstance(d.type, c_ast.TypeDecl) or \
            not isinstance(d.type.type, c_ast.IdentifierType) or \
            d.type.type.names not in (["int"], ["signed", "int"], ["signed"]):
        return None
    t, first, count = form
    return form if first >= 0 and count >= 2 else None


def _dead_inits(nodes: list[c_ast.Node]) -> set[int]:
    """``id`` of the nodes in the initialisers of declarations the body (whose nodes are
    ``nodes``) never reads (a lane loop split off by cpu.interchange keeps ``const int l =
    t / 5;`` that it does not use): gcc drops them, so they are no reason to split."""
    used = {n.name for n in nodes if isinstance(n, c_ast.ID)}
    return {id(x) for n in nodes if isinstance(n, c_ast.Decl) and n.name and
            n.name not in used and n.init is not None for x in walk(n.init)}


def _divisor(n: c_ast.BinaryOp, t: str) -> int | None:
    """C of ``t / C`` or ``t % C`` where C is made of plain int constants only (a suffix or a
    cast could change the type of the result, which ``t__hi`` would not have)."""
    for x in walk(n.right):
        if isinstance(x, c_ast.Constant):
            if x.type != "int" or not x.value.isdigit():
                return None  # 5u, 5L, 0x5, '5', 5.0
        elif isinstance(x, c_ast.UnaryOp):
            if x.op not in ("-", "+"):
                return None
        elif not isinstance(x, c_ast.BinaryOp) or x.op not in ("+", "-", "*"):
            return None
    value = evaluate(n.right)
    return value if value is not None and value < 2 ** 31 else None


def _touched(nodes: list[c_ast.Node], t: str) -> bool:
    """``t`` is written, has its address taken, or is declared again in the body whose
    nodes are ``nodes``."""
    for n in nodes:
        if isinstance(n, c_ast.Decl) and n.name == t:
            return True
        if isinstance(n, c_ast.Assignment) and is_id(n.lvalue, t):
            return True
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&") and \
                is_id(n.expr, t):
            return True
    return False


def _int(v: int) -> c_ast.Constant:
    return c_ast.Constant("int", str(v))


def _const_int(name: str, init, coord) -> c_ast.Decl:
    return c_ast.Decl(name, ["const"], [], [], [], c_ast.TypeDecl(
        name, ["const"], None, c_ast.IdentifierType(["int"])), init, None, coord=coord)
