"""The Python runtime's everyday traps (issue 31): what numpy, CuPy and PyOpenCL users expect
of views, foreign arrays, ``stream=``, ``dir(okl)``, build timeouts and build-time logs.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from modes import device_memo, params, private_cache

import okl

EVERY = params()
HOST = params(("serial", "openmp"))
CPU_RUN = params(("serial", "openmp", "opencl"))

IOTA = """
@kernel void iota(const int n, float *x) {
  for (int b = 0; b < n; b += 16; @outer) {
    for (int i = b; i < b + 16; ++i; @inner) {
      if (i < n) x[i] = i;
    }
  }
}
"""


@pytest.fixture(scope="module", autouse=True)
def _cache(tmp_path_factory):
    with private_cache(tmp_path_factory.mktemp("okl-cache")) as root:
        yield root


device = device_memo()


def iota(mode: str) -> okl.Kernel:
    return device(mode).build_kernel_from_string(IOTA, "iota")


# -- 1. views index like numpy ----------------------------------------------------------------

@pytest.mark.parametrize("mode", EVERY)
def test_views_index_as_numpy_does(mode):
    host = np.arange(60.0).reshape(3, 4, 5)
    mem = device(mode).asarray(host, copy=True)
    for key in (np.s_[1:3], np.s_[1], np.s_[-1], np.s_[0, 2], np.s_[2, 1:3], np.s_[1, -2, 4],
                np.s_[..., :], np.s_[1, ...], np.s_[:, :, :], np.s_[0:1, 3:4, 1:3], np.s_[2:2],
                np.s_[-2:]):
        view = mem[key]
        assert view.shape == host[key].shape, key
        assert np.array_equal(view.get(), host[key]), key
    assert mem[1:3][1].shape == (4, 5) and mem[1:3][1].offset == 40
    assert np.array_equal(mem[1:3][-1, 2].get(), host[2, 2])


@pytest.mark.parametrize("mode", EVERY)
def test_vector_ranges_index_as_numpy_does(mode):
    """A range of a vector takes a shorter path (it is taken every iteration of a solver):
    the same views, and the same refusals, as any other key."""
    host = np.arange(10.0)
    mem = device(mode).asarray(host, copy=True)
    for key in (np.s_[2:7], np.s_[:4], np.s_[6:], np.s_[:], np.s_[3:3], np.s_[10:],
                np.s_[-3:], np.s_[np.int64(1):5], np.s_[1:9:1]):
        view = mem[key]
        assert view.shape == host[key].shape and view.offset == range(10)[key].start, key
        assert np.array_equal(view.get(), host[key]), key
    assert np.array_equal(mem[2:8][1:3].get(), host[3:5])
    for key, match in ((np.s_[0:11], "out of range"), (np.s_[5:2], "is after the stop"),
                       (np.s_[0:5:2], "step of 2"), (np.s_[1.5:3], "must be an integer")):
        with pytest.raises(okl.ArgumentError, match=match):
            mem[key]


@pytest.mark.parametrize("key, match", [
    (np.s_[:, 1], "not contiguous"),
    (np.s_[1:3, 2], "not contiguous"),
    (np.s_[::2], "step of 2 on axis 0"),
    (np.s_[1, ::-1], "step of -1 on axis 1"),
    (np.s_[4], "index 4 is out of range for axis 0"),
    (np.s_[0, -6], "index -6 is out of range for axis 1"),
    (np.s_[0:5], "out of range"),
    (np.s_[1, 2, 3], "3 indices"),
    (np.s_[None], "integers, slices"),
    (np.s_[..., 1, ...], "one '...'"),
    (True, "boolean index"),
])
def test_views_that_are_not_one_contiguous_run_are_refused(key, match):
    mem = device("serial").zeros((4, 5))
    with pytest.raises(okl.ArgumentError, match=match):
        mem[key]


@pytest.mark.parametrize("mode", EVERY)
def test_a_kernel_given_a_view_starts_at_its_first_element(mode):
    dev, k = device(mode), iota(mode)
    mem = dev.zeros((8, 32), np.float32)
    k(32, mem[2])        # a row: elements 64..95
    k(48, mem[4:6][0:2])  # two rows through a view of a view: elements 128..191
    dev.finish()
    want = np.zeros((8, 32), np.float32)
    want[2] = np.arange(32)
    want[4:6] = np.arange(64).reshape(2, 32)
    want[5, 16:] = 0  # n = 48 of the 64 elements
    assert np.array_equal(mem.get(), want)


# -- 4. dir(okl) ------------------------------------------------------------------------------

def test_dir_lists_the_lazy_names_without_loading_them():
    code = ("import sys, okl; d = dir(okl); "
            "print(all(n in d for n in ('Device', 'Memory', 'Kernel', 'Stream', 'NULL', "
            "'BuildError', 'backends')), 'okl.runtime' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "False"]
    assert set(okl.__all__) <= set(dir(okl))


# -- 5. the C compiler's time limit, and no build folder left behind --------------------------

FAKE_CC = """#!/bin/sh
# answers --version as gcc would not (so okl adds no gcc flags); otherwise {what}
case "$*" in *--version*) echo "fakecc 1.0"; exit 0;; esac
{body}
"""


def _fake_cc(tmp_path, what: str, body: str) -> str:
    path = tmp_path / "fakecc"
    path.write_text(FAKE_CC.format(what=what, body=body))
    path.chmod(0o755)
    return str(path)


def _build_folders(tmp: str) -> set[str]:
    return {n for n in os.listdir(tmp) if n.startswith("okl-build-")}


@pytest.mark.parametrize("body, what, env, match", [
    ("sleep 30 & wait", "hangs (with a child process, as gcc's cc1)", {"OKL_BUILD_TIMEOUT": "0.5"},
     r"(?s)serial build timed out.*more than 0.5 s.*OKL_BUILD_TIMEOUT=<seconds>"),
    ("echo 'kernel.c:1:1: error: no' >&2; exit 3", "fails", {},
     r"serial build failed \(exit 3\)"),
    ("exit 0", "writes no library", {}, "exited with 0 but wrote no kernel.so"),
    ("echo junk > kernel.so", "writes a broken library", {}, "does not load"),
])
def test_a_compiler_that_hangs_or_fails_leaves_no_build_folder(tmp_path, monkeypatch, body,
                                                                 what, env, match):
    import time
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr("tempfile.tempdir", None)  # read TMPDIR again
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    dev = okl.Device("serial", compiler=_fake_cc(tmp_path, what, body))
    start = time.perf_counter()
    with pytest.raises(okl.BuildError, match=match) as err:
        dev.build_kernel_from_string(IOTA, "iota")
    assert time.perf_counter() - start < 20  # not the 30 s of the hung compiler
    assert not _build_folders(str(tmp))
    if err.value.source_path is not None:  # the generated source, kept for the error
        assert os.path.dirname(err.value.source_path) == str(tmp)
        assert "iota" in open(err.value.source_path, encoding="utf-8").read()


@pytest.mark.parametrize("value", ["soon", "inf", "nan", "0", "-1", "1e400"])
def test_a_bad_build_timeout_is_named_before_any_compiler_runs(tmp_path, monkeypatch, value):
    """OKL_BUILD_TIMEOUT bounds every compiler call (okl.env.number's one reading): a value
    that is no usable limit is an okl error naming it, never a raw ValueError or an endless
    wait (inf)."""
    monkeypatch.setenv("OKL_BUILD_TIMEOUT", value)
    with pytest.raises(okl.OKLError, match=rf"OKL_BUILD_TIMEOUT='{value}' is not a usable "
                                           r"limit.*greater than 0"):
        okl.Device("serial", compiler=_fake_cc(tmp_path, "is never reached", "exit 0")
                   ).build_kernel_from_string(IOTA, "iota")


def test_an_interrupted_build_stops_the_compiler_and_leaves_no_build_folder(tmp_path,
                                                                              monkeypatch):
    """Ctrl-C during a build: the compiler's process group is killed, the folder removed."""
    import signal
    import threading
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr("tempfile.tempdir", None)
    marker = tmp_path / "still-running"
    cc = _fake_cc(tmp_path, "hangs", f"sleep 1; touch {marker}")
    dev = okl.Device("serial", compiler=cc)
    # Python's own Ctrl-C handler, whatever this process inherited: a test run started in the
    # background by a non-interactive shell ignores SIGINT (seen: this test failed so)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    # to the main thread, as a terminal's Ctrl-C is (there it interrupts the wait at once)
    timer = threading.Timer(0.3, signal.pthread_kill, (threading.main_thread().ident,
                                                       signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            dev.build_kernel_from_string(IOTA, "iota")
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert not _build_folders(str(tmp))
    import time
    time.sleep(1.2)
    assert not marker.exists()  # the compiler was stopped, not left to finish


# -- 6. slow builds and probes say so at INFO --------------------------------------------------

def test_a_slow_build_is_an_info_record(tmp_path, monkeypatch, caplog):
    from okl.runtime import verbose
    monkeypatch.delenv("OKL_VERBOSE", raising=False)
    cc = _fake_cc(tmp_path, "is gcc, slowly", 'sleep 0.3; exec cc "$@"')
    dev = okl.Device("serial", compiler=cc)
    caplog.set_level(logging.INFO, logger="okl")
    dev.build_kernel_from_string(IOTA.replace("iota", "iota_slow"), "iota_slow")
    slow = [r for r in caplog.records if r.levelno == logging.INFO and r.name == "okl"]
    assert any(re.match(r"built iota_slow for serial in \d+\.\d ms", r.getMessage())
               for r in slow), [r.getMessage() for r in slow]
    caplog.clear()
    monkeypatch.setattr(verbose, "SLOW_SECONDS", 1e9)  # the threshold is what decides
    monkeypatch.setattr("okl.runtime.device.SLOW_SECONDS", 1e9)
    dev.build_kernel_from_string(IOTA.replace("iota", "iota_fast"), "iota_fast")
    assert not [r for r in caplog.records if r.levelno >= logging.INFO]


def test_a_slow_opencl_probe_is_an_info_record(monkeypatch, caplog):
    pytest.importorskip("pyopencl")
    from okl.runtime.drivers import clselect
    try:
        candidate = clselect.candidates()[0]
    except clselect.SelectionError as e:
        pytest.skip(str(e))
    monkeypatch.setattr(clselect, "_probed", {})
    monkeypatch.setattr(clselect, "SLOW_SECONDS", 0.0)  # every probe counts as slow
    caplog.set_level(logging.INFO, logger="okl")
    clselect.probe(candidate)
    assert any(r.levelno == logging.INFO and "probed OpenCL device" in r.getMessage()
               for r in caplog.records)


# -- 3. kernel(..., stream=s) -----------------------------------------------------------------

def _used_streams(dev, monkeypatch) -> list:
    """The backend stream handles made current, in order (stream_use is every switch)."""
    used: list = []
    backend = dev.backend
    real = backend.stream_use
    monkeypatch.setattr(backend, "stream_use", lambda h: (used.append(h), real(h))[1])
    return used


@pytest.mark.parametrize("checked", [False, True], ids=["fast", "checked"])
@pytest.mark.parametrize("mode", EVERY)
def test_a_launch_with_stream_runs_on_it_and_leaves_the_current_stream(mode, checked,
                                                                       monkeypatch):
    dev = device(mode)
    if checked:
        dev = okl.Device(mode, check_bounds=True)
    k = dev.build_kernel_from_string(IOTA, "iota")
    s = dev.stream()
    before = dev.current_stream
    x = dev.zeros(64, np.float32)
    used = _used_streams(dev, monkeypatch)
    k(40, x, stream=s)
    assert used == [s.handle, before.handle]  # switched for the launch, then back
    assert dev.current_stream is before
    s.finish()
    assert np.array_equal(x.get()[:40], np.arange(40, dtype=np.float32))
    used.clear()
    k(32, x)
    k(n=8, x=x[32:], stream=None)  # None: the current stream, as CuPy's stream=None
    assert used == []
    dev.finish()
    assert np.array_equal(x.get()[32:40], np.arange(8, dtype=np.float32))


TWICE = """
@kernel void twice(const int n, float *x) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int i = 0; i < 4; ++i; @inner) { x[4 * b + i] = 1; }
  }
  for (int b = 0; b < n; ++b; @outer) {
    for (int i = 0; i < 4; ++i; @inner) { x[4 * b + i] += 1; }
  }
}
"""


@pytest.mark.parametrize("mode", EVERY)
def test_stream_with_host_code_that_launches_twice(mode, monkeypatch):
    dev = device(mode)
    k = dev.build_kernel_from_string(TWICE, "twice")
    s, before = dev.stream(), dev.current_stream
    x = dev.zeros(16, np.float32)
    used = _used_streams(dev, monkeypatch)
    k(4, x, stream=s)
    assert used == [s.handle, before.handle] and dev.current_stream is before
    s.finish()
    assert np.array_equal(x.get(), np.full(16, 2, np.float32))


def test_stream_must_be_an_okl_stream_of_the_kernels_device():
    dev = device("serial")
    k, x = iota("serial"), dev.zeros(16, np.float32)
    with pytest.raises(okl.ArgumentError, match=r"kernel 'iota': stream= takes an okl.Stream"):
        k(16, x, stream=0)
    other = okl.Device("serial").stream()
    with pytest.raises(okl.ArgumentError, match="the stream belongs to"):
        k(16, x, stream=other)
    with pytest.raises(okl.ArgumentError, match="no parameter 'streams'"):
        k(16, x, streams=dev.stream())


def test_a_parameter_named_stream_is_still_an_argument():
    dev = device("serial")
    k = dev.build_kernel_from_string(IOTA.replace("float *x", "float *stream")
                                     .replace("x[i]", "stream[i]"), "iota")
    out = dev.zeros(16, np.float32)
    k(16, stream=out)
    assert np.array_equal(out.get(), np.arange(16, dtype=np.float32))


# -- 2. another library's array passed straight to a kernel -----------------------------------

class ArrayInterfaceOnly:
    """A CPU producer with only numpy's ``__array_interface__`` (as many libraries have)."""

    def __init__(self, a: np.ndarray):
        self._a = a
        self.nbytes = a.nbytes

    @property
    def __array_interface__(self):
        return self._a.__array_interface__


class DLPackOnly:
    """A CPU producer with only DLPack (as a PyTorch CPU tensor is, to numpy)."""

    def __init__(self, a: np.ndarray):
        self._a = a
        self.nbytes = a.nbytes

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


class CudaOnly:
    """What a CuPy array or a CUDA torch tensor shows a host kernel."""

    __cuda_array_interface__ = {"shape": (16,), "typestr": "<f4", "data": (0, False),
                                "version": 3, "strides": None}


def _producers():
    pytest.importorskip("numpy", minversion="1.23")  # np.from_dlpack
    out = [ArrayInterfaceOnly, DLPackOnly]
    try:
        import torch
        out.append(lambda a: torch.from_numpy(a))
    except ImportError:
        pass
    return out


@pytest.mark.parametrize("mode", HOST)
def test_cpu_arrays_of_other_libraries_are_shared_with_host_kernels(mode):
    k = iota(mode)
    for make in _producers():
        host = np.zeros(40, np.float32)
        k(40, make(host))  # the fast path's fallback, the native caller's too
        assert np.array_equal(host, np.arange(40, dtype=np.float32)), make
        host[:] = 0
        k(n=24, x=make(host))  # through keyword binding
        assert np.array_equal(host[:24], np.arange(24, dtype=np.float32)), make
    checked = okl.Device(mode, check_bounds=True).build_kernel_from_string(IOTA, "iota")
    host = np.zeros(16, np.float32)
    checked(16, DLPackOnly(host))  # the general path
    assert np.array_equal(host, np.arange(16, dtype=np.float32))


@pytest.mark.parametrize("make, match", [
    (lambda: ArrayInterfaceOnly(np.zeros(16, np.float64)), r"ArrayInterfaceOnly of float64"),
    (lambda: DLPackOnly(np.zeros((16, 2), np.float32)[:, 0]), "non-contiguous"),
    (lambda: ArrayInterfaceOnly(np.zeros(16, np.float32)[::-1]), "non-contiguous"),
    (lambda: CudaOnly(), r"cannot read cuda memory; copy it to the host first with "
                         r"dev\.asarray\(x\)"),
    (lambda: object(), r"got object — .*dev\.asarray\(x\)"),
])
@pytest.mark.parametrize("mode", HOST)
def test_other_libraries_arrays_are_checked_as_numpy_arrays_are(mode, make, match):
    with pytest.raises(okl.ArgumentError, match=match):
        iota(mode)(16, make())


def test_a_read_only_producer_is_refused_for_a_non_const_pointer():
    host = np.zeros(16, np.float32)
    host.flags.writeable = False
    with pytest.raises(okl.ArgumentError, match="read-only"):
        iota("serial")(16, ArrayInterfaceOnly(host))


@pytest.mark.parametrize("mode", params(("opencl", "cuda", "hip")))
def test_a_cpu_array_of_another_library_on_a_gpu_mode_is_refused_naming_asarray(mode):
    for make in _producers():
        with pytest.raises(okl.ArgumentError, match=r"got a host .*cannot read host memory; "
                                                    r"copy it first with dev\.asarray\(x\)"):
            iota(mode)(16, make(np.zeros(16, np.float32)))
