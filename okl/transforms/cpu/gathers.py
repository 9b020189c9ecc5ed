"""Gathers through index arrays, asked for ahead: each iteration of a loop prefetches the
lines that the iteration :data:`AHEAD` later will gather.

An unstructured-mesh kernel (OP2's airfoil, benchmarks/kernels/airfoil.okl) reads each
edge's two nodes and two cells through maps::

    for (int t = 0; t < 256; ++t) {
      const int e = blk * 256 + t;
      col[t] = ecol[e];
      if (col[t] >= 0) {
        const int a = enode[2 * e];  ...  const int c1 = ecell[2 * e];  ...
        const double dx = x[2 * a] - x[2 * b];  ...  const double r1 = q[4 * c1];  ...

The maps are read in order, which the hardware prefetchers follow; ``x[2 * a]`` and
``q[4 * c1]`` are not, and each is a miss that the out-of-order core overlaps with little
else: the flux after them waits.  Here the top of the body runs the part of a later
iteration that computes those addresses, and asks for the lines::

    if (t + 8 < 256) {
      const int _okl_ahead = t + 8;
      const int e = blk * 256 + _okl_ahead;
      if (ecol[e] >= 0) {
        const int a = enode[2 * e];  ...
        __builtin_prefetch(&x[2 * a]);  ...  __builtin_prefetch(&q[4 * c1]);  ...
      }
    }

(Software prefetching for indirect memory accesses; Ainsworth and Jones, CGO 2017, do the
same in LLVM.)  A prefetch changes no value: the results have the same bits.  resCalcHier on
one thread, 720k cells (the AMD EPYC VM, benchmarks.codegen_experiments ``airfoil``):
20.5 -> 25.1 M edges/s at 8 iterations ahead (23.7 at 4), the hand C 24-26.

What the inserted block reads must be what the later iteration itself reads, so that no
read can fault that the loop would not have made, and the addresses must be the ones that
iteration will use.  Checked, the loop left as it is otherwise:

- the loop is ``for (T i = a; i < N; ++i)`` (``i++``, ``i += 1``), N without effects and
  not written by the body, nor is ``i``, and not a constant range of :data:`AHEAD`
  iterations or fewer; the body does not leave early (``break``,
  ``continue``, ``return``, ``goto``), so iteration ``i + AHEAD`` runs whenever
  ``i + AHEAD < N`` and runs the whole body;
- the block copies the body's straight-line part: declarations with an initialiser of
  names declared once in the body and never written, the assignment ``X[i] = v`` of a local
  array (X written nowhere else in the body: later ``X[i]`` read as ``v``), and ``if``
  statements, entered under their own condition (a branch is copied only where it is taken);
  nothing inside a nested loop;
- every value it computes is arithmetic, ``?:``, casts, members of ``.``, and loads of
  parameters declared ``const`` and ``restrict`` (nothing in the kernel writes them: the
  later iteration reads the same values) at subscripts of such values, of ``i``, of
  copied names and of names the loop does not write;
- a gather is a load of (or store to) a pointer parameter whose subscript is such a value
  that reads an index array and changes with ``i``; a value that gathers itself (a
  subscript that reads through a subscript) is not copied: the block reads only maps.

One prefetch per line (a subscript's constant part spread over a line is one), at most
:data:`MAX_PREFETCHES` a loop, for writing where the kernel stores to the array.  Prefetches
are gcc's and clang's ``__builtin_prefetch`` (okl's CPU compilers); they never fault.
"""

from __future__ import annotations

from pycparser import c_ast, c_generator

from ...ctree import clone, is_id, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel
from ...parser.vectors import VECTOR_TYPES
from .facts import fresh_name, leaves_early, readonly_arguments, unchanged_by, written_names
from .loops import upward_loop

#: iterations ahead: airfoil's resCalcHier 23.7 M edges/s at 4, 25.1 at 8 (module doc)
AHEAD = 8
#: the most prefetches one iteration issues
MAX_PREFETCHES = 16
#: bytes of a cache line
LINE = 64

#: (varies, indirect) of a value: it changes with the loop's iterator; it does so through a
#: load (a subscript of such a value makes a gather)
State = tuple[bool, bool]

_SCALAR_BYTES = {"char": 1, "short": 2, "int": 4, "float": 4, "long": 8, "double": 8}


