"""Which OpenCL device the opencl mode uses: every platform's devices, each probed once.

Listing a device is not proof that it works: the PoCL bundled with the pyopencl wheel (PoCL
3.0-rc2 on LLVM 14) lists every x86-64 CPU but fails every build on CPUs newer than its LLVM
("unknown target CPU 'generic'").  So okl builds and runs a one-work-item kernel on a device
before it uses it (once per device and process), skips devices that fail, and reports their
own error.  Order of preference: a device named explicitly (``okl.Device("opencl",
platform_id=P, device_id=D)`` or ``OKL_OPENCL_DEVICE``), else GPUs, then accelerators, then
CPUs, each in the ICD loader's platform and device order.

``OKL_OPENCL_DEVICE`` works like PyOpenCL's ``PYOPENCL_CTX``: ``"P"`` or ``"P:D"``, where each
part is an index or a case-insensitive piece of the platform's name and version (``"3.1"``,
``"nvidia"``) or of the device's name.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..verbose import SLOW_SECONDS, slow

ENV = "OKL_OPENCL_DEVICE"
PROBE_SOURCE = """\
__kernel void okl_probe(__global int *out, const float x) {
  out[get_global_id(0)] = (int)(2.0f * x) + (int)get_local_size(0);
}
"""
PROBE_EXPECTED = 7  # 2 * 3.0f + a local size of 1
_KIND_ORDER = ("GPU", "accelerator", "CPU", "other")


def fix() -> str:
    """What to install for a working OpenCL device (the pocl extra's command depends on how
    okl was installed: okl.install)."""
    from ...install import install_hint

    return ("a working CPU device: on Debian/Ubuntu `apt-get install pocl-opencl-icd` (PoCL "
            f"3.1+ names any x86-64 CPU), or `{install_hint('pocl')}`")


@dataclass(frozen=True)
class Candidate:
    """One device of one platform, as the ICD loader lists it."""

    platform_index: int
    device_index: int
    platform: Any  # pyopencl.Platform
    device: Any  # pyopencl.Device

    @property
    def kind(self) -> str:
        from pyopencl import device_type
        t = int(self.device.type)
        for bit, name in ((device_type.GPU, "GPU"), (device_type.ACCELERATOR, "accelerator"),
                          (device_type.CPU, "CPU")):
            if t & bit:
                return name
        return "other"

    @property
    def platform_text(self) -> str:
        """Name and version, without the build options some versions list after a comma."""
        version = " ".join(self.platform.version.split(",")[0].split())
        return f"{self.platform.name.strip()} ({version})"

    def __str__(self) -> str:
        return (f"{self.platform_index}:{self.device_index} {self.kind} "
                f"'{self.device.name.strip()}' on {self.platform_text}")


class SelectionError(Exception):
    """No usable device matches: the message is the reason okl.backends() shows."""


_probed: dict[tuple[int, int], str] = {}  # (platform, device) -> "" (usable) or the reason


def candidates() -> list[Candidate]:
    """Every device of every platform; SelectionError when there is none."""
    import pyopencl as cl
    start = time.perf_counter()
    try:
        platforms = cl.get_platforms()
    except Exception as e:  # no ICD loader / no platform: pyopencl's own error types
        raise SelectionError(f"no OpenCL platform ({e}); install {fix()}") from None
    seconds = time.perf_counter() - start
    if seconds > SLOW_SECONDS:  # loading the ICDs (PoCL initialises its LLVM here)
        slow(f"listed OpenCL platforms in {seconds:.2f} s")
    out = []
    for p_index, platform in enumerate(platforms):
        try:
            devices = platform.get_devices()
        except Exception:  # a platform with no device raises DEVICE_NOT_FOUND
            devices = []
        out += [Candidate(p_index, d_index, platform, device)
                for d_index, device in enumerate(devices)]
    if not out:
        cache = _pocl_cache_problem()
        if cache and any("portable computing" in _name(p).lower() for p in platforms):
            raise SelectionError(f"PoCL lists no devices: {cache}")
        raise SelectionError(f"OpenCL platforms have no devices; install {fix()}")
    return out


def _name(platform) -> str:
    try:
        return platform.name
    except Exception:
        return ""


def _pocl_cache_problem() -> str:
    """Why PoCL could not use its kernel cache folder, or "": PoCL lists no devices at all
    when it cannot create or write the folder (backend_caches.pocl_cache_dir), which looked
    like a missing installation."""
    from ..backend_caches import pocl_cache_dir

    folder = str(pocl_cache_dir())
    named = "POCL_CACHE_DIR" if os.environ.get("POCL_CACHE_DIR") else "its cache folder"
    try:  # as PoCL would: make the folder, write in it (access() says yes to root anywhere)
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        return (f"{named} ({folder}) cannot be created or written ({e.strerror or e}); set "
                "POCL_CACHE_DIR to a writable folder")
    return ""


def probe(c: Candidate) -> str:
    """'' if ``c`` builds and runs a small kernel correctly, else the reason (its own log)."""
    key = (c.platform_index, c.device_index)
    if key not in _probed:
        start = time.perf_counter()
        _probed[key] = _probe(c)
        seconds = time.perf_counter() - start
        if seconds > SLOW_SECONDS:  # what okl.backends() and the first Device spent it on
            slow(f"probed OpenCL device {c} in {seconds:.2f} s (a test kernel is built and "
                 "run once per device and process)")
    return _probed[key]


def _probe(c: Candidate) -> str:
    import pyopencl as cl

    from ..buildlog import captured_stderr
    program = None
    try:
        context = cl.Context([c.device])
        queue = cl.CommandQueue(context)
        program = cl.Program(context, PROBE_SOURCE)
        with captured_stderr():
            program.build(options=["-cl-std=CL1.2"])
        out: np.ndarray = np.zeros(1, np.int32)
        buf = cl.Buffer(context, cl.mem_flags.READ_WRITE, out.nbytes)
        kernel = cl.Kernel(program, "okl_probe")
        kernel.set_args(buf, np.float32(3.0))
        cl.enqueue_nd_range_kernel(queue, kernel, (1,), (1,))
        cl.enqueue_copy(queue, out, buf)
        queue.finish()
    except Exception as e:
        log = ""
        if program is not None:
            try:
                log = program.get_build_info(c.device, cl.program_build_info.LOG)
            except Exception:
                pass
        return f"cannot build a kernel: {first_error(log) or first_error(str(e))}"
    if int(out[0]) != PROBE_EXPECTED:
        return f"a test kernel computed {int(out[0])} instead of {PROBE_EXPECTED}"
    return ""


def first_error(text: str) -> str:
    """The compiler's first error line (the one that says why), else the first line."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in lines:
        if "error" in ln.lower():
            return ln
    return lines[0] if lines else ""


