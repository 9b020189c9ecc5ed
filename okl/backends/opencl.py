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
  @atomic here, leaving a data race).
"""

from __future__ import annotations

from pycparser import c_ast

from .base import Target

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
    constant_storage = "__constant"
    hoist_shared = True
    math_names = {f"{m}f": m for m in _MATH} | {"rsqrtf": "rsqrt", "fabsf": "fabs"}
    # identifiers that are C but keywords or types in OpenCL C: renamed in the output
    reserved = frozenset("""half global local constant private kernel read_only write_only
        read_write uchar ushort ulong complex imaginary sampler_t event_t image2d_t image3d_t
        __global __local __constant __private __kernel""".split())

    def prologue(self, uses: set[str]) -> str:
        out = []
        if "double" in uses:
            out.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
        if any(u.startswith("atom_") for u in uses) or "_okl_atomic_add_double_global" in uses \
                or "_okl_atomic_add_double_local" in uses:
            out.append("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n")
        if {"atom_and", "atom_or", "atom_xor"} & uses:
            out.append("#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n")
        out.append(self.typedefs_for(uses))
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

    def atomic(self, node, base, space, diags, loc):
        if isinstance(node, c_ast.Compound):
            diags.error("@atomic blocks cannot run on GPU backends", loc,
                        hint="update one location per statement: @atomic x += v;")
            return node
        if isinstance(node, c_ast.UnaryOp):
            up = node.op in ("++", "p++")
            op, target, value = ("+=" if up else "-="), node.expr, c_ast.Constant("int", "1")
        else:
            op, target, value = node.op, node.lvalue, node.rvalue
        address = c_ast.UnaryOp("&", target)
        if base in _INT32 | _INT64 and op in _INT_OPS:
            prefix = "atomic_" if base in _INT32 else "atom_"
            return _call(prefix + _INT_OPS[op], [address, value], node)
        if base in _FLOATS and op in ("+=", "-="):
            if op == "-=":
                value = c_ast.UnaryOp("-", value)
            return _call(f"_okl_atomic_add_{base}_{space}", [address, value], node)
        if base == "float" and op == "=":
            return _call("atomic_xchg", [address, value], node)
        diags.error(f"Atomic does not support this operation on OpenCL: '{op}' on '{base}'",
                    loc, hint="supported: += -= &= |= ^= = ++ -- on integers, += -= on "
                              "float and double")
        return node


def _call(name: str, args, node) -> c_ast.FuncCall:
    return c_ast.FuncCall(c_ast.ID(name), c_ast.ExprList(args), coord=node.coord)


def _cas_add(ctype: str, bits: int, space: str) -> str:
    word = "unsigned int" if bits == 32 else "unsigned long"
    cas = "atomic_cmpxchg" if bits == 32 else "atom_cmpxchg"
    return (f"void _okl_atomic_add_{ctype}_{space}(volatile __{space} {ctype} *p, "
            f"{ctype} v) {{\n"
            f"  union {{ {word} u; {ctype} f; }} old, next;\n"
            f"  do {{\n    old.f = *p;\n    next.f = old.f + v;\n"
            f"  }} while ({cas}((volatile __{space} {word} *) p, old.u, next.u) != old.u);\n"
            "}\n")
