"""Front end: the canonical facts of every accepted @outer/@inner loop form."""

from __future__ import annotations

import pytest

try:  # `python -m pytest` from the repository root
    from tests.frontend_util import analyze, c, errors, loops
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    from frontend_util import analyze, c, errors, loops


def one_loop(header: str, prelude: str = ""):
    """The facts of the @outer loop ``for (header; @outer)`` in a minimal kernel."""
    p = analyze(f"""
        {prelude}
        @kernel void k(const int N, float *x) {{
          for ({header}; @outer) {{
            for (int t = 0; t < 4; ++t; @inner) x[t] = 0.0f;
          }}
        }}
    """)
    return p.kernels[0].outers[0]


def facts(loop):
    f = loop.form
    return (f.iterator, f.iter_type, c(f.start), c(f.bound), f.step and c(f.step), f.cmp,
            f.increasing, c(loop.trip_count()), loop.trip_value)


@pytest.mark.parametrize("header, expected", [
    ("int i = 0; i < N; ++i",
     ("i", "int", "0", "N", None, "<", True, "N", None)),
    ("int i = 0; i < 10; i++",
     ("i", "int", "0", "10", None, "<", True, "10", 10)),
    ("int i = 2; i < 10; ++i",
     ("i", "int", "2", "10", None, "<", True, "10 - 2", 8)),
    ("int i = 0; i <= 7; ++i",
     ("i", "int", "0", "7", None, "<=", True, "7 + 1", 8)),
    ("int i = 9; i > 1; --i",
     ("i", "int", "9", "1", None, ">", False, "9 - 1", 8)),
    ("int i = 9; i >= 2; i--",
     ("i", "int", "9", "2", None, ">=", False, "(9 - 2) + 1", 8)),
    ("int i = 0; N > i; ++i",  # flipped comparison: the iterator goes on the left
     ("i", "int", "0", "N", None, "<", True, "N", None)),
    ("int i = 0; 7 >= i; ++i",
     ("i", "int", "0", "7", None, "<=", True, "7 + 1", 8)),
    ("int i = 0; i < 10; i += 3",
     ("i", "int", "0", "10", "3", "<", True, "((10 + 3) - 1) / 3", 4)),
    ("int i = N - 1; i >= 0; i -= 2",  # OCCA's golden decreasing example
     ("i", "int", "N - 1", "0", "2", ">=", False, "((((N - 1) + 1) + 2) - 1) / 2", None)),
    ("int i = 20; i > 0; i -= 4",
     ("i", "int", "20", "0", "4", ">", False, "((20 + 4) - 1) / 4", 5)),
])
def test_loop_forms(header, expected):
    assert facts(one_loop(header)) == expected


@pytest.mark.parametrize("decl, iter_type", [
    ("long", "long"),
    ("long int", "long"),
    ("unsigned", "unsigned int"),
    ("unsigned long", "unsigned long"),
    ("size_t", "unsigned long"),
    ("ptrdiff_t", "long"),
    ("short", "short"),
    ("char", "char"),
    ("dlong", "long"),  # macro-typed, as in libParanumal
    ("hlong", "long long"),
    ("idx_t", "int"),  # typedef'd
])
def test_iterator_types(decl, iter_type):
    prelude = "#define dlong long\n#define hlong long long\ntypedef int idx_t;"
    loop = one_loop(f"{decl} i = 0; i < 16; ++i", prelude)
    assert loop.form.iter_type == iter_type
    assert loop.trip_value == 16


def test_trip_count_is_a_fresh_tree_each_time():
    loop = one_loop("int i = 0; i < 10; i += 3")
    a, b = loop.trip_count(), loop.trip_count()
    assert a is not b and c(a) == c(b)


def test_trip_values_through_macros():
    loop = one_loop("int i = 0; i < p_Nq * p_Nq; i += p_S",
                    "#define p_Nq 8\n#define p_S (p_Nq / 2)")
    assert loop.trip_value == 16  # (64 + 4 - 1) / 4


