"""The per-call launch paths.

``gpu_launcher``: the general GPU path (host code, grid sizes, then one enqueue per device
kernel), used by OpenCL, by CuPy launches and for kernels whose host code does more than
launch one device kernel.  Converters and compiled grid functions are prepared once per
kernel, and a kernel whose host code only launches its one device kernel (the common case)
skips the host function altogether.

``compile_caller``: the fast path of the CPU modes and of CUDA launches through the driver.
For each kernel it generates one Python function that checks and converts every argument and
writes what the C side reads -- an array of ``void *`` slots followed by inline storage for
scalars (and, for CUDA, device pointers) -- into a ctypes buffer with one ``struct.pack_into``,
then hands the buffer's address to the backend.  The common arguments
take direct checks (a Python ``int`` in range, a Python ``float`` in range, a numpy array of
exactly the parameter's dtype that is C-contiguous and writable, an ``okl.Memory`` that passed
before); anything else goes through the kernel's converters from ``okl.runtime.launch.args``, so
every error message is the one the general path gives.  Buffers come from a per-kernel pool
(``list.pop``/``append``, atomic under the GIL), so two threads launching one kernel at once
never share one; a buffer goes back once the backend has read it (CUDA copies
``kernelParams`` at ``cuLaunchKernel``, the CPU entry returns when the kernel has run).  A slot
that points into the buffer's own inline storage is written once, when the buffer is made:
on CUDA every slot is such, so a launch packs only the argument values.  (Making a ctypes
buffer and taking its address per call, then packing the slots, was a quarter of the Python
time of a CUDA launch.)
"""

from __future__ import annotations

import ctypes
import functools
import platform
import re
import struct
import weakref
from typing import Any, Literal

import numpy as np

from ..memory import Memory
from ..stream import launch_on, takes_stream
from .args import NULL, bind_args, vector_component
from .bounds_check import MEMO_LIMIT, bounds_check
from .hostrun import RUNTIME_NAMES, compile_function, compiled

_TRIVIAL_HOST = re.compile(r"def _host\([^)]*\):\n    _launch\(0, \{[^\n]*\}\)\n")


def trivial_host(spec) -> bool:
    """The host code only launches device kernel 0, which captures no host variable."""
    return bool(spec.device_kernels) and bool(_TRIVIAL_HOST.fullmatch(spec.host_src)) and \
        not spec.device_kernels[0].captured


def gpu_launcher(spec, pointer_value, scalar_value, enqueue):
    """Build `launch(args, values)`.

    pointer_value(v) and scalar_value(v) turn a converted argument into what the backend's
    enqueue takes; enqueue(k, outer, inner, raw_args) starts device kernel k.
    """
    dims = [compile_function(d.dims_src, "_dims", f"<okl grid of {d.name}>")
            for d in spec.device_kernels]
    pointer = [p.is_pointer for p in spec.params]
    scalars = [(i, p.name) for i, p in enumerate(spec.params) if not p.is_pointer]
    captured = [[(c.name, c.dtype) for c in d.captured] for d in spec.device_kernels]
    bounds = bounds_check(spec)

    def convert(values):
        return [pointer_value(v) if pointer[i] else scalar_value(v)
                for i, v in enumerate(values)]

    if trivial_host(spec):
        dims0 = dims[0]

        def launch(args, values):
            raw = convert(values)
            env = {name: _host_value(values[i]) for i, name in scalars}
            if bounds is not None:
                bounds(env, args)
            outer, inner = dims0(env)
            if min(outer) > 0 and min(inner) > 0:
                enqueue(0, outer, inner, raw)
        return launch

    host = compile_function(spec.host_src, "_host", f"<okl host code of {spec.name}>")

    def launch(args, values):
        raw = convert(values)
        if bounds is not None:
            bounds({name: _host_value(values[i]) for i, name in scalars}, args)

        def start(k, env):
            outer, inner = dims[k](env)
            if min(outer) > 0 and min(inner) > 0:
                extra = [scalar_value(np.array(env[name], dt)) for name, dt in captured[k]]
                enqueue(k, outer, inner, raw + extra)

        host(*[None if pointer[i] else _host_value(v) for i, v in enumerate(values)], start)
    return launch


def _host_value(v: np.ndarray):
    return v.item() if v.dtype.fields is None else v


# -- numpy data pointers ----------------------------------------------------------------------

