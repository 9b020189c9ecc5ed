"""@shared and @exclusive arrays larger than a thread's stack (issue 32): on serial and
openmp they move to thread-local storage (okl/transforms/cpu/offstack.py) and the kernel
runs, where a 16 MiB stack array killed the process with SIGSEGV; opencl refuses @shared
memory its device does not have before launch (PoCL aborted the process)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from modes import params

import okl

BIG_SHARED = """
@kernel void k(const int n, float *x) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float s[4194304];
    @exclusive float e;
    for (int i = 0; i < 64; ++i; @inner) {
      e = i;
      s[4194303 - i] = b + e;
    }
    for (int i = 0; i < 64; ++i; @inner) {
      x[b * 64 + i] = s[4194240 + i] + e;
    }
  }
}
"""
BIG_EXCLUSIVE = """
@kernel void k(const int n, float *x) {
  for (int b = 0; b < n; ++b; @outer) {
    @exclusive double e[1 << 20];
    for (int i = 0; i < 16; ++i; @inner) {
      e[(1 << 20) - 1] = i;
      e[0] = 2 * i;
    }
    for (int i = 0; i < 16; ++i; @inner) {
      x[b * 16 + i] = e[(1 << 20) - 1] + e[0];
    }
  }
}
"""


def _run(mode: str, source: str, threads: int, n: int) -> np.ndarray:
    """The kernel's output, computed in a child process (a crash fails the test, not the
    session)."""
    script = textwrap.dedent(f"""
        import numpy as np, okl, sys
        dev = okl.Device({mode!r})
        k = dev.build_kernel_from_string(sys.stdin.read(), "k")
        x = dev.zeros({n} * {threads}, np.float32)
        k({n}, x)
        np.save(sys.stdout.buffer, x.get())
    """)
    run = subprocess.run([sys.executable, "-c", script], input=source.encode(),
                         capture_output=True, timeout=300)
    assert run.returncode == 0, run.stderr.decode()[-2000:]
    import io
    return np.load(io.BytesIO(run.stdout))


@pytest.mark.parametrize("mode", params(("serial", "openmp")))
def test_large_shared_and_exclusive_run_on_cpu_modes(mode):
    b, i = np.meshgrid(np.arange(5), np.arange(64), indexing="ij")
    # thread i reads the slot thread 63 - i wrote (b + 63 - i), plus its own e (i)
    assert np.array_equal(_run(mode, BIG_SHARED, 64, 5), (b + 63).ravel().astype(np.float32))
    i16 = np.tile(np.arange(16), 3)
    assert np.array_equal(_run(mode, BIG_EXCLUSIVE, 16, 3), (3 * i16).astype(np.float32))


def test_only_large_arrays_move():
    small = okl.translate(BIG_SHARED.replace("4194304", "256").replace("4194303", "255")
                          .replace("4194240", "192"), "openmp").source
    assert "_Thread_local" not in small
    big = okl.translate(BIG_SHARED, "openmp").source
    assert "static _Thread_local float s[4194304];" in big
    assert "_Thread_local float e" not in big  # 64 floats stay on the stack


def test_opencl_refuses_shared_memory_the_device_lacks_or_runs_it_right():
    try:
        dev = okl.Device("opencl")
    except okl.BackendUnavailableError as e:
        pytest.skip(str(e))
    local = dev.properties["shared_memory_bytes"]
    floats = local // 4 + 1
    source = BIG_SHARED.replace("4194304", str(floats)).replace(
        "4194303", str(floats - 1)).replace("4194240", str(floats - 64))
    try:
        kernel = dev.build_kernel_from_string(source, "k")
    except okl.BuildError as e:  # PoCL: okl's check of CL_KERNEL_LOCAL_MEM_SIZE
        assert re.search(f"kernel 'k' needs .* bytes of @shared memory.*has {local}", str(e))
        return
    # a driver that builds it anyway (NVIDIA's, whose CL_DEVICE_LOCAL_MEM_SIZE is less than
    # its blocks may have: seen on an H200) must refuse the launch or compute the answer
    x = dev.zeros(2 * 64, np.float32)
    try:
        kernel(2, x)
        dev.finish()
    except okl.LaunchError:
        return
    assert np.array_equal(x.get(), np.repeat([63.0, 64.0], 64).astype(np.float32))


@pytest.mark.parametrize("mode", ["opencl", "cuda", "hip"])
def test_gpu_modes_refuse_per_thread_arrays_past_their_limit(mode):
    """A GPU thread's own arrays have a limit (CUDA's local memory; PoCL put them on a
    worker's stack and crashed): past it, a diagnostic at the declaration."""
    with pytest.raises(okl.TranslationError, match=r":4:23: error: 'e' needs 8388608 bytes "
                                                   r"per GPU thread.*at most 524288"):
        okl.translate(BIG_EXCLUSIVE, mode)
    okl.translate(BIG_EXCLUSIVE.replace("1 << 20", "1 << 12"), mode)  # 32 KiB: fine
