"""The Python API follows the conventions of the libraries around it (issue 19):
``Device.asarray`` takes numbers only and copies device arrays it cannot share, Device
options are checked, okl works inside a PyOpenCL (or CuPy) program on its context, queue or
stream, ``OKL_VERBOSE`` logs to stderr, ``oklc cache`` shows the backend caches, and every
option and environment variable is documented."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from modes import device

import okl
from okl.cli import main as oklc

ROOT = Path(__file__).resolve().parent.parent
INC = """
@kernel void inc(const int n, float *x) {
  for (int i = 0; i < n; ++i; @tile(4, @outer, @inner)) { x[i] += 1; }
}"""


# -- Device.asarray: numbers only; device arrays copied or refused ------------------------------

@pytest.mark.parametrize("array", [
    np.array(["a", "b"]), np.array([b"a"]), np.array([object(), 1], dtype=object),
    np.zeros(2, "M8[s]"), np.zeros(2, "m8[s]"), np.zeros(2, "V4"), ["a", "b"]],
    ids=["str", "bytes", "object", "datetime", "timedelta", "void", "list-of-str"])
def test_asarray_refuses_non_numeric_dtypes(array):
    dev = okl.Device("serial")
    with pytest.raises(okl.ArgumentError, match="is not numeric"):
        dev.asarray(array)
    with pytest.raises(okl.ArgumentError, match="is not numeric"):
        dev.asarray(np.zeros(2), dtype=object)
    with pytest.raises(okl.ArgumentError, match="is not numeric"):
        dev.malloc(2, object)


def test_asarray_keeps_numeric_and_struct_dtypes():
    dev = okl.Device("serial")
    for dtype in (np.bool_, np.int8, np.uint64, np.float16, np.complex64,
                  np.dtype([("x", "f4"), ("y", "f4")]), np.dtype([("v", "f8", (3,))])):
        assert dev.asarray(np.zeros(3, dtype)).dtype == dtype


def test_asarray_copies_a_pyopencl_array_to_a_host_device():
    """Was Memory(dtype=object) holding pyopencl scalars, and .get() crashed Python."""
    cl_dev = device("opencl")
    import pyopencl as cl
    import pyopencl.array as cla

    queue = cl.CommandQueue(cl_dev.backend.context)
    a = cla.to_device(queue, np.arange(6, dtype=np.float32))
    mem = okl.Device("serial").asarray(a)
    assert mem.dtype == np.float32 and (mem.get() == np.arange(6)).all()
    with pytest.raises(okl.ArgumentError, match="needs a copy .it is in OpenCL memory"):
        okl.Device("serial").asarray(a, copy=False)
    with pytest.raises(okl.ArgumentError, match="pyopencl.Buffer is untyped"):
        okl.Device("serial").asarray(a.base_data)
    other = cl.Context([cl_dev.backend.cl_device])  # another context: refused by name
    b = cla.to_device(cl.CommandQueue(other), np.arange(3.0))
    with pytest.raises(okl.ArgumentError, match="another OpenCL context"):
        cl_dev.asarray(b)


# -- Device options -----------------------------------------------------------------------------

@pytest.mark.parametrize("mode, options", [
    ("serial", {"bogus": 1}), ("serial", {"context": None}), ("openmp", {"device_id": 0}),
    ("opencl", {"compiler": "cc"}), ("cuda", {"platform_id": 0}), ("hip", {"queue": 1})])
def test_unknown_device_options_are_refused_with_the_valid_ones(mode, options):
    with pytest.raises(okl.ArgumentError, match=r"unknown option '\w+'; \w+ takes cache_dir, "
                                                r"check_bounds, "):
        okl.Device(mode, **options)


def test_auto_takes_the_options_of_every_mode():
    with pytest.raises(okl.ArgumentError, match="unknown option 'bogus'"):
        okl.Device("auto", bogus=1)
    dev = okl.Device("auto", check_bounds=False, platform_id=None)
    assert dev.mode in ("cuda", "hip", "opencl", "openmp", "serial")


def test_opencl_device_on_the_applications_context_and_queue():
    cl_dev = device("opencl")
    import pyopencl as cl
    import pyopencl.array as cla

    context = cl.Context([cl_dev.backend.cl_device])
    queue = cl.CommandQueue(context)
    dev = okl.Device("opencl", queue=queue)
    assert dev.backend.context == context and dev.current_stream.handle is queue
    inc = dev.build_kernel_from_string(INC, "inc")
    x = cla.to_device(queue, np.zeros(8, np.float32))
    inc(8, x)  # the application's array, shared (same context), on its queue
    assert (x.get() == 1).all()
    dev = okl.Device("opencl", context=context)
    assert dev.backend.context is context and dev.asarray(x).handle is not None
    with pytest.raises(okl.ArgumentError, match="takes a pyopencl.CommandQueue"):
        okl.Device("opencl", queue=context)
    with pytest.raises(okl.ArgumentError, match="takes a pyopencl.Context"):
        okl.Device("opencl", context=queue)
    with pytest.raises(okl.ArgumentError, match="device_id 5 is not one of the context's"):
        okl.Device("opencl", context=context, device_id=5)
    with pytest.raises(okl.ArgumentError, match="platform_id cannot be combined"):
        okl.Device("opencl", context=context, platform_id=0)


@pytest.mark.gpu
def test_cuda_device_on_the_applications_stream():
    device("cuda")
    import cupy as cp

    stream = cp.cuda.Stream(non_blocking=True)
    dev = okl.Device("cuda", stream=stream)
    assert dev.current_stream.handle is stream
    assert cp.cuda.get_current_stream() == stream
    inc = dev.build_kernel_from_string(INC, "inc")
    x = cp.zeros(8, cp.float32)
    inc(8, x)
    stream.synchronize()
    assert (x.get() == 1).all()
    with pytest.raises(okl.ArgumentError, match="takes a cupy.cuda.Stream"):
        okl.Device("cuda", stream=0)
    cp.cuda.Stream.null.use()


# -- OKL_VERBOSE: logging on stderr -------------------------------------------------------------

def test_verbose_goes_to_stderr_through_logging(tmp_path: Path):
    """A program's stdout stays its own under OKL_VERBOSE (a pipe, a redirect)."""
    script = ("import okl; d = okl.Device('serial'); "
              f"d.build_kernel_from_string({INC!r}, 'inc'); print('result')")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OKL_VERBOSE": "1",
           "OKL_CACHE_DIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "result\n"
    assert "[okl] translation cache miss" in r.stderr
    assert re.search(r"\[okl\] built inc for serial in [\d.]+ ms", r.stderr)


