"""The Python runtime's everyday traps (issue 31): what numpy, CuPy and PyOpenCL users expect
of views, foreign arrays, ``stream=``, ``dir(okl)``, build timeouts and build-time logs.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap

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
