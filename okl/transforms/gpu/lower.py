"""Lowering for GPU targets (CUDA, HIP, OpenCL): one device kernel per top-level @outer loop.

Each @outer/@inner loop becomes ``{ T i = start + step * <group or thread index>; body }``.
Where the launched extent on the loop's axis is not provably the loop's own trip count (a
smaller sibling block, a bound that depends on an enclosing iterator), the body is guarded
by the loop's own condition -- OCCA drops the condition and runs out of range.  Guards on
@inner loops that contain a barrier are left out (threads must all reach a barrier) and a
warning says so.  Host variables used inside the loop arrive as extra parameters.
"""

from __future__ import annotations

from pycparser import c_ast

from ...ctree import clone, rewrite_statements, statement_parents, walk
from ...errors import Diagnostics
from ...model.kernel import Kernel, Loop, Program
from ...model.sizes import array_bytes
from ...targets.target import Target
from ..barriers import is_barrier
from ..launch import DeviceKernel, KernelPlan


def lower_gpu_kernel(program: Program, kernel: Kernel, plan: KernelPlan, target: Target,
                     diags: Diagnostics) -> list[c_ast.FuncDef]:
    out = []
    target.check_params(kernel, program, diags)
    _check_thread_memory(program, kernel, diags)
    barriers = program.attrs.named("barrier")
    for dk in plan.device_kernels:
        # the parent map holds every statement below the @outer loop (loops, barriers and
        # @shared declarations are statements): what is in the device kernel is known
        # without a walk per @shared array or a rewrite without barriers
        parents = statement_parents(dk.outer_loop.node)
        body = _lower_loop(program, dk, dk.outer_loop, target, diags, parents)
        if any(id(b) in parents for b in barriers):
            body = _lower_barriers(program, body, target)
        items = [body]
        shared = [v for v in kernel.shared if id(v.node) in parents]
        if target.hoist_shared:
            items = _hoist_shared(shared, body, target, kernel.params) + items
        else:
            for v in shared:
                v.node.storage = [target.shared_storage] + list(v.node.storage)
        params = [_param(p.node, p.restrict, target) for p in kernel.params]
        params += [_capture_param(h, target, program.types) for h in dk.captured]
        storage = target.kernel_storage(dk.constant_dims("inner"), _max_threads(dk))
        name = dk.name
        decl = c_ast.Decl(name, [], [], storage, [], c_ast.FuncDecl(
            c_ast.ParamList(params), c_ast.TypeDecl(name, [], None,
                                                    c_ast.IdentifierType(["void"]))),
            None, None, coord=kernel.node.decl.coord)
        out.append(c_ast.FuncDef(decl, None, c_ast.Compound(items, coord=body.coord),
                                 coord=kernel.node.coord))
    return out


#: the most bytes one array of one GPU thread may have (an @exclusive array or a local one):
#: CUDA's limit on a thread's local memory; PoCL puts such arrays on a worker thread's stack
#: and crashed the process well before it
THREAD_BYTES = 512 * 1024


def _check_thread_memory(program: Program, kernel: Kernel, diags: Diagnostics) -> None:
    shared = {id(v.node) for v in kernel.shared}
    for n in walk(kernel.node.body):
        if type(n) is not c_ast.Decl or id(n) in shared:
            continue
        size = array_bytes(n)
        if size is not None and size > THREAD_BYTES:
            coord = n.coord
            diags.error(f"'{n.name}' needs {size} bytes per GPU thread; GPU modes give a thread "
                        f"at most {THREAD_BYTES} bytes of its own",
                        program.expanded.locate(coord.line, coord.column or 1)
                        if coord is not None else None,
                        hint="keep large per-thread data in a global array (a kernel argument "
                             "indexed by the thread), or make the array smaller")


def _max_threads(dk: DeviceKernel) -> int | None:
    top = dk.outer_loop
    if top.max_inner_dims:
        p = 1
        for v in top.max_inner_dims:
            p *= v
        return p
    return None


