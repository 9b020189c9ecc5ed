"""Launch arguments: check every argument against the kernel's parameters and convert scalars.

Peer runtimes corrupt arguments silently (CuPy passes a Python float as a double to a ``float``
parameter; ctypes wraps 3e9 into a negative ``int``; a strided view is read as if contiguous).
Here every argument is checked against the C signature before a launch, conversions are exact
or rejected, and each error says which argument, what was expected, what arrived and what to do::

    kernel 'axpy' argument 3 'alpha' (float): got numpy.float64 0.1 — pass numpy.float32(x) or
    a Python float

Parameters are any objects with ``name``, ``c_type``, ``dtype`` (value dtype, pointee dtype for
pointers, a structured dtype for structs, None for ``void *``), ``is_pointer`` and ``is_const``.
Argument positions (``index``) are 1-based, as shown in messages.

The rules for scalars:

- Python ``int`` -> any integer type, range-checked; also -> a floating type if exactly
  representable. Python ``float`` -> a floating type (rounded, like a C literal; a finite value
  beyond the type's range is an error). Python ``bool`` -> ``bool`` or an integer type.
- A float is never converted to an integer parameter, even 2.0.
- A numpy scalar of exactly the parameter's dtype is taken as is; another numpy dtype only if
  ``numpy.can_cast(from, to, "same_kind")`` and the value survives the conversion exactly.
- A struct takes a numpy structured scalar (or 0-d / 1-element array) whose layout matches the
  C struct field by field, or a dict / tuple of field values converted by the rules above.

The rule for arrays of vector types (a ``double4 *`` parameter): the element is CUDA's vector,
``n`` components x, y, z, w of one scalar type with no padding (okl.model.types.vector_descr).
Two kinds of arrays hold exactly that memory, and both are accepted: a structured array with
those fields at those offsets (``numpy.dtype([("x", "f8"), ("y", "f8"), ("z", "f8"),
("w", "f8")])``), and an array of the component type, ``n`` values per element (``(m, 4)``
float64 for ``double4``; its size is not checked, as no pointer argument's is).  A struct
with the same fields is the same memory, so it is treated the same way.

For speed, :func:`make_converters` resolves everything that depends only on the parameter once,
when a kernel is built; a launch then runs one small closure per argument.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import ArgumentError

__all__ = [
    "NULL", "ArrayInfo", "bind_args", "check_array", "check_count", "convert_scalar",
    "make_converters",
]


class _Null:
    """The type of :data:`NULL`: one instance, compared by identity."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "okl.NULL"

    def __reduce__(self) -> str:
        return "NULL"


#: A null pointer argument, passed on purpose.  ``None`` is refused for pointer parameters:
#: it is far more often a forgotten buffer than a wanted NULL, and a kernel that reads through
#: NULL kills the interpreter.
NULL = _Null()


@dataclass(slots=True)  # not frozen: frozen dataclasses are 4x slower to create, once per launch
class ArrayInfo:
    """What the checks need to know about a memory argument; backends build one per argument.

    ``dtype`` None marks untyped memory (a raw OpenCL buffer), accepted for any pointee type.
    ``kind`` says where the memory lives ("host", "cuda", "opencl", "hip") and ``device`` is an
    identity that the backend compares with ``==`` (a device ordinal, a ``cl.Context``...).
    ``typename`` names the object in messages ("numpy.ndarray", "okl.Memory", "cupy.ndarray").
    Treat it as immutable: a converter remembers the last one that passed, by identity, so a
    backend may hand out one cached ArrayInfo per memory object and skip the checks on reuse.
    """

    dtype: np.dtype | None
    c_contiguous: bool
    readonly: bool
    kind: str = "host"
    device: object | None = None
    typename: str = "numpy.ndarray"
    freed: bool = False  # an okl.Memory after Memory.free(): refused

    @classmethod
    def from_numpy(cls, a: np.ndarray) -> ArrayInfo:
        return cls(a.dtype, a.flags.c_contiguous, not a.flags.writeable, "host", None,
                   _typename(a))


