"""A lane loop's leading sums computed over whole vectors: dead lanes pad the row, only the
real lanes store.

BK5 at p_Nq = 10 (N = 9) has ten lanes per row; gcc vectorises them as 4 + 4 + 2 doubles and,
in the gradient block, keeps the row's 20 broadcast values in registers for the two full
vectors, spilling them to the stack for the 2-wide tail (20 stores and reloads per row).
Here the lane loop ``for (i = 0; i < n; ++i) { L; R }`` whose leading statements L only sum
into scalar locals is split in two::

    double qr__l[W], qs__l[W];
    for (int i = 0; i < W; ++i) { L; qr__l[i] = qr; qs__l[i] = qs; }   // W: n rounded up to 4
    for (int i = 0; i < n; ++i) { double qr = qr__l[i]; double qs = qs__l[i]; R }

so the sums run over three full vectors with no tail, and the local arrays whose last
subscript the lanes step get that dimension padded so the dead lanes ``n <= i < W`` read
memory inside the array (pads zeroed: no garbage, no denormal inputs).  BK5 N = 9, one
thread, ratio to the hand C (benchmarks.codegen_experiments, three runs, best of 30): 0.84-0.86
-> 0.88-0.90, the OKL-order peer 0.91-0.93 (the split alone, by hand: 0.88); at p_Nq = 6
(4 + 2 lanes) the same hand edit was neutral, so only rows of more than 8 doubles are padded.
gcc's default vector width with ``-march=native`` is 256 bits; rows of floats (8 a vector)
were not measured and are left alone.

Legal because the dead lanes change nothing a live lane or the caller sees, and every live
lane sums what it summed, in the same order (the same bits).  Checked, refused otherwise:

- the lane loop counts a constant ``n > 8`` lanes, ``n % 4 != 0``, and its body is a block
  whose first statements L are declarations of ``double`` scalars (initialisers arithmetic
  and loads) and at least one counted loop, possibly after pragmas, whose body only assigns
  (``=``, ``+=``, ``-=``, ``*=``) those scalars with arithmetic and loads -- no division or
  remainder, no call, no pointer dereference, no branch, nothing leaving the loop;
- L's loads: an array subscripted by the lane iterator only in its last subscript, a local
  array of ``double`` or ``float`` with constant extents (no storage class, no initialiser)
  used everywhere element by element with every subscript (so padding its last dimension
  changes no other access); the last subscript is evaluated over every dead lane and every
  value of the counted loops around and inside it and must stay non-negative (the pad grows
  the dimension to hold its largest value); a load not subscripted by the lane iterator reads
  what lane 0 reads;
- the rest R of the body neither assigns, takes the address of, nor redeclares L's scalars,
  and changes nothing L reads (every lane's L now runs before any lane's R).
"""

from __future__ import annotations

import itertools

from pycparser import c_ast

from ...ctree import clone, ids_in, is_id, walk
from ...model.consteval import evaluate
from ...model.kernel import Kernel
from .facts import array_root, fresh_name, leaves_early, no_effects, subscripts, written_names
from .loops import counted_loop

#: doubles per vector gcc fills (256-bit, its default width with -march=native)
VECTOR = 4
#: rows this long or shorter are left alone (6 lanes padded to 8: neutral in BK5)
SHORTEST = 8
_UPDATES = ("=", "+=", "-=", "*=")
_SCALARS = {"double"}
_PADDABLE = {"double", "float"}


def pad_lane_rows(kernel: Kernel, lane_ids: set[int]) -> int:
    """Split and pad the lane loops (``lane_ids``: ids of their For nodes, already marked for
    SIMD) the conditions allow; return how many were split.  The new lane loop is marked as
    the old one is (its pragma copied)."""
    split = 0
    for holder, k, loop in _candidates(kernel.node, lane_ids):
        if _pad_one(kernel, holder, k, loop):
            split += 1
    return split


