"""OpenCL C 1.2: ``__kernel`` functions, ``__global`` pointers, hoisted ``__local`` arrays.

Differences from CUDA that matter for correctness:

* ``__local`` arrays must live at kernel scope, so @shared declarations are hoisted (and
  renamed when two blocks reuse a name);
* explicit ``@barrier`` fences global and local memory like ``__syncthreads`` does; the
  barriers okl inserts for @shared hand-offs fence local memory only; OpenCL 1.2 has no
  sub-group barrier, so ``@barrier("warp")`` becomes a work-group barrier (correct, and the
  only portable choice);
* C99's float-suffixed math functions do not exist (``sinf`` is ``sin``, overloaded);
* @atomic: OpenCL 1.1 integer atomics for 32-bit ints, the ``cl_khr_int64_*`` extensions for
  64-bit ints, and a compare-and-swap loop for float and double (OCCA silently dropped
  @atomic here, leaving a data race);
* vector types are native, ``make_double4(...)`` is the literal ``(double4)(...)``; but a
  3-component vector takes 4 components of memory, so a ``float3 *`` argument reads other
  bytes than on CUDA or C: translating one is a warning.
"""

from __future__ import annotations

from pycparser import c_ast

from ..parser.vectors import VECTOR_TYPES, vectors_used
from .opencl_spaces import address_spaces
from .target import Target
from .vectors import opencl_typedefs, vector_literals

_MATH = ("sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp exp2 exp10 "
         "expm1 log log2 log10 log1p sqrt cbrt pow fabs fmin fmax fmod floor ceil round trunc "
         "rint copysign erf erfc hypot fma ldexp frexp modf remainder tgamma lgamma").split()
_INT_OPS = {"+=": "add", "-=": "sub", "&=": "and", "|=": "or", "^=": "xor", "=": "xchg"}
_INT32 = {"int", "unsigned int"}
_INT64 = {"long", "unsigned long", "long long", "unsigned long long"}
_FLOATS = {"float", "double"}


