"""The runtime through real kernels: backends, devices, memory, argument checks, errors, host
code, the two-level cache, ``oklc info/build/cache`` and the README example.

CPU modes (serial, openmp, opencl on pocl) run here; tests that make sense on a GPU are also
parametrized over cuda and hip (marked ``gpu``), and skip visibly when those are unavailable.
``OKL_TEST_MODES`` narrows the modes, as for tests/test_execute.py.  Every test uses a cache
directory of its own (``OKL_CACHE_DIR``), never the user's.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner
from modes import GPU as GPU_MODES
from modes import device_memo, private_cache
from modes import params as _params
from modes import skip_unless_available as _skip_unless_available

import okl
from okl.cli import main as oklc
from okl.runtime.cache import Cache, forget_memos

ROOT = pathlib.Path(__file__).resolve().parent.parent
ALL_MODES = ("serial", "openmp", "opencl", "cuda", "hip")
BACKENDS = {b.name: b for b in okl.backends()}


EVERY = _params(ALL_MODES)  # the device API
CPU = _params(("serial", "openmp", "opencl"))
HOST = _params(("serial", "openmp"))  # host memory is device memory
NOT_HOST = _params(("opencl", "cuda", "hip"))


@pytest.fixture(scope="module", autouse=True)
def module_cache(tmp_path_factory):
    """Keep the whole module away from the user's cache."""
    with private_cache(tmp_path_factory.mktemp("okl-cache")) as root:
        yield root


device = device_memo()


AXPY = r"""
@kernel void axpy(const int n, const float alpha, const float *x, float *y, int *hits) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = alpha * x[i] + y[i];
    if (hits != 0) hits[i] += 1;
  }
}
"""
AXPY_SIGNATURE = "axpy(const int n, const float alpha, const float *x, float *y, int *hits)"


def _axpy(mode: str):
    return device(mode).build_kernel_from_string(AXPY, "axpy")


# -- backends and devices ------------------------------------------------------------------------

def test_backends_lists_the_five_modes_with_reasons():
    table = okl.backends()
    assert [b.name for b in table] == list(ALL_MODES)
    for b in table:
        assert isinstance(b.available, bool)
        assert b.reason.strip(), f"{b.name} has no reason text"
        if not b.available:
            assert b.reason != "available"
            assert b.name in str(b) and b.reason in str(b)  # what `oklc info` prints
    for mode in ("serial", "openmp"):  # a C compiler with OpenMP is part of the test set-up
        assert BACKENDS[mode].available, BACKENDS[mode].reason


@pytest.mark.skipif(importlib.util.find_spec("cupy") is not None, reason="CuPy is installed")
def test_gpu_modes_without_cupy_say_how_to_fix():
    for mode in GPU_MODES:
        info = BACKENDS[mode]
        from okl.install import install_hint

        extra = install_hint("rocm" if mode == "hip" else "cuda12")
        assert not info.available
        assert extra in info.reason
        with pytest.raises(okl.BackendUnavailableError, match=re.escape(extra)):
            okl.Device(mode)


@pytest.mark.parametrize("spelling,mode", [("OpenMP", "openmp"), ("SERIAL", "serial"),
                                           (" OpenCL ", "opencl"), ("CUDA", "cuda"),
                                           ("Hip", "hip")])
def test_mode_names_are_case_insensitive(spelling, mode):
    if BACKENDS[mode].available:
        assert okl.Device(spelling).mode == mode
    else:  # recognised (not "unknown mode"): it fails with the mode's own reason
        with pytest.raises(okl.BackendUnavailableError) as err:
            okl.Device(spelling)
        assert str(err.value) == BACKENDS[mode].reason


@pytest.mark.parametrize("mode", ALL_MODES)
def test_unavailable_mode_raises_never_falls_back(mode):
    if BACKENDS[mode].available:
        pytest.skip(f"{mode} is available here")
    with pytest.raises(okl.BackendUnavailableError) as err:
        okl.Device(mode)
    assert BACKENDS[mode].reason in str(err.value)


@pytest.mark.parametrize("mode", ["metal", "", "cuda12", "auto-ish"])
def test_unknown_mode_raises(mode):
    with pytest.raises(okl.OKLError, match="unknown mode") as err:
        okl.Device(mode)
    assert "serial, openmp, opencl, cuda, hip" in str(err.value)


def test_auto_picks_a_mode_that_works():
    dev = okl.Device("auto")
    assert BACKENDS[dev.mode].available
    preferred = [m for m in ("cuda", "hip", "opencl", "openmp", "serial")
                 if BACKENDS[m].available]
    assert dev.mode == preferred[0]
    k = dev.build_kernel_from_string(AXPY, "axpy")
    y = dev.asarray(np.ones(5, np.float32))
    k(5, 2.0, dev.asarray(np.arange(5, dtype=np.float32)), y, okl.NULL)
    np.testing.assert_array_equal(y.get(), 1 + 2 * np.arange(5, dtype=np.float32))


def test_device_properties_are_checked():
    with pytest.raises(okl.BackendUnavailableError, match="no-such-cc"):
        okl.Device("serial", compiler="no-such-cc")
    if BACKENDS["opencl"].available:
        with pytest.raises(okl.BackendUnavailableError, match="device_id 99"):
            okl.Device("opencl", device_id=99)
        with pytest.raises(okl.BackendUnavailableError, match="platform_id 99"):
            okl.Device("opencl", platform_id=99)
    # compiler_flags replace the defaults and reach the compiler
    dev = okl.Device("serial", compiler_flags="-O0 -DOKL_TEST_FLAG=1")
    assert dev.backend.flags == ["-O0", "-DOKL_TEST_FLAG=1"]
    with pytest.raises(okl.BuildError, match="no-such-flag"):
        okl.Device("serial", compiler_flags="-fno-such-flag").build_kernel_from_string(
            AXPY, "axpy")


# -- memory --------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", EVERY)
def test_malloc_count_and_shape(mode):
    dev = device(mode)
    m = dev.malloc(10, np.float32)
    assert (m.shape, m.size, m.nbytes, m.dtype) == ((10,), 10, 40, np.dtype(np.float32))
    m2 = dev.malloc((3, 4), np.int64)
    assert (m2.shape, m2.size, m2.nbytes, m2.dtype) == ((3, 4), 12, 96, np.dtype(np.int64))
    m3 = dev.malloc(np.int32(7), "f8")
    assert m3.shape == (7,) and all(type(n) is int for n in m3.shape)
    assert dev.malloc(0, np.float32).get().shape == (0,)
    with pytest.raises(TypeError):
        dev.malloc(2.5)
    with pytest.raises(ValueError):
        dev.malloc(-1)


@pytest.mark.parametrize("mode", EVERY)
def test_asarray_get_set(mode):
    dev = device(mode)
    host = np.arange(12, dtype=np.float64).reshape(3, 4)
    m = dev.asarray(host, copy=True)  # serial/openmp share host without copy=True
    assert m.shape == (3, 4) and m.dtype == np.float64
    got = m.get()
    np.testing.assert_array_equal(got, host)
    got[0, 0] = 99  # get() is a copy
    assert m.get()[0, 0] == 0
    m.set(host * 2)
    np.testing.assert_array_equal(m.get(), host * 2)
    m.set((host * 3).ravel())  # same dtype and size, another shape: accepted
    np.testing.assert_array_equal(m.get(), host * 3)
    view = np.arange(24, dtype=np.float64)[::2]  # non-contiguous input is copied
    np.testing.assert_array_equal(dev.asarray(view).get(), view)
    with pytest.raises(okl.ArgumentError, match="float32"):
        m.set(host.astype(np.float32))
    with pytest.raises(okl.ArgumentError, match="holds float64 x 12"):
        m.set(np.zeros(11))
    np.testing.assert_array_equal(m.get(), host * 3)  # a refused set changes nothing
    np.testing.assert_array_equal(dev.zeros((2, 2), np.int32).get(), np.zeros((2, 2)))