def _data_pointer_reader():
    """``(read, offset)`` such that ``read(id(a) + offset).value`` is ``a.ctypes.data``, or
    None where that cannot be relied on.

    ``a.ctypes.data`` and ``a.__array_interface__['data'][0]`` each build Python objects
    (about 1 us); a numpy array object starts with the PyObject header followed by its data
    pointer (``PyArrayObject_fields.data``, numpy's public C layout), which ctypes reads in
    about 0.13 us.  Used only on CPython, and only after checking the reading against
    ``ctypes.data`` on arrays made several ways; otherwise callers use ``ctypes.data``.
    """
    if platform.python_implementation() != "CPython":
        return None
    read = ctypes.c_size_t.from_address
    offset = ctypes.sizeof(ctypes.c_ssize_t) + ctypes.sizeof(ctypes.c_void_p)
    frozen = np.arange(5.0)
    frozen.flags.writeable = False
    probes = [np.empty(7, np.float32), np.zeros((3, 4))[1:, ::2], frozen, np.array(2.5),
              np.frombuffer(bytearray(24), np.int64), np.empty(0), np.zeros((), [("a", "i4")]),
              np.ones(9, np.int8)[3:]]
    try:
        if all(read(id(p) + offset).value == p.ctypes.data for p in probes):
            return read, offset
    except Exception:  # an unusual interpreter: keep the documented way
        pass
    return None


_READER = _data_pointer_reader()


def array_address(a: np.ndarray) -> int:
    """The address of a numpy array's first element."""
    if _READER is not None:
        return _READER[0](id(a) + _READER[1]).value
    return a.ctypes.data


def _address_expr(var: str) -> str:
    """Python source for the data address of the numpy array named ``var``."""
    return f"_rd(_id({var}) + _OFF).value" if _READER is not None else f"{var}.ctypes.data"


# -- the generated fast path ------------------------------------------------------------------

_INT_CODES = {1: "b", 2: "h", 4: "i", 8: "q"}
_ENV_LOAD = re.compile(r"_env\[(['\"])(\w+)\1\]")
_NOT_YET = object()  # what a parameter's "Memory that passed" memo holds before the first


def inline_code(dt: np.dtype | None) -> str | None:
    """The ``struct`` code that stores a scalar of ``dt`` exactly, for the types that have a
    fast path (integers, float, double), or None."""
    if dt is None or dt.fields is not None or dt.subdtype is not None or not dt.isnative:
        return None
    if dt.kind in "iu" and dt.itemsize in _INT_CODES:
        code = _INT_CODES[dt.itemsize]
        code = code.upper() if dt.kind == "u" else code
    elif dt.kind == "f" and dt.itemsize in (4, 8):
        code = "f" if dt.itemsize == 4 else "d"
    else:
        return None
    return code if struct.calcsize("@" + code) == dt.itemsize else None


def env_names(sources) -> set[str] | None:
    """The ``_env`` entries that generated grid/limit functions read; None: possibly all."""
    names: set[str] = set()
    for src in sources:
        names.update(m.group(2) for m in _ENV_LOAD.finditer(src))
        if src.count("_env") != len(_ENV_LOAD.findall(src)) + src.count("(_env)"):
            return None
    return names


def _memo_info(x: str) -> str:
    """The ArrayInfo a Memory remembered (Memory.info), read without a method call; a
    Memory that has none yet, or was freed, takes the checked path."""
    return f"{x}.__dict__.get('_info')"


