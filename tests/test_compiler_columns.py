"""A C compiler's positions in a BuildError are the OKL source's (issue 32): ``#line`` gives
the compiler the file and line but not the column, which it counted in okl's generated line
(an undeclared name at column 109 was reported at 14, beside okl's own warning at 109)."""

from __future__ import annotations

import re

import pytest

import okl
from okl.runtime.buildlog import okl_columns

SOURCE = ("@kernel void k(float *a) { for (int i = 0; i < 1; ++i; @outer) "
          "for (int j = 0; j < 1; ++j; @inner) { a[0] = undeclared_thing; } }")


@pytest.mark.parametrize("mode", ["serial", "openmp"])
def test_the_compilers_column_is_the_sources(mode):
    with pytest.raises(okl.BuildError) as caught:
        okl.Device(mode).build_kernel_from_string(SOURCE, "k")
    columns = {int(c) for c in re.findall(r"<string>:1:(\d+):", str(caught.value))}
    assert columns == {SOURCE.index("undeclared_thing") + 1}, str(caught.value)


GENERATED = """#line 3 "k.okl"
  x = foo + bar;
#line 3 "k.okl"
    y = foo;
"""


def test_columns_are_found_by_name_or_left_out():
    sources = {"k.okl": "a\nb\nint q = foo + bar + foo2;\n"}
    at = okl_columns
    assert at("k.okl:3:7: error: 'foo' undeclared", GENERATED, sources) == \
        "k.okl:3:9: error: 'foo' undeclared"  # the quoted name, once in the source line
    assert at("k.okl:3:13: error: bad", GENERATED, sources) == \
        "k.okl:3:15: error: bad"  # the name at the column: bar in the first generated line
    assert at("k.okl:3:1: note: here", GENERATED, sources) == "k.okl:3: note: here"
    assert at("other.h:3:7: error: x", GENERATED, sources) == "other.h:3:7: error: x"


def test_a_log_carries_no_control_characters():
    """NVRTC's log ends with its NUL (the hostile suite saw it in cuda and hip messages); a
    compiler's escape sequences are shown, not sent to the terminal."""
    from okl.runtime.buildlog import map_log

    shown = map_log("ptxas error : too much shared data\n \x00")
    assert "\x00" not in shown and shown.endswith("too much shared data")
    assert map_log("x\x1b[2Jy") == "  x\\x1b[2Jy"