ITEM = np.dtype([("tag", np.int8), ("value", np.float64), ("count", np.int32)], align=True)
PARAMS = np.dtype([("x", np.float32), ("n", np.int32), ("w", np.float64)], align=True)
STRUCTS = r"""
typedef struct { char tag; double value; int count; } Item;
typedef struct { float x; int n; double w; } Params;

@kernel void weigh(const int N, const Params p, const Item *items, double *out, int *tags) {
  for (int i = 0; i < N; ++i; @tile(16, @outer, @inner)) {
    out[i] = p.x * items[i].value + p.n * items[i].count + p.w;
    tags[i] = items[i].tag;
  }
}

@kernel void echo(const Params p, const Item it, double *out) {
  for (int b = 0; b < 1; ++b; @outer) {
    for (int t = 0; t < 1; ++t; @inner) {
      out[0] = p.x; out[1] = p.n; out[2] = p.w;
      out[3] = it.tag; out[4] = it.value; out[5] = it.count;
    }
  }
}
"""


def _items(n: int) -> np.ndarray:
    items = np.zeros(n, ITEM)
    items["tag"] = np.arange(n) % 100 - 50
    items["value"] = np.linspace(-1.0, 2.0, n)
    items["count"] = np.arange(n) * 3
    return items


@pytest.mark.parametrize("mode", EVERY)
def test_structured_memory_and_struct_fields(mode):
    dev = device(mode)
    assert ITEM.itemsize == 24  # char, 7 bytes of padding, double, int, 4 bytes of padding
    items = _items(37)
    mem = dev.asarray(items, copy=True)  # serial/openmp share host without copy=True
    assert mem.dtype == ITEM and mem.shape == (37,) and mem.nbytes == 37 * 24
    np.testing.assert_array_equal(mem.get(), items)
    k = dev.build_kernel_from_string(STRUCTS, "weigh")
    p = np.array((1.5, 3, 0.25), PARAMS)[()]
    out, tags = dev.malloc(37, np.float64), dev.malloc(37, np.int32)
    k(37, p, mem, out, tags)
    dev.finish()
    np.testing.assert_allclose(out.get(), 1.5 * items["value"] + 3 * items["count"] + 0.25)
    np.testing.assert_array_equal(tags.get(), items["tag"])
    mem.set(items[::-1])  # set() of a structured array
    np.testing.assert_array_equal(mem.get(), items[::-1])


@pytest.mark.parametrize("mode", EVERY)
@pytest.mark.parametrize("form", ["numpy.void", "0-d array", "dict", "tuple"])
def test_struct_by_value_arrives(mode, form):
    dev = device(mode)
    k = dev.build_kernel_from_string(STRUCTS, "echo")
    pvals, ivals = (2.5, -7, 1e-3), (-5, 6.25, 123456)
    p, it = np.array(pvals, PARAMS), np.array(ivals, ITEM)
    if form == "numpy.void":
        p, it = p[()], it[()]
    elif form == "dict":
        p, it = dict(zip(PARAMS.names, pvals, strict=True)), \
            dict(zip(ITEM.names, ivals, strict=True))
    elif form == "tuple":
        p, it = pvals, ivals
    out = dev.zeros(6, np.float64)
    k(p, it, out)
    dev.finish()
    np.testing.assert_array_equal(out.get(), [2.5, -7, 1e-3, -5, 6.25, 123456])


@pytest.mark.parametrize("mode", CPU)
def test_struct_layout_mismatch_is_refused(mode):
    dev = device(mode)
    k = dev.build_kernel_from_string(STRUCTS, "weigh")
    packed = np.zeros(4, [("tag", "i1"), ("value", "f8"), ("count", "i4")])  # align=False
    out, tags = dev.malloc(4, np.float64), dev.malloc(4, np.int32)
    p = np.zeros((), PARAMS)[()]
    with pytest.raises(okl.ArgumentError) as err:
        k(4, p, dev.asarray(packed), out, tags)
    assert ("argument 3 'items' (const Item *): got okl.Memory whose size is 13 bytes, the C "
            "struct's is 24") in str(err.value)
    assert "align=True" in str(err.value)
    shifted = np.dtype({"names": ["tag", "value", "count"], "formats": ["i1", "f8", "i4"],
                        "offsets": [0, 4, 12], "itemsize": 24})  # same size, other offsets
    with pytest.raises(okl.ArgumentError, match="field 'value' is at offset 4, the C struct "
                                                "has it at 8"):
        k(4, p, dev.asarray(np.zeros(4, shifted)), out, tags)
    with pytest.raises(okl.ArgumentError, match=r"argument 2 'p' \(const Params\): got dict "
                                                "without field 'w'"):
        k(4, {"x": 1.0, "n": 2}, dev.asarray(_items(4)), out, tags)


# -- where memory lives --------------------------------------------------------------------------

@pytest.mark.parametrize("mode", HOST)
def test_host_modes_take_numpy_arrays_directly(mode):
    k = _axpy(mode)
    x = np.arange(40, dtype=np.float32)
    y = np.ones(40, np.float32)
    hits = np.zeros(40, np.int32)
    k(40, 0.5, x, y, hits)  # no copies: the kernel writes into these very arrays
    np.testing.assert_array_equal(y, 1 + 0.5 * x)
    np.testing.assert_array_equal(hits, 1)
    mem = device(mode).asarray(x)  # okl.Memory and numpy arrays mix
    k(40, 1.0, mem, y, okl.NULL)
    np.testing.assert_array_equal(y, 1 + 1.5 * x)
    with pytest.raises(okl.ArgumentError, match="non-contiguous"):
        k(20, 1.0, x[::2], y[:20], okl.NULL)


@pytest.mark.parametrize("mode", NOT_HOST)
def test_device_modes_refuse_host_arrays_with_a_hint(mode):
    dev = device(mode)
    k = _axpy(mode)
    y = dev.zeros(8, np.float32)
    with pytest.raises(okl.ArgumentError) as err:
        k(8, 1.0, np.ones(8, np.float32), y, okl.NULL)
    text = str(err.value)
    assert "argument 3 'x' (const float *): got a host numpy.ndarray" in text
    assert "dev.asarray(x)" in text


@pytest.mark.parametrize("mode,other", [("serial", "opencl"), ("openmp", "opencl"),
                                        ("opencl", "serial"), ("opencl", "openmp")])
def test_memory_of_another_device_kind_is_refused(mode, other):
    k = _axpy(mode)
    dev, foreign = device(mode), device(other)
    x = foreign.asarray(np.ones(8, np.float32))
    with pytest.raises(okl.ArgumentError) as err:
        k(8, 1.0, x, dev.zeros(8, np.float32), okl.NULL)
    assert "argument 3 'x' (const float *): got " in str(err.value)
    assert "okl.Memory" in str(err.value)


def test_memory_of_another_opencl_context_is_refused():
    import pyopencl as cl
    dev = device("opencl")
    foreign = cl.Context([dev.backend.cl_device])  # a second context, even on the same device
    k = _axpy("opencl")
    with pytest.raises(okl.ArgumentError, match="argument 4 'y' .*on device"):
        k(4, 1.0, dev.zeros(4, np.float32), cl.Buffer(foreign, cl.mem_flags.READ_WRITE, 16),
          okl.NULL)


