"""okl's in-process preprocessor (okl/parser/cpp/inline.py) against cpp itself.

Every case runs both ways: cpp's answer is the reference.  A case of ``SAME`` must be taken
by the in-process preprocessor and give the same tokens on the same lines, the same macro
table and the same ``#include <...>`` list; a case of ``LEFT_TO_CPP`` must be declined (it
is something cpp diagnoses, or does in a way the module does not model), so that cpp's
answer is what the user gets.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

import okl.modes
from okl.errors import TranslationError
from okl.parser.cpp import expr as cppexpr
from okl.parser.cpp import inline as cppinline
from okl.parser.cpp import preprocess as pp
from okl.translation import translate

KERNELS = Path(__file__).resolve().parent.parent / "benchmarks" / "kernels"

SAME = {
    "plain": "int x;\n  float y = 2;\n",
    "object": "#define N 4\n#define M (N * N)\nint a[M]; int b = N+M;\n",
    "function": "#define SQ(x) ((x) * (x))\n#define ADD(a, b) (a + b)\nint y = SQ(ADD(1, 2));\n",
    "nested_call_args": "#define F(x) [x]\n#define G(x) F(x) F(F(x))\nG(G(1));\n",
    "name_without_call": "#define F(x) x\nint F; int g = F (3);\n",
    "call_over_lines": ("#define F(a, b) (a * b)\nint y = F(1,\n        2) + 3; int z = F\n"
                        "  (4, 5);\nint w;\n"),
    "call_after_blank_line": "#define F(a) (a)\nint y = F\n\n(7);\n",
    # runs of plain lines read at once, with lines that name a function-like macro (or an
    # object-like one that expands to such a name) among them read one by one
    "runs_with_calls": ("#define F(a, b) (a+b)\n#define K 3\n#define W F\nint aFb = K;  \t\n"
                        "int q = F(1,\n K) + W\n\n(K, K);\n   int r = K;\nint s = F;\n"
                        "#undef K\n#define K 4\nint t = K W(K,K) Fx;\n\n  \nint u = K;\n"),
    "name_then_other_line": "#define F(a) (a)\nint F\n; int q;\n",
    "recursion": "#define foo foo + 1\n#define a b\n#define b a\nfoo; a; b;\n",
    "indirect_recursion": "#define f(x) g(x)\n#define g(x) f(x) + x\nf(1);\n",
    "object_to_function": "#define f(x) (x + 1)\n#define g f\ng(2); g;\n",
    "hide_set_intersection": "#define f(a) a*g\n#define g(a) f(a)\nf(2)(9);\n",
    "stringize": '#define S(x) #x\nconst char *s = S(  a   +  "q\\n" \'c\' );\n',
    "paste": ("#define CAT(a, b) a ## b\n#define X CAT(p_, N)\n"
              "int CAT(x, 1) = CAT(, y) + CAT(z,) + CAT(1, 2);\n"),
    "paste_arg_not_expanded": ("#define N 3\n#define CAT(a, b) a##b\n#define XCAT(a, b) CAT(a, b)\n"
                               "int CAT(v, N); int XCAT(v, N);\n"),
    "variadic": ("#define V(fmt, ...) f(fmt, __VA_ARGS__)\n#define W(...) g(__VA_ARGS__)\n"
                 "V(1, 2, 3); W(); W(a, (b, c));\n"),
    "empty_args": "#define E() 7\n#define ONE(x) [x]\nint a = E(); int b = ONE();\n",
    "conditionals": (
        "#define A 2\n#if A > 1 && (A * 3 == 6) || defined B\nint yes1;\n#elif 1\nint no1;\n#else\n"
        "int no2;\n#endif\n#ifdef A\nint yes2;\n#endif\n#ifndef B\nint yes3;\n#else\nint no3;\n"
        "#endif\n#if defined(A) && !defined B\nint yes4;\n#endif\n"),
    "nested_skipped": (
        "#if 0\n#if garbage (\n#error never\n#else\nint no;\n#endif\n#elif 2 - 2\nint no2;\n"
        "#elif 0x10 == 16 && 010 == 8 && 'a' == 97\nint yes;\n#else\nint no3;\n#endif\n"),
    "if_arithmetic": (
        "#if (-7 / 2 == -3) && (-7 % 2 == -1) && (1 << 4 == 16) && (~0 == -1) && (1 ? 2 : 3) == 2"
        "\nint ok;\n#endif\n#if 0 && 1 / 0\nint no;\n#endif\n#if UNDEFINED_NAME == 0\nint ok2;\n"
        "#endif\n"),
    "undef": "#define N 1\nint a = N;\n#undef N\nint b = N;\n#define N 2\nint c = N;\n",
    "comments": (
        "int a; /* one */ int b; // two\nint c /* multi\n line */, d;\n/* x */ #define N 5\n"
        "int e = N; /* N */ // N\n"),
    "continuations": "#define LONG(a) \\\n  ((a) + \\\n   1)\nint y = LONG(2) + \\\n  3;\n",
    "pragmas": "#define p_N 8\n#pragma unroll p_N\n  #  pragma   omp parallel for\nint x;\n",
    "system_include": "#include <math.h>\n#include<stdio.h>\nint x;\n",
    "okl_attributes": (
        "#define p_B 64\n@kernel void k(const int n, @restrict float *a) {\n"
        "  for (int i = 0; i < n; ++i; @tile(p_B, @outer, @inner)) { a[i] = 0; }\n}\n"),
    "directive_attribute": '@directive("#define Q 3") int y = Q;\n',
    "glue": "#define NEG -1\n#define PLUS +\nint a = -NEG; int b = 1 PLUS+ 2; int c = a-NEG;\n",
    "empty_object": "#define NOTHING\nint NOTHING a NOTHING = NOTHING 1;\n",
    "numbers_hold_names": "#define e5 oops\n#define x1F oops\ndouble d = 1e5 + 0x1F + 1.e5f;\n",
    "redefine_same": "#define N (1 + 2)\n#define N (1 + 2)\nint x = N;\n",
    "strings": "#define N 3\nconst char *s = \"N is N\"; char c = 'N';\n",
    "predefined": "#if __STDC_VERSION__ >= 199901L && __STDC__\nint c99;\n#endif\n",
    "mode_macros": ("#if OKL_USING_GPU\nint gpu;\n#else\nint cpu;\n#endif\n"
                    "const char *m = OKL_MODE;\n"),
    "spellings": "void f(float * __restrict__ p) { __extension__ int x; }\n",
}

LEFT_TO_CPP = {
    "include_quoted": '#include "nothere.h"\nint x;\n',
    "error": "#error stop\n",
    "warning": "#warning careful\n",
    "line_macro": "int x = __LINE__;\n",
    "file_macro": "const char *f = __FILE__;\n",
    "pragma_op": '_Pragma("unroll") int x;\n',
    "redefined": "#define N 1\n#define N 2\n",
    "predefined_redefined": "#define __STDC__ 2\n",
    "unterminated_call": "#define F(x) x\nint y = F(1, \n",
    "wrong_argument_count": "#define F(x, y) x\nint y = F(1);\n",
    "division_by_zero": "#if 1 / 0\n#endif\n",
    "lenient_assignment": "#define X 1\n#if X=1\nint a;\n#endif\n",
    "missing_endif": "#if 1\nint a;\n",
    "stray_endif": "int a;\n#endif\n",
    "elif_after_else": "#if 0\n#else\n#elif 1\n#endif\n",
    "extra_tokens": "#ifdef A B\n#endif\n",
    "unterminated_comment": "int a; /* never closed\nint b;\n",
    "unterminated_quote": "char c = 'x;\n",
    "trigraph": 'const char *s = "??/";\n',
    "gnu_comma": "#define V(f, ...) g(f, ## __VA_ARGS__)\nV(1);\n",
    "named_variadic": "#define V(args...) g(args)\n",
    "pragma_once": "#pragma once\nint a;\n",
    "bad_paste": "#define P(a, b) a ## b\nint x = P(+, /);\n",
    "defined_from_macro": "#define D defined(X)\n#if D\n#endif\n",
    "unsigned_if": "#if 1u\n#endif\n",
    "line_comment_continued": "int a; // goes on \\\nint b;\n",
    "non_ascii": "int caf\u00e9;\n",
    "macro_bomb": ("#define A x x x x x x x x\n#define B A A A A A A A A\n"
                   "#define C B B B B B B B B\n#define D C C C C C C C C\n"
                   "#define E D D D D D D D D\n#define F E E E E E E E E\nF F\n"),
    "va_args_outside": "int __VA_ARGS__;\n",
    "other_predefined": "#ifdef __STDC_IEC_559__\nint iec;\n#endif\n",
}


def _given(mode: str, defines: dict) -> list[tuple[str, str]]:
    out = [("__OKL__", "1"), ("OKL_MODE", f'"{okl.modes.get(mode).macro}"')]
    if okl.modes.get(mode).gpu:
        out += [("OKL_USING_GPU", "1"), ("OCCA_USING_GPU", "1")]
    return out + list(pp.C_SPELLINGS.items()) + [(k, str(v)) for k, v in defines.items()]


def _view(expanded: pp.Expanded):
    """What the rest of okl reads: each non-blank line's tokens and origin, the macro table
    (name -> file, line; cpp's built-ins left out: which it has varies by version), the
    passed-through includes, the warnings."""
    lines = [(origin, pp._TOKEN.findall(line))
             for line, origin in zip(expanded.text.split("\n"), expanded.origins, strict=True)
             if line.strip()]
    return (lines, {k: v[:2] for k, v in expanded.macros.items() if v[0] != "<built-in>"},
            expanded.system_includes, [w.message for w in expanded.warnings])


def _cpp(source: str, mode: str, defines: dict):
    try:
        return _view(pp.preprocess(source, "case.okl", mode=mode, defines=defines,
                                   inline=False))
    except TranslationError as e:
        return ("error", [d.message for d in e.diagnostics])


def _inline(source: str, mode: str, defines: dict):
    output = cppinline.expand(pp._prepare(source, "case.okl"), _given(mode, defines))
    return None if output is None else _view(pp._collect(output, "case.okl"))


@pytest.mark.parametrize("mode", ["serial", "cuda"])
@pytest.mark.parametrize("name", sorted(SAME))
def test_same_as_cpp(name, mode):
    defines = {"p_Nq": 8, "dfloat": "double"}
    mine = _inline(SAME[name], mode, defines)
    assert mine is not None, "declined a case it should take"
    assert mine == _cpp(SAME[name], mode, defines)


@pytest.mark.parametrize("name", sorted(LEFT_TO_CPP))
def test_left_to_cpp(name):
    assert _inline(LEFT_TO_CPP[name], "serial", {}) is None


def test_left_to_cpp_still_gets_cpps_answer():
    with pytest.raises(TranslationError) as e:
        pp.preprocess("#error stop here\n", "case.okl")
    assert "stop here" in str(e.value)
    warned = pp.preprocess("#define N 1\n#define N 2\nint x = N;\n", "case.okl")
    assert "redefined" in " ".join(w.message for w in warned.warnings)


@pytest.mark.parametrize("file", sorted(p.name for p in KERNELS.glob("*.okl")))
def test_translations_match_cpp_path(file, monkeypatch):
    """Whole translations are byte-identical either way, on every mode."""
    source = (KERNELS / file).read_text()
    defined = set(re.findall(r"#define\s+(\w+)", source))
    defines = {name: 4 for name in set(re.findall(r"\bp_\w+", source)) - defined}
    defines.update(dfloat="double", p_Idx="int")  # the two that name types
    for mode in ("serial", "openmp", "opencl", "cuda", "hip"):
        monkeypatch.delenv("OKL_CPP", raising=False)
        taken = cppinline.expand(pp._prepare(source, str(KERNELS / file)),
                                 _given(mode, defines))
        assert taken is not None
        mine = translate(source, mode, defines=defines, filename=str(KERNELS / file))
        monkeypatch.setenv("OKL_CPP", "cpp")
        theirs = translate(source, mode, defines=defines, filename=str(KERNELS / file))
        assert mine.source == theirs.source
        assert mine.launcher() == theirs.launcher()
        assert [d.message for d in mine.diagnostics] == [d.message for d in theirs.diagnostics]


def test_columns_of_a_diagnostic_in_a_macro_line(monkeypatch):
    source = ("#define p_N 4\n#define F(x) (x)\n@kernel void k(int n, float *a) {\n"
              "  for (int i = 0; i < F(p_N); ++i; @outer) { a[i] = undeclared_name; }\n}\n")
    said = []
    for cpp in ("", "cpp"):
        monkeypatch.setenv("OKL_CPP", cpp)
        with pytest.raises(TranslationError) as e:
            translate(source, "serial", filename="case.okl")
        said.append(str(e.value))
    assert said[0] == said[1]
    assert "case.okl:4:" in said[0]


@pytest.mark.parametrize("text, value", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("-7 / 2", -3), ("-7 % 2", -1), ("7 % -2", 1),
    ("1 << 62", 1 << 62), ("~5", -6), ("!0 + !7", 1), ("3 > 2 == 1", 1), ("1 ? 2 : 3", 2),
    ("0 ? 1 / 0 : 4", 4), ("0 && 1 / 0", 0), ("1 || 1 / 0", 1),
    ("0x7fffffffffffffff", (1 << 63) - 1),
    ("'\\n'", 10), ("077", 63), ("5 & 3 | 8 ^ 1", 9), ("1L + 2ll", 3),
])
def test_if_arithmetic(text, value):
    tokens = [(t.kind, t.text) for t in cppinline._lex(text, 1)]
    assert cppexpr.evaluate(tokens) == value


@pytest.mark.parametrize("text", ["1 / 0", "1u", "0b101", "1.5", "9223372036854775807 + 1",
                                  "1 << 64", "-1 >> 1", "1, 2", "'ab'", "L'a'", "(1", "1 +",
                                  '"s"', ""])
def test_if_arithmetic_left_to_cpp(text):
    tokens = [(t.kind, t.text) for t in cppinline._lex(text, 1)]
    with pytest.raises(cppexpr.Unsupported):
        cppexpr.evaluate(tokens)


FUZZ_SEED = int(os.environ.get("OKL_FUZZ_SEED") or 1)
FUZZ_CASES = int(os.environ.get("OKL_CPPINLINE_CASES") or 120)
_NAMES = ["A", "B", "C", "F", "G", "H"]


def _random_file(rng: random.Random) -> str:
    """A small file of random macros, calls (some over several lines) and conditionals."""
    params: dict[str, tuple] = {}

    def tokens(pool: list[str], n: int) -> str:
        return " ".join(rng.choice(pool) for _ in range(n))

    def call_or_word(depth: int) -> str:
        name = rng.choice(_NAMES)
        if name in params and params[name] is not None and rng.random() < 0.8 and depth < 3:
            count = max(len(params[name]), 1) + (rng.random() < 0.1)
            args = [expression(depth + 1) if rng.random() < 0.8 else "" for _ in range(count)]
            sep = ",\n  " if rng.random() < 0.15 else ", "
            return f"{name}({sep.join(args)})"
        return name

    def expression(depth: int = 0) -> str:
        parts = []
        for _ in range(rng.randint(1, 4)):
            r = rng.random()
            if r < 0.45:
                parts.append(call_or_word(depth))
            elif r < 0.7:
                parts.append(rng.choice(["1", "2", "0x10", "7", "x", "y", "q"]))
            elif r < 0.8 and depth < 3:
                parts.append(f"({expression(depth + 1)})")
            else:
                parts.append(rng.choice(["+", "-", "*", "<", "==", "&&", "|", '"s"', "'c'"]))
        return " ".join(parts)

    lines = []
    open_ifs = 0
    for _ in range(rng.randint(4, 14)):
        r = rng.random()
        if r < 0.3:
            name = rng.choice(_NAMES)
            shape = rng.choice([None, None, (), ("x",), ("x", "y"), ("x", "...")])
            params[name] = shape
            pool = ["1", "+", "*", "(", ")", *_NAMES, "x1"]
            if shape:
                names = [p if p != "..." else "__VA_ARGS__" for p in shape]
                pool += names * 3 + [f"#{names[0]}", f"{names[0]} ## {names[-1]}",
                                     f"{names[0]} ## 1"]
            head = name if shape is None else f"{name}({', '.join(shape)})"
            body = tokens(pool, rng.randint(0, 6))
            if rng.random() < 0.1:
                body = body.replace(" ", " \\\n    ", 1)
            lines.append(f"#define {head} {body}")
        elif r < 0.35:
            lines.append(f"#undef {rng.choice(_NAMES)}")
        elif r < 0.45:
            cond = rng.choice([expression(), f"defined {rng.choice(_NAMES)}",
                               f"defined({rng.choice(_NAMES)}) || {expression()}"])
            lines.append(rng.choice(["#if ", "#if ", "#ifdef ", "#ifndef "])
                         + (rng.choice(_NAMES) if lines[-1:] and rng.random() < 0.3 else cond))
            open_ifs += 1
        elif r < 0.52 and open_ifs:
            lines.append(rng.choice(["#else", f"#elif {expression()}"]))
        elif r < 0.6 and open_ifs:
            lines.append("#endif")
            open_ifs -= 1
        else:
            lines.append(f"int v{len(lines)} = {expression()};")
    lines += ["#endif"] * (open_ifs if rng.random() < 0.9 else 0)
    return "\n".join(lines) + "\n"


def test_random_macro_files_agree_with_cpp():
    """Whatever okl's own preprocessor takes of random macro files, it gives as cpp does;
    what cpp diagnoses, it leaves to cpp.  OKL_FUZZ_SEED reproduces a run."""
    taken = 0
    for index in range(FUZZ_CASES):
        rng = random.Random(FUZZ_SEED * 100_003 + index)
        source = _random_file(rng)
        mine = _inline(source, "serial", {})
        if mine is None:
            continue
        taken += 1
        assert mine == _cpp(source, "serial", {}), (index, source)
    assert taken >= FUZZ_CASES // 4  # the generator must mostly make files it takes


def test_okl_cpp_set_means_cpp_only(monkeypatch):
    calls = []
    real = cppinline.expand
    monkeypatch.setattr(cppinline, "expand", lambda *a: calls.append(a) or real(*a))
    monkeypatch.setenv("OKL_CPP", "cpp")
    pp.preprocess("#define N 2\nint x = N;\n", "case.okl")
    assert calls == []
    monkeypatch.delenv("OKL_CPP")
    expanded = pp.preprocess("#define N 2\nint x = N;\n", "case.okl")
    assert len(calls) == 1 and "int x = 2;" in expanded.text


def test_output_past_cpps_cap_is_left_to_cpp(monkeypatch):
    """Constants that expand to a lot of text stop at cpp's own output cap, where cpp then
    reports the located error."""
    source = "#define D x x x x x x x x x x\n#define E D D D D D D D D D D\n" + "E E E\n" * 100
    assert _inline(source, "serial", {}) is not None
    monkeypatch.setenv("OKL_MAX_CPP_OUTPUT_BYTES", "10000")
    assert _inline(source, "serial", {}) is None
