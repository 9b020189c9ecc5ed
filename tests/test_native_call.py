"""The native launch path of the CPU modes (okl.runtime.drivers.cpu_native): the common arguments
checked in C, every other call handed to the Python fast path, the same answers and errors."""

from __future__ import annotations

import os
import sysconfig

import numpy as np
import pytest

import okl
from okl.errors import ArgumentError

HEADERS = os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))

SRC = r"""
@kernel void scale(const int n, const double a, const float *x, double *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = a * x[i];
  }
}
@kernel void pairs(const int n, const float2 w, float *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = w.x + w.y * i;
  }
}
"""


def _native(k) -> bool:
    return type(k._entry).__name__ == "NativeCaller"


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_native_path_where_python_headers_are(mode, monkeypatch):
    """Where the interpreter's headers are there (install.sh's Python has them) the call is
    the native one; OKL_NATIVE_CALL=0, or a parameter it does not convert (a float2 by
    value), leaves the Python fast path."""
    dev = okl.Device(mode)
    k = dev.build_kernel_from_string(SRC, "scale")
    assert _native(k) == HEADERS
    assert not _native(dev.build_kernel_from_string(SRC, "pairs"))
    monkeypatch.setenv("OKL_NATIVE_CALL", "0")
    assert not _native(okl.Device(mode).build_kernel_from_string(SRC + "\n", "scale"))


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_bounds_remembered_per_size(mode):
    """The static bounds check runs in the Python path; the native path then compares only
    the array sizes for the same scalar values, and any other value goes back to it."""
    k = okl.Device(mode).build_kernel_from_string(SRC, "scale")
    x = np.arange(32, dtype=np.float32)
    y = np.zeros(32)
    for _ in range(3):
        k(32, 2.0, x, y)
        np.testing.assert_array_equal(y, 2.0 * x)
    with pytest.raises(ArgumentError, match=r"x\[31\]"):
        k(32, 2.0, x[:16].copy(), y)  # same n, a shorter array
    with pytest.raises(ArgumentError, match=r"y\[31\]"):
        k(32, 2.0, x, np.zeros(20))
    y16 = np.zeros(16)
    k(16, 3.0, x[:16].copy(), y16)
    np.testing.assert_array_equal(y16, 3.0 * x[:16])
    with pytest.raises(ArgumentError, match=r"x\[39\]"):
        k(40, 3.0, x, np.zeros(40))
    k(32, 0.5, x, y)  # back to the first size
    np.testing.assert_array_equal(y, 0.5 * x)
    with pytest.raises(ArgumentError, match="argument 4 'y'"):
        k(32, 0.5, x, y.astype(np.float32))
    with pytest.raises(ArgumentError, match="read-only"):
        frozen = y.copy()
        frozen.flags.writeable = False
        k(32, 0.5, x, frozen)


def test_same_answers_as_the_python_path(monkeypatch):
    dev = okl.Device("serial")
    x = np.random.default_rng(2).random(100).astype(np.float32)
    fast = dev.build_kernel_from_string(SRC, "scale")
    monkeypatch.setenv("OKL_NATIVE_CALL", "0")
    slow = okl.Device("serial").build_kernel_from_string(SRC + "\n\n", "scale")
    for args in [(100, 1.25), (np.int32(7), np.float64(-2.0)), (0, 1.0), (99, float("inf"))]:
        a, b = np.full(100, -1.0), np.full(100, -1.0)
        fast(*args, x, a)
        slow(*args, x, b)
        np.testing.assert_array_equal(a, b)


RANGES = r"""
@kernel void part(const int start, const int end, const float *x, double *y) {
  for (int i = start; i < end; ++i; @tile(16, @outer, @inner)) {
    y[i] = 2 * x[i];
  }
}
"""


def _count_calls(monkeypatch, method: str) -> list[bytes]:
    """The argument blocks of every call of Trap.<method> from now on (the launches that
    went through Python), the call itself unchanged."""
    from okl.runtime.drivers.cpu_interrupt import Trap

    seen: list[bytes] = []
    inner = getattr(Trap, method)

    def counted(self, entry, args):
        seen.append(bytes(args))
        inner(self, entry, args)
    monkeypatch.setattr(Trap, method, counted)
    return seen


@pytest.mark.skipif(not HEADERS, reason="no Python.h: no native path")
def test_ranges_launched_in_turn_stay_native(monkeypatch):
    """A host loop launching one kernel over a few ranges in turn (airfoil's colours) takes
    the Python path only for the first launch of each range: the bounds each set of scalar
    values needs are remembered per set, not for the last set only."""
    python_launches = _count_calls(monkeypatch, "call")
    k = okl.Device("serial").build_kernel_from_string(RANGES, "part")
    assert _native(k)
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64)
    ranges = [(0, 10), (10, 40), (40, 41), (41, 64)]
    for _ in range(5):
        for s, e in ranges:
            k(s, e, x, y)
    np.testing.assert_array_equal(y, 2.0 * x)
    assert len(python_launches) == len(ranges)
    with pytest.raises(ArgumentError, match=r"y\[63\]"):
        k(41, 64, x, np.zeros(50))  # a remembered range, a shorter array: checked again


