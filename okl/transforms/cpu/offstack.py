"""Large @shared and @exclusive arrays off the stack on CPU targets.

On a GPU, @shared memory is the block's on-chip memory (the device compiler refuses a kernel
that asks for more than it has) and an @exclusive array is one thread's.  On a CPU both
become arrays declared in the @outer loop's body -- on the stack of the thread running the
iteration -- and @exclusive ones are also multiplied by the block's thread count.  A few MiB
there is past the end of a thread's stack (8 MiB for the main thread, often less for OpenMP's
workers), and the process dies with SIGSEGV before the kernel does anything.

So when a kernel's @shared and @exclusive arrays together pass ``STACK_BYTES``, the largest
become ``static _Thread_local``: one copy per thread, made by the C runtime when the thread
first touches it, used by one @outer iteration at a time exactly as the stack copy was.
Nothing is initialised either way (neither has an initialiser in OKL), so no result changes;
the small arrays of ordinary kernels stay where the compiler keeps them best.
"""

from __future__ import annotations

from pycparser import c_ast

from ...model.consteval import evaluate
from ...model.kernel import Kernel, Variable

#: bytes of @shared and @exclusive storage per @outer iteration left on the stack: a quarter
#: of the smallest thread stack okl meets (1 MiB), so the user's own locals still fit
STACK_BYTES = 256 * 1024

#: sizes of C's arithmetic types (LP64, as on every host okl builds CPU code for); a type
#: not here (a struct, a vector) counts as 16 bytes an element, which errs towards moving
_SIZES = {"char": 1, "bool": 1, "_Bool": 1, "short": 2, "half": 2, "int": 4, "float": 4,
          "long": 8, "double": 8, "size_t": 8, "ptrdiff_t": 8, "int8_t": 1, "uint8_t": 1,
          "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8,
          "uint64_t": 8}
_UNKNOWN = 16


def move_off_stack(kernel: Kernel) -> list[str]:
    """Make the largest arrays thread-local until the rest fit ``STACK_BYTES``; returns the
    names moved (after lower_exclusive: @exclusive arrays have their slots)."""
    sized = [(size, var) for var in [*kernel.shared, *kernel.exclusive]
             if (size := _bytes(var.node)) is not None and not var.node.init]
    total = sum(size for size, _ in sized)
    moved = []
    for size, var in sorted(sized, key=lambda sv: -sv[0]):
        if total <= STACK_BYTES:
            break
        _thread_local(var)
        total -= size
        moved.append(var.name)
    return moved


def _thread_local(var: Variable) -> None:
    storage = [s for s in var.node.storage if s not in ("static", "_Thread_local")]
    var.node.storage = ["static", "_Thread_local", *storage]


def _bytes(decl: c_ast.Decl) -> int | None:
    """Bytes of an array declaration with constant sizes (None for anything else)."""
    t, count = decl.type, 1
    if not isinstance(t, c_ast.ArrayDecl):
        return None
    while isinstance(t, c_ast.ArrayDecl):
        n = evaluate(t.dim) if t.dim is not None else None
        if n is None or n < 0:
            return None
        count *= n
        t = t.type
    return count * _element_bytes(t)


def _element_bytes(t: c_ast.Node) -> int:
    if isinstance(t, c_ast.PtrDecl):
        return 8
    inner = getattr(t, "type", None)
    if isinstance(inner, c_ast.IdentifierType):
        names = [n for n in inner.names if n not in ("signed", "unsigned", "const",
                                                      "volatile")]
        if not names:  # plain "unsigned"
            return 4
        if names.count("long") == 2 or names == ["long", "int"]:
            return 8
        if len(names) == 1 or (len(names) == 2 and names[1] == "int"):
            return _SIZES.get(names[0], _UNKNOWN)
    return _UNKNOWN
