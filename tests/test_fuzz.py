"""Fuzzing the front end and ``oklc check``: every input must translate or raise okl.OKLError.

Mutants are drawn from every kernel under tests/golden plus the three below.  Each case
applies one to three rounds of mutations, token-level (delete, duplicate, swap, replace, insert a
token of the kernel or an OKL fragment) or byte-level (random bytes, also ones that are not
UTF-8; deleted characters; duplicated lines; huge literals; deep nesting; macro recursion and
exponential macros), then either runs ``okl.translate`` on the bytes for a random mode or
``oklc check -m MODE`` on a file through click's CliRunner.  What must hold:

* no exception but OKLError (anything else is a bug), and every error diagnostic located;
* ``oklc`` exits 0 or 1 and prints each error as ``file:line:col: error:`` or
  ``oklc: error:``, never a traceback;
* no case takes longer than :data:`HANG_SECONDS` (a SIGALRM timer on the main thread).

Each case has its own random generator seeded from ``OKL_FUZZ_SEED`` and its index, so a
failure names the seed and case to replay.  CI runs ``OKL_FUZZ_ITERATIONS`` cases (default
2000: about 100 s on a busy 2-core VM) with a fresh seed, printed at the end of every run
(tests/conftest.py), in the summary line (``pytest -s``) and in any failure.  A long run,
in chunks with distinct seeds (benchmarks/results/fuzz-*.txt: 104,000 cases)::

    OKL_FUZZ_ITERATIONS=25000 OKL_FUZZ_SEED=1 python -m pytest -q -s tests/test_fuzz.py
"""

from __future__ import annotations

import os
import random
import re
import secrets
import signal
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import okl
from okl.cli import main
from okl.modes import MODES
from okl.parser.attributes import tokenize

ITERATIONS = int(os.environ.get("OKL_FUZZ_ITERATIONS", "2000"))
SEED = int(os.environ.get("OKL_FUZZ_SEED") or secrets.randbits(32))
#: a case slower than this is a hang (the cpp limit is 5 s; the rest is bounded by tokens)
HANG_SECONDS = 10
#: failures collected before the test stops, so one run shows several distinct bugs
MAX_FAILURES = 5

GOLDEN = Path(__file__).resolve().parent / "golden"

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
                "\\", "/*", "*/", "//", "0", "-1", "__attribute__((", "...", "@tile(1.5)",
                "@tile(4294967296, @outer, @inner)", "#include \"", "#line 1 \"x\\n\"",
                "1e99999", "0x", "'\\x", "\"\\u", "@directive(\"#define", "#pragma")
#: Bytes that are not UTF-8 on their own, and a few control characters.
ODD_BYTES = (b"\xe9", b"\xff", b"\x80", b"\xc3", b"\x00", b"\r", b"\x0c", b"\x1b", b"\t")


def _seeds() -> list[tuple[str, bytes]]:
    """(file name, source) of every golden kernel and of the kernels above."""
    seeds = [(str(p), p.read_bytes()) for p in sorted(GOLDEN.rglob("*.okl"))]
    seeds += [(f"{name}.okl", textwrap.dedent(src).encode()) for name, src in KERNELS.items()]
    return seeds


SEEDS = _seeds()


def mutate(text: str, rng: random.Random) -> str:
    """One to three token-level edits, keeping the whitespace between tokens."""
    tokens = tokenize(text)
    if not tokens:
        return text + rng.choice(EXTRA_TOKENS)
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


def _insert(data: bytes, piece: bytes, rng: random.Random) -> bytes:
    at = rng.randint(0, len(data))
    return data[:at] + piece + data[at:]


def _random_bytes(data: bytes, rng: random.Random) -> bytes:
    piece = b"".join(rng.choice(ODD_BYTES) if rng.random() < 0.5 else bytes([rng.randrange(256)])
                     for _ in range(rng.randint(1, 4)))
    return _insert(data, piece, rng)


def _delete_chars(data: bytes, rng: random.Random) -> bytes:
    at = rng.randint(0, len(data))
    return data[:at] + data[at + rng.randint(1, 8):]