def test_verbose_messages_are_okl_log_records(tmp_path: Path, monkeypatch, caplog):
    import logging

    monkeypatch.setenv("OKL_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("OKL_VERBOSE", raising=False)
    with caplog.at_level(logging.DEBUG, logger="okl"):
        okl.Device("serial").build_kernel_from_string(INC + "\n// log", "inc")
    assert any(r.name == "okl" and "built inc for serial" in r.getMessage()
               for r in caplog.records)


# -- oklc cache: the backend caches too ---------------------------------------------------------

def test_cache_info_and_clear_show_the_backend_caches(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("OKL_CACHE_DIR", str(tmp_path / "okl"))
    for env, name, entry in (("CUPY_CACHE_DIR", "cupy", "0" * 32 + "_2.cubin"),
                             ("POCL_CACHE_DIR", "pocl", "AB/" + "C" * 37 + "/program.bc"),
                             ("CUDA_CACHE_PATH", "nv", "index")):
        (tmp_path / name / entry).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name / entry).write_bytes(b"x" * 10)  # each backend's own layout
        monkeypatch.setenv(env, str(tmp_path / name))
    r = CliRunner().invoke(oklc, ["cache", "info"])
    assert r.exit_code == 0, r.output
    assert f"cupy      {tmp_path / 'cupy'}  (CUPY_CACHE_DIR; cuda, hip): 1 files, 10 bytes" \
        in r.output
    assert f"pocl      {tmp_path / 'pocl'}  (POCL_CACHE_DIR" in r.output
    assert "CUDA_CACHE_PATH" in r.output and "pyopencl" in r.output
    r = CliRunner().invoke(oklc, ["cache", "clear"])
    assert r.exit_code == 0 and (tmp_path / "cupy").is_dir() and any(
        (tmp_path / "cupy").iterdir())  # only on request
    r = CliRunner().invoke(oklc, ["cache", "clear", "--backends"])
    assert r.exit_code == 0, r.output
    assert f"cupy: removed 1 entries from {tmp_path / 'cupy'}" in r.output
    assert (tmp_path / "cupy").is_dir() and not any((tmp_path / "cupy").iterdir())


# -- documentation: every option and environment variable ---------------------------------------

def test_readme_documents_every_device_option_and_environment_variable():
    from okl.modes import COMMON_OPTIONS, TABLE

    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Device options and environment variables"):]
    options = set(COMMON_OPTIONS).union(*(m.options for m in TABLE))
    for option in options:
        assert f"`{option}`" in table, option
    sources = subprocess.run(["grep", "-rhoE", r"environ(\.get)?\(\s*\"[A-Z_]+\"|"
                              r"environ\[\"[A-Z_]+\"\]|flag\(\"[A-Z_]+\"|"
                              r"getenv\(\"[A-Z_]+\"\)", "okl"],
                             cwd=ROOT, capture_output=True, text=True).stdout
    names = set(re.findall(r"\"([A-Z_]+)\"", sources))
    from okl import limits
    from okl.runtime.drivers import clselect
    names |= {v.env for v in vars(limits).values() if isinstance(v, limits.Limit)}
    names.add(clselect.ENV)
    assert {"OKL_CACHE_DIR", "OKL_CPP", "OKL_VERBOSE", "OKL_LAUNCH", "OKL_CHECK_BOUNDS",
            "OKL_NO_CACHE", "OKL_CACHE_READONLY", "OKL_OPENCL_DEVICE"} <= names
    for name in names:
        assert f"`{name}" in readme, name