def prefetch_gathers(kernel: Kernel) -> int:
    """Insert the block of the module doc into every loop of ``kernel`` that gathers through
    an index array under the conditions there; how many loops."""
    pointers = {p.name: p for p in kernel.params if p.is_pointer}
    if not pointers:
        return 0
    readonly = readonly_arguments(kernel)
    stored = written_names(kernel.node.body)
    sizes = {name: _element_bytes(p.ctype.base) for name, p in pointers.items()}
    writes = {name for name in pointers if name in stored or "*" in stored}
    taken = {n.name for n in walk(kernel.node) if isinstance(n, (c_ast.ID, c_ast.Decl))
             and isinstance(n.name, str)}
    ahead = fresh_name(taken, "_okl_ahead")  # one name: the blocks are scopes of their own
    done = 0
    for loop in [n for n in walk(kernel.node.body) if type(n) is c_ast.For]:
        head = _unit_loop(loop, readonly)
        if head is None or not isinstance(loop.stmt, c_ast.Compound):
            continue
        block = _Slicer(loop, head, set(pointers), readonly, sizes, writes).block(ahead)
        if block is not None:
            loop.stmt.block_items.insert(0, block)
            done += 1
    return done


def _element_bytes(base: str) -> int:
    vector = VECTOR_TYPES.get(base)
    if vector is not None:
        return vector.size
    return next((n for word, n in _SCALAR_BYTES.items() if word in base.split()), 8)


def _unit_loop(loop: c_ast.For, readonly: set[str]) -> tuple[str, c_ast.Node] | None:
    """(i, N) of ``for (T i = a; i < N; ++i)`` (``i++``, ``i += 1``) whose body writes
    neither ``i`` nor N's names and does not leave early; N computes only, and loads only
    read-only parameters."""
    head = upward_loop(loop)
    if head is None or leaves_early(loop.stmt):
        return None
    decl, bound = head
    written = written_names(loop.stmt)
    if decl.name in written or not unchanged_by(bound, written, readonly):
        return None
    first, last = evaluate(decl.init), evaluate(bound)
    if first is not None and last is not None and last - first <= AHEAD:
        return None  # no iteration has one AHEAD after it
    return decl.name, bound


