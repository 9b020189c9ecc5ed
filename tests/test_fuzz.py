"""Fuzzing the front end: mutants of valid kernels must analyze or raise okl.OKLError.

Each mutant deletes, duplicates, swaps, replaces or inserts a few tokens
(okl.parser.attributes.tokenize) of a valid kernel, keeping the whitespace between tokens.
Any exception other than OKLError (an AssertionError, IndexError, RecursionError, ...) is a
front-end bug; the failure message holds the seed and the mutant so it can be replayed.

CI runs a bounded number of mutants.  A longer local run::

    OKL_FUZZ_ITERATIONS=100000 python -m pytest -q tests/test_fuzz.py

``OKL_FUZZ_SEED`` picks another random sequence (default 0).
"""

from __future__ import annotations

import os
import random
import textwrap

import pytest

import okl
from okl.parser.attributes import tokenize

ITERATIONS = int(os.environ.get("OKL_FUZZ_ITERATIONS", "300"))
SEED = int(os.environ.get("OKL_FUZZ_SEED", "0"))

KERNELS = {
    "blocks": """
        #define p_Nq 8
        #define p_Np (p_Nq * p_Nq)
        #define IDX(i, j) ((i) + p_Nq * (j))
        @kernel void blocks(const int N, @restrict const float *x, @restrict float *y) {
          for (int e = 0; e < N; ++e; @outer(0)) {
            @shared float s[p_Nq][p_Nq + 1];
            @exclusive float r, q[2];
            for (int j = 0; j < p_Nq; ++j; @inner(1)) {
              for (int i = 0; i < p_Nq; ++i; @inner(0)) {
                s[j][i] = x[e * p_Np + IDX(i, j)];
                r = s[j][i];
              }
            }
            @barrier();
            for (int j = 0; j < p_Nq; ++j; @inner(1)) {
              for (int i = 0; i < p_Nq; ++i; @inner(0)) {
                #pragma unroll p_Nq
                for (int k = 0; k < p_Nq; ++k) r += s[k][i];
                y[e * p_Np + IDX(i, j)] = r;
              }
            }
          }
        }
    """,
    "tiles": """
        typedef struct { double alpha; int n; float pad[3]; } params_t;
        static inline float twice(float v) { return 2.0f * v; }
        const float weights[2] = {0.5f, 1.5f};
        @kernel void tiles(const params_t p, const float *a, float *b, int *count) {
          const int blocks = (p.n + 15) / 16;
          for (int i = 0; i < p.n; i += 2; @tile(16, @outer, @inner, check=true)) {
            b[i] = twice(a[i]) * p.alpha + weights[i % 2];
          }
          for (int g = blocks - 1; g >= 0; --g; @outer) {
            for (int t = 0; t <= 15; ++t; @inner @nobarrier) {
              if (g * 16 + t < p.n) {
                @atomic count[0] += 1;
              }
            }
          }
        }
    """,
    "dims": """
        @directive("#define p_X 4")
        typedef float* grid_t @dim(p_X, 3) @dimOrder(1, 0);
        @kernel void dims(const int N, float *A @dim(p_X, N), grid_t G, double *out) {
          for (long j = 0; N > j; j++; @outer @max_inner_dims(4)) {
            for (unsigned i = 0; i < p_X; i += 1; @inner) {
              A(i, j) = G(i % 3, i);
              @barrier("warp");
              @atomic { out[0] += A(i, j); }
            }
          }
        }
    """,
}


#: Tokens inserted besides those of the kernel itself: attribute fragments and punctuation.
EXTRA_TOKENS = ("@", "@outer", "@inner", "@shared", "@tile(", "@dim(", "@barrier(\"", ")",
                "(", "[", "]", "{", "}", ";", ",", "=", "#", "#define", "#if", "\"", "'",
                "\\", "/*", "*/", "//", "0", "-1", "__attribute__((", "...")


def mutate(text: str, rng: random.Random) -> str:
    tokens = tokenize(text)
    words = [t.text for t in tokens]
    gaps = [text[(tokens[k - 1].end if k else 0):tokens[k].start] for k in range(len(tokens))]
    tail = text[tokens[-1].end:]
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(words))
        op = rng.choice(("delete", "duplicate", "swap", "swap_near", "replace", "insert"))
        if op == "delete":
            words[k] = ""
        elif op == "duplicate":
            words[k] = f"{words[k]} {words[k]}" if words[k] else words[k]
        elif op == "swap":
            m = rng.randrange(len(words))
            words[k], words[m] = words[m], words[k]
        elif op == "swap_near" and k + 1 < len(words):
            words[k], words[k + 1] = words[k + 1], words[k]
        elif op == "replace":
            words[k] = rng.choice(words)
        else:
            words[k] = f"{rng.choice(EXTRA_TOKENS)} {words[k]}"
    return "".join(g + w for g, w in zip(gaps, words, strict=True)) + tail


def test_seed_kernels_are_valid():
    for name, source in KERNELS.items():
        program = okl.analyze(textwrap.dedent(source), f"{name}.okl")
        assert [k.name for k in program.kernels] == [name]


def test_mutants_analyze_or_raise_okl_errors():
    rng = random.Random(SEED)
    sources = [(name, textwrap.dedent(src)) for name, src in KERNELS.items()]
    outcomes = {"ok": 0, "error": 0}
    for i in range(ITERATIONS):
        name, source = sources[i % len(sources)]
        mutant = mutate(source, rng)
        try:
            okl.analyze(mutant, f"{name}.okl")
            outcomes["ok"] += 1
        except okl.OKLError as e:
            assert e.diagnostics, f"OKLError without diagnostics: {e}"
            outcomes["error"] += 1
        except Exception as e:  # noqa: BLE001 -- any other exception is the bug we look for
            pytest.fail(f"mutant {i} (OKL_FUZZ_SEED={SEED}) of {name} raised "
                        f"{type(e).__name__}: {e}\n--- mutant ---\n{mutant}")
    assert outcomes["error"] > 0


@pytest.mark.parametrize("terms", [100, 3000])
def test_long_expressions(terms):
    """Long sums are common in generated or unrolled code: none may crash the front end."""
    chain = " + ".join(["x[t]"] * terms)
    program = okl.analyze(textwrap.dedent(f"""
        @kernel void k(const int N, float *x) {{
          for (int b = 0; b < {" + ".join(["N"] * terms)}; ++b; @outer) {{
            for (int t = 0; t < 4; ++t; @inner) x[t] = {chain};
          }}
        }}
    """), "long.okl")
    assert program.kernels[0].outers[0].children[0].trip_value == 4
    deep = textwrap.dedent(f"""
        @kernel void k(const int N, float *x @dim(N, 4)) {{
          for (int i = 0; i < {" + ".join(["N"] * terms)}; ++i; @tile(16, @outer, @inner)) {{
            x(i, 0) = {chain};
          }}
        }}
    """)
    try:
        okl.analyze(deep, "deep.okl")
    except okl.OKLError as e:
        assert terms > 100 and "nests too deeply" in e.diagnostics[0].message
    for parens in (60, 400):
        nested = "(" * parens + "4" + ")" * parens
        try:
            okl.analyze(f"@kernel void k(float *x) {{ for (int b = 0; b < {nested}; ++b; "
                        "@outer) for (int t = 0; t < 4; ++t; @inner) x[t] = 0; }", "p.okl")
        except okl.OKLError as e:
            assert parens > 60 and "nests too deeply" in e.diagnostics[0].message