def _ordered(cands: list[Candidate]) -> list[Candidate]:
    return sorted(cands, key=lambda c: (_KIND_ORDER.index(c.kind), c.platform_index,
                                        c.device_index))


def _match(part: str, index: int, text: str) -> bool:
    part = part.strip()
    return int(part) == index if part.isdecimal() else part.lower() in text.lower()


def choose(platform_id: int | str | None = None, device_id: int | str | None = None) -> Candidate:
    """The device to use: the one asked for (props, then ``OKL_OPENCL_DEVICE``; an index or a
    piece of the name) if it works, else the first that works in order of preference.
    SelectionError says why none does."""
    cands = candidates()
    env = os.environ.get(ENV, "").strip()
    plat_part = dev_part = None
    if platform_id is not None or device_id is not None:
        plat_part = None if platform_id is None else str(platform_id)
        dev_part = None if device_id is None else str(device_id)
        source = ", ".join(f"{name} {value!r}" for name, value in
                           (("platform_id", platform_id), ("device_id", device_id))
                           if value is not None)
    elif env:
        plat_part, _, dev_part = env.partition(":")
        dev_part = dev_part or None
        source = f"{ENV}={env!r}"
    if plat_part is not None:
        cands = [c for c in cands if _match(plat_part, c.platform_index, c.platform_text)]
    if dev_part is not None:
        cands = [c for c in cands if _match(dev_part, c.device_index, c.device.name)]
    if not cands:
        listing = "; ".join(str(c) for c in candidates())
        raise SelectionError(f"{source} matches no OpenCL device (found: {listing})")
    reasons = []
    for c in _ordered(cands):
        reason = probe(c)
        if not reason:
            return c
        reasons.append(f"{c}: {reason}")
    what = "the OpenCL device asked for" if plat_part or dev_part else "no OpenCL device here"
    hint = "" if plat_part or dev_part else f"; install {fix()}"
    raise SelectionError(f"{what} cannot run kernels ({'; '.join(reasons)}){hint}")


def survey() -> list[tuple[Candidate, str]]:
    """Every device with what okl makes of it: 'used', 'usable, not preferred' or the reason
    it is skipped (for ``oklc info``).  Probes every device."""
    try:
        chosen = choose()
    except SelectionError:
        chosen = None
    out = []
    for c in candidates():
        reason = probe(c)
        if c == chosen:
            status = "used"
        elif reason:
            status = f"skipped: {reason}"
        elif chosen is not None:
            status = (f"usable, not chosen: {chosen.platform_index}:{chosen.device_index} comes "
                      f"first ({ENV} or platform_id/device_id, else GPU > accelerator > CPU, "
                      "then list order)")
        else:
            status = "usable, but not the device asked for"
        out.append((c, status))
    return out
