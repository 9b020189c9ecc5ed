"""Run time: devices, memory, kernels, launches and the on-disk cache.

One module per concept, one per backend; imports go one way, down this list (a module
imports only those below it; tests/test_layout.py fails on any import circle):

- device      okl.Device: picks the backend for a mode, builds kernels through the caches;
              okl.backends()
- kernel      okl.Kernel: binds and checks arguments, then calls the backend's launch
- rundims     Kernel.set_run_dims, checked against okl's own launch sizes
- interop     Device.asarray: Memory from numpy, DLPack and CUDA-array producers, pyopencl
- cpu, opencl, cuda
              the backends (serial and openmp; opencl; cuda and hip): build, load, allocate,
              launch, streams
- clcall, gpulaunch
              generated per-kernel launch functions: check, pack, launch in one call
- memory      okl.Memory: a buffer on a device; get/set, views and copies, DLPack export
- copies      copies between Memory and host arrays, views ``mem[a:b]``
- stream      okl.Stream and okl.Event over the backend's queues
- properties  Device.properties and Kernel.properties
- checked, spec, bounds, launcher, hostcode, cvalues
              what a translated kernel needs at run time: its specs, the host code (launch
              sizes) run in Python with C's semantics, bounds and checked-mode checks
- args        argument checks and scalar conversions
- cache       the two-level on-disk cache (translation, build) and in-process memos
- clselect, buildlog
              which OpenCL device to use; compiler logs mapped back to the .okl file
"""

from .cache import Cache
from .launch.args import (
    ArrayInfo,
    bind_args,
    check_array,
    check_count,
    convert_scalar,
    make_converters,
)

__all__ = [
    "ArrayInfo", "Cache", "bind_args", "check_array", "check_count", "convert_scalar",
    "make_converters",
]
