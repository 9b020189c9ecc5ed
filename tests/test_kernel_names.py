"""Kernel names at the edges (issue 32): a name every backend accepts, or a diagnostic; a
name asked for from Python is shown escaped, never as raw control characters."""

from __future__ import annotations

import numpy as np
import pytest
from modes import device_memo, params

import okl

device = device_memo()
SOURCE = """@kernel void NAME(int *x) {
  for (int b = 0; b < 1; ++b; @outer) { for (int i = 0; i < 2; ++i; @inner) { x[i] = 7; } }
}
"""


def test_a_name_past_the_limit_is_a_diagnostic():
    with pytest.raises(okl.TranslationError, match=r":1:14: error: \[@kernel\] name of 1000 "
                                                   r"characters: okl allows at most 200"):
        okl.translate(SOURCE.replace("NAME", "k" * 1000), "opencl")


@pytest.mark.parametrize("mode", params())
def test_the_longest_name_allowed_builds_and_runs(mode):
    name = "k" * 200  # PoCL aborted the process at 1000 characters
    dev = device(mode)
    kernel = dev.build_kernel_from_string(SOURCE.replace("NAME", name), name)
    x = dev.zeros(2, np.int32)
    kernel(x)
    assert x.get().tolist() == [7, 7]


def test_a_name_with_control_characters_is_shown_escaped():
    with pytest.raises(okl.OKLError) as caught:
        okl.Device("serial").build_kernel_from_string(SOURCE.replace("NAME", "k"), "\x1b[2J\n")
    assert "\x1b" not in str(caught.value) and "\\x1b[2J\\n" in str(caught.value)