# -- messages ---------------------------------------------------------------------------------

def _fail(kernel: str, index: int, param, got: str, hint: str) -> ArgumentError:
    return ArgumentError(
        f"kernel {kernel!r} argument {index} {param.name!r} ({param.c_type}): got {got} — {hint}")


def _typename(value) -> str:
    return _type_text(type(value))  # type: ignore[arg-type]  # (typeshed: a class unhashable)


@functools.cache
def _type_text(t: type) -> str:
    module = t.__module__.split(".")[0]
    return t.__qualname__ if module == "builtins" else f"{module}.{t.__qualname__}"


@functools.cache
def _int_limits(dt: np.dtype) -> tuple[int, int]:
    info = np.iinfo(dt)
    return int(info.min), int(info.max)


@functools.cache
def _float_max(dt: np.dtype) -> float:
    """A Python float, so that comparisons with it are exact and never cast anything."""
    return float(np.finfo(dt).max)


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _dtype_text(dt: np.dtype) -> str:
    if dt.fields is not None:
        return f"a struct of {dt.itemsize} bytes"
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        return _dtype_text(base) + "".join(f"[{n}]" for n in shape)
    if dt.isnative:
        return dt.name
    return f"{dt.name} ({'big' if dt.byteorder == '>' else 'little'}-endian)"


def _got(value) -> str:
    """What was received, for messages: the type, and the value when it is short."""
    if value is None:
        return "None"
    if isinstance(value, np.ndarray):
        return f"{_typename(value)} of {_dtype_text(value.dtype)} with shape {value.shape}"
    if isinstance(value, np.void):
        return f"{_typename(value)} of {_dtype_text(value.dtype)}"
    if isinstance(value, (bool, int, float, np.generic)):
        return f"{_typename(value)} {_short(str(value))}"
    if isinstance(value, (list, tuple)):
        return f"{_typename(value)} of {len(value)} item{'s' if len(value) != 1 else ''}"
    return _typename(value)


def _hint(dt: np.dtype) -> str:
    """What to pass for a parameter of this dtype."""
    if dt.kind == "b":
        return "pass True or False"
    if dt.kind in "iu":
        return f"pass a Python int or numpy.{dt.name}(x)"
    if dt.kind == "f":
        if dt == np.float64:
            return "pass a Python float or numpy.float64(x)"
        return f"pass numpy.{dt.name}(x) or a Python float"
    if dt.fields is not None:
        return ("pass a numpy scalar of the struct's dtype, a dict of its fields or a tuple of "
                "their values")
    return "pass a value of the declared type"


# -- scalars ----------------------------------------------------------------------------------

class _Reject(Exception):
    """A conversion failed; carries the halves of the message and, inside a struct, the path
    and type of the field that failed."""

    def __init__(self, got: str, hint: str, field: str = "", ftype: str = ""):
        super().__init__(got, hint)
        self.got, self.hint, self.field, self.ftype = got, hint, field, ftype


def convert_scalar(value, param, index: int, kernel: str) -> np.ndarray:
    """Convert a by-value argument to a 0-d array of exactly ``param.dtype``, or raise
    :class:`ArgumentError`. ``index`` is the 1-based argument position."""
    try:
        return _convert(value, param.dtype)
    except _Reject as r:
        got = f"{r.got} for field '{r.field}' ({r.ftype})" if r.field else r.got
        raise _fail(kernel, index, param, got, r.hint) from None


def _convert(value, dt: np.dtype | None) -> np.ndarray:
    if dt is None or (dt.kind not in "biuf" and dt.fields is None):
        raise _Reject(_got(value), "okl does not know how to pass a value of this type")
    if dt.fields is not None:
        return _convert_struct(value, dt)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, np.generic):
        return _convert_numpy(value, dt)
    if isinstance(value, bool):
        if dt.kind not in "biu":
            raise _Reject(_got(value), _hint(dt))
        return np.array(value, dt)
    if isinstance(value, int):
        return _convert_int(value, dt, value)
    if isinstance(value, float):
        if dt.kind != "f":
            raise _Reject(_got(value), "a float is never converted to an integer parameter; "
                                       "pass int(x) if truncation is what you want"
                          if dt.kind in "iu" else _hint(dt))
        _check_float_range(value, dt, value)
        return np.array(value, dt)
    raise _Reject(_got(value), _hint(dt))


