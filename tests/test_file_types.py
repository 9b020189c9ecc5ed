"""Files that are not files (issue 32): a FIFO, a device or a directory given as a kernel, or
named by an ``#include``, is refused by type with okl's message -- before anything opens it
for reading, so nothing waits for a writer or reads forever."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import okl

KERNEL = """@kernel void k(float *x) {
  for (int b = 0; b < 1; ++b; @outer) { for (int i = 0; i < 4; ++i; @inner) { x[i] = i; } }
}
"""
pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def _oklc(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "okl", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=60)


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.okl"
    os.mkfifo(path)
    return path


def test_a_fifo_kernel_is_refused_everywhere(fifo, tmp_path):
    (tmp_path / "good.okl").write_text(KERNEL)
    for args in (["check", fifo.name], ["translate", "-m", "serial", fifo.name],
                 ["check", "-r", "."]):
        run = _oklc(*args, cwd=tmp_path)
        assert run.returncode == 1, (args, run.stderr)
        assert "pipe.okl: error: cannot read: a FIFO (named pipe), not a regular file" \
            in run.stderr
        assert "Traceback" not in run.stderr
    with pytest.raises(okl.OKLError, match="a FIFO"):
        okl.Device("serial").build_kernel(fifo, "k")


@pytest.mark.parametrize("path,kind", [("/dev/zero", "a character device"),
                                       (".", "a directory")])
def test_devices_and_directories_are_refused(path, kind, tmp_path):
    run = _oklc("translate", "-m", "serial", path, cwd=tmp_path)
    assert run.returncode == 1 and f"cannot read: {kind}, not a regular file" in run.stderr


@pytest.mark.parametrize("include", ['"pipe.okl"', "</dev/zero>"])
def test_an_include_of_a_fifo_or_device_is_a_diagnostic(include, fifo, tmp_path):
    (tmp_path / "main.okl").write_text(f"#include {include}\n{KERNEL}")
    run = _oklc("check", "main.okl", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert "main.okl:1:1: error: #include of " in run.stderr
    assert "not a regular file" in run.stderr and "^" in run.stderr


def test_an_include_name_with_a_nul_byte_is_a_diagnostic(tmp_path):
    """A header name no file can have (a NUL byte: the OS refuses the lookup with a Python
    ValueError) is an error at its #include line, not a traceback (found by the fuzzer)."""
    kernel = tmp_path / "k.okl"
    kernel.write_text('#include "a\x00b.h"\n@kernel void k(float *x) {\n'
                      '  for (int b = 0; b < 4; ++b; @outer) {\n'
                      '    for (int t = 0; t < 4; ++t; @inner) x[t] = 1;\n  }\n}\n')
    with pytest.raises(okl.OKLError, match="NUL byte"):
        okl.translate(kernel.read_text(), "serial", filename=str(kernel))
