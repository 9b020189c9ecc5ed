"""Copies (Memory.copy_from/copy_to), views (mem[a:b]), pinned host arrays (Device.pinned)
and Kernel.set_run_dims, on every available mode (cuda/hip are marked ``gpu`` and skip
visibly where unavailable; OKL_TEST_MODES narrows the modes).
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
from modes import device_memo, params, private_cache, skip_unless_available

import okl

EVERY = params()
GPU_LIKE = params(("opencl", "cuda", "hip"))  # modes with a launch grid
HOST = params(("serial", "openmp"))

IOTA = """
@kernel void iota(const int n, float *x) {
  for (int b = 0; b < n; b += 16; @outer) {
    for (int i = b; i < b + 16; ++i; @inner) {
      if (i < n) x[i] = i;
    }
  }
}
@kernel void fixed(float *x) {
  for (int b = 0; b < 4; ++b; @outer) {
    for (int i = 0; i < 16; ++i; @inner) {
      x[16 * b + i] = 1;
    }
  }
}
@kernel void twice(const int n, float *x) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int i = 0; i < 4; ++i; @inner) { x[4 * b + i] = 1; }
  }
  for (int b = 0; b < n; ++b; @outer) {
    for (int i = 0; i < 4; ++i; @inner) { x[4 * b + i] += 1; }
  }
}
"""

STRUCT = np.dtype([("a", "<i4"), ("b", "<f8")], align=True)

#: where views passed to kernels start: 1 KiB of float32, a multiple of every OpenCL
#: device's base address alignment we know (PoCL 128 bytes, NVIDIA 512)
A = 256


@pytest.fixture(scope="module", autouse=True)
def module_cache(tmp_path_factory):
    """Keep the whole module away from the user's cache."""
    with private_cache(tmp_path_factory.mktemp("okl-cache")) as root:
        yield root


device = device_memo()


def kernel(mode: str, name: str = "iota") -> okl.Kernel:
    return device(mode).build_kernel_from_string(IOTA, name)


def sample(dtype, n: int) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.fields is not None:
        out = np.zeros(n, dtype)
        out["a"], out["b"] = np.arange(n), np.arange(n) * 0.5
        return out
    return np.arange(n).astype(dtype)


# -- copies -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.int64, STRUCT], ids=["f4", "i8", "struct"])
@pytest.mark.parametrize("mode", EVERY)
def test_host_memory_copies_with_offsets_and_counts(mode, dtype):
    dev = device(mode)
    mem = dev.asarray(np.zeros(50, dtype))
    host = sample(dtype, 20)
    mem.copy_from(host, count=5, offset=10, src_offset=3)
    want = np.zeros(50, dtype)
    want[10:15] = host[3:8]
    assert np.array_equal(mem.get(), want)
    mem.copy_from(host)  # count=None: all of the source, at offset 0
    want[:20] = host
    assert np.array_equal(mem.get(), want)
    out = np.zeros(30, dtype)
    mem.copy_to(out, count=4, offset=2, dst_offset=6)
    expect = np.zeros(30, dtype)
    expect[6:10] = want[2:6]
    assert np.array_equal(out, expect)
    tail = np.zeros(50 - 45, dtype)
    mem.copy_to(tail, offset=45)  # count=None: the rest of this buffer from offset
    assert np.array_equal(tail, want[45:])
    mem.copy_from(host[:0])  # nothing to copy
    assert np.array_equal(mem.get(), want)


@pytest.mark.parametrize("mode", EVERY)
def test_multidimensional_buffers_copy_over_flattened_elements(mode):
    dev = device(mode)
    mem = dev.zeros((4, 5), np.float64)
    mem.copy_from(np.arange(6.0).reshape(2, 3), offset=7)
    want = np.zeros(20)
    want[7:13] = np.arange(6.0)
    assert np.array_equal(mem.get(), want.reshape(4, 5))