def _lower_loop(program: Program, dk: DeviceKernel, loop: Loop, target: Target,
                diags: Diagnostics, parents: dict[int, tuple[c_ast.Node, str]]) -> c_ast.Compound:
    """Replace ``loop`` (and the attributed loops in it) by index blocks.  ``parents`` is the
    parent map of the device kernel's @outer loop before lowering: an attributed loop's
    parent is a statement of the enclosing loop's body, which stays in place until the
    enclosing loop itself is replaced.  (Searching the enclosing loop for each child took
    a third of the translate of large kernels.)"""
    for child in loop.children:
        block = _lower_loop(program, dk, child, target, diags, parents)
        _put(parents, child.node, block)
    form = loop.form
    index: c_ast.Node = target.index(loop.kind, loop.axis)
    if form.iter_type != "int":
        index = c_ast.Cast(c_ast.Typename(None, [], None, c_ast.TypeDecl(
            None, [], None, c_ast.IdentifierType(form.iter_type.split()))), index)
    if form.step is not None:
        index = c_ast.BinaryOp("*", clone(form.step), index)
    start = form.start
    value = index if _is_zero(start) and form.increasing else c_ast.BinaryOp(
        "+" if form.increasing else "-", start, index)
    type_node = clone(form.type_node)
    inner = type_node
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    inner.declname = form.iterator
    decl = c_ast.Decl(form.iterator, [], [], [], [], type_node, value, None,
                      coord=loop.node.coord)
    body = loop.node.stmt
    if not dk.exact(loop):
        has_barrier = any(is_barrier(n, program.attrs) for n in walk(body))
        if loop.kind == "inner" and has_barrier:
            # unguarded, the extra threads would run the body out of range; guarded, they
            # would skip the barrier that the others wait at
            diags.error(f"this @inner loop over '{form.iterator}' may run fewer iterations "
                        "than the threads launched for its block and contains a @barrier: "
                        f"{target.mode} threads cannot skip the body yet reach the barrier",
                        loop.loc, hint="give every @inner loop of the @outer loop the same "
                                       "bounds and guard the work inside with if (...)")
        else:
            cond = c_ast.BinaryOp(form.cmp, c_ast.ID(form.iterator), clone(form.bound))
            body = c_ast.If(cond, body, None, coord=loop.node.coord)
    elif not any(type(n) is c_ast.ID and n.name == form.iterator for n in walk(body)):
        # a body that never reads its index (a loop that only sizes the block): no unused
        # `int t = threadIdx.x;` for nvcc to remark on
        return body if isinstance(body, c_ast.Compound) else \
            c_ast.Compound([body], coord=loop.node.coord)
    if isinstance(body, c_ast.Compound) and not any(
            isinstance(x, c_ast.Decl) and x.name == form.iterator for x in body.block_items or []):
        # `{ int i = <index>; <body items> }`: the loop body's own block, one level less
        return c_ast.Compound([decl] + list(body.block_items or []), coord=loop.node.coord)
    return c_ast.Compound([decl, body], coord=loop.node.coord)


def _put(parents: dict[int, tuple[c_ast.Node, str]], old: c_ast.Node, new: c_ast.Node) -> None:
    """Put ``new`` in the place of ``old``."""
    parent, slot = parents[id(old)]
    value = getattr(parent, slot)
    if type(value) is list:
        value[next(k for k, x in enumerate(value) if x is old)] = new
    else:
        setattr(parent, slot, new)


def _is_zero(node) -> bool:
    return isinstance(node, c_ast.Constant) and node.value == "0"


def _lower_barriers(program: Program, body: c_ast.Node, target: Target) -> c_ast.Node:
    """Each @barrier statement in ``body`` as ``target``'s (a barrier is a statement: the
    expressions are not searched)."""
    def fn(n):
        if is_barrier(n, program.attrs):
            attr = program.attrs.get(n, "barrier")
            kind = "auto" if attr.placement == "auto" else _barrier_kind(attr)
            stmt = target.barrier(kind)
            if stmt is not None:
                stmt.coord = n.coord
                return stmt
        return None
    rewrite_statements(body, fn)
    return body


def _barrier_kind(attr) -> str:
    if attr.args and attr.args[0].kind == "string" and attr.args[0].string_value == "warp":
        return "warp"
    return ""