def test_opencl_devices_of_one_device_share_context_programs_and_buffers():
    """A second Device on the same OpenCL device shares the first one's context: its build
    of the same kernel reuses the program (no binary load), and buffers pass between them."""
    _skip_unless_available("opencl")
    first = okl.Device("opencl")
    second = okl.Device("opencl")
    assert first.backend.context is second.backend.context
    assert first.backend.queue is not second.backend.queue
    k1 = first.build_kernel_from_string(AXPY, "axpy")
    k2 = second.build_kernel_from_string(AXPY, "axpy")
    assert k2.build_hit is True and k2._module is k1._module
    y = first.zeros(4, np.float32)
    k2(4, 1.0, second.asarray(np.ones(4, np.float32)), y, okl.NULL)
    second.finish()
    np.testing.assert_array_equal(y.get(), 1.0)


def test_opencl_takes_pyopencl_arrays_buffers_and_views():
    cla = pytest.importorskip("pyopencl.array")
    dev = device("opencl")
    backend = dev.backend
    k = _axpy("opencl")
    x = cla.to_device(backend.queue, np.arange(256, dtype=np.float32))
    y = cla.zeros(backend.queue, 256, np.float32)
    k(256, 2.0, x, y, okl.NULL)
    np.testing.assert_array_equal(y.get(), 2 * np.arange(256, dtype=np.float32))
    # a raw buffer is untyped: accepted for any pointee type
    k(256, 1.0, x, y.base_data, okl.NULL)
    np.testing.assert_array_equal(y.get(), 3 * np.arange(256, dtype=np.float32))
    # a view that starts inside its buffer must be seen from its own first element
    tail = y[128:]
    k(128, 1.0, x, tail, okl.NULL)
    want = 3 * np.arange(256, dtype=np.float32)
    want[128:] += np.arange(128, dtype=np.float32)
    np.testing.assert_array_equal(y.get(), want)
    with pytest.raises(okl.ArgumentError, match="non-contiguous pyopencl.array.Array"):
        k(128, 1.0, x[::2], y[:128], okl.NULL)


# -- argument checks through real kernels --------------------------------------------------------

def _where(mode: str):
    """x, y and hits for axpy on this mode, and how to read y back."""
    dev = device(mode)
    return (dev.asarray(np.arange(8, dtype=np.float32)), dev.zeros(8, np.float32),
            dev.zeros(8, np.int32))


ARG_CASES = [
    # id, arguments (x, y and h stand for the arrays), fragments of the message
    ("too few", ("n", 1.0, "x", "y"),
     ["kernel 'axpy' takes 5 arguments, got 4", AXPY_SIGNATURE]),
    ("too many", ("n", 1.0, "x", "y", None, 7),
     ["kernel 'axpy' takes 5 arguments, got 6", AXPY_SIGNATURE]),
    ("float for int", (8.0, 1.0, "x", "y", None),
     ["argument 1 'n' (const int): got float 8.0", "never converted to an integer"]),
    ("3e9 for int", (3e9, 1.0, "x", "y", None),
     ["argument 1 'n' (const int): got float 3000000000.0"]),
    ("int 3e9 for int", (3_000_000_000, 1.0, "x", "y", None),
     ["argument 1 'n' (const int): got int 3000000000", "out of range for int32"]),
    ("bool for float", ("n", True, "x", "y", None),
     ["argument 2 'alpha' (const float): got bool True"]),
    ("float64 scalar for float", ("n", np.float64(0.1), "x", "y", None),
     ["argument 2 'alpha' (const float): got numpy.float64 0.1", "cannot hold exactly",
      "numpy.float32(x)"]),
    ("float32 scalar for int", (np.float32(8), 1.0, "x", "y", None),
     ["argument 1 'n' (const int): got numpy.float32 8.0", "not the same kind"]),
    ("int64 scalar out of range", (np.int64(2**40), 1.0, "x", "y", None),
     ["argument 1 'n' (const int): got numpy.int64 1099511627776", "out of range"]),
    ("string for float", ("n", "1.0", "x", "y", None),
     ["argument 2 'alpha' (const float): got str — pass numpy.float32(x)"]),
    ("wrong pointee dtype", ("n", 1.0, "x64", "y", None),
     ["argument 3 'x' (const float *): got okl.Memory of float64", "x.astype(numpy.float32)"]),
    ("wrong pointee dtype (int)", ("n", 1.0, "x", "y", "y"),
     ["argument 5 'hits' (int *): got okl.Memory of float32"]),
    ("scalar for pointer", ("n", 1.0, 3.0, "y", None),
     ["argument 3 'x' (const float *): got float 3.0", "or okl.NULL"]),
    ("list for pointer", ("n", 1.0, [1.0, 2.0], "y", None),
     ["argument 3 'x' (const float *): got list", "or okl.NULL"]),
]


@pytest.mark.parametrize("mode", EVERY)
@pytest.mark.parametrize("case", ARG_CASES, ids=[c[0] for c in ARG_CASES])
def test_argument_rules(mode, case):
    _, args, fragments = case
    k = _axpy(mode)
    x, y, h = _where(mode)
    before = y.get()
    names = {"n": 8, "x": x, "y": y, "h": h, "x64": device(mode).zeros(8, np.float64)}
    actual = [names[a] if isinstance(a, str) and a in names else a for a in args]
    with pytest.raises(okl.ArgumentError) as err:
        k(*actual)
    assert isinstance(err.value, TypeError)  # ArgumentError is a TypeError too
    for fragment in fragments:
        assert fragment in str(err.value)
    np.testing.assert_array_equal(y.get(), before)  # nothing was launched


@pytest.mark.parametrize("mode", EVERY)
def test_accepted_conversions_give_exact_values(mode):
    k = _axpy(mode)
    x, y, h = _where(mode)
    xs = np.arange(8, dtype=np.float32)
    k(np.int64(8), np.float64(0.5), x, y, h)  # exact numpy scalars of another dtype
    k(np.int16(8), 2, x, y, h)  # a Python int for float: exact
    k(True, np.float32(1.0), x, y, h)  # bool for int: n = 1
    device(mode).finish()
    want = 2.5 * xs
    want[0] += 1.0 * xs[0]
    np.testing.assert_array_equal(y.get(), want)
    np.testing.assert_array_equal(h.get(), [3] + [2] * 7)


@pytest.mark.parametrize("mode", EVERY)
def test_null_is_okl_null_and_none_is_refused(mode):
    k = _axpy(mode)
    x, y, h = _where(mode)
    with pytest.raises(okl.ArgumentError, match=r"argument 5 .*got None — .*okl\.NULL"):
        k(8, 1.0, x, y, None)
    k(8, 1.0, x, y, okl.NULL)
    k(8, 1.0, x, y, h)
    device(mode).finish()
    np.testing.assert_array_equal(y.get(), 2 * np.arange(8, dtype=np.float32))
    np.testing.assert_array_equal(h.get(), 1)  # only the second launch counted


@pytest.mark.parametrize("mode", HOST)
def test_readonly_and_noncontiguous_arrays(mode):
    k = _axpy(mode)
    x = np.arange(8, dtype=np.float32)
    x.flags.writeable = False
    y = np.zeros(8, np.float32)
    k(8, 1.0, x, y, okl.NULL)  # read-only is fine for a const pointer
    np.testing.assert_array_equal(y, x)
    frozen = y.copy()
    frozen.flags.writeable = False
    with pytest.raises(okl.ArgumentError) as err:
        k(8, 1.0, x, frozen, okl.NULL)
    assert "argument 4 'y' (float *): got a read-only numpy.ndarray" in str(err.value)
    assert "declare the parameter const" in str(err.value)
    wide = np.zeros(16, np.float32)
    with pytest.raises(okl.ArgumentError) as err:
        k(8, 1.0, x, wide[::2], okl.NULL)
    assert "argument 4 'y' (float *): got a non-contiguous numpy.ndarray" in str(err.value)
    assert not wide.any()
    with pytest.raises(okl.ArgumentError, match=r"argument 3 'x' \(const float \*\): got "
                                                r"numpy.ndarray of float64"):
        k(8, 1.0, np.zeros(8), y, okl.NULL)