@pytest.mark.parametrize("dtype", [np.float64, STRUCT], ids=["f8", "struct"])
@pytest.mark.parametrize("mode", EVERY)
def test_memory_to_memory_copies(mode, dtype):
    dev = device(mode)
    a = dev.asarray(sample(dtype, 40))
    b = dev.asarray(np.zeros(30, dtype))
    b.copy_from(a, count=10, offset=5, src_offset=20)
    want = np.zeros(30, dtype)
    want[5:15] = sample(dtype, 40)[20:30]
    assert np.array_equal(b.get(), want)
    a.copy_to(b, count=3, offset=1, dst_offset=27)
    want[27:30] = sample(dtype, 40)[1:4]
    assert np.array_equal(b.get(), want)


@pytest.mark.parametrize("mode", EVERY)
def test_overlapping_copy_within_one_buffer(mode):
    dev = device(mode)
    host = np.arange(64.0)
    mem = dev.asarray(host, copy=True)  # asarray shares numpy memory on CPU modes
    mem.copy_from(mem, count=40, offset=8, src_offset=0)  # forward overlap
    want = host.copy()
    want[8:48] = host[0:40]
    assert np.array_equal(mem.get(), want)
    mem[0:32].copy_to(mem[16:64], count=20, offset=4)  # through views of one allocation
    want2 = want.copy()
    want2[16:36] = want[4:24]
    assert np.array_equal(mem.get(), want2)


@pytest.mark.parametrize("mode", EVERY)
def test_overlapping_copy_between_devices_sharing_one_allocation(mode):
    """Two Devices of one memory share a Memory (asarray): a copy between their views of it
    is an overlap too (opencl raised pyopencl's MEM_COPY_OVERLAP)."""
    dev, other = device(mode), okl.Device(mode)
    host = np.arange(16, dtype=np.float32)
    mem = dev.asarray(host, copy=True)
    shared = other.asarray(mem)
    shared[4:12].copy_from(mem[0:8])
    want = host.copy()
    want[4:12] = host[0:8]
    assert np.array_equal(mem.get(), want)


@pytest.mark.parametrize("mode", EVERY)
def test_async_copies_then_finish(mode):
    dev = device(mode)
    n = 1 << 16
    src = dev.pinned(n, np.float32)
    src[:] = np.arange(n, dtype=np.float32)
    mem = dev.zeros(n, np.float32)
    other = dev.zeros(n, np.float32)
    out = np.zeros(n, np.float32)
    mem.copy_from(src, blocking=False)
    other.copy_from(mem, blocking=False)
    other.copy_to(out, offset=1, count=n - 1, blocking=False)
    dev.finish()
    assert np.array_equal(out[:-1], src[1:])
    # a host array dropped right after an asynchronous copy is kept alive by okl
    mem.copy_from(np.full(n, 3.0, np.float32), blocking=False)
    gc.collect()
    dev.finish()
    assert (mem.get() == 3.0).all()


@pytest.mark.parametrize("mode", EVERY)
def test_pinned_arrays(mode):
    dev = device(mode)
    p = dev.pinned((3, 4), np.int32)
    assert isinstance(p, np.ndarray) and p.shape == (3, 4) and p.dtype == np.int32
    assert p.flags.c_contiguous and p.flags.writeable
    p[...] = np.arange(12).reshape(3, 4)
    mem = dev.zeros(12, np.int32)
    mem.copy_from(p)
    q = dev.pinned(12, np.int32)
    mem.copy_to(q)
    assert np.array_equal(q, np.arange(12))
    assert dev.pinned(0, np.float64).size == 0


# -- views ------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", EVERY)
def test_view_as_kernel_argument_touches_only_its_elements(mode):
    dev = device(mode)
    k = kernel(mode)
    mem = dev.zeros(300, np.float32)
    view = mem[A:A + 16]
    assert view.shape == (16,) and view.base is mem and view.offset == A
    k(16, view)
    dev.finish()
    want = np.zeros(300, np.float32)
    want[A:A + 16] = np.arange(16)
    assert np.array_equal(mem.get(), want)
    assert np.array_equal(view.get(), np.arange(16, dtype=np.float32))


@pytest.mark.parametrize("mode", EVERY)
def test_unaligned_view_as_kernel_argument(mode):
    dev = device(mode)
    k = kernel(mode)
    mem = dev.zeros(100, np.float32)
    view = mem[10:26]  # not at opencl's base address alignment: a hidden offset argument
    k(16, view)
    dev.finish()
    want = np.zeros(100, np.float32)
    want[10:26] = np.arange(16)
    assert np.array_equal(mem.get(), want)


