"""What the runtime needs of a translated kernel, as JSON (stored in the translation cache).

A cache hit must not re-run the compiler front end, so each kernel is reduced to plain data:
its parameters (name, C type, numpy dtype, pointer, const), the CPU entry symbol, and for GPU
modes the device kernels with the Python source of their grid functions and of the host code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.lib.format import descr_to_dtype, dtype_to_descr

from ...modes import BY_NAME


@dataclass
class RuntimeParam:
    name: str
    c_type: str
    dtype: np.dtype | None
    is_pointer: bool
    is_const: bool


@dataclass
class DeviceKernelSpec:
    name: str
    captured: list[RuntimeParam]
    dims_src: str
    #: threads per block it needs at least (the inner extents known at translation time) and
    #: where the first of those inner loops is: checked against the device when building
    threads: int = 1
    threads_loc: str = ""


@dataclass
class KernelSpec:
    name: str
    params: list[RuntimeParam]
    entry: str | None = None
    device_kernels: list[DeviceKernelSpec] = field(default_factory=list)
    host_src: str = ""
    limits: list[str] = field(default_factory=list)  # CPU: grid functions that check limits
    # okl.transforms.index_bounds: ``_bounds(_env)``, its accesses [param index, C text, file:line]
    # and the scalars it reads (okl.runtime.launch.bounds_check checks them before each launch)
    bounds_src: str = ""
    bounds: list[list] = field(default_factory=list)
    bounds_names: list[str] = field(default_factory=list)
    # checked mode (okl.transforms.checked): the guarded accesses [file, line, col, array],
    # the error buffer's length in ints (0: unchecked) and how many params the user wrote
    # (the rest are hidden: one element count per pointer, then the error buffer)
    check_sites: list[list] = field(default_factory=list)
    check_ints: int = 0
    user_params: int = 0
    # the race checker (okl.transforms.races): its sites, regions and report length (0: off)
    race_sites: list[list] = field(default_factory=list)
    race_regions: list[list] = field(default_factory=list)
    race_ints: int = 0
    #: every @outer loop nest (CPU and GPU): {"name", "outer", "inner"}, its extents per axis
    #: where translation knows them all (else None); shown by Kernel.properties
    loops: list[dict] = field(default_factory=list)
    #: opencl: every device kernel takes, after its other arguments, one element offset per
    #: pointer of ``params`` (okl.transforms.gpu.pointer_offsets); False in specs written
    #: before them, whose views are passed as sub-buffers
    pointer_offsets: bool = False


def specs_of(translation) -> list[KernelSpec]:
    # here, not at the top: a build the cache answers never writes host code (hostrun.py)
    from .launcher import dims_source, host_source

    out = []
    for info in translation.kernels:
        params = [_param(p.name, p.c_type, p.dtype, p.is_pointer, p.is_const)
                  for p in info.params]
        spec = KernelSpec(info.name, params, info.entry)
        spec.loops = [{"name": dk.name, "outer": _dims(dk.constant_dims("outer")),
                       "inner": _dims(dk.constant_dims("inner"))} for dk in info.device_kernels]
        spec.user_params = info.user_params or len(params)
        # the target's choice (okl.targets.target.Target.pointer_offsets), read by name:
        # the mode table names targets without importing them
        spec.pointer_offsets = info.entry is None and \
            bool(getattr(BY_NAME[translation.mode].target_class(), "pointer_offsets", False))
        if info.checks is not None:
            spec.check_sites = [list(site) for site in info.checks.sites]
            spec.check_ints = info.checks.buffer_ints
        if info.races is not None:
            spec.race_sites = info.races.sites
            spec.race_regions = info.races.regions
            spec.race_ints = info.races.report_size
        if info.bounds is not None:
            spec.bounds_src = info.bounds.source
            spec.bounds = [[a.param, a.text, a.where] for a in info.bounds.accesses]
            spec.bounds_names = list(info.bounds.names)
        if info.entry is not None:
            # CPU: no grid, but a @max_inner_dims promise sizes the @exclusive arrays (checked
            # before each call when the sizes depend on arguments only), and a @tile's range
            # must fit its type as on a GPU mode (checked through the host code)
            spec.limits = [dims_source(dk, info.plan) for dk in info.device_kernels
                           if dk.max_inner_dims and not dk.host_inputs]
            spec.limits += _host_limits(info.plan)
        else:
            for dk in info.device_kernels:
                captured = [_param(h.name, h.ctype.text, h.ctype.dtype, False, True)
                            for h in dk.captured]
                spec.device_kernels.append(DeviceKernelSpec(dk.name, captured,
                                                            dims_source(dk, info.plan),
                                                            *_known_threads(dk)))
            spec.host_src = host_source(info.plan)
        out.append(spec)
    return out


def _host_limits(plan) -> list[str]:
    """CPU: the check of the @tile ranges (okl.runtime.launch.hostrun._tile_fits), run
    through the kernel's host code as on a GPU mode (okl.runtime.launch.launcher.
    host_limits_source): a loop is checked where it is launched, with the sizes the host
    code computes.  Where that code cannot run in Python (the CPU modes allow more there
    than the GPU modes' launcher), the loops sized by the arguments alone are checked."""
    from .hostcode import HostCodeError
    from .launcher import dims_source, host_limits_source, tile_checks

    checked = [dk for dk in plan.device_kernels if tile_checks(dk, plan)]
    if not checked:
        return []
    try:
        return [host_limits_source(plan, checked)]
    except HostCodeError:  # the loops that depend on the kernel's arguments only, directly
        return [dims_source(dk, plan) for dk in checked
                if not dk.host_inputs and not dk.max_inner_dims]


def _known_threads(dk) -> tuple[int, str]:
    """Product over axes of the largest inner extent known at translation, and where the
    first such loop is (a lower bound on the block size: unknown extents count as 1)."""
    per_axis: dict[int, int] = {}
    where = ""
    for extent in dk.extents:
        value = extent.value() if extent.kind == "inner" else None
        if value is not None and value > per_axis.get(extent.axis, 1):
            per_axis[extent.axis] = value
            if not where and extent.loop is not None:
                where = str(extent.loop.loc)
    return math.prod(per_axis.values()), where


def _dims(dims) -> list[int] | None:
    return None if dims is None else [int(n) for n in dims]


def _param(name, c_type, dtype, pointer, const) -> RuntimeParam:
    return RuntimeParam(name, c_type, None if dtype is None else np.dtype(dtype), pointer, const)


def to_json(specs: list[KernelSpec]) -> list[dict]:
    def param(p: RuntimeParam) -> dict:
        return {"name": p.name, "c_type": p.c_type, "pointer": p.is_pointer,
                "const": p.is_const,
                "dtype": None if p.dtype is None else dtype_to_descr(p.dtype)}
    return [{"name": s.name, "entry": s.entry, "params": [param(p) for p in s.params],
             "host_src": s.host_src, "limits": s.limits, "bounds_src": s.bounds_src,
             "bounds": s.bounds, "bounds_names": s.bounds_names,
             "check_sites": s.check_sites, "check_ints": s.check_ints,
             "user_params": s.user_params, "loops": s.loops,
             "race_sites": s.race_sites, "race_regions": s.race_regions,
             "race_ints": s.race_ints, "pointer_offsets": s.pointer_offsets,
             "device_kernels": [{"name": d.name, "dims_src": d.dims_src,
                                 "threads": d.threads, "threads_loc": d.threads_loc,
                                 "captured": [param(p) for p in d.captured]}
                                for d in s.device_kernels]} for s in specs]


def from_json(data: list[dict]) -> list[KernelSpec]:
    def param(d: dict) -> RuntimeParam:
        dt = d["dtype"]
        if isinstance(dt, list):
            dt = [tuple(f) if isinstance(f, list) else f for f in dt]
        return RuntimeParam(d["name"], d["c_type"], None if dt is None else descr_to_dtype(dt),
                            d["pointer"], d["const"])
    out = [KernelSpec(s["name"], [param(p) for p in s["params"]], s["entry"],
                       [DeviceKernelSpec(d["name"], [param(p) for p in d["captured"]],
                                         d["dims_src"], d.get("threads", 1),
                                         d.get("threads_loc", ""))
                        for d in s["device_kernels"]],
                       s["host_src"], s.get("limits", []), s.get("bounds_src", ""),
                       s.get("bounds", []), s.get("bounds_names", []),
                       s.get("check_sites", []), s.get("check_ints", 0),
                       s.get("user_params", 0)) for s in data]
    for spec, s in zip(out, data, strict=True):
        spec.loops = s.get("loops", [])
        spec.race_sites = s.get("race_sites", [])
        spec.race_regions = s.get("race_regions", [])
        spec.race_ints = s.get("race_ints", 0)
        spec.pointer_offsets = bool(s.get("pointer_offsets", False))
    return out