@pytest.mark.parametrize("mode", EVERY)
def test_keyword_arguments(mode):
    k = _axpy(mode)
    x, y, h = _where(mode)
    k(n=8, alpha=1.0, x=x, y=y, hits=okl.NULL)
    k(8, 1.0, hits=h, y=y, x=x)
    device(mode).finish()
    np.testing.assert_array_equal(y.get(), 2 * np.arange(8, dtype=np.float32))
    np.testing.assert_array_equal(h.get(), 1)
    with pytest.raises(okl.ArgumentError, match="has no parameter 'beta'") as err:
        k(8, 1.0, x, y, hits=okl.NULL, beta=2)
    assert AXPY_SIGNATURE in str(err.value)
    with pytest.raises(okl.ArgumentError, match="got argument 'n' twice"):
        k(8, 1.0, x, y, None, n=8)
    with pytest.raises(okl.ArgumentError, match="missing argument 'hits'") as err:
        k(8, 1.0, x=x, y=y)
    assert AXPY_SIGNATURE in str(err.value)
    with pytest.raises(okl.ArgumentError, match=r"argument 2 'alpha' \(const float\): got "
                                                "numpy.float64"):
        k(n=8, alpha=np.float64(0.1), x=x, y=y, hits=okl.NULL)


# -- errors --------------------------------------------------------------------------------------

BAD_C = """\
// calls a function that nobody defines: the translation is fine, the C build is not
@kernel void bad(const int N, float *x) {
  for (int i = 0; i < N; ++i; @tile(16, @outer, @inner)) {
    x[i] = undefined_function(x[i]);
  }
}
"""


@pytest.mark.parametrize("mode", CPU)
def test_build_error_shows_the_compiler_log_at_the_okl_file(mode, tmp_path):
    path = tmp_path / "badcall.okl"
    path.write_text(BAD_C)
    dev = device(mode)
    with pytest.raises(okl.BuildError) as err:
        dev.build_kernel(path, "bad")
    e = err.value
    text = str(e)
    assert re.search(r"badcall\.okl:4:\d+:? .*undefined_function", text), text  # its line
    assert "undefined_function" in e.log
    assert e.command and isinstance(e.command, list)
    assert isinstance(e.returncode, int) and e.returncode != 0
    assert e.source_path and os.path.exists(e.source_path)
    with open(e.source_path, encoding="utf-8") as f:
        assert "undefined_function" in f.read()
    assert e.source_path in text
    if mode != "opencl":
        assert os.path.basename(e.command[0]) in text  # the command is shown
    # a failed build is never cached: it fails the same way again, from a fresh Device
    with pytest.raises(okl.BuildError):
        okl.Device(mode).build_kernel(path, "bad")


def test_translation_error_has_diagnostics(tmp_path):
    path = tmp_path / "broken.okl"
    path.write_text("@kernel void k(const int n, float *x) {\n"
                    "  for (int i = 0; i < n; ++i; @outer) {\n"
                    "    x[i] = 1.0f;\n"
                    "  }\n}\n")
    with pytest.raises(okl.TranslationError) as err:
        device("serial").build_kernel(path, "k")
    assert err.value.diagnostics
    d = err.value.diagnostics[0]
    assert d.severity == "error" and d.loc.file.endswith("broken.okl") and d.loc.line >= 1
    assert "broken.okl:" in str(err.value) and "@inner" in str(err.value)
    with pytest.raises(okl.TranslationError, match=r"<string>:1:\d+: error: syntax error"):
        device("serial").build_kernel_from_string(
            "@kernel void k(float *x) { x[0] = ; }", "k")


def test_missing_kernel_name_is_an_okl_error():
    with pytest.raises(okl.OKLError, match=r"no @kernel named 'nope'.*kernels: axpy"):
        device("serial").build_kernel_from_string(AXPY, "nope")


def test_kernel_from_a_file_without_kernels_is_an_okl_error():
    """Translating such a file only warns; building a kernel from it names the missing one."""
    with pytest.raises(okl.OKLError, match=r"no @kernel named 'k'.*kernels: none"):
        device("serial").build_kernel_from_string("float twice(float v) { return 2 * v; }",
                                                  "k")


# -- host code -----------------------------------------------------------------------------------

MULTI = r"""
// several top-level @outer loops; host scalars computed before an @outer loop and used in
// it (OCCA issue #86); an @outer loop launched from a host for loop, inside an if
@kernel void multi(const int N, const int reps, const float *a, float *b, float *c,
                   int *flags) {
  const int half = N / 2;
  const float scale = 2.0f * reps;
  for (int o = 0; o < N; o += 8; @outer) {
    for (int i = o; i < o + 8; ++i; @inner) {
      if (i < N) b[i] = scale * a[i] + half;
    }
  }
  for (int r = 0; r < reps; ++r) {
    const float shift = r * 0.5f;
    if (r % 2 == 0) {
      for (int o = 0; o < N; o += 8; @outer) {
        for (int i = o; i < o + 8; ++i; @inner) {
          if (i < N) c[i] += b[i] + shift;
        }
      }
    } else {
      for (int o = 0; o < N; o += 8; @outer) {
        for (int i = o; i < o + 8; ++i; @inner) {
          if (i < N) c[i] -= 1.0f;
        }
      }
    }
  }
  for (int o = 0; o < 1; ++o; @outer) {
    for (int i = 0; i < 1; ++i; @inner) {
      flags[0] = half;
      flags[1] = reps;
    }
  }
}
"""


