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
        raise LaunchError(f"{name}: the @inner loops need {_product(inner, threads)} threads "
                          f"per block, more than @max_inner_dims allows "
                          f"({_product(limit, allowed)}); raise @max_inner_dims")


def _product(sizes: tuple, total: int) -> str:
    """``16 x 16 = 256`` for several sizes, ``64`` for one."""
    return f"{' x '.join(map(str, sizes))} = {total}" if len(sizes) > 1 else str(total)


def _tile_fits(start: int, bound: int, width: int, lo: int, hi: int, facts: tuple) -> None:
    """Refuse a launch whose @tile loop would step its loop variable past its type's range.

    okl.model.tile writes ``for (T t = s; t < e; t += W)`` around ``for (T i = t; i < t + W;
    ...)``: past the last tile start both reach ``t + W``, and OpenMP counts the tile loop's
    iterations from ``e - s + W - 1`` in T.  Where the bound lies within one tile width of
    T's limit, or the range plus one tile exceeds T, those overflow (a hang on serial, nothing
    done on openmp, thread indices wrapping negative past the ``i < e`` check on GPUs),
    though the user's own loop would not.  The launch stops here, from exact integers, on
    every mode alike (okl.runtime.launch.launcher._tile_check).  ``facts``: the user's
    iterator, its C type, the bound's C text, increasing, inclusive, and (file, line, col,
    text) of the loop."""
    name, ctype, text, increasing, inclusive, where = facts
    if width <= 0:
        return  # the grid's trip count reports the step
    span = bound - start if increasing else start - bound
    if span + (1 if inclusive else 0) <= 0:
        return  # no tile runs
    edge = bound + width if increasing else bound - width
    reach = span + width
    if lo <= edge <= hi and reach <= hi:
        return
    shown = text if text == str(bound) else f"{text} = {bound}"
    cmp = ("<=" if inclusive else "<") if increasing else (">=" if inclusive else ">")
    if width > hi:
        why = f"each tile spans {width} (the tile size times the step), more than {ctype}'s " \
              f"largest value {hi}"
    elif not lo <= edge <= hi:
        why = (f"the tile loop okl makes of it steps {name} one tile ({width}) past the bound, "
               f"to {edge}, past {ctype}'s {'largest' if increasing else 'smallest'} value "
               f"{hi if increasing else lo}")
    else:
        why = (f"its range ({span}) plus one tile ({width}) is {reach}, more than {ctype}'s "
               f"largest value {hi}, so the tile loop's iteration count overflows")
    inside = "use a smaller tile size or step" if width > hi else \
        f"keep the bound one tile width ({width}) inside {ctype}'s range"
    fix = f"declare the loop variable 64-bit (long {name}), or {inside}" \
        if hi < 2**63 - 1 else inside
    raise LaunchError(Diagnostic(
        "error", f"this @tile loop ({ctype} {name} = {start}; {name} {cmp} {shown}) cannot "
        f"run: {why}", SourceLoc(*where),
        hint=fix).render())


def _run_host(host_src: str, grids: list[str | None], values: tuple) -> None:
    """Run a kernel's host code with ``values`` (its arguments; None for pointers) and, for
    each launch it makes, the grid function of that device kernel where one is given: the
    launch checks of okl.runtime.launch.launcher.host_limits_source on the CPU modes.  The
    checks depend on the values only: values that passed once are remembered (a launch loop
    repeats them, and the Python launch path would otherwise run the host code each time)."""
    try:
        key = (host_src, values)
        if key in _passed:
            return
    except TypeError:  # a struct argument (a numpy structured value) is not hashable
        key = None
    host = _function(host_src, "_host")
    dims = [None if g is None else _function(g, "_dims") for g in grids]

    def launch(k: int, env: dict) -> None:
        grid = dims[k]
        if grid is not None:
            grid(env)
    host(*values, launch)
    if key is not None:
        if len(_passed) >= 256:
            _passed.clear()
        _passed[key] = True


#: (host code, argument values) that passed :func:`_run_host`'s checks
_passed: dict[tuple, bool] = {}


RUNTIME_NAMES = {**HOST_RUNTIME_NAMES, "_check_max_inner": _check_max_inner, "_field": _field,
                 "_tile_fits": _tile_fits, "_run_host": _run_host, "max": max}


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


@functools.lru_cache(maxsize=256)
def _function(source: str, name: str):
    """:func:`compile_function` kept per source: :func:`_run_host` runs before every CPU
    launch whose values are new (the native path remembers the last ones)."""
    return compile_function(source, name, f"<okl {name[1:]} of a launch check>")


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
