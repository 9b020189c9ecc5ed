"""OpenCL: a hidden offset per pointer parameter, so that a kernel takes a view at any offset.

OpenCL passes buffers, not addresses: a view of a buffer (``mem[10:20]``) reaches a kernel as
a sub-buffer only where its first byte is a multiple of the device's base-address alignment
(CL_DEVICE_MEM_BASE_ADDR_ALIGN: 128 bytes on PoCL, so every float32 view that does not
start at a multiple of 32 elements was refused).  CuPy's kernels take any pointer, and so do
okl's OpenCL kernels: each device kernel gets, after all its other parameters, one
``ulong _okl_off_<name>`` per pointer parameter of the kernel (in order, hidden ones of
checked mode included), and its first statements move each pointer to the view's first
element (``x += _okl_off_x;``, in elements of the pointee type; a ``void *`` moves by
bytes), so the user's code is unchanged.  The runtime passes the allocation's buffer and the
view's offset, 0 for a whole buffer (okl.runtime.drivers.opencl, launch.clcall); a kernel
spec says its device kernels take them (``KernelSpec.pointer_offsets``).

Runs after every other pass: checked mode's guards find a pointer's element count by the
parameter positions and leave alone a pointer the kernel reassigns, which the moves here
would otherwise make every pointer."""

from __future__ import annotations

from pycparser import c_ast

OFFSET_PREFIX = "_okl_off_"
OFFSET_TYPE = "ulong"  # 64-bit on every OpenCL device (the runtime passes numpy.uint64)


def add_pointer_offsets(nodes: list[c_ast.Node], params: int) -> None:
    """Give each device kernel (a ``__kernel`` FuncDef) in ``nodes`` an offset parameter per
    pointer among its first ``params`` parameters (the kernel's own; the captured host
    values follow them and are never pointers) and apply the offsets at its entry."""
    for f in nodes:
        if not isinstance(f, c_ast.FuncDef) or "__kernel" not in f.decl.storage:
            continue
        args = f.decl.type.args
        decls = [d for d in (args.params if args is not None else [])
                 if isinstance(d, c_ast.Decl)][:params]
        moves: list[c_ast.Node] = []
        hidden: list[c_ast.Node] = []
        for d in decls:
            if not isinstance(d.type, c_ast.PtrDecl):
                continue
            off = OFFSET_PREFIX + d.name
            # a `T *const p` parameter is moved once here; the const on the parameter itself
            # is no part of the function's type and the user's code never assigns it
            d.type.quals = [q for q in d.type.quals if q != "const"]
            hidden.append(c_ast.Decl(off, [], [], [], [], c_ast.TypeDecl(
                off, [], None, c_ast.IdentifierType([OFFSET_TYPE])), None, None))
            moves.append(_move(d, off))
        if not hidden:
            continue
        args.params = list(args.params) + hidden
        items = list(f.body.block_items or [])
        first = next((k for k, x in enumerate(items) if not isinstance(x, c_ast.Decl)),
                     len(items))  # after the hoisted __local declarations
        f.body.block_items = items[:first] + moves + items[first:]


def _move(param: c_ast.Decl, off: str) -> c_ast.Node:
    """``p += off;`` or, for a pointer to void (no arithmetic in OpenCL C), ``p = (T)((char
    *)p + off);`` with the parameter's address space and qualifiers."""
    pointee = param.type.type
    if not (isinstance(pointee, c_ast.TypeDecl) and
            isinstance(pointee.type, c_ast.IdentifierType) and pointee.type.names == ["void"]):
        return c_ast.Assignment("+=", c_ast.ID(param.name), c_ast.ID(off))
    quals = list(pointee.quals)
    char = c_ast.PtrDecl([], c_ast.TypeDecl(None, quals, None, c_ast.IdentifierType(["char"])))
    void = c_ast.PtrDecl([], c_ast.TypeDecl(None, quals, None, c_ast.IdentifierType(["void"])))
    moved = c_ast.BinaryOp("+", c_ast.Cast(c_ast.Typename(None, [], None, char),
                                           c_ast.ID(param.name)), c_ast.ID(off))
    return c_ast.Assignment("=", c_ast.ID(param.name),
                            c_ast.Cast(c_ast.Typename(None, [], None, void), moved))
