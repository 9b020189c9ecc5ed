"""Zero-copy interop (DLPack, array interfaces, Device.asarray of producers, pyopencl) and
Device/Kernel properties, on every mode that runs here.

serial, openmp and opencl (PoCL) run on this machine; the cuda/hip tests are written for a GPU
machine (``OKL_TEST_MODES=cuda,hip``) and skip visibly elsewhere (they need CuPy, and PyTorch
for the torch checks, which skip without it).
"""

from __future__ import annotations

import gc
import os

import numpy as np
import pytest
from click.testing import CliRunner
from modes import device_memo, params, private_cache

import okl
from okl.cli import main as oklc
from okl.runtime.properties import KEYS

EVERY = params(("serial", "openmp", "opencl", "cuda", "hip"))
HOST = params(("serial", "openmp"))
GPU = params(("cuda", "hip"))

SCALE = r"""
@kernel void scale(const int n, const float a, float *x) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    x[i] *= a;
  }
}
"""


@pytest.fixture(scope="module", autouse=True)
def module_cache(tmp_path_factory):
    """Keep the whole module away from the user's cache."""
    with private_cache(tmp_path_factory.mktemp("okl-cache")) as root:
        yield root


device = device_memo()


# -- CPU modes: host memory is device memory -----------------------------------------------------
@pytest.mark.parametrize("mode", HOST)
def test_from_dlpack_shares_memory_both_ways(mode):
    dev = device(mode)
    mem = dev.asarray(np.arange(8, dtype=np.float32), copy=True)
    assert mem.__dlpack_device__() == (1, 0)
    view = np.from_dlpack(mem)
    view[0] = 42.0  # numpy -> okl
    assert mem.get()[0] == 42.0
    dev.build_kernel_from_string(SCALE, "scale")(8, 2.0, mem)  # okl -> numpy
    np.testing.assert_array_equal(view, [84, 2, 4, 6, 8, 10, 12, 14])
    # numpy's array interface too, and the view keeps the buffer alive after free()
    arr = np.asarray(mem)
    assert np.shares_memory(arr, view)
    mem.free()
    gc.collect()
    assert arr[0] == 84.0
    with pytest.raises(okl.ArgumentError, match="freed"):
        mem.__dlpack__()


@pytest.mark.parametrize("mode", HOST)
def test_asarray_numpy_is_zero_copy_when_contiguous(mode):
    dev = device(mode)
    x = np.arange(16, dtype=np.float32)
    mem = dev.asarray(x)  # shared: a kernel writing it writes x
    dev.build_kernel_from_string(SCALE, "scale")(16, 3.0, mem)
    np.testing.assert_array_equal(x, np.arange(16, dtype=np.float32) * 3)
    assert np.shares_memory(np.from_dlpack(mem), x)
    # copied: copy=True, non-contiguous, read-only, a dtype conversion, a list
    assert not np.shares_memory(np.asarray(dev.asarray(x, copy=True)), x)
    strided = np.arange(32, dtype=np.float32)[::2]
    m = dev.asarray(strided)
    assert not np.shares_memory(np.asarray(m), strided)
    np.testing.assert_array_equal(m.get(), strided)
    frozen = np.arange(4.0)
    frozen.flags.writeable = False
    assert not np.shares_memory(np.asarray(dev.asarray(frozen)), frozen)
    as64 = dev.asarray(x, np.float64)
    assert as64.dtype == np.float64 and not np.shares_memory(np.asarray(as64), x)
    np.testing.assert_array_equal(dev.asarray([[1, 2], [3, 4]]).get(), [[1, 2], [3, 4]])
    # copy=False refuses what needs a copy
    with pytest.raises(okl.ArgumentError, match="copy=False"):
        dev.asarray(strided, copy=False)
    with pytest.raises(okl.ArgumentError, match="copy=False"):
        dev.asarray(x, np.float64, copy=False)
    assert np.shares_memory(np.asarray(dev.asarray(x, copy=False)), x)


