"""The fast launch path of opencl mode: one generated function per kernel that checks the
arguments, sets them and enqueues the kernel.

The general path (gpulaunch.gpu_launcher) converts every argument to a numpy value, runs the
host code and hands pyopencl numpy scalars: about 12 us more than a hand-written pyopencl
launch on an H100.  For a kernel whose host code only launches device kernel 0 (most), this
path does what a hand-written launch does -- ``Kernel.set_args`` with Python numbers (the
scalar dtypes are declared once) and ``enqueue_nd_range_kernel`` -- plus okl's checks, kept
cheap: an okl.Memory that passed the full check once is recognised by identity of its
remembered check (as the CUDA and CPU callers do), the bounds check is a dict lookup and a
comparison per buffer, and the grid comes from a memo keyed by the scalar values.
Anything unusual (another argument type, a value out of range) takes the full check, whose
messages are the general path's.

Threads: a cl.Kernel holds the arguments last set on it until an enqueue captures them, and
okl shares one per program and kernel name among threads, Devices and okl Kernels
(opencl._cl_kernel).  Every launch therefore sets the arguments and enqueues under that
cl.Kernel's own lock (:func:`launch_lock`): uncontended it costs a fraction of a microsecond
of a launch's tens, where a cl.Kernel per thread would cost each new thread about half a
millisecond per kernel (pyopencl's lookup of its argument-setting code).
"""

from __future__ import annotations

import threading

import numpy as np

from ...errors import ArgumentError
from ..cache import memo as process_memo
from ..memory import Memory
from .bounds_check import bounds_check
from .gpu import (
    _NOT_YET,
    _bounds_lines,
    _dead,
    _pointer_slow,
    entry_head,
    inline_code,
    memoized,
    trivial_host,
)
from .hostrun import compile_function, compiled

MEMO_KEY = "_cl_buffer"  # where an okl.Memory keeps its cl.Buffer for this path
#: where it keeps (cl.Buffer, byte offset) for kernels with pointer offsets (a view: its
#: allocation's buffer and where it starts; okl.transforms.gpu.pointer_offsets)
PLACED_KEY = "_cl_placed"


def compile_cl_caller(kernel, cl_kernels, queues, enqueue, buffer_of, fail):
    """``call(*args, **kwargs)`` for ``kernel`` (see gpulaunch.entry_head) or None when the
    fast path does not apply.

    ``queues``: a one-element list holding the queue launches go to, read at each launch (the
    current stream's: okl.Device.set_stream changes it);
    ``cl_kernels``: one pyopencl Kernel per device kernel; ``enqueue(queue, kernel, global,
    local)`` starts one (pyopencl.enqueue_nd_range_kernel), ``buffer_of(value)`` gives the
    cl.Buffer (or None for okl.NULL) of an accepted pointer argument -- for a kernel with
    pointer offsets (``spec.pointer_offsets``) the pair (cl.Buffer or None, byte offset) --,
    ``fail(k, global, local, error)`` makes the LaunchError of a failed enqueue of device
    kernel k."""
    spec = kernel.spec
    params = spec.params
    if not spec.device_kernels or kernel._checker is not None:
        return None
    codes = [None if p.is_pointer else inline_code(p.dtype) for p in params]
    if any(c is None and not p.is_pointer for c, p in zip(codes, params, strict=True)):
        return None  # a struct or vector by value: the general path packs it
    if any(inline_code(c.dtype) is None for d in spec.device_kernels for c in d.captured):
        return None
    offsets = [np.dtype(np.uint64)] * sum(p.is_pointer for p in params) \
        if spec.pointer_offsets else []
    for knl, d in zip(cl_kernels, spec.device_kernels, strict=True):
        _set_arg_dtypes(knl, [None if p.is_pointer else p.dtype for p in params] +
                        [c.dtype for c in d.captured] + offsets)
    dims = [compile_function(d.dims_src, "_dims", f"<okl grid of {d.name}>")
            for d in spec.device_kernels]
    def sizes(k: int, env: dict) -> tuple:
        """(global, local) of device kernel k, or () when a dimension is 0."""
        outer, inner = dims[k](env)
        n = max(len(outer), len(inner))
        local = tuple(inner) + (1,) * (n - len(inner))
        glob = tuple(o * i for o, i in zip(tuple(outer) + (1,) * (n - len(outer)), local,
                                           strict=True))
        return (glob, local) if min(outer) > 0 and min(inner) > 0 else ()

    grids, grid = memoized(lambda env: sizes(0, env))

    if not trivial_host(spec):
        return _with_host(kernel, cl_kernels, queues, enqueue, buffer_of, fail, sizes)

    lines, ns = _argument_lines(kernel, buffer_of)
    values = ", ".join([f"v{i}" for i in range(len(params))] + _offset_values(spec))
    ns.update({"_grids": grids, "_grid": grid, "_set": cl_kernels[0].set_args, "_enq": enqueue,
               "_qs": queues, "_k": cl_kernels[0], "_fail": fail,
               "_lock": launch_lock(cl_kernels[0])})
    lines += ["    _gl = _grids.get(_ek)",
              "    if _gl is None:",
              "        _gl = _grid(_ek, _env)",
              "    if _gl:",
              "        with _lock:",
              f"            _set({values})",
              "            try:",
              "                _enq(_qs[0], _k, _gl[0], _gl[1])",
              "            except Exception as _e:",
              "                raise _fail(0, _gl[0], _gl[1], _e) from None"]
    return _compiled(lines, ns, kernel.name)


