"""Views at any offset as kernel arguments (``mem[10:20]``), on every mode.

OpenCL passes buffers, not addresses, and a sub-buffer must start at a multiple of the
device's base-address alignment (128 bytes on PoCL), so okl refused ``mem[10:20]`` of float32
as an opencl kernel argument.  Its OpenCL kernels now take a hidden element offset per
pointer (okl.transforms.gpu.pointer_offsets), applied at the kernel's entry: every view
works, as CuPy's do, on every launch path (the fast path, host code launching several device
kernels, checked mode's general path), and the CPU modes are unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest
from modes import device_memo, params, private_cache, skip_unless_available

import okl
from okl.runtime.launch.spec import from_json, to_json

EVERY = params()

SOURCE = """
@kernel void scale(const int n, const float *a, float *b, const float s) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) { b[i] = s * a[i]; }
}

// host code that launches two device kernels
@kernel void twice(const int n, double *x) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) { x[i] *= 2; }
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) { x[i] += 1; }
}

// untyped and constant pointers: moved by bytes, and moved once at entry
@kernel void untyped(const int n, void *p, float *const q) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    ((float *) p)[i] = -1;
    q[i] = i;
  }
}

@kernel void quads(const int n, float4 *v) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) { v[i].x = 7; }
}
"""


@pytest.fixture(scope="module", autouse=True)
def module_cache(tmp_path_factory):
    with private_cache(tmp_path_factory.mktemp("okl-cache")) as root:
        yield root


device = device_memo()


@pytest.mark.parametrize("mode", EVERY)
def test_float_views_at_unaligned_offsets(mode):
    dev = device(mode)
    k = dev.build_kernel_from_string(SOURCE, "scale")
    h = np.arange(64, dtype=np.float32)
    a, out = dev.asarray(h), dev.zeros(64, np.float32)
    want = np.zeros(64, np.float32)
    for _ in range(2):  # the second launch takes the remembered views (the fast path's memo)
        k(10, a[10:20], out[3:13], 2.0)
    want[3:13] = 2 * h[10:20]
    assert np.array_equal(out.get(), want)
    k(64, a, out, 1.0)  # whole buffers: offset 0
    assert np.array_equal(out.get(), h)


@pytest.mark.parametrize("mode", EVERY)
def test_double_views_and_views_of_views_through_host_code(mode):
    dev = device(mode)
    k = dev.build_kernel_from_string(SOURCE, "twice")
    x = dev.asarray(np.arange(12.0))
    want = np.arange(12.0)
    k(4, x[3:7])
    want[3:7] = want[3:7] * 2 + 1
    inner = x[3:7][1:3]  # a view of a view: offset 4 in the allocation
    assert inner.base is x and inner.offset == 4
    k(2, inner)
    want[4:6] = want[4:6] * 2 + 1
    assert np.array_equal(x.get(), want)


@pytest.mark.parametrize("mode", EVERY)
def test_untyped_and_constant_pointers_take_views(mode):
    dev = device(mode)
    k = dev.build_kernel_from_string(SOURCE, "untyped")
    mem = dev.zeros(40, np.float32)
    k(3, mem[5:8], mem[21:24])
    want = np.zeros(40, np.float32)
    want[5:8] = -1
    want[21:24] = np.arange(3)
    assert np.array_equal(mem.get(), want)


def test_checked_mode_counts_the_view_not_its_allocation():
    """Checked mode takes the general launch path: the same offsets, and a view's own size
    as its element count."""
    skip_unless_available("opencl")
    dev = okl.Device("opencl", check_bounds=True)
    k = dev.build_kernel_from_string(SOURCE, "scale")
    a = dev.asarray(np.arange(32, dtype=np.float32))
    out = dev.zeros(32, np.float32)
    k(5, a[1:6], out[7:12], 3.0)
    assert np.array_equal(out.get()[7:12], 3 * np.arange(1, 6, dtype=np.float32))
    with pytest.raises(okl.LaunchError, match=r"out-of-bounds access .*of 5 elements"):
        k(6, a[1:6], out[7:13], 1.0)


def test_an_offset_that_is_not_whole_elements_of_the_parameter_is_refused():
    """A float32 view passed as float4 must start at a multiple of 16 bytes: the kernel's
    vector loads would be misaligned."""
    skip_unless_available("opencl")
    dev = device("opencl")
    k = dev.build_kernel_from_string(SOURCE, "quads")
    mem = dev.zeros(32, np.float32)
    with pytest.raises(okl.ArgumentError, match=r"'v'.* starts 8 bytes into its buffer, not "
                       r"a multiple of the 16 bytes"):
        k(2, mem[2:10])
    k(2, mem[4:12])
    want = np.zeros(32, np.float32)
    want[[4, 8]] = 7
    assert np.array_equal(mem.get(), want)


def test_pyopencl_arrays_at_an_offset():
    skip_unless_available("opencl")
    cla = pytest.importorskip("pyopencl.array")
    dev = device("opencl")
    k = dev.build_kernel_from_string(SOURCE, "scale")
    queue = dev.backend.queue
    a = cla.to_device(queue, np.arange(40, dtype=np.float32))
    out = cla.zeros(queue, 40, np.float32)
    k(8, a[3:11], out[1:9], 0.5)
    dev.finish()
    want = np.zeros(40, np.float32)
    want[1:9] = 0.5 * np.arange(3, 11, dtype=np.float32)
    assert np.array_equal(out.get(), want)


def test_only_opencl_kernels_take_offsets():
    text = {m: okl.translate(SOURCE, m) for m in ("serial", "opencl")}
    assert "_okl_off_" not in text["serial"].source
    assert "ulong _okl_off_a, ulong _okl_off_b)" in text["opencl"].source
    assert "a += _okl_off_a;" in text["opencl"].source


def test_the_spec_says_whether_device_kernels_take_offsets():
    """A spec stored without the flag (an older translation or bundle) launches as before."""
    from okl.runtime.launch.spec import specs_of

    specs = specs_of(okl.translate(SOURCE, "opencl"))
    assert all(s.pointer_offsets for s in specs)
    assert all(s.pointer_offsets for s in from_json(to_json(specs)))
    old = to_json(specs)
    for s in old:
        del s["pointer_offsets"]
    assert not any(s.pointer_offsets for s in from_json(old))
    assert not any(s.pointer_offsets for s in specs_of(okl.translate(SOURCE, "serial")))
