"""Front end: preprocessing (defines, includes, conditionals, predefined macros, pragmas,
system includes, line and column mapping) and the C that pycparser does not know."""

from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

import okl
from okl.cli import main
from okl.parser.cpp.preprocess import preprocess

try:  # `python -m pytest` from the repository root
    from tests.frontend_util import analyze, errors, loops
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    from frontend_util import analyze, errors, loops

SIZED = """
@kernel void k(float *x) {
  for (int b = 0; b < 4; ++b; @outer) {
    for (int t = 0; t < p_N; ++t; @inner) x[b * p_N + t] = 0.0f;
  }
}
"""


def inner_extent(program) -> int:
    return program.kernels[0].outers[0].children[0].trip_value


def test_dict_defines_and_value_types():
    assert inner_extent(analyze(SIZED, defines={"p_N": 8})) == 8
    assert inner_extent(analyze(SIZED, defines={"p_N": "4*4"})) == 16
    p = analyze("""
        #if USE_WIDE
        #define p_N 32
        #else
        #define p_N 2
        #endif
    """ + SIZED, defines={"USE_WIDE": True})
    assert inner_extent(p) == 32
    p = analyze("#if USE_WIDE\n#define p_N 32\n#else\n#define p_N 2\n#endif\n" + SIZED,
                defines={"USE_WIDE": False})
    assert inner_extent(p) == 2


def test_cli_defines(tmp_path, monkeypatch):
    (tmp_path / "k.okl").write_text(SIZED.replace("t < p_N", "t < p_N + EXTRA"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "k.okl", "-D", "p_N=16", "-DEXTRA"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "k.okl: ok (1 kernel(s): k)\n"
    result = CliRunner().invoke(main, ["check", "k.okl", "-D", "p_N=0", "-D", "EXTRA=0"])
    assert result.exit_code == 1
    assert result.stderr.startswith("k.okl:4:21: error: [@inner] OKL for loop range is empty")


def test_include_dirs_and_relative_includes(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "sizes.h").write_text("#define p_N 12\n")
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "local.h").write_text('#include "sizes.h"\n#define p_M (p_N/2)\n')
    kernel = tmp_path / "kernels" / "k.okl"
    kernel.write_text('#include "local.h"\n' + SIZED.replace("p_N;", "p_M;"))
    p = okl.analyze_file(kernel, include_dirs=[tmp_path / "inc"])
    assert inner_extent(p) == 6
    assert {str(tmp_path / "inc" / "sizes.h"), str(tmp_path / "kernels" / "local.h")} <= {
        str(d) for d in p.expanded.dependencies}


def test_quote_include_prefers_the_kernels_folder(tmp_path, monkeypatch):
    """#include "x.h" looks next to the kernel first, not in the working directory."""
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "sizes.h").write_text("#define p_N 3\n")
    (tmp_path / "sizes.h").write_text("#define p_N 99\n")
    (tmp_path / "k" / "k.okl").write_text('#include "sizes.h"\n' + SIZED)
    monkeypatch.chdir(tmp_path)
    assert inner_extent(okl.analyze_file("k/k.okl")) == 3


def test_conditionals_and_function_like_macros():
    p = analyze("""
        #define IDX(i, j) ((i) + p_B * (j))
        #define p_B 8
        #ifdef UNDEFINED_THING
        #error "not taken"
        #elif defined(p_B) && p_B > 4
        #define p_T (p_B / 2)
        #else
        #define p_T 1
        #endif
        @kernel void k(float *x) {
          for (int b = 0; b < 4; ++b; @outer) {
            for (int t = 0; t < p_T; ++t; @inner) x[IDX(t, b)] = 0.0f;
          }
        }
    """)
    assert inner_extent(p) == 4
    assert "x[((t) + 8 * (b))]" in p.expanded.text


@pytest.mark.parametrize("mode, name, gpu", [
    ("serial", "Serial", False), ("openmp", "OpenMP", False), ("opencl", "OpenCL", True),
    ("cuda", "CUDA", True), ("hip", "HIP", True),
])
def test_predefined_macros_per_mode(mode, name, gpu):
    src = textwrap.dedent("""
        #if !defined(__OKL__)
        #error "__OKL__ missing"
        #endif
        const char mode[] = OKL_MODE;
        #ifdef OKL_USING_GPU
        const int gpu = OKL_USING_GPU;
        #else
        const int gpu = 0;
        #endif
    """) + SIZED
    p = okl.analyze(src, "t.okl", mode=mode, defines={"p_N": 2})
    text = p.expanded.text
    assert f'const char mode[] = "{name}";' in text
    assert f"const int gpu = {1 if gpu else 0};" in text


def test_pragma_arguments_get_macros_expanded():
    p = analyze("""
        #define p_Nq 8
        #define UNROLL_BY p_Nq
        @kernel void k(float *x) {
          for (int b = 0; b < 4; ++b; @outer) {
            for (int t = 0; t < p_Nq; ++t; @inner) {
              #pragma unroll p_Nq
              for (int k = 0; k < p_Nq; ++k) x[t] += k;
              #pragma unroll UNROLL_BY
              for (int k = 0; k < p_Nq; ++k) x[t] += k;
            }
          }
        }
    """)
    pragmas = [ln.strip() for ln in p.expanded.text.splitlines() if "#pragma" in ln]
    assert pragmas == ["#pragma unroll 8", "#pragma unroll 8"]