def test_axes_are_assigned_innermost_first():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int c = 0; c < N; ++c; @outer) {
            for (int b = 0; b < 2; ++b; @outer) {
              for (int z = 0; z < 2; ++z; @inner) {
                for (int y = 0; y < 3; ++y; @inner) {
                  for (int w = 0; w < 4; ++w; @inner) {
                    x[w] = 0.0f;
                  }
                }
              }
            }
          }
        }
    """)
    ls = loops(p.kernels[0])
    assert {name: lp.axis for name, lp in ls.items()} == {
        "c": 1, "b": 0, "z": 2, "y": 1, "w": 0}
    assert not any(lp.explicit_axis for lp in ls.values())
    assert [lp.iterator for lp in ls["c"].path()] == ["c", "b", "z", "y", "w"]


def test_explicit_axes_are_kept():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int b = 0; b < N; ++b; @outer(1)) {
            for (int i = 0; i < 8; ++i; @inner(0)) {
              for (int j = 0; j < 4; ++j; @inner(1)) {
                x[j] = 0.0f;
              }
            }
          }
        }
    """)
    ls = loops(p.kernels[0])
    assert [(ls[n].axis, ls[n].explicit_axis) for n in "bij"] == [(1, True), (0, True),
                                                                  (1, True)]


def test_inner_blocks_in_regular_loops_and_tree_shape():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int b = 0; b < N; ++b; @outer) {
            for (int t = 0; t < 16; ++t; @inner) x[t] = 0.0f;
            for (int s = 0; s < 3; ++s) {
              for (int u = 0; u < 16; ++u; @inner) x[u] += s;
            }
            while (N < 0) {
              for (int v = 0; v < 16; ++v; @inner) x[v] = 1.0f;
            }
          }
        }
    """)
    k = p.kernels[0]
    (outer,) = k.outers
    assert [(ch.iterator, ch.in_regular, ch.parent is outer) for ch in outer.children] == [
        ("t", False, True), ("u", True, True), ("v", True, True)]
    assert outer.depth() == 2


def test_several_top_level_outer_loops_in_source_order():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int a = 0; a < N; ++a; @outer) {
            for (int t = 0; t < 4; ++t; @inner) x[t] = 0.0f;
          }
          for (int r = 0; r < 2; ++r) {
            for (int b = 0; b < N; ++b; @outer) {
              for (int u = 0; u < 4; ++u; @inner) x[u] = 1.0f;
            }
          }
        }
    """)
    assert [o.iterator for o in p.kernels[0].outers] == ["a", "b"]


def test_tile_expansion_facts():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int i = 0; i < N; i += 2; @tile(16, @outer, @inner)) {
            x[i] = 0.0f;
          }
        }
    """)
    outer = p.kernels[0].outers[0]
    (inner,) = outer.children
    assert facts(outer) == ("_okl_tiled_i", "int", "0", "N", "16 * 2", "<", True,
                            "((N + (16 * 2)) - 1) / (16 * 2)", None)
    assert inner.form.iterator == "i"
    assert c(inner.form.start) == "_okl_tiled_i"
    assert inner.trip_value == 16  # the in-tile loop runs exactly S times


def test_decreasing_tile():
    p = analyze("""
        @kernel void k(const int N, float *x) {
          for (int i = N - 1; i >= 0; --i; @tile(8, @outer, @inner)) {
            x[i] = 0.0f;
          }
        }
    """)
    outer = p.kernels[0].outers[0]
    (inner,) = outer.children
    assert (outer.form.cmp, outer.form.increasing, c(outer.form.step)) == (">=", False, "8")
    assert (inner.form.cmp, inner.trip_value) == (">", 8)


@pytest.mark.parametrize("header, message", [
    ("int i = 0; i != N; ++i",
     "[@outer] Expected to compare [i] with one of these operators [<, <=, >=, >]"),
    ("int i = 0; i < N; i *= 2",
     "[@outer] Expected update [i] with one of these operators [++, --, +=, -=]"),
    ("int i = 0; i < 0; ++i", "[@outer] OKL for loop range is empty or infinite (it runs 0 "
                              "times)"),
    ("int i = 0; i < N; --i", "[@outer] OKL for loop range is empty or infinite: [i] decreases "
                              "but is compared with '<'"),
    ("double i = 0; i < N; ++i", "[@outer] Iterator variable needs to be of an integer type "
                                 "[char, short, int, long, ptrdiff_t, size_t], not 'double'"),
])
def test_rejected_forms(header, message):
    assert errors(f"""
        @kernel void k(const int N, float *x) {{
          for ({header}; @outer) {{
            for (int t = 0; t < 4; ++t; @inner) x[t] = 0.0f;
          }}
        }}
    """) == [message]
