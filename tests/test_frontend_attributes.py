"""Front end: every way an OKL attribute can be written, and where it lands in the model."""

from __future__ import annotations

from pycparser import c_ast

from okl.parser.attributes import tokenize

try:  # `python -m pytest` from the repository root
    from tests.frontend_util import analyze, attrs_on, c, errors, loops, nodes
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    from frontend_util import analyze, attrs_on, c, errors, loops, nodes


def test_fourth_clause_attributes_attach_to_their_for():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int b = 0; b < N; ++b; @outer(0)) {
            for (int t = 0; t < 32; ++t; @inner(0)) {
              x[b * 32 + t] = 0.0f;
            }
          }
        }
    """)
    (k,) = p.kernels
    ls = loops(k)
    assert attrs_on(p, ls["b"].node) == ["@outer(0)"]
    assert attrs_on(p, ls["t"].node) == ["@inner(0)"]
    assert all(a.placement == "for" for a in p.attrs.of(ls["b"].node))
    # the attribute and the third ';' are blanked: pycparser saw an ordinary for-loop
    assert c(ls["t"].node.next) == "++t"
    assert ls["b"].explicit_axis and ls["t"].explicit_axis


def test_prefix_attributes_on_statements_and_declarations():
    p = analyze("""
        @kernel void k(const int N, int *x) {
          @outer for (int b = 0; b < N; ++b) {
            @shared float s[16];
            @exclusive int e;
            for (int t = 0; t < 16; ++t; @inner) {
              s[t] = t;
              e = t;
              @atomic x[0] += 1;
            }
            @barrier;
            @barrier();
            for (int t = 0; t < 16; ++t; @inner) {
              x[b] = s[t] + e;
            }
          }
        }
    """)
    (k,) = p.kernels
    assert [lp.kind for lp in k.loops()] == ["outer", "inner", "inner"]
    assert attrs_on(p, k.outers[0].node) == ["@outer()"]
    assert [v.name for v in k.shared] == ["s"] and [v.name for v in k.exclusive] == ["e"]
    assert [b.kind for b in k.barriers] == ["", ""]
    assert all(isinstance(b.node, c_ast.EmptyStatement) for b in k.barriers)
    (atomic,) = k.atomics
    assert c(atomic.node) == "x[0] += 1"


def test_barrier_call_form_records_its_parentheses():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int b = 0; b < N; ++b; @outer) {
            for (int t = 0; t < 8; ++t; @inner) x[t] = 0.0f;
            @barrier();
            for (int t = 0; t < 8; ++t; @inner) x[t] += 1.0f;
          }
        }
    """)
    (barrier,) = p.kernels[0].barriers
    (attr,) = p.attrs.of(barrier.node)
    assert attr.name == "barrier" and attr.has_parens and not attr.args


def test_suffix_attributes_on_declarators_and_typedefs():
    p = analyze("""
        typedef float* mat_t @dim(8, 9) @dimOrder(1, 0);
        @kernel void k(const int X, const int Y, float *A @dim(X, Y), mat_t M) {
          for (int j = 0; j < Y; ++j; @outer) {
            for (int i = 0; i < X; ++i; @inner) {
              A(i, j) = M(i, j);
            }
          }
        }
    """)
    typedef = next(e for e in p.ast.ext if isinstance(e, c_ast.Typedef) and e.name == "mat_t")
    assert attrs_on(p, typedef) == ["@dim(8, 9)", "@dimOrder(1, 0)"]
    param = p.kernels[0].params[2]
    assert param.name == "A" and attrs_on(p, param.node) == ["@dim(X, Y)"]
    assert all(a.placement == "suffix" for a in p.attrs.of(param.node))
    (assign,) = nodes(p, c_ast.Assignment, p.kernels[0].node)
    # first index fastest; @dimOrder(1, 0) pairs argument 1 with the first dimension
    assert c(assign) == "A[i + (X * j)] = M[j + (9 * i)]"


def test_whitespace_between_at_and_name():
    p = analyze("""
        @kernel void k(const int N, @ restrict const float *a, float *b) {
          for (int i = 0; i < N; ++i; @ outer) {
            for (int j = 0; j < 4; ++j; @  inner) b[i * 4 + j] = a[j];
          }
        }
    """)
    k = p.kernels[0]
    assert [prm.restrict for prm in k.params] == [False, True, False]
    assert [lp.kind for lp in k.loops()] == ["outer", "inner"]


def test_several_attributes_in_one_place():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int b = 0; b < N; ++b; @outer(0) @max_inner_dims(64)) {
            for (int t = 0; t < 32; ++t; @inner(0) @nobarrier) x[b * 32 + t] = 0.0f;
          }
        }
    """)
    ls = loops(p.kernels[0])
    assert attrs_on(p, ls["b"].node) == ["@outer(0)", "@max_inner_dims(64)"]
    assert ls["b"].max_inner_dims == (64,)
    assert ls["t"].nobarrier


def test_string_and_keyword_arguments():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int i = 0; i < N; ++i; @tile(16, @outer, @inner, check=false)) {
            x[i] = 0.0f;
          }
          for (int b = 0; b < N; ++b; @outer) {
            for (int t = 0; t < 32; ++t; @inner) x[t] = 1.0f;
            @barrier("warp");
            for (int t = 0; t < 32; ++t; @inner) x[t] += 1.0f;
          }
        }
    """)
    k = p.kernels[0]
    assert [b.kind for b in k.barriers] == ["warp"]
    (attr,) = p.attrs.of(k.barriers[0].node)
    assert attr.args[0].kind == "string" and attr.args[0].string_value == "warp"
    tiled = k.outers[0]
    # check=false: no bounds check was added around the body
    (inner,) = tiled.children
    assert not nodes(p, c_ast.If, inner.node)
    assert tiled.iterator == "_okl_tiled_i" and inner.iterator == "i"


