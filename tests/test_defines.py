"""Defines given from Python (issue 32): one check and one text for every path that takes
them (translate, build_kernel/build_program, okl.mpi, tune, compare), so a bad name or value
is an okl error naming it -- not a TypeError from inside a sort or a hash."""

from __future__ import annotations

import numpy as np
import pytest

import okl
from okl.parser.cpp.defines import DefineError, define_texts

SOURCE = """@kernel void k(int *x) {
  for (int b = 0; b < 1; ++b; @outer) { for (int i = 0; i < 1; ++i; @inner) { x[i] = N; } }
}
"""


@pytest.mark.parametrize("defines,message", [
    ({1: 2}, "define name 1 is not a macro name"),
    ({"1A": 2}, "'1A' is not a macro name"),
    ({"N B": 1}, "'N B' is not a macro name"),
    ({"N": [1]}, "define 'N': a list value"),
    ({"N": None}, "define 'N': a NoneType value"),
    ({"N": "1\n2"}, "spans lines"),
    ({"N": float("nan")}, "nan has no C spelling"),
    ("N=3", "defines must be a dict"),
])
def test_bad_defines_are_named(defines, message):
    with pytest.raises(DefineError, match=message) as caught:
        okl.translate(SOURCE, "serial", defines=defines)
    assert isinstance(caught.value, okl.OKLError) and isinstance(caught.value, TypeError)
    with pytest.raises(DefineError, match=message):
        okl.Device("serial").build_kernel_from_string(SOURCE, "k", defines=defines)


def test_values_become_the_text_c_reads():
    assert define_texts({"A": True, "B": False, "C": np.int64(7), "D": 0.5, "E": "x + 1",
                         "F(a, b)": "a"}) == {"A": "1", "B": "0", "C": "7", "D": "0.5",
                                              "E": "x + 1", "F(a, b)": "a"}
    assert define_texts(None) == {}


def test_equal_defines_share_one_build():
    dev = okl.Device("serial")
    a = dev.build_kernel_from_string(SOURCE, "k", defines={"N": 3})
    assert dev.build_kernel_from_string(SOURCE, "k", defines={"N": "3"}) is a
    x = np.zeros(1, np.int32)
    a(x)
    assert x[0] == 3
