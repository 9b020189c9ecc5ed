"""Checked mode (okl.transforms.checked, okl.runtime.launch.checked): an out-of-bounds read or write
through a pointer argument is reported as okl.LaunchError with its file, line, column, array,
index and size; correct kernels give the same results; the unchecked translation is unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest

import okl
from okl.runtime.launch.checked import UNKNOWN, element_count
from okl.runtime.launch.spec import RuntimeParam
from okl.translation import translate

try:  # `python -m pytest` from the repository root
    from tests import modes
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    import modes

SHIFT = """\
@kernel void shift(const int n, const int d, const float *x, float *y) {
  for (int b = 0; b < n; b += 32; @outer) {
    for (int i = b; i < b + 32; ++i; @inner) {
      if (i < n) {
        y[i + d] = 2.0f * x[i - d];
      }
    }
  }
}
"""

HISTOGRAM = """\
typedef struct { float sum; int count; } bin;

@kernel void histogram(const int n, const int *key, const float *value, bin *bins,
                       float *scaled) {
  for (int b = 0; b < n; b += 16; @outer) {
    for (int i = b; i < b + 16; ++i; @inner) {
      if (i < n) {
        const int k = key[i];
        @atomic bins[k].count += 1;
        scaled[i] = value[i] * (float) (k + 1);
      }
    }
  }
}
"""

_checked: dict[str, okl.Device] = {}


def checked(mode: str) -> okl.Device:
    """One checked Device per mode (the unchecked one is modes.device)."""
    if mode not in _checked:
        modes.skip_unless_available(mode)
        _checked[mode] = okl.Device(mode, check_bounds=True)
    return _checked[mode]


def shift_kernel(dev: okl.Device):
    return dev.build_kernel_from_string(SHIFT, "shift", filename="shift.okl")


@pytest.mark.parametrize("mode", modes.params())
def test_out_of_bounds_read_is_reported(mode):
    dev = checked(mode)
    x, y = dev.asarray(np.ones(8, np.float32)), dev.zeros(20, np.float32)
    with pytest.raises(okl.LaunchError) as e:
        shift_kernel(dev)(8, 1, x, y)  # i = 0 reads x[-1]
    assert str(e.value) == ("shift.okl:5:27: out-of-bounds access x[-1] of 8 elements "
                            "(kernel 'shift')")
    shift_kernel(dev)(8, 0, x, y)  # the error buffer was cleared: a correct launch passes
    assert y.get()[:8].tolist() == [2.0] * 8


@pytest.mark.parametrize("mode", modes.params())
def test_out_of_bounds_write_is_reported_and_skipped(mode):
    dev = checked(mode)
    x = dev.asarray(np.ones(20, np.float32))
    y = dev.asarray(np.full(10, 7.0, np.float32))
    with pytest.raises(okl.LaunchError) as e:
        shift_kernel(dev)(10, 0, x, dev.zeros(4, np.float32))
    assert "shift.okl:5:9: out-of-bounds access y[4] of 4 elements" in str(e.value)
    with pytest.raises(okl.LaunchError) as e:
        shift_kernel(dev)(10, -3, x, y)  # i = 0..2 write y[-3..-1]: first failure wins
    message = str(e.value)
    assert message.startswith("shift.okl:5:9: out-of-bounds access y[-")
    assert message.endswith("] of 10 elements (kernel 'shift')")
    assert y.get().tolist() == [2.0] * 7 + [7.0] * 3  # in-bounds writes done, others skipped


@pytest.mark.parametrize("mode", modes.params())
def test_struct_fields_and_atomics_are_checked(mode):
    dev = checked(mode)
    k = dev.build_kernel_from_string(HISTOGRAM, "histogram", filename="hist.okl")
    bins = dev.zeros(3, [("sum", "f4"), ("count", "i4")])
    key, value = np.array([0, 1, 2, 3], np.int32), np.ones(4, np.float32)
    with pytest.raises(okl.LaunchError, match=r"hist\.okl:9:17: out-of-bounds access "
                                              r"bins\[3\] of 3 elements"):
        k(4, dev.asarray(key), dev.asarray(value), bins, dev.zeros(4, np.float32))


@pytest.mark.parametrize("mode", modes.params())
def test_null_has_no_elements(mode):
    dev = checked(mode)
    with pytest.raises(okl.LaunchError, match=r"out-of-bounds access x\[0\] of 0 elements"):
        shift_kernel(dev)(4, 0, okl.NULL, dev.zeros(4, np.float32))


@pytest.mark.parametrize("mode", modes.params())
def test_correct_kernels_give_the_same_results(mode):
    plain, dev = modes.device(mode), checked(mode)
    rng = np.random.default_rng(3)
    key = rng.integers(0, 5, 100).astype(np.int32)
    value = rng.random(100).astype(np.float32)
    results = []
    for d in (plain, dev):
        k = d.build_kernel_from_string(HISTOGRAM, "histogram", filename="hist.okl")
        bins, scaled = d.zeros(5, [("sum", "f4"), ("count", "i4")]), d.zeros(100, np.float32)
        k(100, d.asarray(key), d.asarray(value), bins, scaled)
        results.append((bins.get(), scaled.get()))
    assert results[0][0].tobytes() == results[1][0].tobytes()
    assert results[0][1].tobytes() == results[1][1].tobytes()
    assert np.bincount(key, minlength=5).tolist() == results[1][0]["count"].tolist()


def test_element_counts():
    f32 = RuntimeParam("x", "float *", np.dtype(np.float32), True, False)
    assert element_count(np.zeros(6, np.float64), f32) == 12  # in the parameter's elements
    assert element_count(okl.NULL, f32) == 0
    assert element_count(12345, f32) == UNKNOWN


def test_environment_turns_it_on(monkeypatch):
    monkeypatch.setenv("OKL_CHECK_BOUNDS", "1")
    assert okl.Device("serial").check_bounds
    assert not okl.Device("serial", check_bounds=False).check_bounds
    monkeypatch.setenv("OKL_CHECK_BOUNDS", "0")
    assert not okl.Device("serial").check_bounds


def test_checked_source_is_cached_apart(tmp_path):
    plain = okl.Device("serial", cache_dir=str(tmp_path))
    dev = okl.Device("serial", cache_dir=str(tmp_path), check_bounds=True)
    a, b = shift_kernel(plain), shift_kernel(dev)
    assert "_okl_at_" not in a.source and "_okl_at_" in b.source
    assert [p.name for p in b.params] == ["n", "d", "x", "y"]  # the hidden ones stay hidden
    assert b.spec.check_sites == [["shift.okl", 5, 27, "x"], ["shift.okl", 5, 9, "y"]]


@pytest.mark.parametrize("mode", modes.ALL)
def test_unchecked_translation_is_unchanged(mode):
    default = translate(SHIFT, mode, filename="shift.okl")
    assert translate(SHIFT, mode, filename="shift.okl", check_bounds=False).source == \
        default.source
    assert "_okl_err" not in default.source
    assert [p.name for p in default.kernels[0].params] == ["n", "d", "x", "y"]