def _convert_int(value: int, dt: np.dtype, orig) -> np.ndarray:
    """An exact Python int into an integer type (range-checked) or a floating type (exact).
    ``orig`` is what the caller passed, for the message."""
    if dt.kind in "iu":
        lo, hi = _int_limits(dt)
        if not lo <= value <= hi:
            raise _Reject(_got(orig), f"out of range for {dt.name} ({lo}..{hi}); pass a value "
                                      "in range or declare the parameter with a wider type")
        return np.array(value, dt)
    if dt.kind == "f":
        _check_float_range(value, dt, orig)
        out = np.array(value, dt)
        if int(out[()]) != value:  # exact: both sides are Python ints
            raise _Reject(_got(orig), f"{dt.name} cannot hold it exactly; pass "
                                      f"numpy.{dt.name}(x) to accept the rounding")
        return out
    raise _Reject(_got(orig), _hint(dt))


def _check_float_range(value: int | float, dt: np.dtype, orig) -> None:
    """A finite value beyond the type's range would become inf: reject it instead of letting
    numpy overflow (which only warns)."""
    limit = _float_max(dt)
    if abs(value) > limit and (isinstance(value, int) or math.isfinite(value)):
        raise _Reject(_got(orig), f"out of range for {dt.name} (largest {limit:.7g})")


def _convert_numpy(value: np.generic, dt: np.dtype) -> np.ndarray:
    src = value.dtype
    if src == dt:
        return np.array(value, dt)
    if not np.can_cast(src, dt, "same_kind"):
        raise _Reject(_got(value), f"{src.name} is not converted to {dt.name} implicitly "
                                   f"(not the same kind); {_hint(dt)}")
    if src.kind in "biu":  # integers and bools convert exactly through a Python int
        return _convert_int(int(value), dt, value)
    if src.itemsize <= 8:  # half, float and double convert exactly to a Python float
        v = float(value)
        _check_float_range(v, dt, value)
        out = np.array(v, dt)
        exact = float(out[()]) == v or v != v  # NaN stays NaN
    else:  # long double: compare in its own precision
        limit = src.type(np.finfo(dt).max)
        if np.isfinite(value) and np.abs(value) > limit:
            raise _Reject(_got(value), f"out of range for {dt.name} (largest {limit:.7g})")
        out = np.array(value, dt)
        back = out.astype(src)[()]
        exact = back == value or (np.isnan(back) and np.isnan(value))
    if not exact:
        raise _Reject(f"{_got(value)}, which {dt.name} cannot hold exactly", _hint(dt))
    return out


# -- structs ----------------------------------------------------------------------------------

def _struct(dt: np.dtype) -> tuple[tuple[str, ...], Mapping[str, tuple]]:
    """A struct dtype's field names and fields (name -> (dtype, offset[, title]))."""
    names, fields = dt.names, dt.fields
    if names is None or fields is None:
        raise TypeError(f"{dt} is not a struct dtype")
    return names, fields


