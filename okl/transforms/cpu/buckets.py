"""A loop over values that runs, for each value, the lanes that hold it: the lanes are listed
by value once, then run in that order without scanning them all per value.

OP2's hierarchical colouring (benchmarks/kernels/airfoil.okl) adds a block's increments one
edge colour at a time, so that no two lanes of a pass add to one cell::

    for (int c = 0; c < bncol[blk]; ++c)
      for (int t = 0; t < 256; ++t; @inner)
        if (col == c) { s_r[4 * l1] += f0; ... }

On a GPU a colour is one pass of the block's threads.  On a CPU it is a scan of all 256
lanes per colour, most of them doing nothing behind a branch that mispredicts every few
lanes.  Here the lanes are sorted by their value first, by counting (stable: within a value,
in lane order), and the body runs once per listed lane::

    const int n = bncol[blk];
    ... count the lanes of each value 0 .. 255, sum the counts, list the lanes ...
    for (int k = 0; k < listed; ++k) {
      const int t = lanes[k];
      const int c = col[t];
      { s_r[4 * l1[t]] += f0[t]; ... }
    }

The body runs for the same (c, t) pairs in the same order as before, so every result has the
same bits.  A lane value of 256 or more (more values than lanes) lists the lanes by the
original scan instead.  resCalcHier on one thread, 720k cells (the AMD EPYC VM): 17.1 ->
19.4 M edges/s, the hand C 23.0 (benchmarks.codegen_experiments, ``airfoil``).

Legal because the body runs for exactly the pairs the loops ran it for, in their order, when
nothing it does changes which pairs those are -- the conditions, each checked, refusing the
rewrite otherwise:

- the value loop is ``for (int c = 0; c < N; ++c)`` whose whole body (pragmas aside) is an
  innermost @inner loop ``for (int t = 0; t < L; ++t)``, L a constant of at most
  :data:`MAX_LANES`;
- the lane loop's whole body is ``if (X[t] == c) S`` (or ``c == X[t]``) without ``else``, X
  an @exclusive ``int`` (its slot for lane t);
- N has no effects; its arrays are parameters declared ``const`` and ``restrict`` (nothing
  in the kernel writes them) and its other names are not written by S: N is the same
  before and after each S;
- S writes neither c, t nor X, nor anything through a pointer it computes, nor any name of
  N; it does not leave early (``break``, ``continue``, ``return``, ``goto``).

Runs last among the CPU passes (the lane loop is the kernel's own until then).
"""

from __future__ import annotations

from pycparser import c_ast, c_parser

from ...ctree import clone, is_id, parent_map, replace_child, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel
from .facts import fresh_name, leaves_early, readonly_arguments, unchanged_by, written_names
from .loops import counted_loop, upward_loop

#: the most lanes a listed block has (the lists take 8 bytes a lane of the stack)
MAX_LANES = 1024


def list_lanes_by_value(kernel: Kernel) -> int:
    """Rewrite every value loop of ``kernel`` that the conditions above allow; how many."""
    lanes = {id(loop.node) for loop in kernel.loops()
             if loop.kind == "inner" and not loop.children}
    if not lanes:
        return 0
    # @exclusive ints whose name means nothing else anywhere in the kernel (no other
    # declaration of it, @exclusive or not, could be the one a test reads)
    slots = {id(v.node) for v in kernel.exclusive if _declared_int(v.node)}
    ints = {v.name for v in kernel.exclusive if id(v.node) in slots}
    ints -= {d.name for d in walk(kernel.node) if isinstance(d, c_ast.Decl) and
             id(d) not in slots}
    const_params = readonly_arguments(kernel)
    found = []
    for n in walk(kernel.node.body):
        if type(n) is c_ast.For:
            plan = _plan(n, lanes, ints, const_params)
            if plan is not None:
                found.append((n, plan))
    if not found:
        return 0
    parents = parent_map(kernel.node)
    taken = {x.name for x in walk(kernel.node) if isinstance(x, (c_ast.ID, c_ast.Decl))
             and isinstance(x.name, str)}
    for loop, plan in found:
        parent, slot = parents[id(loop)]
        replace_child(parent, slot, loop, _listed(plan, taken, loop.coord))
    return len(found)


def _declared_int(decl: c_ast.Decl) -> bool:
    """``decl`` declares an ``int``, or (an @exclusive's slots, as cpu.exclusive lays them
    out) an array of them."""
    node = decl.type
    while isinstance(node, c_ast.ArrayDecl):
        node = node.type
    return isinstance(node, c_ast.TypeDecl) and \
        isinstance(node.type, c_ast.IdentifierType) and node.type.names == ["int"]


