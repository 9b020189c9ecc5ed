"""Allocations at the edges of sizes (issue 32): every mode checks a shape's exact byte count
against what the device can give in one buffer, and says both numbers; no wrapped size ever
reaches a backend (okl/runtime/allocation.py)."""

from __future__ import annotations

import numpy as np
import pytest
from modes import device_memo, params

import okl
from okl.runtime import allocation

EVERY = params()
device = device_memo()

#: shapes whose element count or byte count does not fit 64 bits, each of which some backend
#: once turned into a small or negative size
WRAPPING = [((2**62,), np.float32), ((2**32, 2**32), np.float32), ((2**62, 3), np.float32),
            ((2**31, 2**31, 4), np.int8)]


@pytest.mark.parametrize("shape,dtype", WRAPPING, ids=["2^62", "2^32x2^32", "2^62x3", "cube"])
@pytest.mark.parametrize("mode", EVERY)
def test_sizes_that_wrap_are_refused_with_the_bytes(mode, shape, dtype):
    dev = device(mode)
    nbytes = int(np.prod(shape, dtype=object)) * np.dtype(dtype).itemsize
    for make in (dev.malloc, dev.zeros, dev.pinned):
        with pytest.raises(okl.AllocationError) as info:
            make(shape, dtype)
        assert f"{nbytes} bytes" in str(info.value)
        assert isinstance(info.value, MemoryError)  # as numpy's and CuPy's are


@pytest.mark.parametrize("mode", EVERY)
def test_more_than_the_device_gives_names_its_limit(mode):
    dev = device(mode)
    limit, what = allocation.limit_of(dev)
    assert limit is not None and what
    count = limit // 4 + 1  # one float32 more than the limit
    with pytest.raises(okl.AllocationError, match=f"{4 * count} bytes.*more than {limit} "):
        dev.malloc(count, np.float32)


@pytest.mark.parametrize("mode", EVERY)
def test_shapes_at_the_edges(mode):
    dev = device(mode)
    with pytest.raises(ValueError, match="70 dimensions.*at most 32"):
        dev.malloc((1,) * 70, np.float32)
    assert dev.malloc((1,) * 32, np.float32).shape == (1,) * 32
    for make in (dev.malloc, dev.zeros):
        assert make((), np.float64).shape == ()
        assert make((0, 5), np.float32).shape == (0, 5)
    with pytest.raises(ValueError, match="negative"):
        dev.malloc((4, -1))
    with pytest.raises(TypeError, match="integers"):
        dev.malloc(2.5)


@pytest.mark.parametrize("mode", EVERY)
def test_a_zero_dimensional_array_keeps_its_shape(mode):
    """asarray of a 0-d array was (1,) on opencl and () on serial."""
    mem = device(mode).asarray(np.array(3.5))
    assert mem.shape == () and mem.get().shape == () and mem.get() == 3.5


def test_an_allocator_saying_no_becomes_an_allocation_error():
    dev = device("serial")

    def refuse():
        raise MemoryError("Unable to allocate")
    with pytest.raises(okl.AllocationError, match="the device refused.*MemoryError"):
        allocation.allocate(dev, (10,), np.dtype(np.float64), refuse)

    def broken():
        raise RuntimeError("not about memory")
    with pytest.raises(RuntimeError, match="not about memory"):
        allocation.allocate(dev, (10,), np.dtype(np.float64), broken)


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_cpu_buffers_start_on_a_cache_line(mode):
    """numpy's large arrays start 16 bytes past a page; okl's CPU buffers start on a 64-byte
    line (one AVX-512 vector): a blocked sum's unrolled lanes loaded every vector across two
    lines otherwise (okl.runtime.drivers.cpu.aligned_empty)."""
    dev = device(mode)
    made = [dev.malloc(1 << 22, np.float32), dev.zeros((1 << 20, 3), np.float64),
            dev.pinned(1000, np.int8), dev.zeros((), np.int32), dev.malloc(0, np.float32),
            dev.asarray(np.ones(1 << 22, np.float32), copy=True),
            dev.asarray(np.arange(30.0).reshape(5, 6)[:, ::2])]  # not contiguous: a copy
    for m in made:
        data = m if isinstance(m, np.ndarray) else m.handle
        assert data.ctypes.data % 64 == 0 or data.size == 0, (data.shape, data.dtype)
        assert data.flags.c_contiguous and data.flags.writeable
    assert not made[1].get().any() and made[3].get() == 0
    np.testing.assert_array_equal(made[6].get(), np.arange(30.0).reshape(5, 6)[:, ::2])
    shared = np.ones(1 << 20, np.float32)
    assert dev.asarray(shared).handle is shared  # a usable array is still shared, as it is