class _Slicer:
    """The block of one loop: its body's straight-line part for iteration ``i + AHEAD``,
    with each gather's load turned into a prefetch."""

    def __init__(self, loop: c_ast.For, head: tuple[str, c_ast.Node], pointers: set[str],
                 readonly: set[str], sizes: dict[str, int], writes: set[str]) -> None:
        self.loop = loop
        self.i, self.bound = head
        self.pointers, self.readonly, self.sizes, self.writes = \
            pointers, readonly, sizes, writes
        body = loop.stmt
        self.written = written_names(body)
        counts: dict[str, int] = {}  # declarations of each name in the body
        stores: dict[str, int] = {}  # assignments to an element of each array
        for n in walk(body):
            if isinstance(n, c_ast.Decl) and isinstance(n.name, str):
                counts[n.name] = counts.get(n.name, 0) + 1
            elif isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ArrayRef) and \
                    type(n.lvalue.name) is c_ast.ID:
                stores[n.lvalue.name.name] = stores.get(n.lvalue.name.name, 0) + 1
        self.declared = set(counts)
        self.once = {name for name, k in counts.items() if k == 1}
        # X[i] = v: X stored to once in the body, by this assignment, and through no pointer
        self.slot_names = set() if "*" in self.written else \
            {x for x, k in stores.items() if k == 1 and x not in pointers and x != self.i}
        self.ahead = ""
        self.issued = 0

    def block(self, ahead: str) -> c_ast.If | None:
        """``if (i + AHEAD < N) { const T ahead = i + AHEAD; ... }``, or None when the loop
        gathers nothing that can be asked for ahead."""
        self.ahead = ahead
        items, _ = _prune(self._items(self.loop.stmt.block_items or [], {}, {}, {}))
        if not any(isinstance(n, c_ast.FuncCall) for item in items for n in walk(item)):
            return None
        coord = self.loop.coord
        step = c_ast.BinaryOp("+", c_ast.ID(self.i), c_ast.Constant("int", str(AHEAD)))
        iterator = self.loop.init.decls[0]
        kind = clone(iterator.type)
        kind.declname = ahead
        kind.quals = ["const", *[q for q in kind.quals if q != "const"]]
        decl = c_ast.Decl(ahead, ["const"], [], [], [], kind, clone(step), None, coord=coord)
        test = c_ast.BinaryOp("<", clone(step), clone(self.bound))
        return c_ast.If(test, c_ast.Compound([decl, *items], coord=coord), None, coord=coord)

    # -- the straight-line part --------------------------------------------------------

    def _items(self, items: list, env: dict[str, State],
               slots: dict[str, tuple[c_ast.Node, State]],
               seen: dict[tuple[str, str], list[int]]) -> list:
        """The copied statements of one block (a new scope: ``env`` and ``slots`` are the
        caller's, copied).  ``env``: copied name -> its value's state; ``slots``: local array
        -> the value ``X[i]`` holds (as the block computes it) and its state."""
        env, slots = dict(env), dict(slots)
        seen = {key: list(x) for key, x in seen.items()}
        out: list = []
        for item in items:
            if isinstance(item, c_ast.Decl):
                out += self._gathers(item.init, env, slots, seen) if item.init is not None else []
                if item.init is not None and item.name in self.once and \
                        item.name not in self.written and type(item.type) is c_ast.TypeDecl:
                    value = self._value(item.init, env, slots)
                    if value is not None:
                        copy = clone(item)
                        copy.init = value[0]
                        out.append(copy)
                        env[item.name] = value[1]
            elif isinstance(item, c_ast.If):
                out += self._gathers(item.cond, env, slots, seen)
                cond = self._value(item.cond, env, slots)
                if cond is not None:
                    yes = self._items(_block_items(item.iftrue), env, slots, seen)
                    no = self._items(_block_items(item.iffalse), env, slots, seen) \
                        if item.iffalse is not None else []
                    out.append(c_ast.If(cond[0], c_ast.Compound(yes),
                                        c_ast.Compound(no) if no else None))
            elif isinstance(item, c_ast.Compound):
                out.append(c_ast.Compound(self._items(item.block_items or [], env, slots, seen)))
            elif isinstance(item, (c_ast.Assignment, c_ast.UnaryOp, c_ast.FuncCall,
                                   c_ast.BinaryOp, c_ast.TernaryOp)):
                out += self._gathers(item, env, slots, seen)
                slot = self._slot(item, env, slots)
                if slot is not None:
                    slots[slot[0]] = slot[1]
        return out

    def _slot(self, item: c_ast.Node, env, slots) -> tuple[str, tuple[c_ast.Node, State]] | None:
        """(X, (v', state)) of ``X[i] = v`` for a local array X stored to nowhere else."""
        if not (type(item) is c_ast.Assignment and item.op == "=" and
                type(item.lvalue) is c_ast.ArrayRef and type(item.lvalue.name) is c_ast.ID and
                item.lvalue.name.name in self.slot_names and
                is_id(item.lvalue.subscript, self.i)):
            return None
        value = self._value(item.rvalue, env, slots)
        return None if value is None else (item.lvalue.name.name, value)

    # -- values and gathers ------------------------------------------------------------

    def _value(self, expr: c_ast.Node, env: dict[str, State],
               slots: dict[str, tuple[c_ast.Node, State]]) -> tuple[c_ast.Node, State] | None:
        """``expr`` as iteration ``i + AHEAD`` computes it, and its :data:`State`; None if
        the block may not compute it."""
        state = self._state(expr, env, slots)
        return None if state is None else (self._copy(expr, slots), state)

    def _state(self, n: c_ast.Node, env: dict[str, State],
               slots: dict[str, tuple[c_ast.Node, State]]) -> State | None:
        t = type(n)
        if t is c_ast.Constant:
            return False, False
        if t is c_ast.ID:
            if n.name == self.i:
                return True, False
            if n.name in env:
                return env[n.name]
            return None if n.name in self.declared or n.name in self.written else (False, False)
        if t is c_ast.ArrayRef:
            name = n.name.name if type(n.name) is c_ast.ID else None
            if name in slots and is_id(n.subscript, self.i):
                return slots[name][1]
            if name not in self.readonly or name in self.declared:
                return None
            sub = self._state(n.subscript, env, slots)
            if sub is None or sub[1]:  # a gather: not copied
                return None
            return sub[0], sub[0]
        if t is c_ast.StructRef:
            return self._state(n.name, env, slots) if n.type == "." else None
        if t is c_ast.Cast:
            return self._state(n.expr, env, slots)
        if t is c_ast.UnaryOp:
            if n.op == "sizeof":
                return False, False
            return None if n.op in ("++", "--", "p++", "p--", "&", "*") else \
                self._state(n.expr, env, slots)
        if t is c_ast.BinaryOp:
            parts: tuple[c_ast.Node, ...] = (n.left, n.right)
        elif t is c_ast.TernaryOp:
            parts = (n.cond, n.iftrue, n.iffalse)
        else:
            return None
        states = [self._state(x, env, slots) for x in parts]
        if any(x is None for x in states):
            return None
        return any(x[0] for x in states if x), any(x[1] for x in states if x)

    def _copy(self, expr: c_ast.Node, slots: dict[str, tuple[c_ast.Node, State]]) -> c_ast.Node:
        """A copy of ``expr`` with ``X[i]`` of a slot read as its value and ``i`` as the
        iteration ahead."""
        replace = {}
        for n in walk(expr):
            if type(n) is c_ast.ArrayRef and type(n.name) is c_ast.ID and \
                    n.name.name in slots and is_id(n.subscript, self.i):
                replace[id(n)] = clone(slots[n.name.name][0])
            elif type(n) is c_ast.ID and n.name == self.i:
                replace[id(n)] = c_ast.ID(self.ahead)
        return clone(expr, replace)

    def _gathers(self, root: c_ast.Node, env, slots,
                 seen: dict[tuple[str, str], list[int]]) -> list[c_ast.FuncCall]:
        """The prefetches of the gathers under ``root`` whose lines this scope has not asked
        for yet (``seen``: (array, subscript less its constant) -> the constants asked)."""
        out = []
        for n in walk(root):
            if type(n) is not c_ast.ArrayRef or type(n.name) is not c_ast.ID or \
                    n.name.name not in self.pointers or n.name.name in self.declared:
                continue
            state = self._state(n.subscript, env, slots)
            if state is None or not state[1]:
                continue
            array = n.name.name
            base, offset = _split(self._copy(n.subscript, slots))
            asked = seen.setdefault((array, _text(base)), [])
            if any(abs(offset - x) * self.sizes[array] < LINE for x in asked) or \
                    self.issued == MAX_PREFETCHES:
                continue
            asked.append(offset)
            self.issued += 1
            out.append(_prefetch(base, array, offset, array in self.writes))
        return out