@pytest.mark.parametrize("mode", EVERY)
@pytest.mark.parametrize("n,reps", [(37, 5), (8, 0), (1, 2)])
def test_host_code_around_outer_loops(mode, n, reps):
    dev = device(mode)
    k = dev.build_kernel_from_string(MULTI, "multi")
    if mode not in ("serial", "openmp"):
        assert len(k.spec.device_kernels) == 4  # one device kernel per @outer loop
    a = np.random.default_rng(n).random(n, dtype=np.float32)
    b = 2.0 * reps * a + n // 2
    c = np.zeros(n, np.float32)
    for r in range(reps):
        c = c + b + r * 0.5 if r % 2 == 0 else c - 1
    B, C, F = dev.malloc(n, np.float32), dev.zeros(n, np.float32), dev.zeros(2, np.int32)
    k(n, reps, dev.asarray(a), B, C, F)
    dev.finish()
    np.testing.assert_allclose(B.get(), b, rtol=1e-6)
    np.testing.assert_allclose(C.get(), c, rtol=1e-5)
    np.testing.assert_array_equal(F.get(), [n // 2, reps])


# -- cache ---------------------------------------------------------------------------------------

SCALE = """\
#include "coef.h"
@kernel void scale(const int n, const float *x, float *y) {
  for (int i = 0; i < n; ++i; @tile(32, @outer, @inner)) {
    y[i] = COEF * x[i];
  }
}
"""


def _kernel_dir(root: pathlib.Path, coef: str = "2.0f") -> pathlib.Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "scale.okl").write_text(SCALE)
    (root / "coef.h").write_text(f"#define COEF {coef}\n")
    return root / "scale.okl"


def _run_scale(dev: okl.Device, kernel) -> np.ndarray:
    x = np.arange(100, dtype=np.float32)
    y = dev.zeros(100, np.float32)
    kernel(100, dev.asarray(x), y)
    return y.get() / np.maximum(x, 1)


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("OKL_CACHE_DIR", str(root))
    return root


@pytest.mark.parametrize("mode", CPU)
def test_second_device_hits_both_levels(mode, fresh_cache, tmp_path):
    _skip_unless_available(mode)
    path = _kernel_dir(tmp_path / "k")
    k1 = okl.Device(mode).build_kernel(path, "scale")
    assert (k1.translation_hit, k1.cache_hit) == (False, False)
    dev2 = okl.Device(mode)
    assert dev2.cache.root == fresh_cache
    k2 = dev2.build_kernel(path, "scale")
    assert k2 is not k1 and k2.translation_hit
    assert k1.build_hit is False and k2.build_hit is True  # OpenCL: the program binary
    assert k2.cache_hit
    np.testing.assert_allclose(_run_scale(dev2, k2)[1:], 2.0)
    info = Cache().info()["levels"]
    assert info["translation"]["entries"] == 1
    assert info["build"]["entries"] == 1


def test_repeated_build_kernel_is_memoized(fresh_cache, tmp_path):
    path = _kernel_dir(tmp_path / "k")
    dev = okl.Device("serial")
    k = dev.build_kernel(path, "scale")
    assert dev.build_kernel(path, "scale") is k
    assert dev.build_kernel(str(path), "scale") is k
    assert dev.build_kernel(path, "scale", defines={"UNUSED": 1}) is not k
    s = dev.build_kernel_from_string(AXPY, "axpy")
    assert dev.build_kernel_from_string(AXPY, "axpy") is s
    assert okl.Device("serial").build_kernel(path, "scale") is not k  # per Device


def test_editing_an_included_header_invalidates_the_translation(fresh_cache, tmp_path):
    path = _kernel_dir(tmp_path / "k", "2.0f")
    dev1 = okl.Device("serial")
    k1 = dev1.build_kernel(path, "scale")
    np.testing.assert_allclose(_run_scale(dev1, k1)[1:], 2.0)
    (tmp_path / "k" / "coef.h").write_text("#define COEF 3.0f\n")
    k2 = okl.Device("serial").build_kernel(path, "scale")
    assert not k2.translation_hit and not k2.cache_hit
    np.testing.assert_allclose(_run_scale(dev1, k2)[1:], 3.0)
    # the same Device notices too (its memo checks the included files)
    (tmp_path / "k" / "coef.h").write_text("#define COEF 4.5f\n")
    k3 = dev1.build_kernel(path, "scale")
    assert k3 is not k1
    np.testing.assert_allclose(_run_scale(dev1, k3)[1:], 4.5)


def test_same_text_in_another_folder_uses_its_own_header(fresh_cache, tmp_path, monkeypatch):
    _kernel_dir(tmp_path / "a", "2.0f")
    _kernel_dir(tmp_path / "b", "5.0f")
    monkeypatch.chdir(tmp_path / "a")
    dev = okl.Device("serial")
    np.testing.assert_allclose(_run_scale(dev, dev.build_kernel("scale.okl", "scale"))[1:], 2)
    monkeypatch.chdir(tmp_path / "b")  # same relative name, same text, another coef.h
    for d in (dev, okl.Device("serial")):
        np.testing.assert_allclose(_run_scale(d, d.build_kernel("scale.okl", "scale"))[1:], 5)


def _damage(path: pathlib.Path, how: str) -> None:
    """Damage a cache file as another process (or a disk fault) would; this process then
    forgets what it remembers of the cache, so the next build reads the disk."""
    forget_memos()
    data = path.read_bytes()
    if how == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flip":  # same size, other bytes
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes(b ^ 0xFF for b in data[middle:middle + 16])
                         + data[middle + 16:])
    elif how == "garbage":
        path.write_bytes(b"\x00not what was stored{")
    elif how == "delete":
        path.unlink()
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("level,name,how", [
    ("build", "kernel.so", "truncate"), ("build", "kernel.so", "flip"),
    ("build", "kernel.so", "delete"), ("build", "kernel.c", "garbage"),
    ("build", "meta.json", "garbage"), ("build", "meta.json", "truncate"),
    ("translation", "source", "truncate"), ("translation", "specs.json", "flip"),
    ("translation", "deps.json", "garbage"), ("translation", "meta.json", "delete"),
])
def test_damaged_cache_entries_are_misses_never_crashes(fresh_cache, tmp_path, level, name,
                                                        how):
    path = _kernel_dir(tmp_path / "k")
    okl.Device("serial").build_kernel(path, "scale")
    entries = list((fresh_cache / "v1" / level).glob("*/*"))
    assert len(entries) == 1
    _damage(entries[0] / name, how)
    dev = okl.Device("serial")
    k = dev.build_kernel(path, "scale")
    assert not k.cache_hit
    if level == "build":
        assert k.translation_hit and k.build_hit is False
    else:
        assert not k.translation_hit and k.build_hit  # same source: the binary is reused
    np.testing.assert_allclose(_run_scale(dev, k)[1:], 2.0)
    again = okl.Device("serial").build_kernel(path, "scale")  # the entry was rewritten
    assert again.cache_hit
    np.testing.assert_allclose(_run_scale(dev, again)[1:], 2.0)


def test_cached_library_is_loaded_from_a_private_copy_of_its_verified_bytes(
        fresh_cache, tmp_path, monkeypatch):
    """The entry could change between the check and the dlopen (another process, or whoever
    can write the cache): only the bytes that were verified are loaded."""
    from okl.runtime.drivers.cpu import CPUBackend

    path = _kernel_dir(tmp_path / "k")
    okl.Device("serial").build_kernel(path, "scale")
    real_load = CPUBackend.load
    tried = []

    def load(self, lib, specs):
        tried.append(lib)
        return real_load(self, lib, specs)

    monkeypatch.setattr(CPUBackend, "load", load)
    forget_memos()  # as a new process
    dev = okl.Device("serial")
    k = dev.build_kernel(path, "scale")
    assert k.build_hit and len(tried) == 1 and str(fresh_cache) not in tried[0]
    np.testing.assert_allclose(_run_scale(dev, k)[1:], 2.0)


def _race_worker(cache_dir, okl_file, barrier, results):
    os.environ["OKL_CACHE_DIR"] = cache_dir
    try:
        import numpy as np

        import okl
        dev = okl.Device("serial")
        barrier.wait(timeout=120)
        k = dev.build_kernel(okl_file, "scale")
        x = np.arange(1000, dtype=np.float32)
        y = np.zeros(1000, np.float32)
        k(1000, x, y)
        results.put(("ok", bool(np.array_equal(y, 2 * x)), k.cache_hit))
    except BaseException as e:  # report everything: the parent asserts on it
        results.put(("error", f"{type(e).__name__}: {e}", None))