def _duplicate_line(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    k = rng.randrange(len(lines))
    lines[k:k] = [lines[k]] * rng.randint(1, 3)
    return b"\n".join(lines)


def _huge_literal(data: bytes, rng: random.Random) -> bytes:
    digits = rng.choice((b"9", b"1", b"0x7", b"1.5e")) + b"9" * rng.choice((300, 5000, 1 << 20))
    return _insert(data, b" " + digits + b" ", rng)


def _deep_nesting(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice((100, 250, 1000, 20000))
    opener, closer = rng.choice(((b"(", b")"), (b"{", b"}"), (b"[", b"]"), (b"-", b"")))
    return _insert(data, opener * depth + b"1" + closer * depth, rng)


def _macro_recursion(data: bytes, rng: random.Random) -> bytes:
    """Self-reference (cpp stops it), or a chain where each macro doubles the previous one:
    up to 2^20 tokens, which the output and token limits must stop."""
    if rng.random() < 0.3:
        lines = [b"#define R(x) R(x) + R(x)", b"#define S S S"]
        use = rng.choice((b"R(1)", b"S"))
    else:
        depth = rng.randint(8, 20)
        lines = [b"#define M0 x"] + [f"#define M{i} M{i - 1} M{i - 1}".encode()
                                      for i in range(1, depth + 1)]
        use = f"M{depth}".encode()
    lines_at = data.split(b"\n")
    k = rng.randrange(len(lines_at))
    lines_at[k] = lines_at[k] + b" " + use
    return b"\n".join(lines + lines_at)


BYTE_MUTATIONS = (_random_bytes, _delete_chars, _duplicate_line, _huge_literal, _deep_nesting,
                  _macro_recursion)


def make_case(index: int) -> tuple[str, bytes, str, bool]:
    """(seed file name, mutant, mode, through the CLI) of case ``index``."""
    rng = random.Random(f"{SEED}:{index}")
    name, data = SEEDS[rng.randrange(len(SEEDS))]
    for _ in range(rng.choice((1, 1, 2, 3))):
        if rng.random() < 0.55:
            data = mutate(data.decode("latin-1"), rng).encode("latin-1")
        else:
            # the expensive ones (macro chains, huge literals) are rarer: CI time
            weights = (6, 6, 6, 1, 2, 1)
            data = rng.choices(BYTE_MUTATIONS, weights)[0](data, rng)
    return name, data, rng.choice(MODES), rng.random() < 0.25


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang


_CLI_ERROR = re.compile(r"^(?:.+:\d+:\d+: error: |oklc: error: |.+: error: cannot read: )")


def run_case(name: str, data: bytes, mode: str, cli: bool, tmp: Path) -> str:
    """"ok" or "error" (an OKLError or exit 1); AssertionError or Hang for bugs."""
    if not cli:
        try:
            okl.translate(data, mode, filename=name)
            return "ok"
        except okl.OKLError as e:
            unlocated = [d for d in e.diagnostics if d.severity == "error" and d.loc is None]
            assert e.diagnostics and not unlocated, f"unlocated error: {e}"
            return "error"
    path = tmp / Path(name).name
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["check", "-m", mode, str(path)])
    if isinstance(result.exception, Hang):
        raise result.exception
    assert result.exit_code in (0, 1), f"exit {result.exit_code}: {result.exception!r}\n" \
        f"{result.stderr}"
    assert "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if "error:" in line
              and not line.startswith(" ")]
    bad = [line for line in errors if not _CLI_ERROR.match(line)]
    assert not bad, f"error lines without a location: {bad}"
    return "error" if result.exit_code else "ok"


def test_seed_kernels_are_valid():
    for name, source in KERNELS.items():
        program = okl.analyze(textwrap.dedent(source), f"{name}.okl")
        assert [k.name for k in program.kernels] == [name]


def test_mutants_translate_or_raise_okl_errors(tmp_path):
    counts = {"ok": 0, "error": 0, "traceback": 0, "hang": 0}
    failures: list[str] = []
    previous = signal.signal(signal.SIGALRM, _alarm)
    start = time.perf_counter()
    slowest = (0.0, -1)
    try:
        for i in range(ITERATIONS):
            name, data, mode, cli = make_case(i)
            began = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
            try:
                counts[run_case(name, data, mode, cli, tmp_path)] += 1
            except Hang:
                counts["hang"] += 1
                failures.append(f"case {i}: hang over {HANG_SECONDS} s")
            except Exception as e:  # noqa: BLE001 -- any other exception is the bug we look for
                counts["traceback"] += 1
                failures.append(f"case {i}: {type(e).__name__}: {str(e)[:2000]}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                slowest = max(slowest, (time.perf_counter() - began, i))
            if failures and failures[-1].startswith(f"case {i}:"):
                failures[-1] += (f"\n  ({'oklc check' if cli else 'translate'} -m {mode}, "
                                 f"mutant of {Path(name).name}: {data[:300]!r}...)")
                if len(failures) >= MAX_FAILURES:
                    break
    finally:
        signal.signal(signal.SIGALRM, previous)
    seconds = time.perf_counter() - start
    print(f"\nfuzz OKL_FUZZ_SEED={SEED}: {sum(counts.values())} cases in {seconds:.1f} s: "
          f"{counts}; slowest: case {slowest[1]}, {slowest[0]:.1f} s")
    assert not failures, (f"OKL_FUZZ_SEED={SEED} (replay: the same seed and "
                          "OKL_FUZZ_ITERATIONS)\n" + "\n".join(failures))
    assert counts["error"] > 0


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
