"""Front end: the kernel model's facts -- parameters and their dtypes, @shared/@exclusive,
barriers, atomics, host captures, device functions and file-scope constants."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from pycparser import c_ast

try:  # `python -m pytest` from the repository root
    from tests.frontend_util import analyze, c, errors
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    from frontend_util import analyze, c, errors

STRUCTS = """
typedef struct {
  char tag;
  double weight;
  int count;
  short pair[3];
  float scale;
} params_t;

struct point { float x; float y; long id; unsigned char flags[5]; };
typedef struct point point_t;

typedef struct {
  point_t where;
  char mark;
  double value;
} sample_t;
"""


def test_parameter_facts():
    p = analyze("""
        #define dfloat double
        #define dlong int
        typedef float real_t;
        @kernel void k(const dlong N, dfloat alpha, const real_t *a, @restrict float *b,
                       unsigned long long bits, const char c, _Bool flag, int *counts) {
          for (int i = 0; i < N; ++i; @outer) {
            for (int j = 0; j < 4; ++j; @inner) b[j] = a[j] * alpha;
          }
        }
    """)
    got = [(q.name, q.c_type, q.dtype, q.is_pointer, q.is_const, q.restrict)
           for q in p.kernels[0].params]
    # is_const is about the pointee of a pointer (read-only memory); scalars are copies
    assert got == [
        ("N", "const int", np.dtype(np.int32), False, False, False),
        ("alpha", "double", np.dtype(np.float64), False, False, False),
        ("a", "const real_t *", np.dtype(np.float32), True, True, False),
        ("b", "float *", np.dtype(np.float32), True, False, True),
        ("bits", "unsigned long long", np.dtype(np.uint64), False, False, False),
        ("c", "const char", np.dtype(np.int8), False, False, False),
        ("flag", "_Bool", np.dtype(np.bool_), False, False, False),
        ("counts", "int *", np.dtype(np.int32), True, False, False),
    ]


def test_struct_parameters_get_structured_dtypes():
    p = analyze(STRUCTS + """
        @kernel void k(const int N, params_t prm, const sample_t *samples, point_t pt,
                       float *out) {
          for (int i = 0; i < N; ++i; @outer) {
            for (int j = 0; j < 4; ++j; @inner) out[j] = prm.scale * samples[i].value + pt.x;
          }
        }
    """)
    params = {q.name: q for q in p.kernels[0].params}
    assert params["prm"].dtype.names == ("tag", "weight", "count", "pair", "scale")
    assert params["prm"].dtype.fields["pair"][0] == np.dtype((np.int16, (3,)))
    assert params["samples"].is_pointer and params["samples"].dtype.names == (
        "where", "mark", "value")
    assert params["pt"].ctype.struct == "point"


def struct_param_dtype(type_name: str) -> np.dtype:
    p = analyze(STRUCTS + f"\n@kernel void k({type_name} v, float *o) {{\n"
                "  for (int i = 0; i < 1; ++i; @outer) "
                "for (int j = 0; j < 1; ++j; @inner) o[j] = 0; }")
    return p.kernels[0].params[0].dtype


def c_layout(tmp_path, types: dict[str, tuple[str, ...]]) -> dict[str, int]:
    """sizeof every type and offsetof each named field, as the system C compiler has them."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.fail("no C compiler: install gcc (bash scripts/install.sh)")
    lines = ["#include <stdio.h>", "#include <stddef.h>", STRUCTS, "int main(void) {"]
    for t, names in types.items():
        lines.append(f'  printf("{t} %zu\\n", sizeof({t}));')
        lines += [f'  printf("{t}.{n} %zu\\n", offsetof({t}, {n}));' for n in names]
    lines.append("  return 0;\n}")
    src, exe = tmp_path / "layout.c", tmp_path / "layout"
    src.write_text("\n".join(lines) + "\n")
    subprocess.run([cc, "-std=c99", "-o", str(exe), str(src)], check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return {key: int(value) for key, value in (ln.rsplit(" ", 1) for ln in out.splitlines())}


def test_struct_dtype_offsets_match_the_c_compiler(tmp_path):
    dtypes = {t: struct_param_dtype(t) for t in ("params_t", "point_t", "sample_t")}
    measured = c_layout(tmp_path, {t: dt.names for t, dt in dtypes.items()})
    for t, dt in dtypes.items():
        assert dt.itemsize == measured[t], t
        for name in dt.names:
            assert dt.fields[name][1] == measured[f"{t}.{name}"], f"{t}.{name}"
    assert dtypes["sample_t"].fields["where"][0] == dtypes["point_t"]


def test_shared_and_exclusive_variables():
    p = analyze("""
        #define p_Nq 8
        @kernel void k(const int N, float *x) {
          for (int e = 0; e < N; ++e; @outer) {
            @shared float s[p_Nq][p_Nq + 1];
            @shared volatile int flags[4];
            @exclusive float r;
            @exclusive float rq[p_Nq];
            for (int j = 0; j < p_Nq; ++j; @inner) {
              for (int i = 0; i < p_Nq; ++i; @inner) {
                s[j][i] = x[i]; r = s[j][i]; rq[0] = r; flags[0] = 1;
              }
            }
          }
        }
    """)
    k = p.kernels[0]
    (outer,) = k.outers
    assert [(v.kind, v.name, v.sizes, v.outer is outer) for v in k.shared] == [
        ("shared", "s", [8, 9], True), ("shared", "flags", [4], True)]
    assert [(v.name, v.sizes, v.slots) for v in k.exclusive] == [("r", [], 64),
                                                                 ("rq", [8], 64)]
    assert isinstance(k.shared[0].node, c_ast.Decl)


def test_exclusive_slots_from_max_inner_dims():
    p = analyze("""
        @kernel void k(const int N, const int M, float *x) {
          for (int e = 0; e < N; ++e; @outer @max_inner_dims(32, 4)) {
            @exclusive float r;
            for (int i = 0; i < M; ++i; @inner) r = x[i];
            for (int i = 0; i < M; ++i; @inner) x[i] = r;
          }
        }
    """)
    (r,) = p.kernels[0].exclusive
    assert r.slots == 128


def test_exclusive_slots_in_nested_outer_loops():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int e = 0; e < N; ++e; @outer(1)) {
            for (int f = 0; f < 2; ++f; @outer(0)) {
              @exclusive int r;
              for (int i = 0; i < 4; ++i; @inner(1)) {
                for (int j = 0; j < 3; ++j; @inner(0)) r = i * j;
              }
            }
          }
        }
    """)
    (r,) = p.kernels[0].exclusive
    assert (r.outer.iterator, r.slots) == ("f", 12)


def test_barriers_and_atomics():
    p = analyze("""
        @kernel void k(const int N, int *x, float *y) {
          for (int b = 0; b < N; ++b; @outer) {
            for (int t = 0; t < 32; ++t; @inner) {
              @atomic x[0] += t;
              @atomic x[1]--;
              @atomic { x[2] += 1; y[0] *= 2.0f; }
              @barrier("warp");
            }
            @barrier;
            for (int t = 0; t < 32; ++t; @inner) ++x[t];
          }
        }
    """)
    k = p.kernels[0]
    assert [b.kind for b in k.barriers] == ["warp", ""]
    assert [(b.loc.line, b.loc.col) for b in k.barriers] == [(8, 7), (10, 5)]
    kinds = [type(a.node).__name__ for a in k.atomics]
    assert kinds == ["Assignment", "UnaryOp", "Compound"]
    assert c(k.atomics[0].node) == "x[0] += t"


def test_legacy_barrier_strings_are_warnings():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int b = 0; b < N; ++b; @outer) {
            for (int t = 0; t < 8; ++t; @inner) x[t] = 0.0f;
            @barrier("local");
            for (int t = 0; t < 8; ++t; @inner) x[t] += 1.0f;
          }
        }
    """)
    assert [b.kind for b in p.kernels[0].barriers] == ["local"]
    assert [w.message for w in p.warnings] == [
        '@barrier("local") is accepted as a block-wide barrier; OKL only knows @barrier and '
        '@barrier("warp")']


