"""CUDA: ``extern "C" __global__`` device kernels, blockIdx/threadIdx, __syncthreads.

@atomic maps onto CUDA's atomic functions: ``+=`` atomicAdd, ``-=`` atomicSub (integers) or
atomicAdd of the negation (floating point, which has no atomicSub), ``&= |= ^=``
atomicAnd/Or/Xor, ``=`` atomicExch, ``++``/``--`` atomicAdd/atomicSub of 1 (OCCA's
``atomicInc(&x)`` is a different, wrapping operation).  64-bit signed integers go through the
``unsigned long long`` overloads, which give the same two's-complement result.
"""

from __future__ import annotations

from pycparser import c_ast

from ..ctree import clone
from .target import Target

AXES = "xyz"
_OPS = {"+=": "atomicAdd", "-=": "atomicSub", "&=": "atomicAnd", "|=": "atomicOr",
        "^=": "atomicXor", "=": "atomicExch"}
_NATIVE = {"int", "unsigned int", "unsigned long long", "float", "double"}
_AS_ULL = {"long", "unsigned long", "long long"}
_FLOATS = {"float", "double"}
#: CUDA 13 deprecates its four-component vectors of 8-byte values in favour of spellings that
#: state their alignment; the 16-byte one (``double4_16a``) has the layout the old name had,
#: and the kernel keeps it.  Type -> its component type.  Constructors are okl's own: CUDA 13's
#: ``make_<type>_16a`` exist for some of these only, and not in every NVRTC 13.
_ALIGNED_16 = {"double4": "double", "long4": "long", "ulong4": "unsigned long",
               "longlong4": "long long", "ulonglong4": "unsigned long long"}


class CudaTarget(Target):
    mode = "cuda"
    gpu = True
    restrict = "__restrict__"
    shared_storage = "__shared__"
    constant_storage = "__constant__"
    device_function_storage = ("__device__",)
    c99_inline = False  # C++
    check_claim = "atomicCAS(err, 0, id + 1) == 0"

    def prologue(self, uses: set[str]) -> str:
        # C's _Bool (a host variable's type, captured by device code) is bool in C++
        boolean = "typedef bool _Bool;\n" if "_Bool" in uses else ""
        return boolean + _cuda13_vectors(uses) + self.typedefs_for(uses)

    def native_types(self) -> set[str]:
        return {"size_t", "bool"}

    def kernel_storage(self, inner_dims, max_threads):
        storage = ['extern "C"', "__global__"]
        threads = max_threads
        if threads is None and inner_dims:
            threads = 1
            for d in inner_dims:
                threads *= d
        if threads:
            storage.append(f"__launch_bounds__({threads})")
        return storage

    def index(self, kind: str, axis: int) -> c_ast.Node:
        base = "blockIdx" if kind == "outer" else "threadIdx"
        return c_ast.StructRef(c_ast.ID(base), ".", c_ast.ID(AXES[axis]))

    def barrier(self, kind: str) -> c_ast.Node:
        name = "__syncwarp" if kind == "warp" else "__syncthreads"
        return c_ast.FuncCall(c_ast.ID(name), None)

    def atomic(self, node, base, space, diags, where):
        if isinstance(node, c_ast.Compound):
            diags.error("@atomic blocks cannot run on GPU backends", where.loc,
                        hint="update one location per statement: @atomic x += v;")
            return node
        if isinstance(node, c_ast.UnaryOp):
            op = "+=" if node.op in ("++", "p++") else "-="
            target, value = node.expr, c_ast.Constant("int", "1")
        else:
            op, target, value = node.op, node.lvalue, node.rvalue
        if op not in _OPS:
            diags.error(f"Atomic does not support this operation on GPU backends: '{op}'",
                        where.loc,
                        hint="supported: +=, -=, &=, |=, ^=, =, ++, --")
            return node
        if base not in _NATIVE | _AS_ULL:
            diags.error(f"@atomic on a '{base}' is not supported on {self.mode}", where.loc,
                        hint="use int, unsigned int, long, unsigned long, float or double")
            return node
        if base in _FLOATS and op in ("&=", "|=", "^="):
            diags.error(f"'{op}' is not an operation on '{base}'", where.loc)
            return node
        func = _OPS[op]
        if op == "-=" and (base in _FLOATS or base in _AS_ULL or base ==
                           "unsigned long long"):
            func, value = "atomicAdd", c_ast.UnaryOp("-", value)
        address = c_ast.UnaryOp("&", target)
        if op == "=" and base == "double":  # exchange the bits as a 64-bit integer
            ull = c_ast.IdentifierType(["unsigned", "long", "long"])
            address = c_ast.Cast(c_ast.Typename(None, [], None, c_ast.PtrDecl(
                [], c_ast.TypeDecl(None, [], None, ull))), address)
            value = c_ast.FuncCall(c_ast.ID("__double_as_longlong"), c_ast.ExprList([value]))
            return c_ast.FuncCall(c_ast.ID(func), c_ast.ExprList([address, value]),
                                  coord=node.coord)
        if base in _AS_ULL:
            ull = c_ast.IdentifierType(["unsigned", "long", "long"])
            address = c_ast.Cast(c_ast.Typename(None, [], None, c_ast.PtrDecl(
                [], c_ast.TypeDecl(None, [], None, ull))), address)
            value = c_ast.Cast(c_ast.Typename(None, [], None, c_ast.TypeDecl(
                None, [], None, clone(ull))), value)
        return c_ast.FuncCall(c_ast.ID(func), c_ast.ExprList([address, value]),
                              coord=node.coord)


def _cuda13_vectors(uses: set[str]) -> str:
    """For compilers of CUDA 13 and later only (nvcc and NVRTC define __CUDACC_VER_MAJOR__;
    hiprtc does not): the vector types of ``uses`` that CUDA 13 deprecates, spelled with the
    16-byte alignment they always had, and their constructors."""
    lines = []
    for name, part in _ALIGNED_16.items():
        made = f"make_{name}" in uses
        if name not in uses and not made:
            continue
        lines.append(f"#define {name} {name}_16a")
        if made:
            lines += [f"#define make_{name} okl_make_{name}",
                      f"static __device__ __forceinline__ {name}_16a okl_make_{name}("
                      f"{part} x, {part} y, {part} z, {part} w) {{",
                      f"  {name}_16a v; v.x = x; v.y = y; v.z = z; v.w = w; return v;", "}"]
    if not lines:
        return ""
    return "#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 13\n" + \
        "\n".join(lines) + "\n#endif\n"