@pytest.mark.parametrize("mode", EVERY)
def test_view_bounds_follow_python_slices(mode):
    dev = device(mode)
    flat = dev.asarray(np.arange(20.0))
    assert np.array_equal(flat[-5:].get(), np.arange(15.0, 20.0))
    assert np.array_equal(flat[:3].get(), [0.0, 1.0, 2.0])
    assert np.array_equal(flat[:].get(), np.arange(20.0))
    assert np.array_equal(flat[4:-14].get(), [4.0, 5.0])
    assert flat[7:7].size == 0 and flat[20:].size == 0
    inner = flat[5:15][2:4]  # a view of a view aliases the allocation
    assert inner.base is flat and inner.offset == 7
    assert np.array_equal(inner.get(), [7.0, 8.0])
    # a 2-D buffer indexes rows first, as numpy does (tests/test_traps_runtime.py has more)
    host = np.arange(20.0).reshape(4, 5)
    mem = dev.asarray(host)
    assert np.array_equal(mem[-3:].get(), host[-3:])
    assert mem[1:3][1].offset == 10 and np.array_equal(mem[1:3][1].get(), host[2])


@pytest.mark.parametrize("mode", EVERY)
def test_views_in_copies_get_and_set(mode):
    dev = device(mode)
    mem = dev.zeros(40, np.int64)
    view = mem[10:30]
    view.set(np.arange(20, dtype=np.int64))
    view.copy_from(np.full(5, 7, np.int64), offset=15)
    out = np.zeros(8, np.int64)
    view.copy_to(out, offset=12)
    assert np.array_equal(out, [12, 13, 14, 7, 7, 7, 7, 7])
    want = np.zeros(40, np.int64)
    want[10:30] = np.arange(20)
    want[25:30] = 7
    assert np.array_equal(mem.get(), want)
    other = dev.zeros(10, np.int64)
    other[2:6].copy_from(view, src_offset=1, count=4)
    assert np.array_equal(other.get(), [0, 0, 1, 2, 3, 4, 0, 0, 0, 0])


@pytest.mark.parametrize("mode", EVERY)
def test_view_keeps_parent_alive(mode):
    dev = device(mode)
    k = kernel(mode)
    mem = dev.asarray(np.arange(A + 32, dtype=np.float32))
    view = mem[A:A + 32]
    del mem
    gc.collect()
    assert np.array_equal(view.get(), np.arange(A, A + 32, dtype=np.float32))
    k(32, view)
    dev.finish()
    assert np.array_equal(view.get(), np.arange(32, dtype=np.float32))
    assert view.base.size == A + 32


@pytest.mark.parametrize("mode", EVERY)
def test_free_parent_frees_views(mode):
    dev = device(mode)
    k = kernel(mode)
    mem = dev.zeros(A + 32, np.float32)
    view = mem[A:A + 16]
    k(16, view)  # the launch path remembers the view: free must forget it
    dev.finish()
    mem.free()
    assert view.freed and mem.freed
    for m in (mem, view):
        with pytest.raises(okl.ArgumentError, match="freed"):
            m.get()
        with pytest.raises(okl.ArgumentError, match="freed"):
            m.set(np.zeros(m.size, np.float32))
        with pytest.raises(okl.ArgumentError, match="freed"):
            k(16, m)
        with pytest.raises(okl.ArgumentError, match="freed"):
            m.copy_from(np.zeros(4, np.float32))
        with pytest.raises(okl.ArgumentError, match="freed"):
            m.copy_to(np.zeros(4, np.float32), count=4)
        with pytest.raises(okl.ArgumentError, match="freed"):
            dev.zeros(4, np.float32).copy_from(m, count=4)
        with pytest.raises(okl.ArgumentError, match="freed"):
            m[0:1]
        m.free()  # idempotent


