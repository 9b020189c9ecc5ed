"""A cold build starts the backend compile as soon as the translation has made the backend
source (okl.runtime.drivers.started), and finishes the rest of the translation -- specs,
cache entry -- while it runs.  Here: Started on its own; the order of a cold build on every
mode (the compile is begun before the specs exist, and only for a fresh translation); on
cuda and hip, NVRTC on its thread giving the same kernels and the same build errors."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from modes import GPU, params, private_cache, skip_unless_available

import okl
from okl.errors import BuildError
from okl.runtime import device as device_module
from okl.runtime.cache import forget_memos
from okl.runtime.drivers.started import Started

SCALE = r"""
@kernel void scale(const int n, const float s, float *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = s * y[i];
  }
}
"""


def test_started_runs_at_once_beside_the_caller():
    """The work runs before anyone waits for it: here it needs the caller to go on."""
    go_on = threading.Event()

    def work():
        assert go_on.wait(10)
        return 42

    job = Started("key", work)
    go_on.set()  # only a thread already running can see this and return
    assert job.result() == 42 and job.key == "key"


def test_started_raises_what_the_work_raised_where_it_is_awaited():
    def work():
        raise BuildError("compile failed", command=["nvrtc"], log="line 3: error")

    job = Started("key", work)
    with pytest.raises(BuildError, match="compile failed") as e:
        job.result()
    assert e.value.log == "line 3: error"


def test_started_hands_out_the_result_before_its_then_step_ends():
    """``then`` (the cache write) runs after the result is out: the caller loads the binary
    meanwhile; ``close`` waits for it and raises what it raised."""
    release = threading.Event()
    seen: list[int] = []

    def then(value):
        assert release.wait(10)
        seen.append(value)
        raise OSError("disk full")

    job = Started("key", lambda: 7, then=then)
    assert job.result() == 7 and seen == []  # then is still waiting for the caller
    release.set()
    with pytest.raises(OSError, match="disk full"):
        job.close()
    assert seen == [7]


def test_started_nobody_took_is_not_waited_for():
    """A compile whose result was never taken (the binary came from the cache after all)
    is left to run out: ``close`` returns at once."""
    release = threading.Event()
    job = Started("key", lambda: release.wait(10))
    job.close()  # would wait ten seconds if it joined
    release.set()
    assert job.result() is True


@pytest.mark.parametrize("mode", params())
def test_cold_build_begins_the_compile_before_the_specs(mode, tmp_path, monkeypatch):
    """Every mode is asked to begin its compile once per fresh translation, before the
    runtime makes the kernel specs; a translation the cache answers begins nothing (its
    specs exist already), and neither does a call for a kernel the file lacks."""
    skip_unless_available(mode)
    events: list[str] = []
    specs_of = device_module.specs_of
    monkeypatch.setattr(device_module, "specs_of",
                        lambda t: events.append("specs") or specs_of(t))
    with private_cache(tmp_path / "cache"):
        dev = okl.Device(mode)
        begin = dev.backend.begin_build

        def spy(device, source, flags):
            events.append("begin")
            assert "scale" in source
            return begin(device, source, flags)

        monkeypatch.setattr(dev.backend, "begin_build", spy)
        with pytest.raises(KeyError):
            dev.build_kernel_from_string(SCALE, "scael")
        assert events == ["specs"]
        events.clear()
        k = dev.build_kernel_from_string(SCALE.replace("16", "32"), "scale")
        assert events == ["begin", "specs"]
        y = dev.asarray(np.ones(40, np.float32))
        k(40, np.float32(3), y)
        np.testing.assert_array_equal(y.get(), 3)
        forget_memos()  # as a new process: the translation comes from the cache
        events.clear()
        dev = okl.Device(mode)
        monkeypatch.setattr(dev.backend, "begin_build", spy)
        k = dev.build_kernel_from_string(SCALE.replace("16", "32"), "scale")
        assert events == [] and k.cache_hit


@pytest.mark.parametrize("mode", params(GPU))
def test_gpu_compile_on_its_thread_gives_the_kernel_and_the_errors(mode, tmp_path):
    """cuda and hip on NVIDIA: NVRTC runs on the compile thread while the runtime finishes
    the translation; the kernel runs, and a source NVRTC refuses is still a BuildError that
    names the .okl line."""
    skip_unless_available(mode)
    with private_cache(tmp_path / "cache"):
        dev = okl.Device(mode)
        if getattr(dev.backend, "rocm", False):
            pytest.skip("ROCm: CuPy compiles on the calling thread")
        started = dev.backend.begin_build(dev, "extern \"C\" __global__ void f() {}\n", [])
        assert isinstance(started, Started)
        started.result()
        started.close()
        # the cubin's cache entry is written on the compile thread, and the build waits for
        # it: okl.mpi's recording of what a build used holds it
        with dev.cache.recording() as entries:
            k = dev.build_kernel_from_string(SCALE.replace("16", "64"), "scale")
        assert k.build_hit is False
        assert [level for level, _, files in entries if "module.cubin" in files] == ["build"]
        y = dev.asarray(np.ones(100, np.float32))
        k(100, np.float32(2), y)
        np.testing.assert_array_equal(y.get(), 2)
        bad = SCALE.replace("y[i] = s * y[i];", "y[i] = s * y[i];\n    undeclared_fn(i);")
        with pytest.raises(BuildError) as e:
            dev.build_kernel_from_string(bad, "scale")
        assert "undeclared_fn" in str(e.value)
