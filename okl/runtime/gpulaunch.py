"""The launch path shared by the GPU modes: host code, grid sizes, then one enqueue per
device kernel.  Kept lean because it runs on every call: converters and compiled grid
functions are prepared once per kernel, and a kernel whose host code only launches its one
device kernel (the common case) skips the host function altogether.
"""

from __future__ import annotations

import re

import numpy as np

from .launcher import compile_function

_TRIVIAL_HOST = re.compile(r"def _host\([^)]*\):\n    _launch\(0, locals\(\)\)\n$")


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

    def convert(values):
        return [pointer_value(v) if pointer[i] else scalar_value(v)
                for i, v in enumerate(values)]

    if _TRIVIAL_HOST.fullmatch(spec.host_src) and not captured[0]:
        dims0 = dims[0]

        def launch(args, values):
            raw = convert(values)
            env = {name: _host_value(values[i]) for i, name in scalars}
            outer, inner = dims0(env)
            if min(outer) > 0 and min(inner) > 0:
                enqueue(0, outer, inner, raw)
        return launch

    host = compile_function(spec.host_src, "_host", f"<okl host code of {spec.name}>")

    def launch(args, values):
        raw = convert(values)

        def start(k, env):
            outer, inner = dims[k](env)
            if min(outer) > 0 and min(inner) > 0:
                extra = [scalar_value(np.array(env[name], dt)) for name, dt in captured[k]]
                enqueue(k, outer, inner, raw + extra)

        host(*[None if pointer[i] else _host_value(v) for i, v in enumerate(values)], start)
    return launch


def _host_value(v: np.ndarray):
    return v.item() if v.dtype.fields is None else v