def _plan(loop: c_ast.For, lanes: set[int], ints: set[str], const_params: set[str]):
    """(c, N, t, L, X, S) of a value loop the conditions allow, else None."""
    value = _int_loop(loop)
    if value is None:
        return None
    c, bound = value
    inner = _only_statement(loop.stmt)
    if not isinstance(inner, c_ast.For) or id(inner) not in lanes:
        return None
    lane = counted_loop(inner)  # a DeclList of one declaration, then
    if lane is None or lane[1] != 0 or not 0 < lane[2] <= MAX_LANES or \
            not _declared_int(inner.init.decls[0]):
        return None
    t, count = lane[0], lane[2]
    test = _only_statement(inner.stmt)
    if not isinstance(test, c_ast.If) or test.iffalse is not None or \
            not isinstance(test.cond, c_ast.BinaryOp) or test.cond.op != "==":
        return None
    left, right = test.cond.left, test.cond.right
    slot = right if is_id(left, c) else left if is_id(right, c) else None
    if not (isinstance(slot, c_ast.ArrayRef) and isinstance(slot.name, c_ast.ID) and
            slot.name.name in ints and is_id(slot.subscript, t)):
        return None
    body = test.iftrue
    written = written_names(body)
    if leaves_early(body) or written & {c, t, slot.name.name, "*"}:
        return None
    if not unchanged_by(bound, written | {c, t}, const_params):
        return None
    return c, bound, t, count, slot.name.name, body


def _int_loop(loop: c_ast.For) -> tuple[str, c_ast.Node] | None:
    """(i, N) of ``for (int i = 0; i < N; ++i)`` (``i++``, ``i += 1`` too)."""
    head = upward_loop(loop)
    if head is None:
        return None
    decl, bound = head
    if not _declared_int(decl) or decl.init is None or evaluate(decl.init) != 0:
        return None
    return decl.name, bound


def _only_statement(body: c_ast.Node) -> c_ast.Node | None:
    """The one statement of ``body`` (pragmas aside), or None."""
    if not isinstance(body, c_ast.Compound):
        return body
    items = [x for x in body.block_items or [] if not isinstance(x, c_ast.Pragma)]
    return items[0] if len(items) == 1 else None


_LISTED = """void f(void) {
  {
    const int VALUES = BOUND;
    int FIRST[LANES1];
    int LIST[LANES];
    int COUNT = 0;
    for (int B = 0; B <= LANES; ++B) FIRST[B] = 0;
    for (int T = 0; T < LANES; ++T) {
      const int C = SLOT[T];
      if (C >= 0 && C < VALUES) {
        if (C < LANES) ++FIRST[C + 1]; else COUNT = -1;
      }
    }
    if (COUNT == 0) {
      for (int B = 0; B < LANES; ++B) FIRST[B + 1] += FIRST[B];
      for (int T = 0; T < LANES; ++T) {
        const int C = SLOT[T];
        if (C >= 0 && C < VALUES) { LIST[FIRST[C]++] = T; ++COUNT; }
      }
    } else {
      COUNT = 0;
      for (int C = 0; C < VALUES; ++C)
        for (int T = 0; T < LANES; ++T)
          if (SLOT[T] == C) LIST[COUNT++] = T;
    }
    for (int K = 0; K < COUNT; ++K) {
      const int T = LIST[K];
      const int C = SLOT[T];
      BODY;
    }
  }
}
"""


def _listed(plan, taken: set[str], coord) -> c_ast.Compound:
    """The block that lists the lanes by value and runs the body for each (module doc)."""
    c, bound, t, count, slot, body = plan
    names = {"C": c, "T": t, "SLOT": slot}
    for role in ("VALUES", "FIRST", "LIST", "COUNT", "B", "K"):
        names[role] = fresh_name(taken, f"_okl_{role.lower()}")
    text = _LISTED.replace("LANES1", str(count + 1)).replace("LANES", str(count))
    block = c_parser.CParser().parse(text).ext[0].body.block_items[0]
    for n in walk(block):
        n.coord = coord
        if isinstance(n, (c_ast.ID, c_ast.Decl)) and n.name in names:
            n.name = names[n.name]
        elif isinstance(n, c_ast.TypeDecl) and n.declname in names:
            n.declname = names[n.declname]
    values = block.block_items[0]
    values.init = clone(bound)
    last = block.block_items[-1].stmt
    last.block_items[-1] = body if isinstance(body, c_ast.Compound) else \
        c_ast.Compound([body], coord=coord)
    if not any(is_id(n, c) for n in walk(body)):  # no unused `const int c` for -Wall
        del last.block_items[1]
    return block