def _candidates(root: c_ast.Node, lane_ids: set[int]):
    found = []
    for n in walk(root):
        if isinstance(n, c_ast.Compound) and n.block_items:
            for k, x in enumerate(n.block_items):
                if isinstance(x, c_ast.For) and id(x) in lane_ids:
                    found.append((n, k, x))
    return found


def _enclosing_ranges(root: c_ast.Node, target: c_ast.Node) -> dict[str, range] | None:
    """Iterator -> its values for the counted loops around ``target``; None when ``target``
    is not under ``root``."""
    path: list[c_ast.Node] = []

    def find(n: c_ast.Node) -> bool:
        if n is target:
            return True
        for _, c in n.children():
            if find(c):
                path.append(n)
                return True
        return False
    if not find(root):
        return None
    out = {}
    for n in path:
        if isinstance(n, c_ast.For):
            shape = counted_loop(n)
            if shape is not None:
                out[shape[0]] = range(shape[1], shape[1] + max(shape[2], 0))
    return out


def _scalar_type(decl: c_ast.Decl, names: set[str]) -> bool:
    t = decl.type
    return isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and \
        set(t.type.names) <= names and not decl.storage and not decl.bitsize


def _leading(body: list[c_ast.Node]) -> tuple[list[c_ast.Node], list[c_ast.Decl]] | None:
    """L (the leading declarations, pragmas and loops) and its scalars, when L is the form
    the conditions ask for; None otherwise."""
    lead: list[c_ast.Node] = []
    scalars: list[c_ast.Decl] = []
    loops = 0
    for x in body:
        if isinstance(x, c_ast.Decl) and not loops and _scalar_type(x, _SCALARS) and \
                (x.init is None or no_effects(x.init)):
            scalars.append(x)
        elif isinstance(x, c_ast.Pragma):
            pass
        elif isinstance(x, c_ast.For) and counted_loop(x) is not None and scalars:
            loops += 1
        else:
            break
        lead.append(x)
    while lead and isinstance(lead[-1], c_ast.Pragma):
        lead.pop()
    if not loops or len(lead) == len(body):
        return None
    names = {d.name for d in scalars}
    for x in lead:
        if isinstance(x, c_ast.For) and not _sums_only(x, names):
            return None
    return lead, scalars


def _sums_only(loop: c_ast.For, names: set[str]) -> bool:
    if leaves_early(loop.stmt):
        return False
    stmts = loop.stmt.block_items or [] if isinstance(loop.stmt, c_ast.Compound) \
        else [loop.stmt]
    for s in stmts:
        if isinstance(s, c_ast.Pragma):
            continue
        if not (isinstance(s, c_ast.Assignment) and s.op in _UPDATES and
                isinstance(s.lvalue, c_ast.ID) and s.lvalue.name in names and
                no_effects(s.rvalue)):
            return False
        if any(isinstance(n, c_ast.BinaryOp) and n.op in ("/", "%") or
               isinstance(n, c_ast.UnaryOp) and n.op == "*" for n in walk(s.rvalue)):
            return False
    return True


def _outermost_refs(root: c_ast.Node) -> list[c_ast.ArrayRef]:
    inner = {id(n.name) for n in walk(root) if isinstance(n, c_ast.ArrayRef)}
    return [n for n in walk(root) if isinstance(n, c_ast.ArrayRef) and id(n) not in inner]


def _array_decls(kernel: c_ast.Node) -> dict[str, list[c_ast.Decl]]:
    out: dict[str, list[c_ast.Decl]] = {}
    for n in walk(kernel):
        if isinstance(n, c_ast.Decl) and n.name:
            out.setdefault(n.name, []).append(n)
    return out


def _extents(decl: c_ast.Decl) -> list[int] | None:
    dims: list[int] = []
    t = decl.type
    while isinstance(t, c_ast.ArrayDecl):
        size = evaluate(t.dim)
        if size is None or size <= 0:
            return None
        dims.append(size)
        t = t.type
    if not dims or not (isinstance(t, c_ast.TypeDecl) and
                        isinstance(t.type, c_ast.IdentifierType) and
                        set(t.type.names) <= _PADDABLE):
        return None
    return dims


