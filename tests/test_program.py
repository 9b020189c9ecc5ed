"""Whole-file builds: ``Device.build_program`` builds every @kernel of a file once and hands
the kernels out by name (``prog.name``, ``prog["name"]``), as CuPy's RawModule and PyOpenCL's
Program do; ``build_kernel`` goes through the same build and memo."""

from __future__ import annotations

import numpy as np
import pytest
from modes import private_cache

import okl
from okl.runtime.program import NoSuchKernelError

OPS = r"""
@kernel void axpy(const int n, const float alpha, const float *x, float *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = alpha * x[i] + y[i];
  }
}

@kernel void scale(const int n, const float s, float *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = s * y[i];
  }
}

@kernel void fill(const int n, float *y) {
  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) {
    y[i] = FILL;
  }
}
"""


@pytest.fixture(scope="module", autouse=True)
def module_cache(tmp_path_factory):
    with private_cache(tmp_path_factory.mktemp("okl-cache")) as root:
        yield root


@pytest.fixture(scope="module")
def dev():
    return okl.Device("serial")


@pytest.fixture(scope="module")
def ops(tmp_path_factory):
    path = tmp_path_factory.mktemp("src") / "ops.okl"
    path.write_text(OPS)
    return path


def test_every_kernel_of_the_file_by_name(dev, ops):
    prog = dev.build_program(ops, defines={"FILL": 3})
    assert isinstance(prog, okl.Program)
    assert prog.names == ("axpy", "scale", "fill") and list(prog) == list(prog.names)
    assert len(prog) == 3 and "scale" in prog and "nope" not in prog
    assert prog.axpy is prog["axpy"] and isinstance(prog.axpy, okl.Kernel)
    assert [k.name for k in prog.kernels] == ["axpy", "scale", "fill"]
    assert {"axpy", "scale", "fill"} <= set(dir(prog))  # tab completion
    n = 40
    x = np.arange(n, dtype=np.float32)
    y = dev.asarray(np.ones(n, np.float32))
    prog.axpy(n, 2.0, dev.asarray(x), y)
    prog["scale"](n, 0.5, y)
    np.testing.assert_allclose(y.get(), 0.5 * (2 * x + 1))
    prog.fill(n, y)
    np.testing.assert_array_equal(y.get(), np.full(n, 3, np.float32))
    assert "ops.okl" in repr(prog) and "axpy, scale, fill" in repr(prog)


def test_one_build_shared_with_build_kernel(dev, ops):
    """build_program and build_kernel share the memo: same arguments, same objects, and a
    kernel checks its arguments exactly as a build_kernel one does."""
    prog = dev.build_program(ops, defines={"FILL": 3})
    assert dev.build_program(ops, defines={"FILL": 3}) is prog
    assert dev.build_kernel(ops, "scale", defines={"FILL": 3}) is prog.scale
    assert prog.scale.program is prog
    other = dev.build_program(ops, defines={"FILL": 4})  # other defines: another build
    assert other is not prog and other.fill is not prog.fill
    with pytest.raises(okl.ArgumentError, match="float"):
        prog.scale(4, 1.0, dev.asarray(np.ones(4, np.float64)))
    from_string = dev.build_program_from_string(OPS, defines={"FILL": 3})
    assert from_string.names == prog.names and from_string.origin == "<string>"


def test_a_missing_kernel_names_those_there_are(dev, ops):
    prog = dev.build_program(ops, defines={"FILL": 3})
    with pytest.raises(KeyError, match=r"no @kernel named 'nope' in .*ops\.okl "
                                       r"\(kernels: axpy, scale, fill\)"):
        prog["nope"]
    with pytest.raises(AttributeError, match=r"did you mean 'scale'\?"):
        prog.scael  # noqa: B018
    with pytest.raises(okl.OKLError):
        prog.axpi  # noqa: B018
    assert getattr(prog, "nope", None) is None and not hasattr(prog, "nope")
    assert issubclass(NoSuchKernelError, KeyError)
    # build_kernel keeps its message for a name the file lacks
    with pytest.raises(okl.OKLError, match=r"no @kernel named 'nope'.*kernels: axpy"):
        dev.build_kernel(ops, "nope", defines={"FILL": 3})


def test_errors_of_one_kernel_stay_with_it():
    """A kernel too large for the device fails when it is asked for, not the whole file
    (its neighbours still build and run)."""
    if not {b.name: b for b in okl.backends()}["opencl"].available:
        pytest.skip("opencl unavailable here (block sizes are a GPU-style mode's)")
    src = OPS.replace("@tile(16, @outer, @inner)", "@tile(BIG, @outer, @inner)", 1)
    dev = okl.Device("opencl")
    dev.backend.max_threads = 64  # a smaller device's limit
    prog = dev.build_program_from_string(src, defines={"BIG": 128, "FILL": 1})
    with pytest.raises(okl.BuildError, match="128 threads per block"):
        prog.axpy  # noqa: B018
    y = dev.asarray(np.ones(8, np.float32))
    prog.scale(8, 3.0, y)
    np.testing.assert_array_equal(y.get(), np.full(8, 3, np.float32))


def test_invalid_okl_is_a_translation_error(dev):
    with pytest.raises(okl.TranslationError):
        dev.build_program_from_string("@kernel void k(int n) { for (;;) {} }")