class _Producer:
    """A DLPack producer that is not a numpy array (as PyTorch or JAX CPU tensors are)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, **kw):
        return self.array.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


@pytest.mark.parametrize("mode", HOST)
def test_asarray_host_dlpack_producer_is_zero_copy(mode):
    dev = device(mode)
    x = np.zeros(8, np.int32)
    mem = dev.asarray(_Producer(x))
    mem.handle[3] = 7
    assert x[3] == 7
    mem.set(np.arange(8, dtype=np.int32))
    np.testing.assert_array_equal(x, np.arange(8))


@pytest.mark.parametrize("mode", HOST)
def test_asarray_of_memory_and_structs(mode):
    dev = device(mode)
    mem = dev.asarray(np.ones(4))
    assert dev.asarray(mem) is mem
    other = device("openmp" if mode == "serial" else "serial")
    shared = other.asarray(mem)  # both CPU modes use host memory: shared
    assert shared.device is other and np.shares_memory(np.asarray(shared), np.asarray(mem))
    items = np.zeros(3, np.dtype([("x", "f8"), ("n", "i4")]))
    smem = dev.asarray(items)
    assert smem.dtype == items.dtype
    with pytest.raises(BufferError, match="structured"):
        smem.__dlpack__()


@pytest.mark.parametrize("mode", HOST)
def test_torch_sees_host_memory(mode):
    torch = pytest.importorskip("torch")
    dev = device(mode)
    mem = dev.zeros(4, np.float32)
    t = torch.from_dlpack(mem)
    t += 1
    np.testing.assert_array_equal(mem.get(), np.ones(4))
    back = dev.asarray(t)  # a CPU tensor: shared
    back.handle[0] = 5
    assert t[0].item() == 5


# -- opencl ------------------------------------------------------------------------------------
def test_opencl_dlpack_is_a_clear_error():
    dev = device("opencl")
    mem = dev.asarray(np.arange(4, dtype=np.float32))
    with pytest.raises(BufferError, match=r"mem\.get\(\).*to_pyopencl"):
        np.from_dlpack(mem)
    with pytest.raises(BufferError, match="OpenCL"):
        mem.__dlpack_device__()
    assert not hasattr(mem, "__array_interface__")


def test_opencl_pyopencl_interop_without_copy():
    cla = pytest.importorskip("pyopencl.array")
    dev = device("opencl")
    k = dev.build_kernel_from_string(SCALE, "scale")
    mem = dev.asarray(np.arange(8, dtype=np.float32))
    view = mem.to_pyopencl()  # a pyopencl Array over the same buffer
    assert view.shape == (8,) and view.dtype == np.float32
    k(8, 2.0, mem)
    np.testing.assert_array_equal(view.get(), np.arange(8) * 2)

    queue = dev.backend.queue
    a = cla.to_device(queue, np.ones(8, np.float32))
    shared = dev.asarray(a)  # same context: no copy
    k(8, 5.0, shared)
    np.testing.assert_array_equal(a.get(), np.full(8, 5.0))
    shared.free()  # releases okl's sub-buffer, never the producer's buffer
    np.testing.assert_array_equal(a.get(), np.full(8, 5.0))
    copied = dev.asarray(a, copy=True)
    k(8, 2.0, copied)
    np.testing.assert_array_equal(a.get(), np.full(8, 5.0))

    import pyopencl as cl
    buf = cl.Buffer(dev.backend.context, cl.mem_flags.READ_WRITE, 32)
    typed = dev.asarray(buf, np.float32)  # untyped: dtype says how to read it
    assert typed.shape == (8,) and typed.dtype == np.float32
    typed.set(np.arange(8, dtype=np.float32))
    out = np.empty(8, np.float32)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, np.arange(8))
    assert dev.asarray(buf).dtype == np.uint8

    other = cl.Context([dev.backend.cl_device])
    foreign = cla.to_device(cl.CommandQueue(other), np.ones(4, np.float32))
    with pytest.raises(okl.ArgumentError, match="another OpenCL context"):
        dev.asarray(foreign)
    with pytest.raises(okl.ArgumentError, match="not OpenCL memory"):
        device("serial").asarray(np.ones(2)).to_pyopencl()


def test_opencl_numpy_is_copied():
    dev = device("opencl")
    x = np.arange(4, dtype=np.float32)
    mem = dev.asarray(x)
    dev.build_kernel_from_string(SCALE, "scale")(4, 2.0, mem)
    np.testing.assert_array_equal(x, np.arange(4))
    with pytest.raises(okl.ArgumentError, match="copy=False"):
        dev.asarray(x, copy=False)


# -- cuda, hip (run on a GPU machine) ----------------------------------------------------------
@pytest.mark.parametrize("mode", GPU)
def test_gpu_dlpack_and_cuda_array_interface_share_memory(mode):
    dev = device(mode)
    cp = pytest.importorskip("cupy")
    mem = dev.asarray(np.arange(8, dtype=np.float32))
    assert mem.__dlpack_device__()[1] == dev.backend.device_id
    view = cp.from_dlpack(mem)
    view[0] = 42
    assert mem.get()[0] == 42
    dev.build_kernel_from_string(SCALE, "scale")(8, 2.0, mem)
    dev.finish()
    assert float(view[0]) == 84
    iface = mem.__cuda_array_interface__
    assert iface["data"][0] == view.data.ptr
    assert cp.asarray(mem).data.ptr == view.data.ptr
    items = dev.asarray(np.zeros(3, np.dtype([("x", "f8"), ("n", "i4")])))
    iface = items.__cuda_array_interface__  # the structs, not the bytes CuPy holds
    assert iface["shape"] == (3,) and iface["typestr"] == items.dtype.str


@pytest.mark.parametrize("mode", GPU)
def test_gpu_asarray_same_gpu_is_zero_copy(mode):
    dev = device(mode)
    cp = pytest.importorskip("cupy")
    with dev.backend.cp_device:
        x = cp.arange(16, dtype=cp.float32)
    mem = dev.asarray(x)
    assert mem.handle.data.ptr == x.data.ptr
    dev.build_kernel_from_string(SCALE, "scale")(16, 2.0, mem)
    dev.finish()
    cp.testing.assert_array_equal(x, cp.arange(16, dtype=cp.float32) * 2)
    assert dev.asarray(x, copy=True).handle.data.ptr != x.data.ptr
    host = np.ones(4)
    assert dev.asarray(host).get().tolist() == [1, 1, 1, 1]  # host memory: copied
    with pytest.raises(okl.ArgumentError, match="copy=False"):
        dev.asarray(host, copy=False)


@pytest.mark.parametrize("mode", GPU)
def test_gpu_torch_sees_the_same_memory(mode):
    dev = device(mode)
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without a GPU")
    mem = dev.zeros(4, np.float32)
    t = torch.from_dlpack(mem)
    t += 1
    torch.cuda.synchronize()
    np.testing.assert_array_equal(mem.get(), np.ones(4))
    t2 = torch.arange(4, dtype=torch.float32, device=f"cuda:{dev.backend.device_id}")
    m2 = dev.asarray(t2)
    assert m2.handle.data.ptr == t2.data_ptr()


@pytest.mark.parametrize("mode", GPU)
def test_gpu_asarray_refuses_another_gpu(mode):
    device(mode)
    cp = pytest.importorskip("cupy")
    if cp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")
    dev = okl.Device(mode, device_id=0)
    with cp.cuda.Device(1):
        x = cp.ones(4)
    with pytest.raises(okl.ArgumentError, match=r"GPU 1.*device_id=1"):
        dev.asarray(x)


# -- properties ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", EVERY)
def test_device_properties_keys(mode):
    dev = device(mode)
    props = dev.properties
    assert isinstance(props, dict) and set(KEYS) <= set(props)
    assert props["mode"] == mode and props["name"]
    assert props["compute_units"] is None or props["compute_units"] >= 1
    if mode in ("serial", "openmp"):
        assert props["compute_units"] == (1 if mode == "serial" else os.cpu_count())
        assert props["memory_bytes"] and props["warp_size"] is None
    if mode in ("opencl", "cuda", "hip"):
        assert props["max_work_group_size"] >= 1 and props["shared_memory_bytes"] > 0
        assert props["memory_bytes"] > 0
    if mode in ("cuda", "hip"):
        assert props["warp_size"] in (32, 64)
    props["name"] = "changed"  # a copy: the Device's own stays
    assert dev.properties["name"] != "changed"


@pytest.mark.parametrize("mode", EVERY)
def test_kernel_properties(mode):
    dev = device(mode)
    k = dev.build_kernel_from_string(SCALE, "scale")
    props = k.properties
    assert isinstance(props, dict) and props["name"] == "scale" and props["mode"] == mode
    assert props["loops"] and props["loops"][0]["inner"] == [16]
    assert "error" not in props
    if mode in ("serial", "openmp"):
        assert props["entry"] and props["threads"] >= 1
    else:
        (info,) = props["device_kernels"].values()
        if mode == "opencl":
            assert info["work_group_size"] >= 16 and "local_mem_size" in info
        else:
            assert info["num_regs"] > 0 and info["max_threads_per_block"] >= 16


def test_oklc_info_and_build_show_properties(tmp_path):
    r = CliRunner().invoke(oklc, ["info"])
    assert r.exit_code == 0, r.output
    available = [b.name for b in okl.backends() if b.available]
    for mode in available:
        assert f"{mode} device properties:" in r.output
    for key in KEYS:
        assert f"  {key}:" in r.output
    path = tmp_path / "scale.okl"
    path.write_text(SCALE)
    mode = available[-1]
    r = CliRunner().invoke(oklc, ["build", str(path), "scale", "-m", mode, "--verbose"])
    assert r.exit_code == 0, r.output
    assert "loops:" in r.output and "inner=16" in r.output


def test_readme_interop_example_runs(tmp_path):
    """README's "Interop and properties" example, as printed there, on serial."""
    import pathlib
    import subprocess
    import sys

    readme = (pathlib.Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## Interop and properties", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    root = str(pathlib.Path(__file__).resolve().parent.parent)
    env = {**os.environ, "OKL_CACHE_DIR": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "[100.   2.   4.   6.   8.  10.  12.  14.]"