class OpenCLTarget(Target):
    mode = "opencl"
    gpu = True
    shared_storage = "__local"
    check_claim = "atomic_cmpxchg(err, 0, id + 1) == 0"
    constant_storage = "__constant"
    hoist_shared = True
    pointer_offsets = True  # buffers, not addresses: a view's offset is an argument
    math_names = {f"{m}f": m for m in _MATH} | {"rsqrtf": "rsqrt", "fabsf": "fabs"}
    # identifiers that are C but keywords or types in OpenCL C: renamed in the output
    reserved = frozenset("""half global local constant private kernel read_only write_only
        read_write uchar ushort ulong complex imaginary sampler_t event_t image2d_t image3d_t
        __global __local __constant __private __kernel""".split())

    def prologue(self, uses: set[str]) -> str:
        out = []
        if "double" in uses or any(v.base == "double" for v in vectors_used(uses)):
            out.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
        if any(u.startswith("atom_") for u in uses) or "_okl_atomic_add_double_global" in uses \
                or "_okl_atomic_add_double_local" in uses:  # 64-bit atomics
            out.append("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n")
        if {"atom_and", "atom_or", "atom_xor"} & uses:
            out.append("#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n")
        out.append(self.typedefs_for(uses) + opencl_typedefs(uses))
        for ctype, bits in (("float", 32), ("double", 64)):
            for space in ("global", "local"):
                if f"_okl_atomic_add_{ctype}_{space}" in uses:
                    out.append(_cas_add(ctype, bits, space))
        return "".join(out)

    def native_types(self) -> set[str]:
        return {"size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "bool", "uint", "half"}

    def kernel_storage(self, inner_dims, max_threads):
        storage = ["__kernel"]
        if inner_dims:
            dims = list(inner_dims) + [1] * (3 - len(inner_dims))
            storage.append("__attribute__((reqd_work_group_size({}, {}, {})))".format(*dims))
        return storage

    def pointer_param_space(self) -> str:
        return "__global"

    def index(self, kind: str, axis: int) -> c_ast.Node:
        name = "get_group_id" if kind == "outer" else "get_local_id"
        return c_ast.FuncCall(c_ast.ID(name), c_ast.ExprList([c_ast.Constant("int",
                                                                             str(axis))]))

    def barrier(self, kind: str) -> c_ast.Node:
        fence = "CLK_LOCAL_MEM_FENCE" if kind in ("auto", "warp") else \
            "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"
        return c_ast.FuncCall(c_ast.ID("barrier"), c_ast.ExprList([c_ast.ID(fence)]))

    def check_params(self, kernel, program, diags) -> None:
        _check_params(kernel, program, diags)

    def capture_type(self, t: c_ast.Node, types) -> c_ast.Node:
        """A host variable of a type OpenCL kernels cannot take travels as the fixed-width
        type of the same size the runtime packs: ``bool`` as ``uchar`` (0 or 1, so every
        expression reading it gives the same value), ``size_t`` as ``ulong``."""
        bad = _forbidden(t, types)
        if bad not in _SAME_SIZE or not isinstance(t, c_ast.TypeDecl):
            return t
        return c_ast.TypeDecl(t.declname, list(t.quals), t.align,
                              c_ast.IdentifierType([_SAME_SIZE[bad]]))

    def finish_functions(self, nodes, program, diags) -> None:
        address_spaces(nodes, program, diags)
        vector_literals(nodes)

    def atomic(self, node, base, space, diags, where):
        if isinstance(node, c_ast.Compound):
            diags.error("@atomic blocks cannot run on GPU backends", where.loc,
                        hint="update one location per statement: @atomic x += v;")
            return node
        if isinstance(node, c_ast.UnaryOp):
            up = node.op in ("++", "p++")
            op, target, value = ("+=" if up else "-="), node.expr, c_ast.Constant("int", "1")
        else:
            op, target, value = node.op, node.lvalue, node.rvalue
        address = c_ast.UnaryOp("&", target)
        space = "local" if space == "shared" else "global"
        if base in _INT32 | _INT64 and op in _INT_OPS:
            prefix = "atomic_" if base in _INT32 else "atom_"
            return _call(prefix + _INT_OPS[op], [address, value], node)
        if base in _FLOATS and op in ("+=", "-="):
            if op == "-=":
                value = c_ast.UnaryOp("-", value)
            return _call(f"_okl_atomic_add_{base}_{space}", [address, value], node)
        if base == "float" and op == "=":
            return _call("atomic_xchg", [address, value], node)
        if base == "double" and op == "=":  # exchange the bits as a 64-bit integer
            word = _typename(["long"], pointer=f"volatile __{space}")
            bits = c_ast.FuncCall(c_ast.ID("as_long"), c_ast.ExprList(
                [c_ast.Cast(_typename(["double"]), value)]))
            return _call("atom_xchg", [c_ast.Cast(word, address), bits], node)
        diags.error(f"Atomic does not support this operation on OpenCL: '{op}' on '{base}'",
                    where.loc,
                    hint="supported: += -= &= |= ^= = ++ -- on integers, += -= ++ -- = on float "
                         "and double")
        return node


def _typename(names: list[str], pointer: str | None = None) -> c_ast.Typename:
    """``(double)`` or, with ``pointer="volatile __global"``, ``(volatile __global long *)``."""
    t: c_ast.Node = c_ast.TypeDecl(None, pointer.split() if pointer else [], None,
                                   c_ast.IdentifierType(names))
    if pointer:
        t = c_ast.PtrDecl([], t)
    return c_ast.Typename(None, [], None, t)


def _call(name: str, args, node) -> c_ast.FuncCall:
    return c_ast.FuncCall(c_ast.ID(name), c_ast.ExprList(args), coord=node.coord)


def _cas_add(ctype: str, bits: int, space: str) -> str:
    """Atomic floating-point add.  NVIDIA's OpenCL compiles inline PTX, and its hardware has
    float/double atomic adds (``red.global.add``), so there the loop is a single instruction
    (a CAS loop runs reductions ~400x slower on an H200).  Elsewhere: compare-and-swap that
    retries with the value the failed swap returned, instead of re-reading memory."""
    word = "unsigned int" if bits == 32 else "unsigned long"
    cas = "atomic_cmpxchg" if bits == 32 else "atom_cmpxchg"
    ptx = ""
    if space == "global":
        reg = "f" if bits == 32 else "d"
        ptx = (f"#if defined(cl_nv_pragma_unroll)\n"
               f"  asm volatile(\"red.global.add.f{bits} [%0], %1;\" :: \"l\"(p), "
               f"\"{reg}\"(v) : \"memory\");\n"
               f"  return;\n"
               f"#endif\n")
    return (f"void _okl_atomic_add_{ctype}_{space}(volatile __{space} {ctype} *p, "
            f"{ctype} v) {{\n{ptx}"
            f"  union {{ {word} u; {ctype} f; }} old, next, seen;\n"
            f"  old.f = *p;\n"
            f"  for (;;) {{\n"
            f"    next.f = old.f + v;\n"
            f"    seen.u = {cas}((volatile __{space} {word} *) p, old.u, next.u);\n"
            f"    if (seen.u == old.u) return;\n"
            f"    old.u = seen.u;\n"
            f"  }}\n"
            "}\n")


# -- kernel arguments ---------------------------------------------------------------------
#: OpenCL C 1.2 §6.9.k: kernel arguments cannot have these types (nor structs holding them)
_NOT_KERNEL_ARGS = {"size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "bool", "_Bool"}
#: the type of the same size (LP64, as the runtime packs it) that a kernel can take instead
_SAME_SIZE = {"size_t": "ulong", "uintptr_t": "ulong", "ptrdiff_t": "long", "intptr_t": "long",
              "bool": "uchar", "_Bool": "uchar"}


def _typedef_names(t: c_ast.Node, types) -> list[str]:
    """The names a declared type goes through: `size_t` -> ['size_t', 'unsigned long']."""
    names = []
    for _ in range(16):
        while isinstance(t, c_ast.TypeDecl):
            t = t.type
        if not isinstance(t, c_ast.IdentifierType):
            break
        name = " ".join(t.names)
        names.append(name)
        target = types.typedefs.get(name)
        if target is None:
            break
        t = target
    return names


def _struct_of(t: c_ast.Node, types) -> c_ast.Struct | None:
    for _ in range(16):
        while isinstance(t, c_ast.TypeDecl):
            t = t.type
        if isinstance(t, c_ast.Struct):
            return t if t.decls is not None else types.structs.get(t.name)
        if isinstance(t, c_ast.IdentifierType) and " ".join(t.names) in types.typedefs:
            t = types.typedefs[" ".join(t.names)]
            continue
        return None
    return None


def _forbidden(t: c_ast.Node, types, depth: int = 0) -> str | None:
    """The first type inside ``t`` (a value type) that OpenCL kernels cannot take."""
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    if isinstance(t, c_ast.PtrDecl) or depth > 8:
        return None
    bad = next((n for n in _typedef_names(t, types) if n in _NOT_KERNEL_ARGS), None)
    if bad:
        return bad
    struct = _struct_of(t, types)
    for field in (struct.decls or []) if struct is not None else []:
        bad = _forbidden(field.type, types, depth + 1)
        if bad:
            return bad
    return None


def _pointer_field(t: c_ast.Node, types, depth: int = 0) -> str | None:
    """The name of the first pointer field inside ``t`` (a value type), struct in struct
    included (``inner.data``): OpenCL C forbids pointers in a kernel argument of struct type
    (the OpenCL compiler would refuse the program only when okl builds it)."""
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    if isinstance(t, c_ast.PtrDecl) or depth > 8:
        return None
    struct = _struct_of(t, types)
    for field in (struct.decls or []) if struct is not None else []:
        ft = field.type
        while isinstance(ft, c_ast.ArrayDecl):
            ft = ft.type
        if isinstance(ft, c_ast.PtrDecl):
            return field.name
        inner = _pointer_field(ft, types, depth + 1)
        if inner:
            return f"{field.name}.{inner}"
    return None


def _check_params(kernel, program, diags) -> None:
    for p in kernel.params:
        vector = VECTOR_TYPES.get(p.ctype.base)
        if vector is not None and vector.n == 3:
            _three_component(p, vector, diags)
        if p.is_pointer:
            continue
        field = _pointer_field(p.node.type, program.types)
        if field is not None:
            diags.error(f"OpenCL kernels cannot take argument '{p.name}': it is a struct with "
                        f"a pointer field ('{p.name}.{field}'), which OpenCL does not allow in "
                        "a kernel argument", p.loc,
                        hint=f"pass the array as a pointer argument of its own and keep only "
                             f"values (sizes, offsets) in '{p.name}'")
            continue
        bad = _forbidden(p.node.type, program.types)
        if bad is None:
            continue
        where = "has" if bad in _typedef_names(p.node.type, program.types) else \
            "is a struct with a field of"
        diags.error(f"OpenCL kernels cannot take argument '{p.name}': it {where} type "
                    f"'{bad}', whose size is the device's choice", p.loc,
                    hint="use a fixed-width type such as int, unsigned int or long")


def _three_component(p, vector, diags) -> None:
    """OpenCL stores a 3-component vector in the space of 4 (OpenCL C 1.2 §6.1.5); CUDA,
    C and the argument checks use 3.  Through a pointer the kernel still builds and runs,
    reading every element but the first at another offset: warn.  By value the argument
    has no size both sides agree on: refuse."""
    wide = vector.name[:-1] + "4"
    sizes = (f"OpenCL stores each {vector.name} in {4 * vector.base_size} bytes, CUDA and C in "
             f"{vector.size} bytes")
    if p.is_pointer:
        diags.warning(f"argument '{p.name}' points to {vector.name}: {sizes}, so the same "
                      "array holds different elements in opencl mode", p.loc,
                      hint=f"use {wide} (with an unused .w), or a {vector.base} pointer "
                           "indexed 3 * i + k")
    else:
        diags.error(f"OpenCL kernels cannot take argument '{p.name}' of type {vector.name} by "
                    f"value: {sizes}", p.loc,
                    hint=f"pass its components as separate {vector.base} arguments")
