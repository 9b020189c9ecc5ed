"""Host code means what C means on every mode.

The CPU modes compile host code as C; the GPU modes run it as generated Python
(okl.runtime.launch.hostcode).  Each case below runs on every available mode and checks the launch
(how many outer and inner iterations ran) and the values device code captured.  The
differential test generates random well-defined host snippets and compares the compiled C
(serial) with the Python host path called directly (``okl.runtime.launch.hostrun.host_launches``).
"""

from __future__ import annotations

import math
import os
import random
import re
import struct
import time

import numpy as np
import pytest
from modes import device, params

import okl
from okl.runtime.launch.hostrun import host_launches
from okl.runtime.launch.spec import specs_of

MODES = params()


def run_host(mode: str, host: str, ints=(), floats=(), outer="h", inner="1", n=7):
    """Run ``host`` then an @outer/@inner pair of ``outer`` x ``inner`` iterations (at most
    8 x 8) that records which iterations ran and stores ``ints`` (as long) and ``floats``
    (as double); returns (outer count, inner count, ints, floats)."""
    stores = "".join(f"iv[{i}] = (long)({e}); " for i, e in enumerate(ints))
    stores += "".join(f"fv[{i}] = (double)({e}); " for i, e in enumerate(floats))
    src = (f"@kernel void k(const int N, long *iv, double *fv, int *cnt) {{\n{host}\n"
           f"  for (int i = 0; i < {outer}; ++i; @outer) {{\n"
           f"    for (int j = 0; j < {inner}; ++j; @inner) {{\n"
           f"      cnt[i * 8 + j] = 1;\n"
           f"      if (i == 0 && j == 0) {{ {stores} }}\n    }}\n  }}\n}}\n")
    dev = device(mode)
    kernel = dev.build_kernel_from_string(src, "k")
    iv, fv, cnt = (dev.asarray(np.zeros(8, np.int64)), dev.asarray(np.zeros(8)),
                   dev.asarray(np.zeros(64, np.int32)))
    kernel(np.int32(n), iv, fv, cnt)
    ran = cnt.get().reshape(8, 8)
    return (int(ran.any(axis=1).sum()), int(ran.any(axis=0).sum()),
            list(iv.get()[:len(ints)]), list(fv.get()[:len(floats)]))


