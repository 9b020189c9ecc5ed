"""okl.parser.cpp.run: cc1 started directly prints what GCC's cpp driver prints."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from okl.errors import SourceLoc
from okl.parser.cpp import run as cpprun

ROOT = Path(__file__).resolve().parent.parent
CPP = shutil.which("cpp")
SOURCES = {
    "bk5": (ROOT / "benchmarks" / "kernels" / "bk5.okl").read_bytes(),
    "error": b"#if 1\n#error stop here\n#endif\nint x;\n",
    "missing include": b'#include "no_such_header.h"\nint x;\n',
    "bad define": b"#define F(x x\nint y;\n",
}
OPTIONS = ["-D__OKL__=1", '-DOKL_MODE="CUDA"', "-Ddfloat=double", "-Dp_Nq=8", "-I", "/tmp"]


def run(head, tail, data):
    out = cpprun.run_cpp([*head, *OPTIONS, *tail], data, str(ROOT), SourceLoc("x", 1, 1))
    return out.returncode, out.stdout, out.stderr


@pytest.mark.skipif(CPP is None or cpprun._compiler_proper(CPP) is None,
                    reason="needs GCC's cpp")
@pytest.mark.parametrize("name", SOURCES)
def test_cc1_prints_what_the_driver_prints(name):
    assert cpprun.cpp_command([CPP])[0][0].endswith("cc1")
    driver = run([CPP, *cpprun.CPP_OPTIONS], ["-"], SOURCES[name])
    assert run(*cpprun.cpp_command([CPP]), SOURCES[name]) == driver


@pytest.mark.skipif(CPP is None, reason="needs cpp")
def test_a_wrapper_script_is_run_as_it_is(tmp_path):
    script = tmp_path / "my-cpp"
    script.write_text(f'#!/bin/sh\nexec {CPP} "$@"\n')
    os.chmod(script, 0o755)
    head, tail = cpprun.cpp_command([str(script)])
    assert head[0] == str(script) and tail == ["-"]