@pytest.mark.parametrize("mode", EVERY)
def test_free_view_keeps_parent(mode):
    dev = device(mode)
    k = kernel(mode)
    mem = dev.asarray(np.arange(A + 32, dtype=np.float32))
    view, sibling = mem[A:A + 16], mem[0:32]
    k(16, view)
    view.free()
    with pytest.raises(okl.ArgumentError, match="freed"):
        view.get()
    with pytest.raises(okl.ArgumentError, match="freed"):
        k(16, view)
    assert not mem.freed and not sibling.freed
    want = np.arange(A + 32, dtype=np.float32)
    want[A:A + 16] = np.arange(16)
    assert np.array_equal(mem.get(), want)
    assert np.array_equal(sibling.get(), want[:32])
    k(16, mem)
    dev.finish()
    assert np.array_equal(mem.get()[:16], np.arange(16))


@pytest.mark.parametrize("mode", EVERY)
def test_memory_is_not_iterable(mode):
    mem = device(mode).zeros(4)
    with pytest.raises(TypeError):
        iter(mem)


# -- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("key, match", [
    (slice(0, 10, 2), "step"),
    (slice(None, None, -1), "step"),
    (slice(0, 11), "out of range"),
    (slice(-11, None), "out of range"),
    (slice(5, 3), "after the stop"),
    (slice(0.5, 3), "integer"),
    (10, "out of range"),
    (np.int64(-11), "out of range"),
    ((slice(0, 2), slice(0, 2)), "2 indices"),
    ("a", "integers, slices"),
])
@pytest.mark.parametrize("mode", EVERY)
def test_bad_views(mode, key, match):
    mem = device(mode).zeros(10)
    with pytest.raises(okl.ArgumentError, match=match):
        mem[key]


@pytest.mark.parametrize("call, match", [
    (lambda m, h: m.copy_from(h, offset=11), r"offset=11 is outside self \(10 elements"),
    (lambda m, h: m.copy_from(h, offset=-1), "offset=-1"),
    (lambda m, h: m.copy_from(h, src_offset=21), r"src_offset=21 is outside src \(20"),
    (lambda m, h: m.copy_from(h), r"20 elements from src do not fit in self \(10 elements\)"),
    (lambda m, h: m.copy_from(h, count=5, offset=6), "5 elements from src do not fit"),
    (lambda m, h: m.copy_from(h, count=-1), "count=-1 is negative"),
    (lambda m, h: m.copy_from(h, count=8, src_offset=15), "count=8 from src_offset=15 runs "
     r"past the end of src \(20 elements\)"),
    (lambda m, h: m.copy_from(h, count=2.0), "count must be an integer"),
    (lambda m, h: m.copy_from(h, offset="1"), "offset must be an integer"),
    (lambda m, h: m.copy_from(h.astype(np.float32), count=2), "float64 and src holds float32"),
    (lambda m, h: m.copy_from(h[::2], count=2), "non-contiguous"),
    (lambda m, h: m.copy_from(list(h), count=2), "okl.Memory or a numpy.ndarray"),
    (lambda m, h: m.copy_from(h, count=2, blocking=None), "blocking must be True or False"),
    (lambda m, h: m.copy_to(h, offset=11), r"offset=11 is outside self"),
    (lambda m, h: m.copy_to(h, dst_offset=15), r"10 elements from self do not fit in dst"),
    (lambda m, h: m.copy_to(h, count=11), r"count=11 from offset=0 runs past the end of self"),
    (lambda m, h: m.copy_to(h.astype(np.int64)), "holds int64 and self holds float64"),
    (lambda m, h: m.copy_to(h.reshape(4, 5).T, count=2), "non-contiguous"),
    (lambda m, h: m.copy_to(_readonly(h), count=2), "read-only"),
    (lambda m, h: m.copy_to(m, count=5, offset=6), "count=5 from offset=6 runs past"),
    (lambda m, h: m[0:4].copy_to(m, dst_offset=8), "4 elements from self do not fit in dst"),
])
@pytest.mark.parametrize("mode", EVERY)
def test_bad_copies(mode, call, match):
    mem = device(mode).zeros(10)
    host = np.zeros(20)
    with pytest.raises(okl.ArgumentError, match=match):
        call(mem, host)


def _readonly(h: np.ndarray) -> np.ndarray:
    out = h.copy()
    out.flags.writeable = False
    return out