def _hoist_shared(shared, body: c_ast.Node, target: Target, params) -> list[c_ast.Node]:
    """OpenCL: move __local declarations to kernel scope.  Two @shared arrays of one name in
    different blocks would then clash, so the later one gets a fresh name -- used by no
    identifier of the kernel -- in the scope where it was declared."""
    hoisted = []
    taken: set[str] = set()
    used: set[str] | None = None  # the kernel's names, found when a fresh one is needed
    for v in shared:
        parent = _container(body, v.node)
        k = next(i for i, x in enumerate(parent.block_items) if x is v.node)
        decl = v.node
        if decl.name in taken:
            if used is None:
                used = {p.name for p in params} | {
                    n.name for n in walk(body) if isinstance(n, (c_ast.ID, c_ast.Decl)) and n.name}
            old, n = decl.name, 1
            while f"{old}_{n}" in used | taken:
                n += 1
            new = f"{old}_{n}"
            _rename_decl(decl, new)
            for item in parent.block_items[k + 1:]:
                if _rename_uses(item, old, new):
                    break
        taken.add(decl.name)
        parent.block_items = [x for x in parent.block_items if x is not v.node]
        decl.storage = [target.shared_storage] + list(decl.storage)
        hoisted.append(decl)
    return hoisted


def _rename_uses(node: c_ast.Node, old: str, new: str) -> bool:
    """Rename the uses of ``old`` in ``node`` (a statement in old's scope) to ``new``, leaving
    scopes that declare their own ``old``; True when ``node`` itself redeclares ``old`` (the
    rest of the enclosing block then sees that one)."""
    if isinstance(node, c_ast.Decl):
        if node.init is not None and node.name != old:
            _rename_uses(node.init, old, new)
        if isinstance(node.type, c_ast.ArrayDecl):
            t = node.type
            while isinstance(t, c_ast.ArrayDecl):
                if t.dim is not None:
                    _rename_uses(t.dim, old, new)
                t = t.type
        return node.name == old
    if isinstance(node, c_ast.Compound):
        for item in node.block_items or []:
            if _rename_uses(item, old, new):
                break
        return False
    if isinstance(node, c_ast.For) and isinstance(node.init, c_ast.DeclList):
        for d in node.init.decls:
            if _rename_uses(d, old, new):
                return False
    if isinstance(node, c_ast.ID):
        if node.name == old:
            node.name = new
        return False
    if isinstance(node, c_ast.StructRef):
        _rename_uses(node.name, old, new)
        return False
    for name, child in node.children():
        if isinstance(node, c_ast.For) and name == "init" and isinstance(child, c_ast.DeclList):
            continue
        _rename_uses(child, old, new)
    return False


def _container(root: c_ast.Node, node: c_ast.Node) -> c_ast.Compound:
    for n in walk(root):
        if isinstance(n, c_ast.Compound) and any(x is node for x in n.block_items or []):
            return n
    raise LookupError("declaration not found in its kernel")


def _rename_decl(decl: c_ast.Decl, name: str) -> None:
    decl.name = name
    t = decl.type
    while not isinstance(t, c_ast.TypeDecl):
        t = t.type
    t.declname = name


def _param(node: c_ast.Decl, restrict: bool, target: Target) -> c_ast.Decl:
    p = clone(node)
    t = p.type
    if isinstance(t, c_ast.ArrayDecl):  # decay `float a[]` to `float *a`
        t = p.type = c_ast.PtrDecl([], t.type)
    if isinstance(t, c_ast.PtrDecl):
        quals = [q for q in t.quals if q != "restrict"]
        if restrict or "restrict" in t.quals:
            quals.append(target.restrict)
        t.quals = quals
        space = target.pointer_param_space()
        if space:
            inner = t.type
            while isinstance(inner, c_ast.PtrDecl):
                inner = inner.type
            inner.quals = [space] + [q for q in inner.quals if q != space]
    return p


def _capture_param(host, target: Target, types) -> c_ast.Decl:
    t = target.capture_type(clone(host.node.type), types)
    inner = t
    while not isinstance(inner, c_ast.TypeDecl):
        inner = inner.type
    if "const" not in inner.quals:
        inner.quals = ["const"] + inner.quals
    return c_ast.Decl(host.name, [], [], [], [], t, None, None, coord=host.node.coord)