def test_eight_processes_build_the_same_kernel_at_once(fresh_cache, tmp_path):
    path = _kernel_dir(tmp_path / "k")
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(8)
    results = ctx.Queue()
    procs = [ctx.Process(target=_race_worker,
                         args=(str(fresh_cache), str(path), barrier, results))
             for _ in range(8)]
    for p in procs:
        p.start()
    got = [results.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    assert all(status == "ok" for status, _, _ in got), got
    assert all(correct for _, correct, _ in got), got
    assert not all(hit for _, _, hit in got)  # somebody built it
    assert all(p.exitcode == 0 for p in procs)
    info = Cache().info()["levels"]
    assert info["translation"]["entries"] == 1 and info["build"]["entries"] == 1
    cache = Cache()
    for level in ("translation", "build"):  # what they left is complete and intact
        (entry,) = (fresh_cache / "v1" / level).glob("*/*")
        assert cache.get(level, entry.name) is not None
    # (not translation_hit: this process's translator digest is from its start, and okl's
    # sources may be edited meanwhile in a development tree)
    assert okl.Device("serial").build_kernel(path, "scale").build_hit
    assert not list(fresh_cache.rglob(".*.tmp"))  # no temp files left behind


def test_verbose_logs_commands_and_hits(fresh_cache, tmp_path, monkeypatch, capsys):
    path = _kernel_dir(tmp_path / "k")
    monkeypatch.setenv("OKL_VERBOSE", "1")
    okl.Device("serial").build_kernel(path, "scale")
    first = capsys.readouterr().err  # stderr, through logging: stdout stays the program's
    assert re.search(r"\[okl\] \S*cc .*-shared .*kernel\.c", first), first
    assert "translation cache miss" in first
    assert re.search(r"built scale for serial in [\d.]+ ms \(translation miss, binary miss; "
                     r"ms: translate [\d.]+, compile and load [\d.]+, launch set-up [\d.]+\)",
                     first), first
    forget_memos()  # as a new process
    okl.Device("serial").build_kernel(path, "scale")
    second = capsys.readouterr().err
    assert "translation cache hit" in second
    assert "(translation hit, binary hit; ms: " in second
    assert "-shared" not in second  # nothing compiled
    monkeypatch.setenv("OKL_VERBOSE", "0")
    okl.Device("serial").build_kernel(path, "scale")
    assert capsys.readouterr().err == ""


def test_oklc_info_build_and_cache(fresh_cache, tmp_path):
    path = _kernel_dir(tmp_path / "k")
    runner = CliRunner()
    r = runner.invoke(oklc, ["info"])
    assert r.exit_code == 0, r.output
    table, _, devices = r.output.partition("\n\n")  # the backend table, then OpenCL devices
    lines = table.strip().splitlines()
    assert [line.split()[0] for line in lines] == list(ALL_MODES)
    if BACKENDS["opencl"].available:
        assert "OpenCL devices" in devices and "\n      used" in devices
    for line, b in zip(lines, okl.backends(), strict=True):
        assert b.reason in line and ("yes" if b.available else "no") in line.split()[1]

    r = runner.invoke(oklc, ["build", str(path), "scale", "--mode", "serial"])
    assert r.exit_code == 0, r.output
    assert re.search(r"scale \(serial, .*\): [\d.]+ ms, cache miss", r.output), r.output
    r = runner.invoke(oklc, ["build", str(path), "scale", "--mode", "Serial"])
    assert r.exit_code == 0, r.output
    assert re.search(r"[\d.]+ ms, cache hit \(translation hit, binary hit\)", r.output)

    r = runner.invoke(oklc, ["build", str(path), "nope", "--mode", "serial"])
    assert r.exit_code == 1 and "no @kernel named 'nope'" in r.output
    if not BACKENDS["cuda"].available:
        r = runner.invoke(oklc, ["build", str(path), "scale", "--mode", "cuda"])
        assert r.exit_code == 1 and BACKENDS["cuda"].reason in r.output

    r = runner.invoke(oklc, ["cache", "info"])
    assert r.exit_code == 0, r.output
    assert f"root: {fresh_cache}" in r.output
    assert re.search(r"translation: 1 entries, [1-9]\d* bytes", r.output), r.output
    assert re.search(r"build: 1 entries, [1-9]\d* bytes", r.output), r.output

    r = runner.invoke(oklc, ["cache", "clear"])
    assert r.exit_code == 0 and "removed 2 entries" in r.output
    r = runner.invoke(oklc, ["cache", "info"])
    assert "translation: 0 entries" in r.output and "build: 0 entries" in r.output
    r = runner.invoke(oklc, ["build", str(path), "scale", "--mode", "serial"])
    assert "cache miss" in r.output


# -- the README example --------------------------------------------------------------------------

def test_readme_example_runs_on_every_available_backend(tmp_path):
    script = ROOT / "examples" / "reduction.py"
    # the okl under test, as in this process (from an unpacked sdist, the installed copy
    # would answer otherwise: its install hints name the archive, not this tree)
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, OKL_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=path)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       env=env, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    assert [line.split()[0] for line in lines] == list(ALL_MODES)
    x = np.random.default_rng(0).random(1_000_003, dtype=np.float32)
    expected = f"{x.sum(dtype=np.float64):.3f}"
    for line, b in zip(lines, okl.backends(), strict=True):
        if b.available:
            match = re.match(rf"{b.name} +sum = ([\d.]+) \(numpy: {expected}\) on ", line)
            assert match, line
            assert abs(float(match.group(1)) - float(expected)) <= 1e-5 * float(expected)
        else:
            assert line.split(None, 1)[1] == f"skipped: {b.reason}"