def _whole_element_uses(root: c_ast.Node, name: str, rank: int) -> bool:
    """Every use of ``name`` is the root of a chain of ``rank`` subscripts."""
    roots = {id(n) for n in walk(root) if is_id(n, name)}
    covered = set()
    for ref in _outermost_refs(root):
        base, subs = array_root(ref), subscripts(ref)
        if base == name:
            if len(subs) != rank:
                return False
            node: c_ast.Node = ref
            while isinstance(node, c_ast.ArrayRef):
                node = node.name
            covered.add(id(node))
    return roots == covered


def _pad_one(kernel: Kernel, holder: c_ast.Compound, k: int, loop: c_ast.For) -> bool:
    shape = counted_loop(loop)
    if shape is None or shape[1] != 0:
        return False
    lane, _, n = shape
    if n <= SHORTEST or n % VECTOR == 0 or not isinstance(loop.stmt, c_ast.Compound):
        return False
    width = -(-n // VECTOR) * VECTOR
    body = loop.stmt.block_items or []
    found = _leading(body)
    if found is None:
        return False
    lead, scalars = found
    rest = body[len(lead):]
    names = {d.name for d in scalars}
    rest_block = c_ast.Compound(rest)
    if names & written_names(rest_block) or any(
            isinstance(x, c_ast.Decl) and x.name in names for x in walk(rest_block)):
        return False
    # all of L runs before any of R now: R may change nothing L reads
    read = {v.name for x in lead for v in ids_in(x)}
    if read & written_names(rest_block):
        return False
    ranges = _enclosing_ranges(kernel.node, loop)
    if ranges is None:
        return False
    for x in lead:
        if isinstance(x, c_ast.For):
            for m in [x, *(y for y in walk(x.stmt) if isinstance(y, c_ast.For))]:
                inner = counted_loop(m)
                if inner is None:
                    return False
                ranges[inner[0]] = range(inner[1], inner[1] + max(inner[2], 0))
    ranges[lane] = range(n, width)
    decls = _array_decls(kernel.node)
    pads: dict[str, int] = {}  # array -> its new last extent
    for ref in _outermost_refs(c_ast.Compound(lead)):
        base, subs = array_root(ref), subscripts(ref)
        if not any(is_id(v, lane) for s in subs for v in ids_in(s)):
            continue  # lane 0's load: in bounds
        if base is None or any(is_id(v, lane) for s in subs[:-1] for v in ids_in(s)):
            return False
        if len(decls.get(base, [])) != 1:
            return False
        decl = decls[base][0]
        dims = _extents(decl)
        if dims is None or len(dims) != len(subs) or decl.init is not None or decl.storage:
            return False
        if not _whole_element_uses(kernel.node, base, len(dims)):
            return False
        top = _largest(subs[-1], ranges)
        if top is None:
            return False
        if top >= dims[-1]:
            pads[base] = max(pads.get(base, 0), top + 1)
    _rewrite(kernel, holder, k, loop, lead, rest, scalars, width, decls, pads)
    return True


def _largest(sub: c_ast.Node, ranges: dict[str, range]) -> int | None:
    """The largest value of ``sub`` over every combination of its iterators' values; None
    when it names anything else or can be negative."""
    names = sorted({v.name for v in ids_in(sub)})
    if any(v not in ranges for v in names):
        return None
    top = None
    for values in itertools.product(*(ranges[v] for v in names)):
        value = evaluate(sub, dict(zip(names, values, strict=True)))
        if value is None or value < 0:
            return None
        top = value if top is None else max(top, value)
    return top


def _rewrite(kernel: Kernel, holder: c_ast.Compound, k: int, loop: c_ast.For,
             lead: list[c_ast.Node], rest: list[c_ast.Node], scalars: list[c_ast.Decl],
             width: int, decls: dict[str, list[c_ast.Decl]], pads: dict[str, int]) -> None:
    taken = set(decls) | {v.name for v in ids_in(kernel.node)}
    lane = counted_loop(loop)[0]  # type: ignore[index]
    saved = {}
    for d in scalars:
        saved[d.name] = name = fresh_name(taken, d.name + "__l")
        taken.add(name)
    arrays = [c_ast.Decl(saved[d.name], [], [], [], [], c_ast.ArrayDecl(
        c_ast.TypeDecl(saved[d.name], [], None, clone(d.type.type)),
        c_ast.Constant("int", str(width)), []), None, None, coord=d.coord) for d in scalars]
    keep = [c_ast.Assignment("=", c_ast.ArrayRef(c_ast.ID(saved[d.name]), c_ast.ID(lane)),
                             c_ast.ID(d.name)) for d in scalars]
    padded = clone(loop)
    padded.cond.right = c_ast.Constant("int", str(width))
    padded.stmt = c_ast.Compound([*lead, *keep], coord=loop.stmt.coord)
    loads = []
    for d in scalars:
        new = clone(d)
        new.init = c_ast.ArrayRef(c_ast.ID(saved[d.name]), c_ast.ID(lane))
        loads.append(new)
    loop.stmt = c_ast.Compound([*loads, *rest], coord=loop.stmt.coord)
    mark = holder.block_items[k - 1] if k and isinstance(holder.block_items[k - 1],
                                                          c_ast.Pragma) else None
    new_items = [*arrays, *([clone(mark)] if mark is not None else []), padded]
    at = k - 1 if mark is not None else k
    holder.block_items[at:at] = new_items
    for name, extent in pads.items():
        _pad_array(kernel, decls[name][0], extent)


def _pad_array(kernel: Kernel, decl: c_ast.Decl, extent: int) -> None:
    """Grow ``decl``'s last dimension to ``extent`` and zero the new cells where it is
    declared: an initialiser where the declaration runs once (outside every @outer loop),
    a loop after it otherwise (no per-iteration store to the cells the code uses)."""
    t = decl.type
    dims: list[c_ast.ArrayDecl] = []
    while isinstance(t, c_ast.ArrayDecl):
        dims.append(t)
        t = t.type
    old = evaluate(dims[-1].dim)
    dims[-1].dim = c_ast.Constant("int", str(extent))
    outer_nodes = {id(n) for o in kernel.outers for n in walk(o.node)}
    if id(decl) not in outer_nodes:
        decl.init = c_ast.InitList([c_ast.Constant("int", "0")])
        return
    for n in walk(kernel.node):
        if isinstance(n, c_ast.Compound) and any(x is decl for x in n.block_items or []):
            at = next(i for i, x in enumerate(n.block_items) if x is decl)
            zero = _zero_pads(decl.name, [evaluate(d.dim) for d in dims[:-1]], old, extent,
                              decl.coord)
            n.block_items.insert(at + 1, zero)
            return


def _zero_pads(name: str, lead: list, first: int | None, extent: int, coord) -> c_ast.Node:
    names = [f"{name}__p{d}" for d in range(len(lead) + 1)]
    target: c_ast.Node = c_ast.ID(name)
    for v in names:
        target = c_ast.ArrayRef(target, c_ast.ID(v))
    stmt: c_ast.Node = c_ast.Assignment("=", target, c_ast.Constant("int", "0"))
    bounds = [(0, size) for size in lead] + [(first, extent)]
    for v, (lo, hi) in reversed(list(zip(names, bounds, strict=True))):
        stmt = c_ast.For(
            c_ast.DeclList([c_ast.Decl(v, [], [], [], [], c_ast.TypeDecl(
                v, [], None, c_ast.IdentifierType(["int"])), c_ast.Constant("int", str(lo)),
                None)]),
            c_ast.BinaryOp("<", c_ast.ID(v), c_ast.Constant("int", str(hi))),
            c_ast.UnaryOp("++", c_ast.ID(v)), stmt, coord=coord)
    return stmt
