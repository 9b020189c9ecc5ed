"""Front-end defects of issue 32 ("Trust II"), each with a minimal kernel of okl's own:
@exclusive between nested @outer loops, @max_inner_dims as a product over every @inner
nest, diagnostics the backend compilers would otherwise give only at build, @restrict's
placement, files without @kernel, and translation that touches no process-wide state."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest
from frontend_util import analyze, errors

import okl
from okl.check import check_source
from okl.recursion import deep_recursion


def _tr(source: str, mode: str, **kw) -> okl.translation.Translation:
    return okl.translate(textwrap.dedent(source), mode, filename="t.okl", **kw)


# -- 1. @exclusive declared in an if / plain loop between nested @outer loops ---------------

EXCLUSIVE_IN_IF = """
@kernel void k(const int n, const float *x, float *y) {
  for (int g = 0; g < n; ++g; @outer(1)) {
    if (g < n) {
      @exclusive float r;
      for (int b = 0; b < 2; ++b; @outer(0)) {
        for (int t = 0; t < 8; ++t; @inner) { r = x[(g * 2 + b) * 8 + t]; }
        for (int t = 0; t < 8; ++t; @inner) { y[(g * 2 + b) * 8 + t] = r; }
      }
    }
  }
}
"""


def test_exclusive_in_if_between_outer_loops_is_sized_per_inner_thread():
    program = analyze(EXCLUSIVE_IN_IF)
    (var,) = program.kernels[0].exclusive
    assert var.slots == 8 and var.outer.iterator == "b"
    assert "float r[8];" in _tr(EXCLUSIVE_IN_IF, "serial").source


def test_exclusive_across_a_plain_loop_of_outer_loops_is_refused_once():
    source = """
    @kernel void k(const int n, const float *x, float *y) {
      for (int g = 0; g < n; ++g; @outer(1)) {
        @exclusive float r;
        for (int s = 0; s < 2; ++s) {
          for (int b = 0; b < 2; ++b; @outer(0)) {
            for (int t = 0; t < 8; ++t; @inner) { r = x[t]; }
          }
        }
      }
    }
    """
    (message,) = errors(source)
    assert "outside a plain loop that holds nested [@outer] loops" in message


# -- 2. @max_inner_dims bounds the product over every @inner loop ----------------------------

def _wider_sibling(limit: str) -> str:
    return f"""
    @kernel void k(const int n, float *y) {{
      for (int b = 0; b < n; ++b; @outer @max_inner_dims({limit})) {{
        for (int j = 0; j < 2; ++j; @inner) {{
          for (int i = 0; i < 3; ++i; @inner) {{ y[b * 10 + j * 5 + i] = 1.0f; }}
          for (int i = 0; i < 5; ++i; @inner) {{ y[b * 10 + j * 5 + i] += 1.0f; }}
        }}
      }}
    }}
    """


def test_max_inner_dims_bounds_every_inner_path_not_the_first():
    (message,) = errors(_wider_sibling("6"))
    assert "5 x 2 = 10 threads per block, at most 6" in message
    assert "__launch_bounds__(10)" in _tr(_wider_sibling("10"), "cuda").source


def test_exclusive_in_a_block_of_runtime_loops_with_two_leaves_is_refused():
    """Counting iterations gives a thread's slot only with one innermost loop per block:
    here the count would reach 2 * 2 * m for 2 * m threads (r[64] overrun, wrong slots)."""
    source = """
    @kernel void k(const int n, const int m, float *y) {
      for (int b = 0; b < n; ++b; @outer @max_inner_dims(64)) {
        @exclusive float r;
        for (int j = 0; j < 2; ++j; @inner) {
          for (int i = 0; i < m; ++i; @inner) { r = 1.0f; }
          for (int i = 0; i < m; ++i; @inner) { y[b * 64 + j * m + i] = r; }
        }
      }
    }
    """
    (message,) = errors(source)
    assert "cannot give @exclusive 'r' one slot per thread" in message
    constant = source.replace("i < m", "i < 32")  # slots from the indices: accepted
    assert "r[i + 32 * j]" in _tr(constant, "serial").source


def test_launch_bounds_come_from_the_largest_block():
    source = _wider_sibling("10").replace(" @max_inner_dims(10)", "")
    assert "__launch_bounds__(10)" in _tr(source, "cuda").source
    assert "reqd_work_group_size(5, 2, 1)" in _tr(source, "opencl").source


def test_max_inner_dims_at_run_time_is_a_product(tmp_path, monkeypatch):
    monkeypatch.setenv("OKL_CACHE_DIR", str(tmp_path))
    path = tmp_path / "k.okl"
    path.write_text("""
    @kernel void k(const int bx, const int by, int *y) {
      for (int b = 0; b < 1; ++b; @outer @max_inner_dims(256)) {
        @exclusive int r;
        for (int j = 0; j < by; ++j; @inner) {
          for (int i = 0; i < bx; ++i; @inner) { r = j * bx + i; }
        }
        for (int j = 0; j < by; ++j; @inner) {
          for (int i = 0; i < bx; ++i; @inner) { y[j * bx + i] = r; }
        }
      }
    }
    """)
    dev = okl.Device("serial")
    kernel = dev.build_kernel(path, "k")
    y = dev.malloc(512, np.int32)
    kernel(np.int32(16), np.int32(16), y)  # 16 x 16 = 256 threads: within the promise
    assert (y.get()[:256] == np.arange(256)).all()
    with pytest.raises(okl.LaunchError, match="16 x 32 = 512 threads"):
        kernel(np.int32(16), np.int32(32), y)


# -- 6. translation touches no process-wide state ------------------------------------------

def _nested(depth: int) -> str:
    expr = "(" * depth + "x[i]" + ")" * depth
    return f"""
    @kernel void k(const int n, float *x) {{
      for (int b = 0; b < n; ++b; @outer) {{
        for (int i = 0; i < 16; ++i; @inner) {{ x[i] = {expr} + 1.0f; }}
      }}
    }}
    """


def test_threads_translate_while_another_translates_a_deep_kernel(monkeypatch):
    """40 valid kernels (200 levels: more frames than CPython's default limit) in threads
    while another thread parses one too deep for any limit: every valid one translates, the
    deep one gets okl's diagnostic, and the recursion limit is the program's afterwards."""
    monkeypatch.setenv("OKL_MAX_NESTING", "6000")  # let the deep one reach the parser
    before = sys.getrecursionlimit()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, inside the parses
    valid, deep = _nested(200), _nested(4000)
    failures: list[str] = []
    deep_errors: list[okl.TranslationError] = []

    def run_valid() -> None:
        for _ in range(4):
            try:
                _tr(valid, "cuda")
            except Exception as e:  # noqa: BLE001 -- any failure is the test's finding
                failures.append(repr(e))

    def run_deep() -> None:
        for _ in range(3):
            with pytest.raises(okl.TranslationError) as info:
                _tr(deep, "serial")
            deep_errors.append(info.value)

    threads = [threading.Thread(target=run_valid) for _ in range(10)]
    threads.append(threading.Thread(target=run_deep))
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert len(deep_errors) == 3
    for e in deep_errors:
        (d,) = e.diagnostics
        assert "nests too deeply" in d.message and d.loc.line == 4 and d.hint  # the nest
    assert sys.getrecursionlimit() == before


def test_deep_recursion_is_kept_until_the_last_user_leaves():
    before = sys.getrecursionlimit()
    entered, leave = threading.Event(), threading.Event()

    def other() -> None:
        with deep_recursion():
            entered.set()
            leave.wait(10)

    t = threading.Thread(target=other)
    with deep_recursion():
        t.start()
        entered.wait(10)
    assert sys.getrecursionlimit() >= 20000  # the other thread still needs the room
    leave.set()
    t.join()
    assert sys.getrecursionlimit() == before
    with deep_recursion():
        sys.setrecursionlimit(before + 7)  # the program's own change is the program's
    try:
        assert sys.getrecursionlimit() == before + 7
    finally:
        sys.setrecursionlimit(before)


# -- 4. @restrict where it belongs; a typedef'd struct tag ------------------------------------

def test_restrict_on_a_return_type_is_a_warning_as_on_a_scalar_parameter():
    """One rule for @restrict on what is not a pointer: a warning, and no compiler sees it
    (every compiler refuses restrict on an int; OCCA's clang transpiler keeps it on a
    return type)."""
    for fn in ("@restrict float *pick(float *a) { return a; }",
               "@restrict float *pick(float *a);",
               "float @restrict *pick(float *a);"):
        source = fn + """
        @kernel void k(const int n, @restrict const int s, float *x) {
          for (int b = 0; b < n; ++b; @outer) {
            for (int i = 0; i < 16; ++i; @inner) { x[i] = s; }
          }
        }"""
        for mode in ("serial", "cuda"):
            result = _tr(source, mode)
            assert [d.message for d in result.diagnostics] == [
                "[@restrict] on a function's return value has no effect; ignored",
                "[@restrict] on 's', which is not a pointer, has no effect; ignored"], fn
            assert "restrict" not in result.source.replace("__restrict__ x", "")


def test_restrict_between_type_and_star_belongs_to_its_declaration():
    source = """
    @kernel void k(const int n, float *x, int @restrict *c,
                   const float @restrict *d) {
      for (int b = 0; b < n; ++b; @outer) {
        for (int i = 0; i < 16; ++i; @inner) {
          int @restrict *p = c;
          x[i] = p[i] + d[i];
        }
      }
    }
    """
    kernel = analyze(source).kernels[0]
    assert [p.name for p in kernel.params if p.restrict] == ["c", "d"]
    out = _tr(source, "cuda").source
    assert "int * __restrict__ c, const float * __restrict__ d" in out


def test_a_typedefd_struct_tag_gets_no_warning_and_no_second_typedef():
    for order in ("typedef struct P P;\nstruct P { float a; };",
                  "struct P { float a; };\ntypedef struct P P;"):
        result = _tr(order + """
        @kernel void k(const int n, const P p, float *x) {
          for (int b = 0; b < n; ++b; @outer) {
            for (int i = 0; i < 16; ++i; @inner) { x[i] = p.a; }
          }
        }""", "serial")
        assert result.diagnostics == [] and result.source.count("typedef struct P P") == 1


# -- 5. a file with no @kernel: one warning, a diagnostic apart from any error ---------------

NO_KERNEL = "float twice(float x) { return 2.0f * x; }\n"
NO_KERNEL_WARNING = "no.okl:1:1: warning: no @kernel in this file"


def _oklc(tmp_path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "no.okl").write_text(NO_KERNEL)
    env = {**os.environ, "OKL_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "okl", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


def test_check_of_a_file_without_kernel_warns_once(tmp_path):
    r = _oklc(tmp_path, "check", "no.okl")
    assert r.returncode == 0 and r.stdout.startswith("no.okl: ok (0 kernel(s)")
    assert r.stderr.count("warning: no @kernel in this file") == 1
    assert r.stderr.startswith(NO_KERNEL_WARNING)


def test_build_of_a_file_without_kernel_warns_once_apart_from_the_error(tmp_path):
    r = _oklc(tmp_path, "build", "-m", "serial", "no.okl", "k")
    assert r.returncode == 1, r.stderr
    assert r.stderr.count("warning: no @kernel in this file") == 1
    lines = r.stderr.splitlines()
    assert lines[0].startswith(NO_KERNEL_WARNING)
    # the error is a line of its own, not glued to the warning's text
    assert any(line.startswith("oklc: error: no @kernel named 'k'") for line in lines)


# -- 3. what a backend compiler would refuse only at build, diagnosed at translation -------

def _messages(source: str, mode: str) -> list[str]:
    with pytest.raises(okl.TranslationError) as info:
        _tr(source, mode)
    return [d.message for d in info.value.diagnostics if d.severity == "error"]


def test_opencl_refuses_a_struct_argument_with_a_pointer_field():
    source = """
    struct Inner { int n; const float *data; };
    typedef struct { struct Inner parts[2]; int m; } Outer;
    @kernel void k(const int n, const Outer o, float *x) {
      for (int b = 0; b < n; ++b; @outer) {
        for (int i = 0; i < 16; ++i; @inner) { x[i] = o.parts[0].data[i]; }
      }
    }
    """
    (message,) = _messages(source, "opencl")
    assert "struct with a pointer field ('o.parts.data')" in message
    result = check_source(textwrap.dedent(source), "t.okl")
    (d,) = result.errors
    assert (d.loc.line, d.loc.col) == (4, 41) and d.hint  # at the argument


def test_extern_constant_without_definition_is_refused_on_gpu_modes():
    source = """
    extern const int tab[];
    @kernel void k(const int n, int *x) {
      for (int b = 0; b < n; ++b; @outer) {
        for (int i = 0; i < 4; ++i; @inner) { x[i] = tab[i]; }
      }
    }
    """
    for mode in ("cuda", "hip", "opencl"):
        (message,) = _messages(source, mode)
        assert "'tab' is declared extern but not defined in this file" in message
    defined = source.replace("extern const int tab[];",
                             "extern const int tab[];\nconst int tab[4] = {1, 2, 3, 4};")
    out = _tr(defined, "cuda").source
    assert "extern const" not in out and "__constant__ const int tab[4]" in out


def test_gpu_launch_size_reading_device_memory_is_refused_at_translation():
    source = """
    @kernel void k(const int *sizes, float *x) {
      for (int b = 0; b < sizes[0]; ++b; @outer) {
        for (int i = 0; i < *sizes; ++i; @inner) { x[b * 16 + i] = sizes[i]; }
      }
    }
    """
    for mode in ("cuda", "opencl"):
        messages = _messages(source, mode)
        assert len(messages) == 2 and all("cannot read device memory" in m for m in messages)
    assert _tr(source, "serial").source  # the CPU runs the loops as written