def test_copies_between_devices_are_refused():
    skip_unless_available("opencl")
    a = device("opencl").zeros(8)
    c = device("serial").zeros(8)
    for dst, src in ((a, c), (c, a)):
        with pytest.raises(okl.ArgumentError, match="one device"):
            dst.copy_from(src)


def test_devices_on_one_opencl_device_share_its_context_and_copy():
    skip_unless_available("opencl")
    a = device("opencl").zeros(8)
    b = okl.Device("opencl").asarray(np.arange(8.0))  # another Device, the same context
    a.copy_from(b)
    assert np.array_equal(a.get(), np.arange(8.0))


def test_serial_and_openmp_memory_share_the_host():
    skip_unless_available("openmp")
    a = device("serial").asarray(np.arange(4.0))
    b = device("openmp").zeros(4)
    b.copy_from(a)
    assert np.array_equal(b.get(), np.arange(4.0))


# -- set_run_dims -----------------------------------------------------------------------------

@pytest.mark.parametrize("mode", GPU_LIKE)
def test_set_run_dims_checks_computed_sizes(mode):
    dev = device(mode)
    k = dev.build_kernel_from_string(IOTA, "iota")
    x = dev.zeros(64, np.float32)
    try:
        k.set_run_dims(outer=(4,), inner=(16, 1))  # trailing 1s are the same grid
        assert k.run_dims == ((4,), (16, 1))
        k(64, x)
        dev.finish()
        assert np.array_equal(x.get(), np.arange(64))
        with pytest.raises(okl.ArgumentError, match=r"outer=\(3,\), inner=\(16,\)"):
            k(48, x)
        k.set_run_dims(4, 16)  # single sizes for 1-D grids
        k(64, x)
    finally:
        k.set_run_dims(None, None)
    assert k.run_dims is None
    k(48, x)  # unchecked again


@pytest.mark.parametrize("mode", GPU_LIKE)
def test_set_run_dims_constant_sizes_checked_at_once(mode):
    dev = device(mode)
    k = dev.build_kernel_from_string(IOTA, "fixed")
    with pytest.raises(okl.ArgumentError, match=r"\(constants\): outer=\(4,\), inner=\(16,\)"):
        k.set_run_dims((4,), (8,))
    k.set_run_dims((4,), (16,))
    x = dev.zeros(64, np.float32)
    k(x)
    dev.finish()
    assert (x.get() == 1).all()
    k.set_run_dims()


@pytest.mark.parametrize("mode", GPU_LIKE)
def test_set_run_dims_refuses_several_device_kernels(mode):
    k = device(mode).build_kernel_from_string(IOTA, "twice")
    with pytest.raises(okl.ArgumentError, match="2 device kernels"):
        k.set_run_dims((1,), (4,))


@pytest.mark.parametrize("mode", HOST)
def test_set_run_dims_on_cpu_modes_checks_the_form_only(mode):
    dev = device(mode)
    k = dev.build_kernel_from_string(IOTA, "iota")
    x = dev.zeros(64, np.float32)
    k.set_run_dims((99,), (16,))  # no grid on the host: nothing to compare with
    k(64, x)
    k.set_run_dims(None, None)
    assert np.array_equal(x.get(), np.arange(64))


@pytest.mark.parametrize("outer, inner, match", [
    ((0,), (16,), "positive"),
    ((1, 1, 1, 1), (16,), "1 to 3"),
    ((1.5,), (16,), "integers"),
    (None, (16,), "both"),
])
@pytest.mark.parametrize("mode", EVERY)
def test_set_run_dims_bad_forms(mode, outer, inner, match):
    k = kernel(mode)
    with pytest.raises(okl.ArgumentError, match=match):
        k.set_run_dims(outer, inner)
    assert k.run_dims is None


def test_readme_example_runs(capsys):
    """README's "Copies, views and pinned memory" example, as written (serial)."""
    import pathlib
    import re

    skip_unless_available("serial")
    readme = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## Copies, views and pinned memory", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "<README example>", "exec"), {})  # noqa: S102 - our README
    printed = capsys.readouterr().out
    assert "[2. 3. 4. 5.]" in printed and "7. 7." in printed
