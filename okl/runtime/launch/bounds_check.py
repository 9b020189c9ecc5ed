"""The launch-time bounds check: refuse a launch that would index past a buffer, before it runs.

okl.transforms.index_bounds derives, per kernel, ``_bounds(_env)``: the largest index of every
provably bounded access of a pointer parameter for the launch's scalar values.  Here the
interval helpers that function calls are defined, and :func:`bounds_check` turns a kernel
spec into ``check(env, args)``, which compares each parameter's largest index with the size
of the buffer passed (numpy arrays, okl.Memory, CuPy and pyopencl arrays: anything with an
``nbytes``; a raw ``pyopencl.Buffer`` by its byte size) and raises ArgumentError naming the
array, the index and the size.  Buffers of unknown size are not checked.

Intervals are ``(lo, hi)`` tuples of Python ints, or None for "unknown or never reached";
every helper passes None through.
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from ...errors import ArgumentError
from .cvalues import idiv, imod
from .hostrun import compiled

#: entries a launch memo keeps (one per distinct set of scalar values; a launch loop has one)
MEMO_LIMIT = 64


def _fit(a, lo: int, hi: int):
    """``a`` if it lies within a C type's range [lo, hi], else unknown (it would wrap)."""
    return a if a is not None and lo <= a[0] and a[1] <= hi else None


def _add(a, b):
    return None if a is None or b is None else (a[0] + b[0], a[1] + b[1])


def _sub(a, b):
    return None if a is None or b is None else (a[0] - b[1], a[1] - b[0])


def _neg(a):
    return None if a is None else (-a[1], -a[0])


def _corners(f, a, b):
    values = [f(x, y) for x in a for y in b]
    return min(values), max(values)


def _mul(a, b):
    if a is None or b is None:
        return None
    return _corners(lambda x, y: x * y, a, b)


def _div(a, b):
    """C's truncating division is monotone in each operand while the divisor keeps its sign."""
    if a is None or b is None or b[0] <= 0 <= b[1]:
        return None
    return _corners(idiv, a, b)


def _mod(a, b):
    """``a % m`` for a positive constant or scalar ``m`` and ``a >= 0``; else unknown."""
    if a is None or b is None or b[0] != b[1] or b[0] <= 0 or a[0] < 0:
        return None
    m = b[0]
    if a[1] - a[0] + 1 >= m:
        return 0, m - 1
    lo, hi = imod(a[0], m), imod(a[1], m)
    return (lo, hi) if lo <= hi else (0, m - 1)


def _loop(s, cmp: str, e, d):
    """The values of ``for (i = s; i cmp e; i += d)``; None if it may run no iteration or the
    form is not one whose last value is known."""
    if s is None or e is None or d is None or d[0] != d[1] or d[0] == 0:
        return None
    step = d[0]
    point = s[0] == s[1] and e[0] == e[1]
    if cmp in ("<", "<="):
        if step < 0:
            return None
        last = e[1] - 1 if cmp == "<" else e[1]
        if step != 1:
            if not point:
                return None
            last = s[0] + idiv(last - s[0], step) * step if last >= s[0] else s[0] - 1
        return (s[0], last) if s[0] <= last else None
    if step > 0:
        return None
    first = e[0] + 1 if cmp == ">" else e[0]
    if step != -1:
        if not point:
            return None
        first = s[1] - idiv(s[1] - first, -step) * -step if s[1] >= first else s[1] + 1
    return (first, s[1]) if first <= s[1] else None


def _narrow(a, lo, hi):
    if a is None or lo is None or hi is None:
        return None
    lo, hi = max(a[0], lo), min(a[1], hi)
    return (lo, hi) if lo <= hi else None


def _below(a, b):
    return None if b is None else _narrow(a, a and a[0], b[1] - 1)


def _atmost(a, b):
    return None if b is None else _narrow(a, a and a[0], b[1])


def _above(a, b):
    return None if b is None else _narrow(a, b[0] + 1, a and a[1])


def _atleast(a, b):
    return None if b is None else _narrow(a, b[0], a and a[1])


def _equal(a, b):
    return None if b is None else _narrow(a, b[0], b[1])


_TESTS = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__,
          "==": int.__eq__, "!=": int.__ne__}


def _gate(a, op: str, b):
    """A condition on scalar arguments (points): (1, 1) where it holds, None where not."""
    if a is None or b is None:
        return None
    return (1, 1) if _TESTS[op](a[0], b[0]) else None


def _top(index, *reach):
    """The largest value of ``index`` where every interval in ``reach`` is non-empty."""
    if index is None or any(r is None for r in reach):
        return None
    return index[1]