#: id(cl.Kernel) -> (the kernel, the scalar dtypes it was given)
_ARG_DTYPES: dict[int, tuple] = process_memo({})
_LOCK_ATTRIBUTE = "_okl_launch_lock"
_MAKING_LOCK = threading.Lock()


def launch_lock(knl) -> threading.Lock:
    """The lock held across setting ``knl``'s arguments and enqueueing it (module docstring):
    OpenCL's clSetKernelArg is the one call that is not thread-safe on a shared cl_kernel,
    and the values set are what the next enqueue of any thread captures.  Kept on the
    cl.Kernel itself, so every okl Kernel and Device sharing it shares the lock."""
    lock = getattr(knl, _LOCK_ATTRIBUTE, None)
    if lock is None:
        with _MAKING_LOCK:
            lock = getattr(knl, _LOCK_ATTRIBUTE, None)
            if lock is None:
                lock = threading.Lock()
                setattr(knl, _LOCK_ATTRIBUTE, lock)
    return lock


def _set_arg_dtypes(knl, dtypes: list) -> None:
    """``knl.set_scalar_arg_dtypes(dtypes)`` unless the process did so already: the
    cl.Kernels are shared (opencl._cl_kernel), and pyopencl looks up the argument-setting
    code it generates in its on-disk cache at each call, about 0.2 ms of every warm build."""
    done = _ARG_DTYPES.get(id(knl))
    if done is not None and done[0] is knl and done[1] == dtypes:
        return
    with launch_lock(knl):  # not while another thread sets arguments through the old dtypes
        knl.set_scalar_arg_dtypes(dtypes)
    _ARG_DTYPES[id(knl)] = (knl, dtypes)


def _offset_values(spec) -> list[str]:
    """The generated expressions of the device kernels' pointer offsets, in elements of each
    pointee type (``o<i>`` holds the byte offset; a ``void *`` moves by bytes): none where
    the kernel has no pointer offsets."""
    if not spec.pointer_offsets:
        return []
    return [f"o{i} // {_itemsize(p)}" if _itemsize(p) > 1 else f"o{i}"
            for i, p in enumerate(spec.params) if p.is_pointer]


def _itemsize(param) -> int:
    return param.dtype.itemsize if param.dtype is not None else 1


def element_offset(kernel_name: str, index: int, param, offset: int) -> int:
    """A pointer argument's byte ``offset`` in its buffer as elements of the parameter's type;
    an ArgumentError where it is not a whole number of them (a view of float passed as
    float4, a pyopencl array at an odd byte offset): the kernel's loads would be misaligned."""
    size = _itemsize(param)
    if offset % size:
        raise ArgumentError(
            f"kernel {kernel_name!r} argument {index} {param.name!r} ({param.c_type}): its "
            f"memory starts {offset} bytes into its buffer, not a multiple of the {size} "
            f"bytes of one element of the parameter's type; pass a view that starts at a "
            f"multiple of {size} bytes, or a copy")
    return offset // size