def test_system_includes_are_passed_through():
    p = analyze("""
        #include <math.h>
        #if 0
        #include <stdio.h>
        #endif
        #include <stdint.h>
        @kernel void k(float *x) {
          for (int b = 0; b < 4; ++b; @outer) {
            for (int t = 0; t < 4; ++t; @inner) x[t] = sqrtf(2.0f);
          }
        }
    """)
    assert p.expanded.system_includes == ["<math.h>", "<stdint.h>"]
    assert "#include" not in p.expanded.text and "passthrough" not in p.expanded.text


def test_expanded_lines_map_back_to_their_files(tmp_path):
    (tmp_path / "h.h").write_text("\n\nstatic const int table[2] = {1, 2};\n")
    src = '#include "h.h"\n#define OFF 3\n\nint use = OFF;\n'
    expanded = preprocess(src, str(tmp_path / "k.okl"))
    line = next(i for i, t in enumerate(expanded.text.split("\n"), 1) if "use" in t)
    loc = expanded.locate(line, expanded.text.split("\n")[line - 1].index("3") + 1)
    assert (loc.file, loc.line, loc.col) == (str(tmp_path / "k.okl"), 4, 11)
    assert loc.expansion[0] == "OFF" and loc.expansion[1].line == 2
    line = next(i for i, t in enumerate(expanded.text.split("\n"), 1) if "table" in t)
    loc = expanded.locate(line, 1)
    assert (loc.file, loc.line) == (str(tmp_path / "h.h"), 3)


def test_columns_survive_macro_expansion_on_the_same_line():
    p = analyze("""
        #define LONG_NAME_FOR_FOUR 4
        @kernel void k(float *x) {
          for (int b = 0; b < LONG_NAME_FOR_FOUR; ++b; @outer) {
            for (int t = 0; t < 4; ++t; @inner) x[t] = 0.0f;
          }
        }
    """)
    (outer,) = p.kernels[0].outers
    assert (outer.loc.line, outer.loc.col) == (4, 3)
    inner = outer.children[0]
    assert (inner.loc.line, inner.loc.col) == (5, 5)


def test_cpp_errors_are_diagnostics(tmp_path):
    with pytest.raises(okl.TranslationError) as e:
        analyze('#include "nowhere.h"\n' + SIZED)
    (d,) = e.value.diagnostics
    assert (d.loc.line, d.loc.col, d.message) == (1, 10, "nowhere.h: No such file or directory")
    assert "-I" in d.hint
    assert errors("#error stop here\n" + SIZED) == ["#error stop here"]


@pytest.mark.parametrize("spelling", [
    "float *__restrict__ a", "float * __restrict a", "float *restrict a",
])
def test_restrict_spellings(spelling):
    p = analyze(f"""
        @kernel void k(const int N, {spelling}, const float *__restrict__ b) {{
          for (int i = 0; i < N; ++i; @outer) {{
            for (int j = 0; j < 4; ++j; @inner) a[j] = b[j];
          }}
        }}
    """)
    assert [q.restrict for q in p.kernels[0].params] == [False, True, True]


def test_c_extensions_in_device_code():
    p = analyze("""
        static inline float sq(float v) { return v * v; }
        __inline__ static float cube(float v) __attribute__((always_inline));
        __inline__ static float cube(float v) { return v * sq(v); }
        __forceinline__ float quad(float v) { return sq(sq(v)); }
        typedef struct __attribute__((packed)) { char c; int i; } packed_t;
        __attribute__((aligned(16))) static const float w[4] = {1, 2, 3, 4};
        @kernel void k(const int N, float *__restrict__ x, __const int m) {
          for (int b = 0; b < N; ++b; @outer) {
            for (int t = 0; t < 4; ++t; @inner) {
              __volatile__ float v = cube(x[t]) + quad(w[t]);
              x[b * 4 + t] = v + m;
            }
          }
        }
    """)
    assert [f.decl.name for f in p.functions] == ["sq", "cube", "quad"]
    assert loops(p.kernels[0])["t"].trip_value == 4


def test_okl_keywords_need_no_header():
    p = analyze("""
        @kernel void k(const int32_t n, uint64_t *out, const size_t m, bool flag) {
          for (int64_t i = 0; i < n; ++i; @outer) {
            for (uint32_t j = 0; j < 4u; ++j; @inner) out[j] = flag ? m : 0;
          }
        }
    """)
    assert [str(q.dtype) for q in p.kernels[0].params] == ["int32", "uint64", "uint64", "bool"]


def test_source_named_after_a_missing_folder():
    """Source from memory may carry any file name; the folder need not exist."""
    p = analyze(SIZED, filename="no/such/folder/k.okl", defines={"p_N": 2})
    assert inner_extent(p) == 2
    assert p.kernels[0].loc.file == "no/such/folder/k.okl"
