"""``Device.properties`` and ``Kernel.properties``: what the hardware and a compiled binary are.

``dev.properties`` is a dict whose keys always include :data:`KEYS` (None where the backend
cannot tell), then whatever else the backend reports:

- serial, openmp: the CPU's name and vendor (/proc/cpuinfo, else ``platform``), physical
  memory (``os.sysconf``), ``compute_units`` = ``os.cpu_count()`` (openmp) or 1 (serial);
  inner loops run as plain loops, so there is no work-group limit, no shared memory and no
  warp (None).  Also the compiler, its flags, the OpenMP thread count and the cache sizes.
- opencl: ``cl.Device`` info (``max_compute_units``, ``local_mem_size``...); ``warp_size`` from
  NVIDIA's ``cl_nv_device_attribute_query`` or AMD's wavefront width where present.
- cuda, hip: ``cupy.cuda.runtime.getDeviceProperties`` (every entry it gives, under CuPy's
  names, besides the common keys).

``kernel.properties`` is always a dict: ``mode``, ``name``, ``loops`` (each @outer loop
nest's outer and inner sizes per axis where translation knows them, else None) and:

- serial, openmp: ``entry`` (the C function called) and ``threads`` (OpenMP's, or 1);
- opencl: ``device_kernels``: per device kernel, ``clGetKernelWorkGroupInfo``'s
  work_group_size, local_mem_size, private_mem_size, preferred_work_group_size_multiple and
  compile_work_group_size;
- cuda, hip: ``device_kernels``: per device kernel, CuPy's function attributes (num_regs,
  shared_size_bytes, max_threads_per_block, local_size_bytes, const_size_bytes,
  binary_version, ptx_version, ...).
"""

from __future__ import annotations

import functools
import os
import platform

#: the keys every Device's properties have
KEYS = ("name", "vendor", "memory_bytes", "compute_units", "max_work_group_size",
        "shared_memory_bytes", "warp_size")


def device_properties(device) -> dict:
    """The common keys (None where unknown), then the backend's own report."""
    out = dict.fromkeys(KEYS)
    out["mode"] = device.mode
    try:
        reported = device.backend.properties()
    except Exception as e:  # a query the driver refuses is a missing value, not a crash
        reported = {"name": device.name, "error": f"{type(e).__name__}: {e}"}
    out.update({k: v for k, v in reported.items() if v is not None or k not in KEYS})
    return out


def kernel_properties(kernel) -> dict:
    out = {"mode": kernel.device.mode, "name": kernel.name,
           "loops": [dict(loop) for loop in kernel.spec.loops]}
    try:
        out.update(kernel.device.backend.kernel_properties(kernel, kernel._module))
    except Exception as e:
        out["error"] = f"{type(e).__name__}: {e}"
    return out


# -- serial, openmp -----------------------------------------------------------------------------
def _cpuinfo(field: str) -> str | None:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith(field):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _sysconf(name: str) -> int | None:
    try:
        value = os.sysconf(name)
    except (ValueError, OSError, AttributeError):
        return None
    return value if value > 0 else None


def openmp_threads() -> int:
    """What ``omp_get_max_threads()`` gives by default: OMP_NUM_THREADS's first number, else
    the CPUs this process may run on."""
    env = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    if env.isdecimal() and int(env) > 0:
        return int(env)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@functools.cache