def test_readme_shows_the_example():
    """README's "Use it from Python" shows the example files as they are."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Use it from Python"):]
    section = section[: section.find("\n## ", 1) if "\n## " in section[1:] else None]
    blocks = dict(re.findall(r"```(\w+)\n(.*?)```", section, re.S))
    assert blocks["python"].strip() in (ROOT / "examples" / "reduction.py").read_text()
    assert blocks["c"].strip() in (ROOT / "examples" / "reduction.okl").read_text()
    assert "dev.build_kernel(" in blocks["python"]


MAX_INNER = """
@kernel void fill(const int N, float *x) {
  for (int b = 0; b < 4; ++b; @outer @max_inner_dims(64)) {
    @exclusive float r;
    for (int i = 0; i < N; ++i; @inner) { r = i; }
    for (int i = 0; i < N; ++i; @inner) { x[b * N + i] = r; }
  }
}
"""


@pytest.mark.parametrize("mode", ["serial", "opencl"])
def test_launch_beyond_max_inner_dims_is_refused(mode):
    """@max_inner_dims sizes CPU @exclusive arrays: a bigger launch would overflow them."""
    from modes import device

    dev = device(mode)
    k = dev.build_kernel_from_string(MAX_INNER, "fill")
    x = dev.zeros(4 * 64, np.float32)
    k(64, x)
    dev.finish()
    assert x.get()[:3].tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(okl.LaunchError, match="@max_inner_dims allows \\(64\\)"):
        k(65, dev.zeros(4 * 65, np.float32))


# -- OpenCL program binaries in okl's build cache ------------------------------------------------

def _only_build_entry(root: pathlib.Path) -> pathlib.Path:
    entries = [p for p in (root / "v1" / "build").glob("*/*") if p.is_dir()]
    assert len(entries) == 1, entries
    return entries[0]


@pytest.mark.parametrize("how", ["refused", "damaged", "other program"])
def test_opencl_cached_binary_that_is_bad_is_a_miss_and_rebuilt(fresh_cache, tmp_path, how):
    """A binary the driver refuses (stored with valid checksums), one damaged on disk and a
    valid binary without the kernel are all misses: the source is built again, the results
    are right and the entry is replaced by a good binary."""
    _skip_unless_available("opencl")
    import json

    path = _kernel_dir(tmp_path / "k")
    assert okl.Device("opencl").build_kernel(path, "scale").build_hit is False
    entry = _only_build_entry(fresh_cache)
    document = json.loads((entry / "meta.json").read_text())["document"]
    assert document["options"][0] == "-cl-std=CL1.2"
    assert {"platform", "device", "okl", "source"} <= set(document)
    assert document["device"]["driver"]
    if how == "refused":
        Cache().put("build", entry.name, {"program.bin": b"not an OpenCL binary"}, document)
    elif how == "damaged":
        data = bytearray((entry / "program.bin").read_bytes())
        data[len(data) // 2] ^= 0xFF
        (entry / "program.bin").write_bytes(bytes(data))
    else:
        other = okl.Device("opencl").build_kernel_from_string(AXPY, "axpy")
        assert other.build_hit is False
        binary = next(p for p in (fresh_cache / "v1" / "build").glob("*/*/program.bin")
                      if p.parent != entry).read_bytes()
        Cache().put("build", entry.name, {"program.bin": binary}, document)
    forget_memos()  # as a new process
    dev = okl.Device("opencl")
    k = dev.build_kernel(path, "scale")
    assert k.translation_hit and k.build_hit is False and not k.cache_hit
    np.testing.assert_allclose(_run_scale(dev, k)[1:], 2.0)
    forget_memos()
    dev3 = okl.Device("opencl")
    k3 = dev3.build_kernel(path, "scale")
    assert k3.build_hit is True
    np.testing.assert_allclose(_run_scale(dev3, k3)[1:], 2.0)


def test_opencl_binary_cache_keys_on_the_build_options(fresh_cache, tmp_path):
    _skip_unless_available("opencl")
    path = _kernel_dir(tmp_path / "k")
    assert okl.Device("opencl").build_kernel(path, "scale").build_hit is False
    dev = okl.Device("opencl", compiler_flags="-cl-fast-relaxed-math")
    k = dev.build_kernel(path, "scale")
    assert k.translation_hit and k.build_hit is False  # other options: another binary
    assert okl.Device("opencl").build_kernel(path, "scale", flags=["-DUNUSED=1"]).build_hit \
        is False
    assert okl.Device("opencl").build_kernel(path, "scale").build_hit is True
    assert Cache().info()["levels"]["build"]["entries"] == 3


# -- the CPU fast launch path ----------------------------------------------------------------

MIX = r"""
@kernel void mix(const int n, const float a, const double d, const short s,
                 const unsigned int u, const float *x, double *y, const int *c) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = d * x[i] + a + s + u + (c != 0 ? c[i] : 100);
  }
}
"""


def _mix_args(dev):
    return [8, 1.5, 2.0, 3, 4, np.arange(8, dtype=np.float32), np.zeros(8), np.ones(8, np.int32)]


def _mix_expected(args):
    n, a, d, s, u, x, _, c = args
    c = np.full(8, 100) if c is okl.NULL else np.asarray(c)
    with np.errstate(invalid="ignore"):
        return (float(d) * np.asarray(x, np.float64) + np.float32(a) + s + u + c)[:int(n)]


class _Subclass(np.ndarray):
    pass


def _frozen(a):
    a = np.array(a)
    a.flags.writeable = False
    return a


# (position, bad value): each must be refused with the general path's message
MIX_BAD = [
    (0, 8.0), (0, 2**31), (0, "8"), (0, np.float32(8)), (0, np.int64(2**40)), (0, None),
    (0, [8]), (0, np.array([8], np.int32)), (0, 8 + 0j),
    (1, np.float64(0.1)), (1, True), (1, "1.5"), (1, 1e39), (1, -1e39), (1, [1.5]),
    (1, np.int64(2**40 + 1)),
    (2, "2"), (2, 1j), (2, np.longdouble(1) / 3 if np.finfo(np.longdouble).nmant > 52 else
                         np.int64(2**53 + 1)),
    (3, 40000), (3, -40000), (3, 1.0), (3, np.int32(70000)), (3, np.uint16(65535)),
    (4, -1), (4, 2**32), (4, np.int8(-1)), (4, 3.0),
    (5, np.zeros(8)), (5, np.zeros(16, np.float32)[::2]), (5, [1.0] * 8), (5, 3.0),
    (5, np.zeros((8, 2), np.float32).T), (5, np.zeros(8, np.float32).astype(">f4")),
    (5, np.zeros(8, np.int32)),
    (6, _frozen(np.zeros(8))), (6, np.zeros(8, np.float32)), (6, np.zeros(16)[::2]),
    (6, np.zeros(8).reshape(2, 4).T), (6, "y"), (6, 0),
    (7, np.zeros(8, np.uint32)), (7, np.zeros(8, np.int64)), (7, np.zeros(16, np.int32)[1::2]),
]


@pytest.mark.parametrize("mode", HOST)
def test_cpu_fast_path_refuses_what_the_general_path_refuses(mode):
    """Every launch goes through the generated fast path; each bad argument must give the
    general path's exact message, and nothing may run."""
    dev = device(mode)
    k = dev.build_kernel_from_string(MIX, "mix")
    assert k._call != k._checked_launch  # the fast path is in use
    for pos, bad in MIX_BAD:
        args = _mix_args(dev)
        args[pos] = bad
        with pytest.raises(okl.ArgumentError) as fast:
            k(*args)
        with pytest.raises(okl.ArgumentError) as general:
            k._checked_launch(list(args))
        assert str(fast.value) == str(general.value), (pos, bad)
        assert f"argument {pos + 1} " in str(fast.value)
        if pos != 6:
            assert not args[6].any()  # nothing was launched
    other = [m for m in ("opencl",) if BACKENDS[m].available]
    for m in other:  # memory of another device kind, through okl.Memory
        args = _mix_args(dev)
        args[5] = device(m).asarray(args[5])
        with pytest.raises(okl.ArgumentError, match="argument 6 'x'.*in opencl memory"):
            k(*args)


@pytest.mark.parametrize("mode", HOST)
def test_cpu_fast_path_takes_what_the_general_path_takes(mode):
    """Accepted forms give the same results through the fast and the general path."""
    dev = device(mode)
    k = dev.build_kernel_from_string(MIX, "mix")
    good = [
        {},
        {0: np.int32(8), 1: np.float32(1.5), 2: np.float64(2.0), 3: np.int16(3),
         4: np.uint32(4)},
        {0: np.int64(5), 1: 2, 2: np.float32(0.25), 3: True, 4: np.uint8(9)},
        {0: np.array(8, np.int32), 1: np.array(1.5, np.float32), 2: float("inf")},
        {1: float("nan"), 2: -0.0, 4: 2**32 - 1},
        {5: _frozen(np.arange(8, dtype=np.float32)), 7: okl.NULL},
        {5: dev.asarray(np.arange(8, dtype=np.float32)),
         7: dev.asarray(np.arange(8, dtype=np.int32))},
        {5: np.arange(8, dtype=np.float32).view(_Subclass), 7: np.arange(16, dtype=np.int32)[:8]},
        {0: 0}, {0: -3},
    ]
    for change in good:
        outputs = []
        for path in ("fast", "general"):
            args = _mix_args(dev)
            for pos, value in change.items():
                args[pos] = value
            y = np.full(8, -1.0)
            args[6] = y
            if path == "fast":
                k(*args)
            else:
                k._checked_launch(list(args))
            outputs.append(y)
        np.testing.assert_array_equal(outputs[0], outputs[1], err_msg=str(change))
        args = _mix_args(dev)
        for pos, value in change.items():
            args[pos] = value
        if int(np.asarray(args[0])) == 8 and not isinstance(args[5], okl.Memory) and \
                not isinstance(args[7], okl.Memory):
            np.testing.assert_allclose(outputs[0], _mix_expected(args), err_msg=str(change))
    y = dev.zeros(8, np.float64)  # okl.Memory output, twice: the second call is remembered
    x = dev.asarray(np.arange(8, dtype=np.float32))
    for _ in range(2):
        k(8, 1.5, 2.0, 3, 4, x, y, okl.NULL)
        np.testing.assert_allclose(y.get(), 2.0 * np.arange(8) + 1.5 + 3 + 4 + 100)