def _layout_mismatch(src: np.dtype, dst: np.dtype, prefix: str = "") -> str | None:
    """The first difference between two struct layouts (``dst``: the C struct's), in words,
    or None if they match."""
    what = f"field '{prefix[:-1]}' is" if prefix else "dtype is"
    if src.fields is None:
        return f"{what} {_dtype_text(src)}, not a struct"
    if src.itemsize != dst.itemsize:
        what = f"field '{prefix[:-1]}' is" if prefix else "size is"
        return f"{what} {src.itemsize} bytes, the C struct's is {dst.itemsize}"
    src_names, src_fields = _struct(src)
    dst_names, dst_fields = _struct(dst)
    for name in dst_names:
        if name not in src_fields:
            return f"field '{prefix}{name}' is missing"
    for name in src_names:
        if name not in dst_fields:
            return f"field '{prefix}{name}' is not in the C struct"
    for name in dst_names:
        sdt, soff = src_fields[name][:2]
        ddt, doff = dst_fields[name][:2]
        if soff != doff:
            return f"field '{prefix}{name}' is at offset {soff}, the C struct has it at {doff}"
        if ddt.fields is not None:
            inner = _layout_mismatch(sdt, ddt, f"{prefix}{name}.")
            if inner:
                return inner
        elif sdt != ddt:
            return f"field '{prefix}{name}' is {sdt}, the C struct has {ddt}"
    return None


def _convert_struct(value, dt: np.dtype) -> np.ndarray:
    if isinstance(value, (np.void, np.ndarray)):
        got = _got(value)
        if isinstance(value, np.ndarray) and (value.ndim > 1 or value.size != 1):
            raise _Reject(got, "pass one struct (a 0-d or 1-element array), or a pointer "
                               "parameter for many")
        mismatch = _layout_mismatch(value.dtype, dt)
        if mismatch:
            what = _typename(value)
            if isinstance(value, np.ndarray):
                what += f" with shape {value.shape}"
            raise _Reject(f"{what} whose {mismatch}",
                          "build the dtype like the C struct: numpy.dtype(fields, align=True)")
        return np.frombuffer(bytearray(value.tobytes()), dt).reshape(())  # a private copy
    names, fields = _struct(dt)
    if isinstance(value, dict):
        unknown = [k for k in value if k not in fields]
        if unknown:
            raise _Reject(f"dict with field {unknown[0]!r}, which the struct does not have",
                          f"its fields are {', '.join(names)}")
        missing = [n for n in names if n not in value]
        if missing:
            raise _Reject(f"dict without field {missing[0]!r}",
                          f"give every field: {', '.join(names)}")
        items = [(n, value[n]) for n in names]
    elif isinstance(value, tuple):
        if len(value) != len(names):
            raise _Reject(_got(value),
                          f"the struct has {len(names)} fields ({', '.join(names)})")
        items = list(zip(names, value, strict=True))
    else:
        raise _Reject(_got(value), _hint(dt))
    out = np.zeros((), dt)
    for name, v in items:
        fdt = fields[name][0]
        try:
            out[name] = _convert_field(v, fdt)
        except _Reject as r:
            path = f"{name}.{r.field}" if r.field else name
            raise _Reject(r.got, r.hint, path, r.ftype or _dtype_text(fdt)) from None
    return out


def _convert_field(value, fdt: np.dtype):
    """A field: a scalar or struct, or for an array member a sequence of the member's shape."""
    if fdt.subdtype is None:
        return _convert(value, fdt)
    base, shape = fdt.subdtype
    arr = np.empty(shape, base)
    _fill(arr, value, base, shape)
    return arr


def _fill(arr: np.ndarray, value, base: np.dtype, shape: tuple[int, ...]) -> None:
    if isinstance(value, np.ndarray) and value.shape != shape:
        raise _Reject(_got(value), f"pass a sequence of shape {shape}")
    if not isinstance(value, (list, tuple, np.ndarray)) or len(value) != shape[0]:
        raise _Reject(_got(value), f"pass a sequence of shape {shape}")
    for i, v in enumerate(value):
        if len(shape) > 1:
            _fill(arr[i], v, base, shape[1:])
        else:
            arr[i] = _convert(v, base)


# -- arrays -----------------------------------------------------------------------------------