def _argument_lines(kernel, buffer_of) -> tuple[list[str], dict]:
    """The generated function's head: every argument checked and turned into ``v<i>`` (a
    cl.Buffer, None for okl.NULL, or a Python number) -- and, for a kernel with pointer
    offsets, ``o<i>``, the pointer's byte offset in its buffer --, ``_env``/``_ek`` (the
    scalar values by name, and as a memo key) and the launch's bounds check."""
    from .args import NULL

    params = kernel.spec.params
    placed = kernel.spec.pointer_offsets
    ns = {"_Mem": Memory, "_NULL": NULL, "_mk": MEMO_KEY, "_pk": PLACED_KEY}
    bounds = bounds_check(kernel.spec)
    sized = set(bounds.pointers) if bounds is not None else set()
    lines = entry_head(kernel, ns)
    env_items = []
    for i, p in enumerate(params):
        x, convert = f"x{i}", kernel._convert[i]
        ns[f"_c{i}"] = convert
        if p.is_pointer and placed:
            ok = ns[f"_ok{i}"] = [_NOT_YET]
            ns[f"_p{i}"] = _placed_slow(convert, buffer_of, ok, kernel.name, i, p)
            lines += [f"    if type({x}) is _Mem and {x}.__dict__.get('_info') is _ok{i}[0]:",
                      f"        v{i}, o{i} = {x}.__dict__[_pk]"]
            lines += [f"        nb{i} = {x}.nbytes"] if i in sized else []
            lines += [f"    elif {x} is _NULL:", f"        v{i} = None", f"        o{i} = 0"]
            lines += [f"        nb{i} = -1"] if i in sized else []
            lines += ["    else:", f"        v{i}, o{i} = _p{i}({x})"]
            lines += [f"        nb{i} = -1"] if i in sized else []
            continue
        if p.is_pointer:
            ok = ns[f"_ok{i}"] = [_NOT_YET]
            ns[f"_p{i}"] = _pointer_slow(convert, buffer_of, MEMO_KEY, ok, None, [(_dead, 0)])
            lines += [f"    if type({x}) is _Mem and {x}.__dict__.get('_info') is _ok{i}[0]:",
                      f"        v{i} = {x}.__dict__[_mk]"]
            lines += [f"        nb{i} = {x}.nbytes"] if i in sized else []
            lines += [f"    elif {x} is _NULL:", f"        v{i} = None"]
            lines += [f"        nb{i} = -1"] if i in sized else []
            lines += ["    else:", f"        v{i} = _p{i}({x})"]
            lines += [f"        nb{i} = -1"] if i in sized else []
            continue
        dt = p.dtype
        if dt.kind in "iu":
            lo, hi = (-(1 << (8 * dt.itemsize - 1)), (1 << (8 * dt.itemsize - 1)) - 1) \
                if dt.kind == "i" else (0, (1 << (8 * dt.itemsize)) - 1)
            lines += [f"    if type({x}) is int and {lo} <= {x} <= {hi}:",
                      f"        v{i} = {x}", "    else:",
                      f"        v{i} = _c{i}({x}).item()"]
        else:
            lines += [f"    if type({x}) is float:", f"        v{i} = _c{i}({x}).item()"
                      if dt.itemsize == 4 else f"        v{i} = {x}", "    else:",
                      f"        v{i} = _c{i}({x}).item()"]
        env_items.append(f"{p.name!r}: v{i}")
    lines.append(f"    _env = {{{', '.join(env_items)}}}")
    lines.append(f"    _ek = ({''.join(e.partition(': ')[2] + ', ' for e in env_items)})")
    if bounds is not None:
        ns["_bounds"] = bounds
        lines += _bounds_lines(bounds, {e.partition(': ')[0][1:-1]: e.partition(': ')[2]
                                        for e in env_items}, ns)
    return lines, ns


def _placed_slow(convert, placed, ok: list, kernel_name: str, index: int, param):
    """A pointer argument of a kernel with pointer offsets that the direct checks did not
    settle: the full check, then (cl.Buffer or None, byte offset), the offset checked
    against the parameter's element size *before* an okl.Memory becomes the parameter's
    remembered one (``ok[0]``), whose later launches take the pair from its
    ``__dict__[PLACED_KEY]`` unchecked."""
    def slow(value):
        convert(value)  # raises ArgumentError with the general path's message
        if type(value) is Memory:
            d = value.__dict__
            found = d.get(PLACED_KEY)
            if found is None:
                found = d[PLACED_KEY] = placed(value)
            element_offset(kernel_name, index, param, found[1])
            ok[0] = value.info()
            return found
        found = placed(value)
        element_offset(kernel_name, index, param, found[1])
        return found
    return slow


def _compiled(lines: list[str], ns: dict, name: str):
    source = "\n".join(lines) + "\n"
    exec(compiled(source, f"<okl OpenCL call of {name}>"), ns)  # noqa: S102 - ours
    call = ns["_okl_call"]
    call.source = source
    return call


def _with_host(kernel, cl_kernels, queues, enqueue, buffer_of, fail, sizes):
    """The path for host code that does more than launch device kernel 0: the same argument
    handling, then the host function, whose launches set the arguments of device kernel k
    (plus the host values it captures) and enqueue it."""
    from .hostrun import compile_function as compile_host

    spec = kernel.spec
    host = compile_host(spec.host_src, "_host", f"<okl host code of {spec.name}>")
    captured = [[c.name for c in d.captured] for d in spec.device_kernels]
    locks = [launch_lock(k) for k in cl_kernels]
    lines, ns = _argument_lines(kernel, buffer_of)
    params = spec.params
    host_args = "".join("None, " if p.is_pointer else f"v{i}, " for i, p in enumerate(params))
    lines.append(f"    return [{''.join(f'v{i}, ' for i in range(len(params)))}], "
                 f"[{host_args}], [{''.join(o + ', ' for o in _offset_values(spec))}]")
    fast = _compiled(lines, ns, spec.name)

    def call(*args, **kwargs):
        found = fast(*args, **kwargs)
        if found is None:  # stream=: fast launched it on that stream (stream.launch_on)
            return
        raw, hostargs, offsets = found

        def start(k, env):
            found = sizes(k, env)
            if found:
                with locks[k]:
                    cl_kernels[k].set_args(*raw, *[env[name] for name in captured[k]],
                                           *offsets)
                    try:
                        enqueue(queues[0], cl_kernels[k], found[0], found[1])
                    except Exception as e:
                        raise fail(k, found[0], found[1], e) from None

        host(*hostargs, start)
    return call