def test_tile_argument_structure_is_parsed():
    from okl.errors import Diagnostics
    from okl.parser.attributes import extract
    from okl.parser.cpp.preprocess import preprocess

    expanded = preprocess("for (int i = 0; i < n; ++i; @tile(4 * B, @outer(1), @inner, "
                          "check=true)) ;\n", "t.okl")
    text, (tile,) = extract(expanded, Diagnostics())
    assert "@" not in text
    assert tile.name == "tile" and tile.placement == "for"
    size, outer, inner = tile.args
    assert (size.kind, size.text) == ("expr", "4 * B")
    assert outer.kind == "attr" and repr(outer.attr) == "@outer(1)"
    assert inner.kind == "attr" and inner.attr.name == "inner"
    assert tile.kwargs["check"].text == "true"


def test_attributes_produced_by_macros():
    p = analyze("""
        #define OUTER_LOOP(v, n) for (int v = 0; v < (n); ++v; @outer)
        #define INNER @inner
        #define SHARED @shared
        @kernel void k(const int N, float *x) {
          OUTER_LOOP(b, N) {
            SHARED float s[8];
            for (int t = 0; t < 8; ++t; INNER) {
              s[t] = x[b * 8 + t];
            }
          }
        }
    """)
    k = p.kernels[0]
    assert [(lp.kind, lp.iterator) for lp in k.loops()] == [("outer", "b"), ("inner", "t")]
    assert [v.name for v in k.shared] == ["s"]


def test_directive_attribute_defines_a_macro():
    p = analyze("""
        @directive("#define N 8")
        @kernel void k(float *x) {
          for (int b = 0; b < 4; ++b; @outer) {
            for (int t = 0; t < N; ++t; @inner) x[b * N + t] = 0.0f;
          }
        }
    """)
    ls = loops(p.kernels[0])
    assert ls["t"].trip_value == 8
    # the lines after the directive keep their numbers
    assert p.kernels[0].loc.line == 3


def test_directive_can_define_a_macro_that_expands_to_an_attribute():
    p = analyze("""
        @directive("#define BLOCKS @outer")
        @kernel void k(float *x) {
          for (int b = 0; b < 4; ++b; BLOCKS) {
            for (int t = 0; t < 8; ++t; @inner) x[b * 8 + t] = 0.0f;
          }
        }
    """)
    assert [lp.kind for lp in p.kernels[0].loops()] == ["outer", "inner"]


def test_directive_in_a_comment_is_ignored():
    p = analyze("""
        // @directive("#define N 99") is how a define is injected
        #define N 4
        @kernel void k(float *x) {
          for (int b = 0; b < 4; ++b; @outer) {
            for (int t = 0; t < N; ++t; @inner) x[b * N + t] = 0.0f;
          }
        }
    """)
    assert loops(p.kernels[0])["t"].trip_value == 4


def test_multiple_declarators_share_a_prefix_attribute():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int b = 0; b < N; ++b; @outer) {
            @exclusive float r, q[2];
            for (int t = 0; t < 8; ++t; @inner) { r = x[t]; q[0] = r; }
            for (int t = 0; t < 8; ++t; @inner) x[b * 8 + t] = q[0];
          }
        }
    """)
    assert [(v.name, v.sizes, v.slots) for v in p.kernels[0].exclusive] == [
        ("r", [], 8), ("q", [2], 8)]


def test_gnu_attributes_are_blanked_and_tokens_keep_their_positions():
    text = 'int x __attribute__((aligned(16))) = 1; @kernel void f();\n  @ outer'
    toks = tokenize(text)
    at = [t for t in toks if t.text == "@"]
    assert [(t.line, t.col) for t in at] == [(1, 41), (2, 3)]
    p = analyze("""
        __attribute__((unused)) static const float w[2] = {1.0f, 2.0f};
        @kernel void k(const int N, float *x __attribute__((aligned(16)))) {
          for (int b = 0; b < N; ++b; @outer) {
            for (int t = 0; t < 2; ++t; @inner) x[b * 2 + t] = w[t];
          }
        }
    """)
    assert [d.name for d in p.constants] == ["w"]


def test_attribute_errors_name_the_attribute():
    assert errors("""
        @kernel void k(const int N, float *x) {
          for (int b = 0; b < N; ++b; @outer(5)) {
            for (int t = 0; t < 8; ++t; @inner @nobarrier(2)) x[t] = 0.0f;
          }
        }
    """) == ["[@outer] argument must be 0, 1, or 2", "[@nobarrier] does not take arguments"]