@pytest.mark.skipif(not HEADERS, reason="no Python.h: no native path")
def test_numpy_scalars_stay_native(monkeypatch):
    """numpy scalars of exactly the parameter's dtype (``np.int32(n)``, ``np.float64(a)``:
    what a launch loop over numpy-typed sizes passes) are read in C, with the same answers;
    a scalar of another dtype still goes through the Python path's checks."""
    python_launches = _count_calls(monkeypatch, "call")
    k = okl.Device("serial").build_kernel_from_string(SRC, "scale")
    x = np.arange(32, dtype=np.float32)
    y = np.zeros(32)
    for a in (0.5, -3.25, 2.0):
        for _ in range(3):
            k(np.int32(32), np.float64(a), x, y)
            np.testing.assert_array_equal(y, a * x)
    assert len(python_launches) == 3
    k(np.int64(16), np.float32(1.5), x, y)  # other dtypes: the Python path's conversion
    np.testing.assert_array_equal(y[:16], 1.5 * x[:16])
    assert len(python_launches) == 4
    with pytest.raises(ArgumentError, match=r"x\[31\]"):
        k(np.int32(32), np.float64(2.0), x[:16].copy(), y)


def test_python_path_remembers_ranges_in_turn(monkeypatch):
    """The Python launch path (OKL_NATIVE_CALL=0) also keeps Python's SIGINT handler for a
    quick launch like one of its recent ones, not only like the last one: a loop over four
    ranges in turn installs the kernel's handler about once per range, not every launch."""
    monkeypatch.setenv("OKL_NATIVE_CALL", "0")
    trapped = _count_calls(monkeypatch, "_trapped")
    k = okl.Device("serial").build_kernel_from_string(RANGES + "\n", "part")
    assert not _native(k)
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64)
    for _ in range(10):
        for s, e in [(0, 10), (10, 40), (40, 41), (41, 64)]:
            k(s, e, x, y)
    np.testing.assert_array_equal(y, 2.0 * x)
    # 4 first launches; a launch that happened to take over a millisecond on a busy
    # machine is trapped again next time (the old path trapped all 40)
    assert len(trapped) <= 12


ROWS = r"""
@kernel void rows(const int n, const double4 *q, double4 *out, double *norm) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    const double4 r = q[i];
    out[i] = make_double4(2 * r.x, 2 * r.y, 2 * r.z, 2 * r.w);
    norm[i] = r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w;
  }
}
"""


@pytest.mark.skipif(not HEADERS, reason="no Python.h: no native path")
@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_vector_rows_as_arrays_of_their_component_stay_native(mode, monkeypatch):
    """A ``double4 *`` parameter takes an array of float64, four values per element (what
    numpy code passes for rows: airfoil's q); such launches are checked in C like any other
    array (they took the Python path's full argument check every time: 14.6 us against
    0.7 us for a launch of airfoil's update on the VM).  The vector dtype's own arrays are
    still accepted, through Python; other dtypes and short arrays are still refused."""
    python_launches = _count_calls(monkeypatch, "call")
    k = okl.Device(mode).build_kernel_from_string(ROWS, "rows")
    assert _native(k)
    q = np.random.default_rng(3).random(4 * 40)
    out, norm = np.zeros(4 * 40), np.zeros(40)
    for _ in range(4):
        k(40, q, out, norm)
    np.testing.assert_array_equal(out, 2 * q)
    np.testing.assert_allclose(norm, (q.reshape(40, 4) ** 2).sum(axis=1), rtol=1e-15)
    assert len(python_launches) == 1  # the first launch of these sizes: the bounds check
    d4 = np.dtype([("x", "f8"), ("y", "f8"), ("z", "f8"), ("w", "f8")])
    out4 = np.zeros(40, d4)
    k(40, q.view(d4), out4, norm)
    np.testing.assert_array_equal(out4.view(np.float64), 2 * q)
    assert len(python_launches) == 2
    with pytest.raises(ArgumentError, match=r"q\[39\]"):
        k(40, q[:4 * 39].copy(), out, norm)
    with pytest.raises(ArgumentError, match="argument 2 'q'.*float32"):
        k(40, q.astype(np.float32), out, norm)


def test_vector_rows_as_arrays_of_their_component_on_the_python_path(monkeypatch):
    """The Python fast path (OKL_NATIVE_CALL=0) too takes such an array with its inline
    test, without the full argument check of every launch."""
    from okl.runtime.launch import args

    monkeypatch.setenv("OKL_NATIVE_CALL", "0")
    checks = []
    full = args.check_array
    monkeypatch.setattr(args, "check_array", lambda *a, **k: (checks.append(a), full(*a, **k)))
    k = okl.Device("serial").build_kernel_from_string(ROWS + "\n", "rows")
    assert not _native(k)
    q = np.arange(4 * 40, dtype=np.float64)
    out, norm = np.zeros(4 * 40), np.zeros(40)
    for _ in range(4):
        k(40, q, out, norm)
    np.testing.assert_array_equal(out, 2 * q)
    assert checks == []
    with pytest.raises(ArgumentError, match="argument 3 'out'.*float32"):
        k(40, q, out.astype(np.float32), norm)