NAMES = {f.__name__: f for f in (_fit, _add, _sub, _neg, _mul, _div, _mod, _loop, _below, _atmost,
                                 _above, _atleast, _equal, _gate, _top)}


def buffer_bytes(obj) -> int | None:
    """The size in bytes of a pointer argument, where it is known."""
    nbytes = getattr(obj, "nbytes", None)
    if isinstance(nbytes, int):
        return nbytes
    if type(obj).__module__.startswith("pyopencl"):  # pyopencl.Buffer: size in bytes
        size = getattr(obj, "size", None)
        return size if isinstance(size, int) else None
    return None


class BoundsCheck(Protocol):
    """``check(env, args)``: raise ArgumentError where a buffer is smaller than an access
    of the launch reaches; with what a launcher's inline test reads (below)."""

    names: set[str]  # the scalar parameters ``env`` must hold
    key_names: list[str]  # the same, in the order of the memo key
    pointers: list[int]  # the pointer parameters checked (indices)
    needs: dict[tuple, tuple[int, ...]]  # memo key -> bytes each of ``pointers`` needs

    def __call__(self, env: dict, args) -> None: ...


def bounds_check(spec) -> BoundsCheck | None:
    """``check(env, args)`` for a kernel spec with derived bounds, else None."""
    if not spec.bounds_src:
        return None
    namespace: dict[str, Any] = dict(NAMES)
    exec(compiled(spec.bounds_src, f"<okl bounds of {spec.name}>"), namespace)  # noqa: S102
    exec_fn = namespace["_bounds"]  # generated by okl.transforms.index_bounds, never user text
    params = spec.params
    accesses = spec.bounds
    names = spec.bounds_names
    itemsize = {p: params[p].dtype.itemsize for p, _, _ in accesses}
    pointers = sorted(itemsize)
    memo: dict[tuple, list[tuple[int, int, int, int]]] = {}  # scalar values -> what to compare
    needs: dict[tuple, tuple[int, ...]] = {}  # scalar values -> bytes per pointer parameter

    def worst(key: tuple, env: dict) -> list[tuple[int, int, int, int]]:
        """(parameter, bytes needed, largest index, access) per parameter: the function runs
        once per distinct set of scalar values (a launch loop repeats them)."""
        most: dict[int, tuple[int, int]] = {}
        for k, top in enumerate(exec_fn(env)):
            if top is not None:
                p = accesses[k][0]
                if p not in most or top > most[p][0]:
                    most[p] = (top, k)
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
            needs.clear()
        found = memo[key] = [(p, (top + 1) * itemsize[p], top, k)
                             for p, (top, k) in sorted(most.items())]
        need = {p: n for p, n, _, _ in found}
        needs[key] = tuple(need.get(p, 0) for p in pointers)
        return found

    def check(env: dict, args) -> None:
        key = tuple([env[n] for n in names])
        found = memo.get(key)
        if found is None:
            found = worst(key, env)
        for p, need, top, k in found:
            nbytes = getattr(args[p], "nbytes", None)  # numpy, okl.Memory, CuPy: an int
            if nbytes.__class__ is not int:
                nbytes = buffer_bytes(args[p])
                if nbytes is None:
                    continue
            if nbytes < need:
                _refuse(spec, p, top, accesses[k], nbytes // itemsize[p], env, args[p])

    out = cast(BoundsCheck, check)
    out.names = set(names)
    #: for a launcher's inline test: the scalar names of the key (in order), the pointer
    #: parameters (indices), and key -> the bytes each of those needs (0: not read)
    out.key_names, out.pointers, out.needs = list(names), pointers, needs
    return out


def _refuse(spec, p: int, top: int, access: list, count: int, env: dict, obj) -> None:
    param = spec.params[p]
    _, text, where = access
    values = ", ".join(f"{n}={env[n]}" for n in spec.bounds_names)
    raise ArgumentError(
        f"kernel {spec.name!r} argument {p + 1} {param.name!r} ({param.c_type}): the launch "
        f"would read or write {param.name}[{top}] ({text} at {where}"
        f"{' with ' + values if values else ''}), past the end of the {_typename(obj)} of "
        f"{count} element{'s' if count != 1 else ''} — pass an array of at least {top + 1} "
        "elements or smaller sizes")


def _typename(obj) -> str:
    t = type(obj)
    module = t.__module__.split(".")[0]
    return f"okl.{t.__qualname__}" if module == "okl" else f"{module}.{t.__qualname__}"
