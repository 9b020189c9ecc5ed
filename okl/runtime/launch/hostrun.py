"""What generated host code calls at run time, and how it is compiled.

Split from :mod:`.hostcode` and :mod:`.launcher`, which write that code at translation time
and need pycparser and okl's model: a build that the cache answers (a new Device, a new
process or MPI rank with a warm cache) imports only this module, not the translator (about
0.1 s of imports on a GPU machine's host).
"""

from __future__ import annotations

import functools

from ...errors import Diagnostic, LaunchError, OKLError, SourceLoc
from . import cvalues as cv


def _min(a, b):
    return a if a < b else b


def _max(a, b):
    return a if a > b else b


def _fmin(a: float, b: float) -> float:
    return b if a != a else a if b != b or a <= b else b


def _fmax(a: float, b: float) -> float:
    return b if a != a else a if b != b or a >= b else b


def _trips(diff: int, step: int) -> int:
    """Iterations of a loop that covers ``diff`` in steps of ``step`` (exact integers)."""
    if step <= 0:
        raise cv.HostUB(f"the loop step is {step}; it must be positive")
    return -(-diff // step) if diff > 0 else 0


def located(error: Exception, where: dict[int, tuple]) -> None:
    """Raise a LaunchError at the .okl position of the generated line that failed (its
    traceback's first entry is the generated function); return if the line has none (a
    launch failed further in: that error goes on as it is)."""
    tb = error.__traceback__
    loc = where.get(tb.tb_lineno) if tb is not None else None
    if loc is None:
        return
    what = str(error) if isinstance(error, cv.HostUB) else \
        f"{type(error).__name__}: {error}"
    raise LaunchError(Diagnostic("error", f"host code cannot run: {what}",
                                 SourceLoc(*loc)).render()) from None


HOST_RUNTIME_NAMES: dict[str, object] = {**cv.HELPERS, "_min": _min, "_max": _max, "_fmin": _fmin,
                                         "_fmax": _fmax, "_trips": _trips, "_located": located}


def _field(value, name: str):
    """`s.name` of a struct argument (a numpy structured scalar or 0-d array) on the host."""
    field = value[name]
    return field.item() if getattr(field, "ndim", 0) == 0 and field.dtype.fields is None \
        else field


def _check_max_inner(name: str, inner: tuple, limit: tuple) -> None:
    """@max_inner_dims is a promise the CPU @exclusive arrays and launch bounds rely on.  Like
    OCCA (and like __launch_bounds__, which gets the product), it bounds the threads of a
    block -- the product of the @inner extents -- not each axis: @max_inner_dims(256) admits
    a 16 x 16 block."""
    threads = allowed = 1
    for n in inner:
        threads *= n
    for m in limit:
        allowed *= m
    if threads > allowed:
        raise LaunchError(f"{name}: the @inner loops need {' x '.join(map(str, inner))} = "
                          f"{threads} threads per block, more than @max_inner_dims allows "
                          f"({' x '.join(map(str, limit))} = {allowed}); raise "
                          "@max_inner_dims")


RUNTIME_NAMES = {**HOST_RUNTIME_NAMES, "_check_max_inner": _check_max_inner, "_field": _field,
                 "max": max}


@functools.lru_cache(maxsize=1024)
def compiled(source: str, filename: str):
    """Python's compile() costs ~0.3 ms; a warm build_kernel on a new Device is ~1 ms in all,
    so generated code objects are kept for the process.

    Generated code keeps the nesting of the kernel's own expressions, and Python's parser
    refuses more than 200 nested parentheses (a sum of a thousand terms before the @outer
    loops, say): that is said as an OKLError, not as Python's SyntaxError."""
    try:
        return compile(source, filename, "exec")
    except (SyntaxError, RecursionError, MemoryError) as e:
        raise OKLError(f"{filename.strip('<>')}: an expression of the kernel's host code (before "
                       f"or between its @outer loops) nests too deeply for Python's parser "
                       f"({type(e).__name__}: {getattr(e, 'msg', e)}); split it into several "
                       "statements with temporary variables") from None


def compile_function(source: str, name: str, filename: str):
    """Turn generated launcher source (ours, never user text) into a function."""
    namespace = dict(RUNTIME_NAMES)
    exec(compiled(source, filename), namespace)  # noqa: S102 - generated code
    return namespace[name]


def host_launches(spec, values: list) -> list[tuple[int, tuple, tuple, dict]]:
    """Run a GPU-mode kernel's host code with ``values`` (its arguments as Python scalars;
    anything for pointers) and return the launches it would make -- ``(device kernel,
    outer, inner, captured values by name)`` -- without a device: how tests compare the
    Python host path with the compiled C of the CPU modes."""
    host = compile_function(spec.host_src, "_host", f"<okl host code of {spec.name}>")
    dims = [compile_function(d.dims_src, "_dims", f"<okl grid of {d.name}>")
            for d in spec.device_kernels]
    out = []

    def launch(k: int, env: dict) -> None:
        outer, inner = dims[k](env)
        if min(outer) > 0 and min(inner) > 0:
            captured = {c.name: env[c.name] for c in spec.device_kernels[k].captured}
            out.append((k, outer, inner, captured))
    host(*values, launch)
    return out