def host_cpu() -> str:
    """The CPU's model: the name of serial and openmp Devices, and part of a binary's
    identity (okl.runtime.drivers.cpu builds with -march=native)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def host_properties(backend) -> dict:
    pages, page = _sysconf("SC_PHYS_PAGES"), _sysconf("SC_PAGE_SIZE")
    openmp = backend.mode == "openmp"
    out = {"name": host_cpu(),
           "vendor": _cpuinfo("vendor_id") or _cpuinfo("CPU implementer") or
           platform.processor() or None,
           "memory_bytes": pages * page if pages and page else None,
           "compute_units": (os.cpu_count() or 1) if openmp else 1,
           "max_work_group_size": None, "shared_memory_bytes": None, "warp_size": None,
           "machine": platform.machine(), "cpu_count": os.cpu_count(),
           "openmp_threads": openmp_threads() if openmp else None,
           "compiler": backend.compiler, "compiler_flags": list(backend.flags)}
    for level in ("LEVEL1_DCACHE", "LEVEL2_CACHE", "LEVEL3_CACHE"):
        size = _sysconf(f"SC_{level}_SIZE")
        if size:
            out[f"{level.lower()}_bytes"] = size
    return out


def host_kernel_properties(backend, kernel) -> dict:
    return {"entry": kernel.spec.entry,
            "threads": openmp_threads() if backend.mode == "openmp" else 1}


# -- opencl -------------------------------------------------------------------------------------
_CL_INFO = ("version", "driver_version", "opencl_c_version", "max_clock_frequency",
            "max_mem_alloc_size", "global_mem_cache_size", "max_constant_buffer_size",
            "max_work_item_sizes", "max_work_item_dimensions", "mem_base_addr_align",
            "address_bits", "image_support", "profiling_timer_resolution")


def opencl_properties(backend) -> dict:
    cl_device = backend.cl_device
    import pyopencl as cl

    out = {"name": cl_device.name.strip(), "vendor": cl_device.vendor.strip(),
           "memory_bytes": int(cl_device.global_mem_size),
           "compute_units": int(cl_device.max_compute_units),
           "max_work_group_size": int(cl_device.max_work_group_size),
           "shared_memory_bytes": int(cl_device.local_mem_size),
           "warp_size": None,
           "type": " | ".join(n for bit, n in ((cl.device_type.CPU, "CPU"),
                                                 (cl.device_type.GPU, "GPU"),
                                                 (cl.device_type.ACCELERATOR, "ACCELERATOR"))
                              if cl_device.type & bit) or str(cl_device.type),
           "platform": cl_device.platform.name.strip()}
    for name in _CL_INFO:
        try:
            value = getattr(cl_device, name)
        except Exception:
            continue
        out[name] = value.strip() if isinstance(value, str) else value
    extensions = cl_device.extensions.split()
    out["fp64"] = "cl_khr_fp64" in extensions
    out["extensions"] = extensions
    for ext, info in (("cl_nv_device_attribute_query", "warp_size_nv"),
                      ("cl_amd_device_attribute_query", "wavefront_width_amd")):
        if ext in extensions:
            try:
                out["warp_size"] = int(getattr(cl_device, info))
                break
            except Exception:
                pass
    return out


_WORK_GROUP_INFO = ("WORK_GROUP_SIZE", "LOCAL_MEM_SIZE", "PRIVATE_MEM_SIZE",
                    "PREFERRED_WORK_GROUP_SIZE_MULTIPLE", "COMPILE_WORK_GROUP_SIZE")


def opencl_kernel_properties(backend, kernel, program) -> dict:
    import pyopencl as cl

    per = {}
    for d in kernel.spec.device_kernels:
        knl = cl.Kernel(program, d.name)
        info = {}
        for name in _WORK_GROUP_INFO:
            try:
                value = knl.get_work_group_info(getattr(cl.kernel_work_group_info, name),
                                                backend.cl_device)
            except Exception:
                continue
            info[name.lower()] = list(value) if isinstance(value, (list, tuple)) else value
        per[d.name] = info
    return {"device_kernels": per}


# -- cuda, hip ----------------------------------------------------------------------------------
def _plain(value):
    if isinstance(value, bytes):
        return value.rstrip(b"\0").decode(errors="replace")
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def cuda_properties(backend) -> dict:
    import cupy as cp

    raw = {k: _plain(v) for k, v in cp.cuda.runtime.getDeviceProperties(
        backend.device_id).items()}
    out = {"name": backend.name, "vendor": "AMD" if backend.rocm else "NVIDIA",
           "memory_bytes": raw.get("totalGlobalMem"),
           "compute_units": raw.get("multiProcessorCount"),
           "max_work_group_size": raw.get("maxThreadsPerBlock"),
           "shared_memory_bytes": raw.get("sharedMemPerBlock"),
           "warp_size": raw.get("warpSize"), "device_id": backend.device_id,
           "arch": backend.arch}
    if not backend.rocm:
        out["compute_capability"] = f"{raw.get('major')}.{raw.get('minor')}"
    try:
        out["runtime_version"] = cp.cuda.runtime.runtimeGetVersion()
        out["driver_version"] = cp.cuda.runtime.driverGetVersion()
    except Exception:
        pass
    for key, value in raw.items():
        out.setdefault(key, value)
    return out


def cuda_kernel_properties(backend, kernel, functions) -> dict:
    per = {}
    with backend.cp_device:
        for d in kernel.spec.device_kernels:
            fn = functions[d.name]
            try:
                per[d.name] = {k: _plain(v) for k, v in fn.attributes.items()}
            except Exception as e:
                per[d.name] = {"error": f"{type(e).__name__}: {e}"}
    return {"device_kernels": per}