def check_array(info: ArrayInfo | None, param, index: int, kernel: str, *,
                expected_kind: str = "host", expected_device: object | None = None) -> None:
    """Check a memory argument for a pointer parameter; ``info`` None (okl.NULL, already
    told apart from None by the converter) is always accepted.

    ``expected_kind``/``expected_device`` describe where the kernel runs; ``expected_device``
    None accepts any device of that kind.
    """
    if info is None:
        return
    if info.freed:
        raise _fail(kernel, index, param, f"an {info.typename} that was freed (Memory.free())",
                    "its memory is released; allocate a new buffer")
    if info.kind != expected_kind:
        got = f"a host {info.typename}" if info.kind == "host" else \
            f"{info.typename} in {info.kind} memory"
        if info.kind == "host":
            hint = f"kernels in {expected_kind} mode cannot read host memory; copy it first " \
                   "with dev.asarray(x)"
        elif expected_kind == "host":
            hint = f"the kernel runs on the host and cannot read {info.kind} memory; copy it " \
                   "to the host first with dev.asarray(x) (or x.get())"
        else:
            hint = f"kernels in {expected_kind} mode cannot read {info.kind} memory; pass " \
                   "memory of this kernel's device"
        raise _fail(kernel, index, param, got, hint)
    if expected_device is not None and info.device != expected_device:
        raise _fail(kernel, index, param, f"{info.typename} on device {info.device!r}",
                    f"the kernel runs on device {expected_device!r}; copy it with "
                    "dev.asarray(x)")
    want = param.dtype
    if want is not None and info.dtype is not None and want != info.dtype:
        have = np.dtype(info.dtype)
        component = vector_component(want)
        if component is not None:
            mismatch = _layout_mismatch(have, want) if have != component else None
            if mismatch:
                got = f"{info.typename} whose {mismatch}" if have.fields is not None else \
                    f"{info.typename} of {_dtype_text(have)}"
                raise _fail(kernel, index, param, got,
                            f"pass an array of numpy.{component.name}, {len(want.names)} "
                            f"values per element, or of the dtype {_fields_text(want)}")
        elif want.fields is not None:
            mismatch = _layout_mismatch(have, want)
            if mismatch:
                raise _fail(kernel, index, param, f"{info.typename} whose {mismatch}",
                            "build the dtype like the C struct: numpy.dtype(fields, align=True)")
        else:
            raise _fail(kernel, index, param, f"{info.typename} of {_dtype_text(have)}",
                        f"pass an array of {want.name} (x.astype(numpy.{want.name}) makes a "
                        "converted copy)")
    if info.readonly and not param.is_const:
        raise _fail(kernel, index, param, f"a read-only {info.typename}",
                    "the pointer is not const, so the kernel may write through it; pass a "
                    "writable array (x.copy()) or declare the parameter const")
    if not info.c_contiguous:
        raise _fail(kernel, index, param, f"a non-contiguous {info.typename} (a strided view)",
                    "kernels index memory linearly; pass a contiguous copy "
                    "(numpy.ascontiguousarray(x))")


def vector_component(dt: np.dtype) -> np.dtype | None:
    """The component dtype if ``dt`` is laid out like a vector type (fields x, y[, z[, w]] of
    one scalar dtype, packed), else None."""
    if dt.names is None or "".join(dt.names) not in ("xy", "xyz", "xyzw"):
        return None
    names, fields = _struct(dt)
    component = fields["x"][0]
    packed = all(fields[f][:2] == (component, k * component.itemsize)
                 for k, f in enumerate(names))
    if not packed or component.kind not in "iuf" or dt.itemsize != len(names) * \
            component.itemsize:
        return None
    return component


def _fields_text(dt: np.dtype) -> str:
    names, fields = _struct(dt)
    return "[" + ", ".join(f"({f!r}, {fields[f][0].name!r})" for f in names) + "]"


def _describe_host(value) -> ArrayInfo | None:
    if isinstance(value, ArrayInfo):
        return value
    if isinstance(value, np.ndarray):
        return ArrayInfo.from_numpy(value)
    return None


# -- counts and binding -----------------------------------------------------------------------

def _signature(params: Sequence, kernel: str) -> str:
    def one(p):
        sep = "" if p.c_type.endswith("*") else " "
        return f"{p.c_type}{sep}{p.name}"
    return f"{kernel}({', '.join(one(p) for p in params)})"