def test_host_variables_captured_per_outer_loop():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          const int blocks = (N + 15) / 16;
          double scale = 0.5;
          int unused = 3;
          for (int b = 0; b < blocks; ++b; @outer) {
            for (int t = 0; t < 16; ++t; @inner) x[b * 16 + t] *= scale;
          }
          for (int b = 0; b < N; ++b; @outer) {
            for (int t = 0; t < 16; ++t; @inner) x[t] = 0.0f;
          }
        }
    """)
    k = p.kernels[0]
    first, second = k.outers
    assert [(h.name, h.ctype.dtype) for h in k.captured(first)] == [
        ("blocks", np.dtype(np.int32)), ("scale", np.dtype(np.float64))]
    assert k.captured(second) == []


def test_host_pointer_capture_and_host_writes_are_errors():
    assert errors("""
        @kernel void k(const int N, float *x) {
          float *y = x + N;
          int count = 0;
          for (int b = 0; b < N; ++b; @outer) {
            for (int t = 0; t < 16; ++t; @inner) { y[t] = 0.0f; count++; }
          }
        }
    """) == [
        "host variable 'y' (float *) is used inside an [@outer] loop; only scalars computed "
        "on the host can be passed to device code",
        "cannot assign host variable 'count' inside an [@outer] loop: device code cannot "
        "write host variables"]


def test_device_functions_and_file_scope_constants():
    p = analyze("""
        #define p_N 4
        const float weights[p_N] = {1.0f, 2.0f, 3.0f, 4.0f};
        static const int offset = 2;
        float twice(float v);
        static inline float square(float v) { return v * v; }
        float twice(float v) { return 2.0f * square(v); }
        @kernel void k(const int N, float *x) {
          for (int b = 0; b < N; ++b; @outer) {
            for (int t = 0; t < p_N; ++t; @inner) x[t] = twice(weights[t]) + offset;
          }
        }
        @kernel void other(float *x) {
          for (int b = 0; b < 2; ++b; @outer) {
            for (int t = 0; t < 2; ++t; @inner) x[t] = 0.0f;
          }
        }
    """)
    assert [k.name for k in p.kernels] == ["k", "other"]
    assert p.kernel("other").name == "other"
    assert [f.decl.name for f in p.functions] == ["square", "twice"]
    assert [d.name for d in p.constants] == ["weights", "offset"]
    assert "inline" in p.functions[0].decl.funcspec


def test_a_function_defined_twice_is_an_error():
    """C's rule; a kernel made twice by a macro reached the GPU lowering, which finds nodes
    by kernel name, and crashed there (a KeyError found by tests/test_fuzz.py)."""
    kernel = ("@kernel void k(const int n, float *a) {\n"
              "  for (int i = 0; i < n; ++i; @tile(16, @outer, @inner)) { a[i] = 0; }\n}\n")
    assert errors(kernel + kernel) == ["redefinition of 'k'"]
    helper = "float twice(float x) { return 2 * x; }\n"
    assert errors(helper + helper + kernel) == ["redefinition of 'twice'"]
