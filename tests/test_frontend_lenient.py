"""Front end: input that only OCCA's lenient parser accepts is read the evident way, with a
warning at the right file:line:col that names the fix and says what OCCA does."""

from __future__ import annotations

import pytest

import okl

try:  # `python -m pytest` from the repository root
    from tests.frontend_util import analyze, errors
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    from frontend_util import analyze, errors

KERNEL = """
@kernel void k(float *x) {
  for (int b = 0; b < 4; ++b; @outer) {
    for (int t = 0; t < N; ++t; @inner) x[b * N + t] = 0.0f;
  }
}
"""


def extent(program) -> int:
    return program.kernels[0].outers[0].children[0].trip_value


def where(d) -> tuple[str, int, int]:
    return d.loc.file, d.loc.line, d.loc.col


@pytest.mark.parametrize("use, n", [("1", 32), ("0", 2)])
def test_assignment_in_if_reads_as_equality(use, n):
    p = analyze("#if USE=1 // a=b\n#define N 32\n#else\n#define N 2\n#endif\n" + KERNEL,
                defines={"USE": use})
    assert extent(p) == n
    [w] = p.warnings
    assert where(w) == ("t.okl", 1, 8)
    assert "'USE=1' as 'USE==1'" in w.message and "always true here" in w.message
    assert w.hint == "write '==' to compare"


def test_every_assignment_of_an_evaluated_condition_only():
    p = analyze("#if 0\n#if Q=1\n#endif\n#elif A=1 || (B=2 && 1)\n#define N 8\n#else\n"
                "#define N 4\n#endif\n" + KERNEL, defines={"A": "0", "B": "2"})
    assert extent(p) == 8
    assert [where(w)[1:] for w in p.warnings] == [(4, 8), (4, 16)]
    assert "always true" not in p.warnings[1].message


def test_columns_after_a_repaired_assignment_stay_exact():
    with pytest.raises(okl.TranslationError) as e:
        analyze("#if X=1 && 1 +\n#endif\n" + KERNEL)
    [err] = [d for d in e.value.diagnostics if d.severity == "error"]
    assert (err.loc.line, err.loc.col) == (1, len("#if X=1 && 1 +") + 1)  # just after '+'


def test_missing_endif_is_closed_at_end_of_file():
    p = analyze("#define N 8\n#if N > 4\n#if 1\n" + KERNEL + "#else\n")
    assert extent(p) == 8
    assert [where(w)[1:] for w in p.warnings] == [(2, 1), (3, 1)]
    inner = p.warnings[1]
    assert inner.message.startswith("#if without #endif: okl closes it at the end of the file")
    assert inner.hint == "add the missing '#endif'"
    assert [(n.message, n.loc.line) for n in inner.notes] == [("its #else is here", 10)]


def test_trailing_empty_macro_argument_is_dropped():
    p = analyze("#define N 8\n#define DECL(T, NAME) T NAME;\nDECL(float, s,\n  /* none */ )\n"
                "DECL(int, r)\n" + KERNEL)
    [w] = p.warnings
    assert where(w) == ("t.okl", 3, 14)
    assert w.message.startswith("macro 'DECL' takes 2 arguments but is passed an empty")
    assert w.hint == "remove this ','"
    assert w.notes[0].loc.line == 2


def test_two_extra_arguments_stay_an_error():
    assert errors("#define N 8\n#define DECL(T, NAME) T NAME;\nDECL(float, s,,)\n" + KERNEL) \
        == ['macro "DECL" passed 4 arguments, but takes just 2']


def test_assignment_in_a_header_stays_an_error(tmp_path):
    (tmp_path / "h.h").write_text("#if X=1\n#endif\n")
    kernel = tmp_path / "k.okl"
    kernel.write_text('#include "h.h"\n#define N 8\n' + KERNEL)
    with pytest.raises(okl.TranslationError, match='token "=" is not valid'):
        okl.analyze_file(kernel)


STRAY = """
@kernel void k(const float *a, float *x) {
  for (int b = 0; b < 4; ++b; @outer) {
    for (int t = 0; t < 4; ++t; @inner) {
      x[t] = 2.0f * ((a[0] + a[1]);
                     +(a[2]);
                     -(a[3]));
      x[t] += (a[0]);
    }
  }
}
"""


def test_semicolons_inside_parentheses_are_ignored():
    p = analyze(STRAY)
    [w] = p.warnings
    assert where(w) == ("t.okl", 5, 35)
    assert "okl ignores it and 1 more" in w.message and "OCCA does the same" in w.message
    assert w.hint == "delete the ';' inside the parentheses"
    assert [(n.message, n.loc.line, n.loc.col) for n in w.notes] == [
        ("the '(' opens here", 5, 21), ("and closes here", 7, 29), ("also ignored", 6, 29)]
    out = okl.translate(STRAY, "serial").source
    assert "x[t] = 2.0f * (a[0] + a[1] + a[2] - a[3]);" in out


def test_unclosed_parenthesis_stays_an_error_at_its_open():
    with pytest.raises(okl.TranslationError) as e:
        analyze(STRAY.replace("x[t] += (a[0]);", "x[t] += (a[0] * 2.0f;"))
    [err] = [d for d in e.value.diagnostics if d.severity == "error"]
    assert err.message == "syntax error: expected ')' before ';'"
    assert (err.loc.line, err.loc.col) == (8, 27)
    assert [(n.message, n.loc.line, n.loc.col) for n in err.notes] == [
        ("to match this '('", 8, 15)]
    assert "OCCA rejects it too" in err.hint


def test_for_header_semicolons_are_not_stray():
    assert errors("""
        @kernel void k(float *x) {
          for (int b = 0; b < 4; ++b; @outer) {
            for (int t = 0; t < 4; ++t; @inner) x[t] = (1.0f;
          }
        }
    """) == ["syntax error: expected ')' before ';'"]


def test_file_without_kernels_translates_with_a_warning():
    source = "#if p_knl == 0\n" + KERNEL + "#endif\nfloat twice(float v) { return 2 * v; }\n"
    result = okl.translate(source, "cuda", defines={"p_knl": 1}, filename="v.okl")
    assert result.kernels == [] and "__device__ float twice" in result.source
    [w] = result.diagnostics
    assert where(w) == ("v.okl", 1, 1)
    assert w.message.startswith("no @kernel in this file")
    assert "-D values" in w.hint
    with pytest.raises(KeyError, match="no @kernel named 'k'"):
        result.kernel("k")
