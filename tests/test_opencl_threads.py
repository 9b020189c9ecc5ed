"""Launches from several threads on opencl never mix their arguments.

okl shares one pyopencl Kernel per program and kernel name between threads, Devices and okl
Kernels, and a cl.Kernel holds the arguments last set on it until an enqueue captures them:
without the lock held across setting and enqueueing (okl.runtime.launch.clcall.launch_lock),
a thread switch in between launched one thread's kernel with another's values (43 to 218 of
48,000 launches with a short switch interval).  Each launch here adds a value unique to its
thread and iteration to one element of its thread's own buffer, so a mixed launch leaves an
element with a foreign value added, or without its own, whichever launch came later.
"""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from modes import private_cache, skip_unless_available

import okl

THREADS = 8
LAUNCHES = 300  # per thread; the unlocked path failed within the first few hundred

SOURCE = """
@kernel void put(const int i, int *out, const int v) {
  for (int b = 0; b < 1; ++b; @outer) {
    for (int t = 0; t < 1; ++t; @inner) { out[i] += v; }
  }
}

// host code that launches two device kernels (the caller's host-code path)
@kernel void put2(const int i, int *out, const int v) {
  for (int b = 0; b < 1; ++b; @outer) {
    for (int t = 0; t < 1; ++t; @inner) { out[i] += v; }
  }
  for (int b = 0; b < 1; ++b; @outer) {
    for (int t = 0; t < 1; ++t; @inner) { out[i] += 0; }
  }
}
"""


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    with private_cache(tmp_path_factory.mktemp("cache")) as root:
        yield root


def _hammer(kernels: list, devices: list) -> None:
    """THREADS threads, thread t launching kernels[t % len] on devices[t % len]; then every
    buffer must hold exactly its own thread's values."""
    outs = [devices[t % len(devices)].zeros(LAUNCHES, np.int32) for t in range(THREADS)]
    start = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def work(t: int) -> None:
        k, out = kernels[t % len(kernels)], outs[t]
        try:
            start.wait()
            for i in range(LAUNCHES):
                k(i, out, (t + 1) * 100_000 + i)
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors, errors[0]
    for dev in devices:
        dev.finish()
    for t, out in enumerate(outs):
        want = (t + 1) * 100_000 + np.arange(LAUNCHES, dtype=np.int32)
        got = out.get()
        wrong = np.flatnonzero(got != want)
        assert wrong.size == 0, (f"thread {t}: {wrong.size} of {LAUNCHES} elements hold "
                                 f"another launch's value, e.g. [{wrong[0]}] = "
                                 f"{got[wrong[0]]} instead of {want[wrong[0]]}")


@pytest.mark.parametrize("name", ["put", "put2"])
def test_threads_launching_one_kernel_keep_their_arguments(cache, name):
    skip_unless_available("opencl")
    dev = okl.Device("opencl")
    _hammer([dev.build_kernel_from_string(SOURCE, name)], [dev])


def test_two_devices_sharing_one_cl_kernel_keep_their_arguments(cache):
    """Two Devices on one OpenCL device share the context, the program and its cl.Kernel."""
    skip_unless_available("opencl")
    devices = [okl.Device("opencl"), okl.Device("opencl")]
    kernels = [d.build_kernel_from_string(SOURCE, "put") for d in devices]
    _hammer(kernels, devices)


def test_checked_mode_launches_keep_their_arguments(cache):
    """Checked mode takes the general launch path (hidden arguments, error buffer)."""
    skip_unless_available("opencl")
    dev = okl.Device("opencl", check_bounds=True)
    _hammer([dev.build_kernel_from_string(SOURCE, "put")], [dev])