def check_count(args: Sequence, params: Sequence, kernel: str) -> None:
    """The number of arguments must equal the number of parameters."""
    if len(args) != len(params):
        n = len(params)
        raise ArgumentError(
            f"kernel {kernel!r} takes {n} argument{'s' if n != 1 else ''}, got {len(args)} — "
            f"call it as {_signature(params, kernel)}")


def bind_args(args: Sequence, kwargs: dict[str, Any], params: Sequence, kernel: str) -> list:
    """Positional plus keyword arguments (by OKL parameter name) as one positional list."""
    if not kwargs:
        check_count(args, params, kernel)
        return list(args)
    if len(args) > len(params):
        check_count(args, params, kernel)
    names = [p.name for p in params]
    bound = dict(zip(names, args, strict=False))
    for name, value in kwargs.items():
        if name not in names:
            raise ArgumentError(f"kernel {kernel!r} has no parameter {name!r} — "
                                f"call it as {_signature(params, kernel)}")
        if name in bound:
            raise ArgumentError(f"kernel {kernel!r} got argument {name!r} twice "
                                "(by position and by keyword)")
        bound[name] = value
    missing = [n for n in names if n not in bound]
    if missing:
        raise ArgumentError(f"kernel {kernel!r} is missing argument {missing[0]!r} — "
                            f"call it as {_signature(params, kernel)}")
    return [bound[n] for n in names]


# -- converters built once per kernel ---------------------------------------------------------

def make_converters(params: Sequence, kernel: str, *, expected_kind: str = "host",
                    expected_device: object | None = None,
                    describe: Callable[[Any], ArrayInfo | None] = _describe_host,
                    ) -> list[Callable[[Any], Any]]:
    """One closure per parameter, built when the kernel is built.

    A scalar parameter's closure returns the 0-d array from :func:`convert_scalar` (with fast
    paths for the common exact cases). A pointer parameter's closure checks the argument with
    :func:`check_array` and returns the argument itself, for the backend to take its address;
    ``describe(obj)`` gives the backend's :class:`ArrayInfo` for an object, or None when it does
    not recognise it (the default knows numpy arrays and ArrayInfo itself).
    """
    return [_pointer_converter(p, i, kernel, expected_kind, expected_device, describe)
            if p.is_pointer else _scalar_converter(p, i, kernel)
            for i, p in enumerate(params, 1)]


def _pointer_converter(param, index, kernel, expected_kind, expected_device, describe):
    passed = [None]  # the last ArrayInfo that passed: okl.Memory hands out the same one

    def convert(value):
        if value is NULL:
            return None
        if value is None:
            raise _fail(kernel, index, param, "None",
                        "pass an array, or okl.NULL for a null pointer on purpose")
        info = describe(value)
        if info is passed[0] and info is not None:
            return value
        if info is None:
            raise _fail(kernel, index, param, _got(value),
                        "pass an array (numpy.ndarray, okl.Memory) or okl.NULL; another "
                        "library's array becomes an okl.Memory with dev.asarray(x), shared "
                        "without a copy where the memory allows")
        check_array(info, param, index, kernel, expected_kind=expected_kind,
                    expected_device=expected_device)
        passed[0] = info
        return value
    return convert


def _scalar_converter(param, index, kernel):
    dt = param.dtype

    def slow(value):
        return convert_scalar(value, param, index, kernel)

    if dt is None or dt.kind not in "iuf":
        return slow
    exact = dt.type  # numpy scalars are native-endian, so this type means exactly this dtype
    array = np.array
    if dt.kind in "iu":
        lo, hi = _int_limits(dt)

        def convert_int(value):
            t = type(value)
            if t is int and lo <= value <= hi:
                return array(value, dt)
            if t is exact:
                return array(value, dt)
            return slow(value)
        return convert_int

    limit = _float_max(dt)

    def convert_float(value):
        t = type(value)
        if t is float and -limit <= value <= limit:
            return array(value, dt)
        if t is exact:
            return array(value, dt)
        return slow(value)
    return convert_float
