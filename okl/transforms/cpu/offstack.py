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

from ...model.kernel import Kernel, Variable
from ...model.sizes import array_bytes

#: bytes of @shared and @exclusive storage per @outer iteration left on the stack: a quarter
#: of the smallest thread stack okl meets (1 MiB), so the user's own locals still fit
STACK_BYTES = 256 * 1024


def move_off_stack(kernel: Kernel) -> None:
    """Make the largest arrays thread-local until the rest fit ``STACK_BYTES`` (after
    lower_exclusive: @exclusive arrays have their slots)."""
    sized = [(size, var) for var in [*kernel.shared, *kernel.exclusive]
             if (size := array_bytes(var.node)) is not None and not var.node.init]
    total = sum(size for size, _ in sized)
    for size, var in sorted(sized, key=lambda sv: -sv[0]):
        if total <= STACK_BYTES:
            break
        _thread_local(var)
        total -= size


def _thread_local(var: Variable) -> None:
    storage = [s for s in var.node.storage if s not in ("static", "_Thread_local")]
    var.node.storage = ["static", "_Thread_local", *storage]
