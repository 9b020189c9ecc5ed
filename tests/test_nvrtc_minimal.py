"""NVRTC's ``-minimal`` (okl.runtime.drivers.cuda.MINIMAL): okl compiles with it where NVRTC
has it, and a source that does not compile with it compiles again without it, so that a
kernel naming what the option leaves out (``cudaSuccess``) still builds, and a kernel with
an error reports the error of a full compile.  The logic is checked here with a stand-in for
CuPy's NVRTC binding; the build itself on a GPU (marked ``gpu``)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

try:  # `python -m pytest` from the repository root
    from tests.modes import params, private_cache, skip_unless_available
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    from modes import params, private_cache, skip_unless_available

import okl
from okl.runtime.drivers import cuda
from okl.runtime.drivers.cuda import MINIMAL, CudaBackend


class FakeNVRTC:
    """CuPy's nvrtc binding as _nvrtc_cubin uses it: each compile's options are recorded;
    ``refuse(options)`` returns an error message for the compiles that fail."""

    def __init__(self, refuse):
        self.refuse = refuse
        self.compiles: list[list[str]] = []
        self.destroyed = 0

    def createProgram(self, source, name, headers, include_names):  # noqa: N802 - CuPy's names
        return {"source": source}

    def compileProgram(self, program, options):  # noqa: N802
        self.compiles.append(list(options))
        message = self.refuse(options)
        if message:
            raise RuntimeError(message)
        program["options"] = list(options)

    def getCUBIN(self, program):  # noqa: N802
        return ("cubin " + " ".join(program["options"])).encode()

    def destroyProgram(self, program):  # noqa: N802
        self.destroyed += 1


def test_a_source_that_needs_what_minimal_leaves_out_compiles_again_without_it():
    nvrtc = FakeNVRTC(lambda o: "cudaSuccess is undefined" if MINIMAL in o else "")
    options = ["-std=c++17", MINIMAL, "-DX=1", "--gpu-architecture=sm_90"]
    cubin = cuda._nvrtc_cubin(nvrtc, "src", options)
    assert cubin == b"cubin -std=c++17 -DX=1 --gpu-architecture=sm_90"
    assert nvrtc.compiles == [options, ["-std=c++17", "-DX=1", "--gpu-architecture=sm_90"]]
    assert nvrtc.destroyed == 2  # every program is destroyed, the refused one too


def test_a_source_that_compiles_with_minimal_is_compiled_once():
    nvrtc = FakeNVRTC(lambda o: "")
    assert cuda._nvrtc_cubin(nvrtc, "src", [MINIMAL]) == ("cubin " + MINIMAL).encode()
    assert len(nvrtc.compiles) == 1


def test_an_error_is_the_full_compiles_and_without_minimal_nothing_is_retried():
    nvrtc = FakeNVRTC(lambda o: "minimal: " + " ".join(o) if MINIMAL in o else "full: syntax")
    with pytest.raises(RuntimeError, match="^full: syntax$"):
        cuda._nvrtc_cubin(nvrtc, "src", ["-std=c++17", MINIMAL])
    assert len(nvrtc.compiles) == 2
    nvrtc = FakeNVRTC(lambda o: "full: syntax")
    with pytest.raises(RuntimeError, match="^full: syntax$"):
        cuda._nvrtc_cubin(nvrtc, "src", ["-std=c++17"])
    assert len(nvrtc.compiles) == 1


@pytest.mark.parametrize("minimal", [True, False])
@pytest.mark.parametrize("mode", ["cuda", "hip"])
def test_options_have_minimal_where_nvrtc_has_it(mode: str, minimal: bool):
    backend = SimpleNamespace(mode=mode, rocm=False, minimal=minimal, flags=("-DA=1",))
    options = CudaBackend.compile_options(backend, ["-DB=2"])  # type: ignore[arg-type]
    assert (MINIMAL in options) is minimal
    assert options[:1] == ["-std=c++17"] and options.index("-DA=1") < options.index("-DB=2")
    assert any(o.startswith("-I") for o in options) is (mode == "hip")


def test_nvrtc_version_gate():
    """NVRTC 12.4 introduced the option; an NVRTC whose version CuPy cannot say gets none."""
    broken = SimpleNamespace(cuda=SimpleNamespace(nvrtc=SimpleNamespace(getVersion=None)))
    assert cuda._nvrtc_version(broken) is None and not cuda.has_minimal(None)
    new = SimpleNamespace(cuda=SimpleNamespace(nvrtc=SimpleNamespace(getVersion=lambda: (13, 0))))
    assert cuda._nvrtc_version(new) == (13, 0)
    assert [cuda.has_minimal(v) for v in ((11, 8), (12, 3), (12, 4), (13, 0))] == \
        [False, False, True, True]


NAMES_THE_RUNTIME = """
@kernel void offsets(const int n, int *out) {
  for (int i = 0; i < n; ++i; @tile(32, @outer, @inner)) {
    out[i] = (int) cudaSuccess + 2 * i;
  }
}
"""

PLAIN = """
@kernel void twice(const int n, int *out) {
  for (int i = 0; i < n; ++i; @tile(32, @outer, @inner)) {
    out[i] = 2 * i;
  }
}
"""


@pytest.mark.parametrize("mode", params(["cuda"]))
def test_on_a_gpu_kernels_build_with_minimal_and_one_naming_the_runtime_without(mode, tmp_path):
    skip_unless_available(mode)
    with private_cache(tmp_path):
        dev = okl.Device(mode)
        if cuda.has_minimal(cuda._nvrtc_version(cuda._cupy())):
            assert MINIMAL in dev.backend.compile_options([])
        for source in (PLAIN, NAMES_THE_RUNTIME):
            name = "twice" if source is PLAIN else "offsets"
            k = dev.build_kernel_from_string(source, name)
            out = dev.zeros(100, np.int32)
            k(100, out)
            assert np.array_equal(out.get(), 2 * np.arange(100, dtype=np.int32))  # cudaSuccess: 0
