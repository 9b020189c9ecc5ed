"""Launch mistakes end in a clean okl error, never in a dead interpreter.

Each case runs in a subprocess, so a SIGSEGV (reading past a buffer, through None, through
freed memory) shows up as a failed test with the signal, not as a crashed test run.  The
child prints the error's class and message and exits with status 3; status 0 means the
launch was accepted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from modes import params, skip_unless_available

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PRELUDE = textwrap.dedent('''
    import sys
    import numpy as np
    import okl
    mode = sys.argv[1]
    dev = okl.Device(mode)
    SRC = """
    @kernel void axpy(const int N, const float a, const float *x, float *y) {
      for (int i = 0; i < N; ++i; @tile(64, @outer, @inner)) { y[i] = a * x[i] + y[i]; }
    }
    @kernel void blocks(const int nb, const int *x, int *y) {
      for (int b = 0; b < nb; ++b; @outer) {
        for (int t = 0; t < 256; ++t; @inner) { y[b * 256 + t] = x[b * 256 + t] + 1; }
      }
    }"""
    k = dev.build_kernel_from_string(SRC, "axpy")
    host = mode in ("serial", "openmp")
    def mem(a):
        return dev.asarray(a)
    x = mem(np.ones(10, np.float32))
    y = mem(np.zeros(10, np.float32))
    try:
''')

EPILOGUE = textwrap.dedent('''
    except okl.OKLError as e:
        print(type(e).__name__ + ": " + str(e))
        sys.exit(3)
    print("accepted")
''')

# name -> (statements run inside the try, expected class or None for accepted, fragment)
CASES = {
    "size past the end": ("k(50_000_000, 2.0, x, y)", "ArgumentError",
                          "x[49999999] (x[i] at <string>:3 with N=50000000), past the end of "
                          "the okl.Memory of 10 elements"),
    "one past the end": ("k(11, 2.0, x, y)", "ArgumentError", "x[10]"),
    "blocks past the end": (
        "kb = dev.build_kernel_from_string(SRC, 'blocks')\n"
        "a = mem(np.zeros(512, np.int32))\n"
        "kb(2, a, a)\n"
        "kb(3, a, a)", "ArgumentError", "x[767]"),
    "smaller buffer, same sizes": (  # the launcher remembers passed sizes, not buffers
        "k(10, 2.0, x, y)\n"
        "k(10, 2.0, mem(np.ones(9, np.float32)), y)", "ArgumentError", "x[9]"),
    "numpy after Memory": (
        "k(10, 2.0, x, y)\n"
        "k(10, 2.0, np.ones(4, np.float32) if host else mem(np.ones(4, np.float32)), y)",
        "ArgumentError", "x[9]"),
    "None for a pointer": ("k(10, 2.0, None, y)", "ArgumentError",
                           "argument 3 'x' (const float *): got None — pass an array, or "
                           "okl.NULL"),
    "NULL on purpose, unused": ("k(0, 2.0, okl.NULL, okl.NULL)", None, ""),
    "freed memory": ("x.free()\nx.free()\nk(10, 2.0, x, y)", "ArgumentError",
                     "argument 3 'x' (const float *): got an okl.Memory that was freed"),
    "get after free": ("y.free()\ny.get()", "ArgumentError", "was freed"),
    "set after free": ("y.free()\ny.set(np.ones(10, np.float32))", "ArgumentError",
                       "was freed"),
    "wrong dtype": ("k(10, 2.0, mem(np.ones(10)), y)", "ArgumentError",
                    "argument 3 'x' (const float *): got okl.Memory of float64"),
    "a list for a pointer": ("k(10, 2.0, [1.0] * 10, y)", "ArgumentError",
                             "argument 3 'x' (const float *): got list of 10 items"),
    "a float for the size": ("k(10.0, 2.0, x, y)", "ArgumentError", "argument 1 'N' (const int)"),
    "size beyond int": ("k(2**40, 2.0, x, y)", "ArgumentError", "argument 1 'N' (const int)"),
    "huge launch": ("k(2**31 - 1, 2.0, x, y)", "ArgumentError", "x[2147483646]"),
    "too few arguments": ("k(10, 2.0, x)", "ArgumentError", "takes 4 arguments, got 3"),
    "non-contiguous numpy": (
        "k(10, 2.0, np.ones(20, np.float32)[::2], y) if host else "
        "k(10, 2.0, np.ones(10, np.float32), y)", "ArgumentError",
        "non-contiguous"),
    "memory of another device": (
        "other = okl.Device('opencl' if host else mode)\n"
        "k(10, 2.0, other.asarray(np.ones(10, np.float32)), y)", "ArgumentError",
        "argument 3 'x'"),
}


def _run(mode: str, body: str) -> subprocess.CompletedProcess:
    script = PRELUDE + textwrap.indent(body, "    ") + "\n" + EPILOGUE
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", script, mode], capture_output=True, text=True,
                          env=env, timeout=300, cwd=ROOT)


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("mode", params(("serial", "openmp", "opencl", "cuda", "hip")))
def test_misuse_is_a_clean_error(mode, case):
    skip_unless_available(mode)
    body, expected, fragment = CASES[case]
    if case == "memory of another device" and mode in ("serial", "openmp"):
        skip_unless_available("opencl")
    if case == "memory of another device" and mode in ("cuda", "hip"):
        body = ("other = okl.Device('opencl')\n"  # a buffer of another mode's context
                "k(10, 2.0, other.asarray(np.ones(10, np.float32)), y)")
        skip_unless_available("opencl")
    if case == "memory of another device" and mode == "opencl":
        # Devices on one OpenCL device share a context (and so their buffers, as CUDA
        # Devices of one GPU do): a buffer of a context the program made itself is foreign
        body = ("import pyopencl as cl\n"
                "ctx = cl.Context([dev.backend.cl_device])\n"
                "k(10, 2.0, cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 40), y)")
    if case == "non-contiguous numpy" and mode not in ("serial", "openmp"):
        fragment = "cannot read host memory"
    r = _run(mode, body)
    assert r.returncode >= 0, f"killed by signal {-r.returncode}:\n{r.stdout}\n{r.stderr}"
    out = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr
    if expected is None:
        assert r.returncode == 0 and out == "accepted", r.stdout + r.stderr
    else:
        assert r.returncode == 3, r.stdout + r.stderr
        assert out.startswith(expected + ": ") and fragment in out, out