def _split(subscript: c_ast.Node) -> tuple[c_ast.Node, int]:
    """(b, c) of a subscript ``b + c`` with constant c; (s, 0) otherwise."""
    if type(subscript) is c_ast.BinaryOp and subscript.op in ("+", "-"):
        c = evaluate(subscript.right)
        if c is not None:
            return subscript.left, c if subscript.op == "+" else -c
    return subscript, 0


def _text(node: c_ast.Node) -> str:
    return c_generator.CGenerator().visit(node)


def _prefetch(base: c_ast.Node, array: str, offset: int, write: bool) -> c_ast.FuncCall:
    """``__builtin_prefetch(&array[base + offset])`` (``, 1`` to write)."""
    sub = base if offset == 0 else c_ast.BinaryOp(
        "+" if offset > 0 else "-", base, c_ast.Constant("int", str(abs(offset))))
    address = c_ast.UnaryOp("&", c_ast.ArrayRef(c_ast.ID(array), sub))
    args = [address, c_ast.Constant("int", "1")] if write else [address]
    return c_ast.FuncCall(c_ast.ID("__builtin_prefetch"), c_ast.ExprList(args))


def _block_items(stmt: c_ast.Node | None) -> list:
    if stmt is None:
        return []
    return stmt.block_items or [] if isinstance(stmt, c_ast.Compound) else [stmt]


def _prune(items: list) -> tuple[list, set[str]]:
    """The statements of ``items`` that lead to a prefetch, and the names they read."""
    kept: list = []
    reads: set[str] = set()
    for item in reversed(items):
        if isinstance(item, c_ast.Decl):
            if item.name in reads:
                reads.discard(item.name)
                reads |= _names(item.init)
                kept.append(item)
        elif isinstance(item, c_ast.If):
            yes, r_yes = _prune(_block_items(item.iftrue))
            no, r_no = _prune(_block_items(item.iffalse))
            if _loads_nothing(yes) and _loads_nothing(no):
                # a prefetch reads nothing and never faults: no test, no branch to mispredict
                texts = {_text(x) for x in kept}
                for call in reversed(yes + no):
                    if _text(call) not in texts:
                        texts.add(_text(call))
                        kept.append(call)
                reads |= r_yes | r_no
            elif yes or no:
                cond = item.cond if yes else c_ast.UnaryOp("!", item.cond)
                kept.append(c_ast.If(cond, c_ast.Compound(yes or no),
                                     c_ast.Compound(no) if yes and no else None))
                reads |= r_yes | r_no | _names(item.cond)
        elif isinstance(item, c_ast.Compound):
            inner, r = _prune(item.block_items or [])
            if inner:
                kept.append(c_ast.Compound(inner))
                reads |= r
        else:  # a prefetch
            kept.append(item)
            reads |= _names(item)
    return kept[::-1], reads


def _loads_nothing(items: list) -> bool:
    """``items`` are prefetches whose addresses load nothing (only names are read)."""
    return all(isinstance(x, c_ast.FuncCall) and
               not any(type(n) is c_ast.ArrayRef for n in walk(x.args.exprs[0].expr.subscript))
               for x in items)


def _names(node: c_ast.Node) -> set[str]:
    return {n.name for n in walk(node) if type(n) is c_ast.ID}