def compile_caller(kernel, *, device_pointers: bool, pointer_value, memo_key: str,
                   tail: list[str], names: dict,
                   env: set[str] | None | Literal[False] = False,
                   array_type: type | None = None):
    """Generate ``call(*args, **kwargs)`` for ``kernel`` (see the module docstring).

    ``device_pointers``: False -- slot i of a pointer parameter holds the host address of the
    data (the CPU entry's ``void **args``); True -- slot i points at inline storage holding
    the device pointer (CUDA's ``kernelParams``).  ``pointer_value(value)`` gives that address
    or device pointer for an argument the converter accepted (not None); for an
    ``okl.Memory`` it is also remembered in the Memory's ``__dict__[memo_key]`` so that the
    next call with the same Memory needs no check at all.  ``tail``: source lines (indented
    four spaces) run after the buffer is written, with ``_buf``, ``_base`` (its address) and,
    when ``env`` is not False, ``_env`` (the scalar values by name, as the grid functions
    take them; ``env`` names the ones needed, None for all) and ``_ek`` (those values as a
    tuple, a memo key).  ``names``: what ``tail`` uses.
    ``array_type``: a device array type whose objects never change dtype, layout or address
    (cupy.ndarray); each pointer parameter remembers, by weak reference, the last one that
    passed the checks, with its pointer.
    """
    params = kernel.spec.params  # the hidden ones of checked mode too
    converters = kernel._convert
    n = len(params)
    ns: dict[str, Any] = dict(RUNTIME_NAMES)
    ns.update(names)
    bounds = bounds_check(kernel.spec)
    sized: set[int] = set()  # pointer parameters whose size the inline bounds test reads
    if bounds is not None:  # checked after the arguments, before the launch in ``tail``
        ns["_bounds"] = bounds
        env = None if env is None else set(env or ()) | bounds.names
        sized = set(bounds.pointers)
    ns.update({"_addressof": ctypes.addressof, "_id": id, "_nd": np.ndarray, "_Mem": Memory,
               "_mk": memo_key, "_NULL": NULL})
    if _READER is not None:
        ns["_rd"], ns["_OFF"] = _READER
    lines: list[str] = []
    slots: list[str] = []
    inline: list[tuple[str, str, int]] = []  # (struct code, value expression, param index)
    env_items: list[str] = []
    for i, p in enumerate(params):
        x = f"x{i}"
        ns[f"_c{i}"] = converters[i]
        if p.is_pointer:
            ok = ns[f"_ok{i}"] = [_NOT_YET]
            last = ns[f"_la{i}"] = [(_dead, 0)]
            ns[f"_p{i}"] = _pointer_slow(converters[i], pointer_value, memo_key, ok,
                                         array_type, last)
            target = f"v{i}" if device_pointers else f"s{i}"
            if not device_pointers:
                test = [f"type({x}) is _nd"]
                if p.dtype is not None:
                    ns[f"_d{i}"] = p.dtype
                    component = vector_component(p.dtype)
                    if component is None:
                        test.append(f"((d := {x}.dtype) is _d{i} or d == _d{i})")
                    else:  # a vector type's pointer takes its component's arrays too
                        ns[f"_e{i}"] = component  # (check_array): airfoil's double4 rows
                        test.append(f"((d := {x}.dtype) is _e{i} or d is _d{i} or d == _d{i})")
                test.append(f"(f := {x}.flags).c_contiguous")
                if not p.is_const:
                    test.append("f.writeable")
                lines += [f"    if {' and '.join(test)}:",
                          f"        {target} = {_address_expr(x)}"]
                if i in sized:
                    lines.append(f"        nb{i} = {x}.nbytes")
                lines.append(f"    elif type({x}) is _Mem and {_memo_info(x)} is _ok{i}[0]:")
            else:
                lines.append(f"    if type({x}) is _Mem and {_memo_info(x)} is _ok{i}[0]:")
            lines.append(f"        {target} = {x}.__dict__[_mk]")
            if i in sized:
                lines.append(f"        nb{i} = {x}.nbytes")
            if array_type is not None:
                ns["_Arr"] = array_type
                lines += [f"    elif type({x}) is _Arr and (w := _la{i}[0])[0]() is {x}:",
                          f"        {target} = w[1]"]
                if i in sized:
                    lines.append(f"        nb{i} = {x}.nbytes")
            lines += [f"    elif {x} is _NULL:",
                      f"        {target} = 0",
                      "    else:",
                      f"        {target} = _p{i}({x})"]
            if i in sized:  # anything else: the full check (bounds.buffer_bytes)
                lines[-3:-3] = [f"        nb{i} = -1"]
                lines.append(f"        nb{i} = -1")
            if device_pointers:
                inline.append(("Q", f"v{i}", i))
                slots.append(f"_base + _o{i}")
            else:
                slots.append(f"s{i}")
            continue
        dt = p.dtype
        code = inline_code(dt)
        wanted = env is not False and (env is None or p.name in env)
        if code == "f" and wanted:
            code = None  # the grid needs the value as rounded to float: take the general path
        if code is None:
            lines.append(f"    k{i} = _c{i}({x})")
            slots.append(_address_expr(f"k{i}"))
            if wanted:
                env_items.append(f"{p.name!r}: k{i}.item()" if dt is not None and
                                 dt.fields is None else f"{p.name!r}: k{i}")
            continue
        if dt.kind in "iu":
            lo, hi = int(np.iinfo(dt).min), int(np.iinfo(dt).max)
            ns[f"_T{i}"] = dt.type
            lines += [f"    if type({x}) is int and {lo} <= {x} <= {hi}:",
                      f"        v{i} = {x}",
                      f"    elif type({x}) is _T{i}:",
                      f"        v{i} = int({x})",
                      "    else:",
                      f"        v{i} = int(_c{i}({x}))"]
            inline.append((code, f"v{i}", i))
            slots.append(f"_base + _o{i}")
        elif code == "d":
            limit = float(np.finfo(dt).max)
            ns[f"_T{i}"] = dt.type
            lines += [f"    if type({x}) is float and {-limit!r} <= {x} <= {limit!r}:",
                      f"        v{i} = {x}",
                      f"    elif type({x}) is _T{i}:",
                      f"        v{i} = float({x})",
                      "    else:",
                      f"        v{i} = float(_c{i}({x}))"]
            inline.append((code, f"v{i}", i))
            slots.append(f"_base + _o{i}")
        else:  # float: struct rounds a Python float as numpy does; others keep their bits
            limit = float(np.finfo(dt).max)
            lines += [f"    if type({x}) is float and {-limit!r} <= {x} <= {limit!r}:",
                      f"        v{i} = {x}",
                      f"        s{i} = _base + _o{i}",
                      "    else:",
                      f"        k{i} = _c{i}({x})",
                      f"        v{i} = 0.0",
                      f"        s{i} = {_address_expr(f'k{i}')}"]
            inline.append((code, f"v{i}", i))
            slots.append(f"s{i}")
        if wanted:
            env_items.append(f"{p.name!r}: v{i}")
    fmt = "@" + "P" * max(n, 1)
    for code, _, i in inline:
        ns[f"_o{i}"] = struct.calcsize(fmt + code) - struct.calcsize(code)
        fmt += code
    size = struct.calcsize(fmt)
    own = [o for s in slots if (o := _own_slot(s))]  # slot i -> its inline offset's name
    if n and len(own) == len(slots):  # every slot points into the buffer: written when made
        ns["_new"] = _buffer_maker(ctypes.c_uint64 * max((size + 7) // 8, 1),
                                   [ns[o] for o in own], n)
        per_call = "@" + "".join(code for code, _, _ in inline)
        start, values = struct.calcsize("P") * n, [value for _, value, _ in inline]
    else:
        ns["_new"] = _buffer_maker(ctypes.c_uint64 * max((size + 7) // 8, 1), [], 0)
        per_call, start = fmt, 0
        values = slots + [value for _, value, _ in inline] if n else ["0"]
    ns["_pack"] = struct.Struct(per_call).pack_into
    pool: list = []
    ns["_pop"], ns["_push"] = pool.pop, pool.append
    head = entry_head(kernel, ns)
    head += ["    try:", "        _bb = _pop()", "    except IndexError:", "        _bb = _new()",
             "    _buf, _base = _bb"]
    body = [f"    _pack(_buf, {start}, {', '.join(values)})"] if values else []
    if env is not False:
        # the values as a tuple: a key for memos of what they determine (the grid); None
        # when one of them is a struct (a numpy value, not hashable)
        exprs = [e.partition(": ")[2] for e in env_items]
        plain = not any(_is_struct(x) for x in exprs)
        body.append(f"    _ek = ({''.join(x + ', ' for x in exprs)})" if plain else
                    "    _ek = None")
    if bounds is not None:
        body += _bounds_lines(bounds, dict(_env_pairs(env_items)), ns)
    # ``_env`` (the values by name) is built only where a line reads it: in the slow branches
    # (a memo miss, a failed inline bounds test) or before the CPU's limit checks
    env_dict = f"{{{', '.join(env_items)}}}"
    body, tail = ([re.sub(r"\b_env\b", env_dict, line) for line in part] for part in (body, tail))
    source = "\n".join(head + lines + body + tail + ["    _push(_bb)"]) + "\n"
    exec(compiled(source, f"<okl call of {kernel.name}>"), ns)  # noqa: S102 - ours
    call: Any = ns["_okl_call"]
    call.source = source
    call.bounds = bounds  # its bounds check (or None): okl.runtime.drivers.cpu_native shares it
    return call


def entry_head(kernel, ns: dict) -> list[str]:
    """The first lines of a generated caller: ``_okl_call`` is called as the kernel is
    (``Kernel._entry``), so it binds keyword arguments and checks the count itself, then
    names argument i ``x<i>``."""
    n = len(kernel.spec.params)
    ns["_bind"] = functools.partial(_bind, params=kernel.params, name=kernel.name)
    head = ["def _okl_call(*_args, **_kw):",
            f"    if _kw or len(_args) != {n}:",
            "        _args = _bind(_args, _kw)"]
    if takes_stream(kernel.params):  # stream=: the whole launch again, on that stream
        ns["_on_stream"] = functools.partial(launch_on, weakref.ref(kernel))
        head[2:2] = ["        if 'stream' in _kw:", "            return _on_stream(_args, _kw)"]
    if n:
        head.append(f"    {''.join(f'x{i}, ' for i in range(n))}= _args")
    return head


def _bind(args: tuple, kwargs: dict, *, params, name: str) -> list:
    return bind_args(args, kwargs, params, name)


def _own_slot(expr: str) -> str | None:
    """``_o<i>`` when the generated slot expression is ``_base + _o<i>`` (a pointer into the
    buffer's own inline storage, the same for every call), else None."""
    m = re.fullmatch(r"_base \+ (_o\d+)", expr)
    return m.group(1) if m else None


def _buffer_maker(buffer_type, offsets: list[int], n: int):
    """``new() -> (buffer, address)`` with slot j pointing at ``address + offsets[j]``."""
    slots = struct.Struct("@" + "P" * n).pack_into if n else None

    def new():
        buf = buffer_type()
        base = ctypes.addressof(buf)
        if slots is not None:
            slots(buf, 0, *[base + o for o in offsets])
        return buf, base
    return new


def _is_struct(expr: str) -> bool:
    """The generated expression of a scalar argument is a numpy struct value (``k<i>``, not
    ``k<i>.item()`` or ``v<i>``): it cannot be part of a memo key."""
    return expr.startswith("k") and not expr.endswith(".item()")


def memoized(compute):
    """``(table, lookup)``: ``lookup(key, env)`` returns ``compute(env)`` and remembers it in
    ``table`` under ``key`` (not when ``key`` is None); callers read ``table`` first."""
    table: dict = {}

    def lookup(key, env):
        found = compute(env)
        if key is not None:
            if len(table) >= MEMO_LIMIT:
                table.clear()
            table[key] = found
        return found
    return table, lookup


def _env_pairs(items: list[str]):
    """(name, expression) of each ``'name': expression`` entry of the generated _env."""
    for item in items:
        name, _, expr = item.partition(": ")
        yield name[1:-1], expr


def _bounds_lines(bounds, values: dict[str, str], ns: dict) -> list[str]:
    """The launch's bounds check: inline, as one dict lookup on the scalar values and one
    comparison per buffer, when these values already passed with buffers as large; the
    full check (which refuses, naming the array) otherwise."""
    full = ["    _bounds(_env, _args)"]
    if any(name not in values or _is_struct(values[name]) for name in bounds.key_names):
        return full  # a value okl does not have, or a struct (not hashable): the full check
    ns["_bneed"] = bounds.needs
    key = "".join(f"{values[name]}, " for name in bounds.key_names)
    small = " or ".join(f"nb{p} < _bn[{k}]" for k, p in enumerate(bounds.pointers))
    return [f"    _bn = _bneed.get(({key}))",
            f"    if _bn is None or {small}:", "    " + full[0]]


def _dead():
    return None


def _pointer_slow(convert, pointer_value, memo_key: str, ok: list, array_type, last: list):
    """A pointer argument the direct checks did not settle: the full check, then its address.
    An okl.Memory (whose buffer never moves) keeps its address in ``__dict__[memo_key]`` and
    becomes the parameter's remembered Memory (``ok[0]`` holds its ArrayInfo); an object of
    ``array_type`` becomes the remembered array (``last[0]``: a weak reference and its
    pointer, replaced as one tuple so that threads never see a mixed pair)."""
    def slow(value):
        convert(value)  # raises ArgumentError with the general path's message
        kind = type(value)
        if kind is Memory:
            d = value.__dict__
            address = d.get(memo_key)
            if address is None:
                address = d[memo_key] = pointer_value(value)
            ok[0] = value.info()
            return address
        address = pointer_value(value)
        if kind is array_type:
            try:
                last[0] = (weakref.ref(value), address)
            except TypeError:  # no weak references: checked every time
                pass
        return address
    return slow