@pytest.mark.parametrize("mode", HOST)
def test_cpu_launches_from_several_threads_at_once(mode):
    """ctypes releases the GIL during the call: every launch must own its argument buffer."""
    import threading

    dev = device(mode)
    k = dev.build_kernel_from_string(MIX, "mix")
    x = np.arange(8, dtype=np.float32)
    errors = []

    def work(t):
        try:
            y = np.zeros(8)
            c = np.full(8, t, np.int32)
            for i in range(300):
                k(8, float(i), 1.0, t, i, x, y, c)
                np.testing.assert_array_equal(y, x + 2 * i + 2 * t)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_direct_cuda_kernel_params_layout():
    """The generated fast path as CUDA launches use it (kernelParams: slot i points at the
    value of parameter i; pointers as 8-byte device addresses), checked without a GPU."""
    import ctypes
    import struct

    from okl.runtime.launch.args import ArrayInfo, make_converters
    from okl.runtime.launch.gpu import compile_caller
    from okl.runtime.launch.spec import KernelSpec, RuntimeParam

    class FakeDeviceArray:
        def __init__(self, address, dtype):
            self.address, self.dtype = address, np.dtype(dtype)

    def describe(obj):
        if isinstance(obj, FakeDeviceArray):
            return ArrayInfo(obj.dtype, True, False, "cuda", 0, "fake.Array")
        return None

    params = [RuntimeParam("n", "const int", np.dtype(np.int32), False, True),
              RuntimeParam("a", "const float", np.dtype(np.float32), False, True),
              RuntimeParam("x", "const double *", np.dtype(np.float64), True, True),
              RuntimeParam("s", "short", np.dtype(np.int16), False, False),
              RuntimeParam("d", "double", np.dtype(np.float64), False, False),
              RuntimeParam("b", "bool", np.dtype(np.bool_), False, False),
              RuntimeParam("y", "float *", np.dtype(np.float32), True, False),
              RuntimeParam("u", "unsigned long", np.dtype(np.uint64), False, False)]

    class FakeKernel:
        name = "fake"

    kernel = FakeKernel()
    kernel.params = params
    kernel.spec = KernelSpec("fake", params)
    kernel._convert = make_converters(params, "fake", expected_kind="cuda", expected_device=0,
                                      describe=describe)
    launched = []

    def go(outer, inner, base):
        slots = (ctypes.c_uint64 * len(params)).from_address(base)
        values = []
        for j, p in enumerate(params):
            raw = ctypes.string_at(slots[j], 8 if p.is_pointer else p.dtype.itemsize)
            values.append(struct.unpack("Q", raw)[0] if p.is_pointer else
                          np.frombuffer(raw, p.dtype)[0])
        launched.append((outer, inner, values))

    call = compile_caller(kernel, device_pointers=True, pointer_value=lambda v: v.address,
                          memo_key="_fake_address",
                          tail=["    _o, _i = _dims(_env)", "    _go(_o, _i, _base)"],
                          names={"_dims": lambda env: ((env["n"] // 4,), (4,)), "_go": go},
                          env={"n"})
    x, y = FakeDeviceArray(0xDEAD000, np.float64), FakeDeviceArray(0xBEEF000, np.float32)
    call(*(16, 0.1, x, -3, 2.5, True, y, 2**64 - 1))
    call(*(np.int32(8), np.float32(0.1), okl.NULL, np.int16(7), np.float64(1e300), np.False_, y,
          np.uint64(5)))
    call(*(True, np.float32(np.nan), x, 1, 7, np.bool_(1), okl.NULL, 0))
    assert launched[0][:2] == ((4,), (4,))
    assert launched[0][2] == [16, np.float32(0.1), 0xDEAD000, -3, 2.5, True, 0xBEEF000,
                              2**64 - 1]
    assert launched[1][:2] == ((2,), (4,))
    assert launched[1][2] == [8, np.float32(0.1), 0, 7, 1e300, False, 0xBEEF000, 5]
    assert launched[2][2][1] != launched[2][2][1]  # NaN
    assert launched[2][2][:1] + launched[2][2][2:] == [1, 0xDEAD000, 1, 7.0, True, 0, 0]
    with pytest.raises(okl.ArgumentError, match="argument 3 'x' \\(const double \\*\\): got "
                                                "fake.Array of float32"):
        call(*(16, 0.1, y, 1, 1.0, True, y, 0))
    with pytest.raises(okl.ArgumentError, match="argument 4 's' \\(short\\): got int 32768"):
        call(*(16, 0.1, x, 2**15, 1.0, True, y, 0))
    assert len(launched) == 3


def test_process_memo_serves_new_devices_without_the_disk(fresh_cache, tmp_path, monkeypatch):
    """A new Device of the process finds a kernel in memory (the warm build of issue 14): the
    cache's files are not read again; clearing the cache clears the memo too."""
    path = _kernel_dir(tmp_path / "k")
    okl.Device("serial").build_kernel(path, "scale")
    reads = []
    real_get = Cache.get
    monkeypatch.setattr(Cache, "get", lambda self, *a: reads.append(a) or real_get(self, *a))
    dev = okl.Device("serial")
    k = dev.build_kernel(path, "scale")
    assert k.cache_hit and reads == []
    np.testing.assert_allclose(_run_scale(dev, k)[1:], 2.0)
    Cache().clear()
    k = okl.Device("serial").build_kernel(path, "scale")
    assert not k.cache_hit and reads


@pytest.mark.parametrize("mode", _params(GPU_MODES))
def test_the_launch_binding_is_probed_once_per_process(mode, fresh_cache, tmp_path,
                                                       monkeypatch):
    """Direct launches go through CuPy's cuLaunchKernel binding, which a refused launch (no
    blocks) checks once per process -- not once per kernel and Device, where it was part of
    every cold build's set-up; every kernel still runs."""
    _skip_unless_available(mode)
    import cupy as cp

    from okl.runtime.drivers import cuda as cuda_driver

    if okl.Device(mode).backend.rocm:
        pytest.skip("ROCm: launches through CuPy")
    launch = cp.cuda.driver.launchKernel
    refused: list[int] = []

    def counting(f, gx, gy, gz, bx, by, bz, *rest):
        if gx == 0:
            refused.append(f)
        return launch(f, gx, gy, gz, bx, by, bz, *rest)

    monkeypatch.setattr(cp.cuda.driver, "launchKernel", counting)
    monkeypatch.setattr(cuda_driver, "_binding_checked", False)
    for coef in ("2.0f", "3.0f", "4.0f"):  # three modules, each on a Device of its own
        dev = okl.Device(mode)
        k = dev.build_kernel(_kernel_dir(tmp_path / coef, coef), "scale")
        np.testing.assert_allclose(_run_scale(dev, k)[1:], float(coef[:-1]))
    assert len(refused) == 1


# -- CUDA cubins in okl's build cache ------------------------------------------------------------

@pytest.mark.parametrize("mode", _params(GPU_MODES))
def test_cuda_cubin_is_kept_in_okls_cache(mode, fresh_cache, tmp_path):
    """On NVIDIA GPUs the cubin goes into okl's build cache: a new process (forget_memos)
    loads it without NVRTC, a damaged one is a miss and is rebuilt, and every path runs."""
    _skip_unless_available(mode)
    if okl.Device(mode).backend.rocm:
        pytest.skip("ROCm: binaries are cached by CuPy")
    path = _kernel_dir(tmp_path / "k")
    k = okl.Device(mode).build_kernel(path, "scale")
    assert k.build_hit is False
    entry = _only_build_entry(fresh_cache)
    assert (entry / "module.cubin").stat().st_size > 0
    forget_memos()  # as a new process
    dev = okl.Device(mode)
    k = dev.build_kernel(path, "scale")
    assert k.build_hit is True and k.cache_hit
    np.testing.assert_allclose(_run_scale(dev, k)[1:], 2.0)
    assert k.properties["device_kernels"]
    data = bytearray((entry / "module.cubin").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (entry / "module.cubin").write_bytes(bytes(data))
    forget_memos()
    dev = okl.Device(mode)
    k = dev.build_kernel(path, "scale")
    assert k.build_hit is False
    np.testing.assert_allclose(_run_scale(dev, k)[1:], 2.0)
