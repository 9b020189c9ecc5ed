"""Every kernel that computes something runs on every mode and must match numpy.

A case is ``<name>.okl`` plus ``<name>.ref.py`` (under tests/kernels or tests/golden) defining
``KERNEL`` (the @kernel name), ``DEFINES`` (optional), ``make(rng) -> list`` (the arguments:
numpy arrays and Python/numpy scalars) and ``reference(args) -> dict[int, ndarray]`` (expected
contents of the array arguments the kernel writes, by position).  ``RTOL`` (default 1e-5 for
floats; integers are compared exactly).  Arrays are copied to the device, the kernel runs, and
the written arrays are copied back.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
from modes import device, params
from runnable import CASES, case_id, load, okl_file


@pytest.mark.parametrize("mode", params())
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_matches_numpy(case: pathlib.Path, mode: str) -> None:
    ref = load(case)
    path = okl_file(case)
    dev = device(mode)
    kernel = dev.build_kernel(path, ref.KERNEL, defines=getattr(ref, "DEFINES", None),
                              include_dirs=[path.parent])
    args = ref.make(np.random.default_rng(1234))
    expected = ref.reference([a.copy() if isinstance(a, np.ndarray) else a for a in args])
    device_args = [dev.asarray(a) if isinstance(a, np.ndarray) and a.ndim else a
                   for a in args]
    kernel(*device_args)
    dev.finish()
    for index, want in expected.items():
        _compare(device_args[index].get(), want, getattr(ref, "RTOL", 1e-5),
                 f"argument {index} on {mode}")


def _compare(got: np.ndarray, want: np.ndarray, rtol: float, what: str) -> None:
    """Floats within rtol (GPU compilers contract a*b+c into FMAs), everything else exactly;
    struct arrays field by field."""
    if want.dtype.fields is not None:
        for name in want.dtype.names:
            _compare(got[name], want[name], rtol, f"{what}, field {name}")
    elif np.issubdtype(want.dtype, np.floating):
        atol = rtol * max(1.0, float(np.abs(want).max(initial=0)))
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)