CASES = [
    # (host code, outer, ints, floats, expected (outer count, ints, floats))
    # types OpenCL kernels cannot take as arguments, captured by device code
    ("_Bool b = N > 3; bool c = N; size_t n = N; ptrdiff_t p = -N; int h = 2;", "h",
     ["b", "c", "n", "p"], [], (2, [1, 1, 7, -7], [])),
    ("unsigned int u = 0; int h = (u - 1 > 5) ? 4 : 1;", "h", [], [], (4, [], [])),
    ("_Bool b = N; int h = b + 2, c = b;", "h", ["c"], [], (3, [1], [])),
    ("unsigned int u = 4294967295u; int h = u + 2;", "h", ["h"], [], (1, [1], [])),
    ("short s = 32767; s += 1; unsigned char c = 250; c += 10; char ch = 'a' + 100;"
     "int h = c;", "h", ["s", "c", "ch"], [], (4, [-32768, 4, -59], [])),
    ("int h = N / 2.0; int g = h; g /= 2.5;", "h", ["h", "g"], [], (3, [3, 1], [])),
    ("int a = -7 / 2, b = -7 % 2, c = 7 % -2, h = 2;", "h", ["a", "b", "c"], [],
     (2, [-3, -1, 1], [])),
    ("int from = 1, lambda = 2, in = 3, is = 4, None = 5, pass = 6, _launch = 1;"
     "int h = from + lambda + in + is + None + pass - 20 + _launch;", "h",
     ["from", "None", "_launch"], [], (2, [1, 5, 1], [])),
    ("int h = 1;" + "if (N > 0) {" * 200 + "h = 3;" + "}" * 200, "h", [], [], (3, [], [])),
    ("double big = 1e999; int c = 'ab'; double x = 0x1p3; int h = x - 5;", "h", ["c"],
     ["big", "x"], (3, [24930], [math.inf, 8.0])),
    ("float f = 16777217; float g = 0.1f; float t = 1.0f / 3.0f; int h = 1;", "h", [],
     ["f", "g", "t"], (1, [], [16777216.0, struct.unpack("f", struct.pack("f", 0.1))[0],
                               struct.unpack("f", struct.pack("f", 1 / 3))[0]])),
    ("int t = -2.7; unsigned x = 1u << 31; int y = x >> 3; int z = -16 >> 2;"
     "unsigned m = ~0u; int h = 2;", "h", ["t", "y", "z", "m"], [],
     (2, [-2, 268435456, -4, 4294967295], [])),
    ("long long ll = 1LL << 40; int lo = (int)ll; unsigned long long ull = -1;"
     "double d = ull; int h = 1;", "h", ["lo"], ["d"], (1, [0], [18446744073709551615.0])),
    ("unsigned n = 3; int h = 1;", "n", [], [], (3, [], [])),
    ("int k = 0, h = 0; do { ++k; if (k < 3) continue; h = k; } while (k < 4);", "h",
     ["k"], [], (4, [4], [])),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_host_case(mode, case):
    host, outer, ints, floats, (count, want_ints, want_floats) = CASES[case]
    got_outer, _, got_ints, got_floats = run_host(mode, host, ints, floats, outer)
    assert got_outer == count
    assert got_ints == want_ints
    assert got_floats == want_floats


@pytest.mark.parametrize("mode", MODES)
def test_unsigned_bound_and_signed_start(mode):
    """A loop whose C comparison fails at once launches nothing, however its trip count
    would wrap: -1 < 5u is false in C.  OpenMP counts a parallel loop in its iterator's type
    (6 iterations here), so the openmp backend makes C's first test before the loop."""
    assert run_host(mode, "unsigned u = 5; int h = 1;", outer="h",
                    inner="1")[:2] == (1, 1)
    src = ("@kernel void k(int *cnt, const unsigned int n, const int s) { unsigned u = 5;\n"
           "  for (int i = -1; i < u; ++i; @outer) { for (int j = 0; j < 1; ++j; @inner) {"
           " @atomic cnt[0] += 1; } }\n"
           "  for (int i = s; i < n; ++i; @outer) { for (int j = 0; j < 1; ++j; @inner) {"
           " @atomic cnt[1] += 1; } }\n"
           "  for (long i = s; i < n + 2; i += 2; @outer) { for (int j = 0; j < 1; ++j; "
           "@inner) { @atomic cnt[2] += 1; } } }")
    dev = device(mode)
    kernel = dev.build_kernel_from_string(src, "k")
    for start, want in ((-1, [0, 0, 4]), (2, [0, 3, 3])):
        cnt = dev.asarray(np.zeros(3, np.int32))
        kernel(cnt, np.uint32(5), np.int32(start))
        assert list(cnt.get()) == want, start


def test_constant_loop_compares_in_c_types():
    """A constant loop is counted in the type C compares in: -1 < 5u never holds, so the
    loop is empty (an error, as every statically empty loop), not 6 iterations."""
    with pytest.raises(okl.TranslationError, match="runs 0 times"):
        okl.translate("@kernel void k(int *x) { for (int i = -1; i < 5u; ++i; @outer) "
                      "for (int j = 0; j < 1; ++j; @inner) x[0] = i; }", "serial")
    program = okl.analyze("@kernel void k(int *x) { for (int i = -1; i < 5l; ++i; @outer) "
                          "for (int j = 0; j < 2u; ++j; @inner) x[0] = i; }")
    outer = program.kernels[0].outers[0]
    assert (outer.trip_value, outer.children[0].trip_value) == (6, 2)


@pytest.mark.parametrize("what", ["N / 0", "N % (N - 7)", "1 << (N + 40)"])
def test_undefined_behaviour_names_the_line(what):
    """The C backends would trap or compute garbage; the Python host path refuses the
    launch and says where (not run on serial: a division by zero kills the process)."""
    src = (f"@kernel void k(const int N, int *out) {{\n  int h = 1;\n  int bad = {what};\n"
           "  for (int i = 0; i < h; ++i; @outer) { for (int j = 0; j < 1; ++j; @inner) {"
           " out[0] = bad; } } }")
    spec = specs_of(okl.translate(src, "opencl", filename="ub.okl"))[0]
    with pytest.raises(okl.LaunchError, match=r"ub\.okl:3:.*host code cannot run"):
        host_launches(spec, [7, None])


# -- the differential test ----------------------------------------------------------------------

INT_TYPES = ["char", "signed char", "unsigned char", "short", "unsigned short", "int",
             "unsigned", "long", "unsigned long", "long long", "unsigned long long", "_Bool",
             "int8_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "size_t",
             "ptrdiff_t", "bool"]
TYPES = INT_TYPES + ["float", "double", "float", "double"]
ARGS = [("pi", "int"), ("pu", "unsigned"), ("pl", "long"), ("ps", "short"),
        ("pc", "char"), ("pd", "double"), ("pf", "float"), ("pq", "unsigned long long")]
_NARROW = {"char", "signed char", "unsigned char", "short", "unsigned short", "_Bool",
           "int8_t", "uint16_t", "bool"}
_UNSIGNED = {"unsigned char", "unsigned short", "unsigned", "unsigned long",
             "unsigned long long", "uint16_t", "uint32_t", "uint64_t", "size_t"}


class Snippets:
    """Random host code that C defines on x86-64 with gcc: no signed overflow (signed
    arithmetic only on narrow operands, the rest through unsigned types), divisors and
    shift counts kept in range, float-to-integer conversions of values in range."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.floats = {"pd", "pf"}  # variables of floating type

    def floating(self, e: str) -> bool:
        """Whether ``e`` may have a floating type (conservatively)."""
        words = set(re.findall(r"[A-Za-z_]\w*", e))
        return bool(words & (self.floats | {"float", "double"})) or \
            bool(re.search(r"\d\.|\.\d|\d[eE]|0x1\.|[pP]1", e))

    def literal(self, t: str) -> str:
        r = self.rng
        if t in ("float", "double"):
            return r.choice(["0.5", "1e30", "-2.75", "3.0f", "0x1.8p1", "1e999", "1e-40f",
                             "0.1", "0.1f", "-0.0", "123456789.0", "16777217.0"])
        return r.choice(["0", "1", "-1", "7", "-7", "255", "256", "65535", "-32768",
                         "2147483647", "-2147483647", "4294967295u", "0xffffffff",
                         "0x80000000", "9223372036854775807L", "18446744073709551615ull",
                         "017", "'a'", "'\\xff'", "'ab'", "'\\n'", "100000L", "3u"])

    def atom(self, names: list[tuple[str, str]]) -> tuple[str, str]:
        if self.rng.random() < 0.35 or not names:
            t = self.rng.choice(TYPES)
            return self.literal(t), "lit"
        return self.rng.choice(names)

    def expr(self, names, depth=0) -> str:
        """A well-defined expression of any type (the generator tracks float-ness only)."""
        r = self.rng
        if depth >= 2 or r.random() < 0.3:
            return self.atom(names)[0]
        a, b = self.expr(names, depth + 1), self.expr(names, depth + 1)
        u = r.choice(["unsigned", "unsigned long", "unsigned char", "unsigned short",
                      "size_t"])
        n = r.choice(["short", "char", "unsigned char", "_Bool"])
        kind = r.randrange(11)
        if kind == 0:  # unsigned arithmetic wraps
            return f"(({u})({self.integer(a)}) {r.choice('+-*')} ({u})({self.integer(b)}))"
        if kind == 1:  # narrow operands cannot overflow int
            return f"(({n})({self.integer(a)}) {r.choice('+-*')} ({n})({self.integer(b)}))"
        if kind == 2:  # floating point
            t = r.choice(["float", "double"])
            return f"(({t})({a}) {r.choice('+-*/')} ({t})({b}))"
        if kind == 3:
            return f"({a} {r.choice(['<', '<=', '>', '>=', '==', '!=', '&&', '||'])} {b})"
        if kind == 4:
            return f"({self.integer(a)} {r.choice('&|^')} {self.integer(b)})"
        if kind == 5:  # division and modulo by 1..8
            return f"({self.integer(a)} {r.choice('/%')} (({self.integer(b)} & 7) + 1))"
        if kind == 6:
            return f"(({u})({self.integer(a)}) << ({self.integer(b)} & 15))"
        if kind == 7:
            return f"({self.integer(a)} >> ({self.integer(b)} & 15))"
        if kind == 8:
            return f"({a} ? {b} : {self.expr(names, depth + 1)})"
        if kind == 9:
            return f"({r.choice(['!', '~(' + u + ')', '-(' + n + ')', '-(' + u + ')'])}" \
                   f"({self.integer(a)}))"
        return f"(({r.choice(TYPES)})({self.integer(a)}))"

    def integer(self, e: str) -> str:
        """``e`` as an integer in a way C defines: floats are clamped before converting (fmin
        and fmax also turn NaN into a number)."""
        t = self.rng.choice(["int", "long", "short", "unsigned char", "signed char"])
        low = "0.0" if t.startswith("unsigned") else "-99.5"
        return f"(({t})fmax(fmin({e}, 99.5), {low}))" if self.floating(e) else e

    def assignment(self, name: str, t: str, names) -> str:
        r = self.rng
        e = self.expr(names)
        if t in ("float", "double"):
            return f"{name} {r.choice(['=', '+=', '-=', '*=', '/='])} {e};"
        safe = t in _NARROW or t in _UNSIGNED
        op = r.choice(["=", "&=", "|=", "^=", "/=", "%=", "<<=", ">>="] +
                      (["+=", "-=", "*=", "++", "--"] if safe else []))
        if op in ("++", "--"):
            return r.choice([f"{op}{name};", f"{name}{op};"])
        if op in ("/=", "%="):
            return f"{name} {op} (({self.integer(e)} & 7) + 1);"
        if op in ("<<=", ">>="):
            return f"{name} {op} ({self.integer(e)} & 7);" if t in _UNSIGNED or op == ">>=" \
                else f"{name} = {self.integer(e)};"
        return f"{name} {op} {self.integer(e) if op != '=' else e};"

    def snippet(self, k: int) -> tuple[str, list[tuple[str, str]]]:
        """One block: variables, statements, then a launch sized from them."""
        r = self.rng
        names = list(ARGS)
        lines = []
        for v in range(r.randrange(2, 6)):
            t = r.choice(TYPES)
            init = self.expr(names)
            if t not in ("float", "double"):
                init = self.integer(init)
            name = f"s{k}_{v}"
            if t in ("float", "double"):
                self.floats.add(name)
            lines.append(f"{t} {name} = {init};")
            names.append((name, t))
        own = names[len(ARGS):]
        for _ in range(r.randrange(1, 5)):
            name, t = r.choice(own)
            stmt = self.assignment(name, t, names)
            if r.random() < 0.4:
                stmt = f"if ({self.expr(names)}) {{ {stmt} }} else {{ " \
                       f"{self.assignment(name, t, names)} }}"
            lines.append(stmt)
        it = r.choice(INT_TYPES[:-3] if r.random() < 0.5 else ["int"])
        bt = r.choice(INT_TYPES[:-3])
        start = 0 if it in _UNSIGNED or bt in _UNSIGNED or "bool" in it.lower() or \
            "Bool" in bt or "bool" in bt else r.randrange(-2, 3)
        if "Bool" in it or it == "bool":
            it = "int"
        pick = self.integer(self.expr(names))
        lines.append(f"{bt} b{k} = {start} + (int)((unsigned)({pick}) % 5u);")
        lines.append(f"int w{k} = 1 + (int)((unsigned)({self.integer(self.expr(names))}) % 4u);")
        stores = "".join(f"iv[{k * 8 + m}] = (long)({n});" if t not in ("float", "double")
                         else f"fv[{k * 8 + m}] = (double)({n});"
                         for m, (n, t) in enumerate(own))
        lines.append(f"for ({it} i = {start}; i < b{k}; ++i; @outer) {{ "
                     f"for (int j = 0; j < w{k}; ++j; @inner) {{ "
                     f"cnt[{k * 32} + (int)(i - {start}) * 4 + j] = 1; "
                     f"if (i == {start} && j == 0) {{ {stores} }} }} }}")
        return "{\n  " + "\n  ".join(lines) + "\n}", own


def fuzz_kernel(rng: random.Random, count: int) -> tuple[str, list]:
    gen = Snippets(rng)
    blocks, owns = [], []
    for k in range(count):
        block, own = gen.snippet(k)
        blocks.append(block)
        owns.append(own)
    args = ", ".join(f"const {t} {n}" for n, t in ARGS)
    src = (f"@kernel void fuzz({args}, long *iv, double *fv, int *cnt) {{\n"
           + "\n".join(blocks) + "\n}\n")
    return src, owns


def _same_float(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or \
        struct.pack("d", a) == struct.pack("d", b)


def _argument_values(rng: random.Random) -> list:
    return [rng.choice([0, 3, -5, 2147483647, -2147483648]),
            rng.choice([0, 1, 4294967295, 2147483648]),
            rng.choice([0, -1, 9223372036854775807, 123456789012]),
            rng.choice([0, -32768, 32767, 300]), rng.choice([0, -128, 127, 65]),
            rng.choice([0.0, -1.5, 1e300, 2.5e-310, 0.1]),
            float(np.float32(rng.choice([0.0, 3.25, -1e30, 0.1]))),
            rng.choice([0, 18446744073709551615, 1 << 63])]


def test_differential_host_code():
    """Hundreds of random snippets (OKL_HOST_FUZZ_ITERATIONS, default 200; seed
    OKL_HOST_FUZZ_SEED, else fixed): launches and captured values of the Python host path
    equal the compiled C of serial mode (built with -ffp-contract=off: gcc would otherwise
    fuse a*b+c in host code, which no other mode does)."""
    total = int(os.environ.get("OKL_HOST_FUZZ_ITERATIONS", "200"))
    seed = int(os.environ.get("OKL_HOST_FUZZ_SEED", "20240611"))
    print(f"host fuzz: seed {seed}, {total} snippets")
    rng = random.Random(seed)
    per_kernel = 30
    serial = okl.Device("serial", compiler_flags="-O2 -ffp-contract=off")
    start, done = time.perf_counter(), 0
    while done < total:
        count = min(per_kernel, total - done)
        src, owns = fuzz_kernel(rng, count)
        values = _argument_values(rng)
        dtypes = [np.int32, np.uint32, np.int64, np.int16, np.int8, np.float64, np.float32,
                  np.uint64]
        iv, fv = np.zeros(8 * count, np.int64), np.zeros(8 * count)
        cnt = np.zeros(32 * count, np.int32)
        scalars = [dt(v) for dt, v in zip(dtypes, values, strict=True)]
        serial.build_kernel_from_string(src, "fuzz")(*scalars, iv, fv, cnt)
        spec = specs_of(okl.translate(src, "opencl"))[0]
        launches = {k: (outer, inner, cap) for k, outer, inner, cap in
                    host_launches(spec, [*(s.item() for s in scalars), None, None, None])}
        for k in range(count):
            ran = cnt[32 * k:32 * (k + 1)].reshape(8, 4)
            where = f"seed {seed}, snippet {done + k}:\n{src.split(chr(10) + '{')[k + 1]}"
            got = launches.get(k)
            shape = (int(ran.any(axis=1).sum()), int(ran.any(axis=0).sum()))
            assert ((got[0][0], got[1][0]) if got else (0, 0)) == shape, where
            if got is None:
                continue
            for m, (name, t) in enumerate(owns[k]):
                value = got[2][name]
                if t in ("float", "double"):
                    assert _same_float(float(value), fv[k * 8 + m]), f"{name}: {where}"
                else:
                    assert np.int64(np.uint64(value % (1 << 64))) == iv[k * 8 + m], \
                        f"{name}: {where}"
        done += count
    print(f"host fuzz: {total} snippets in {time.perf_counter() - start:.1f} s")
