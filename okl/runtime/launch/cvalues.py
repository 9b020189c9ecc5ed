"""C scalar types and their arithmetic, for host code that runs in Python.

The C backends compile host code; the GPU modes run it as generated Python
(:mod:`.hostcode`).  Both must give the same launch and the same captured values, so the
generated Python keeps every value in the range of its C type (LP64, x86-64 as gcc compiles
it): this module has the static side (the types, the usual arithmetic conversions, literal
values and types) and the small run-time helpers the generated code calls where plain
Python arithmetic differs from C (truncating division, C modulo, single precision,
float-to-integer conversion as the x86 instructions do it, undefined behaviour reported).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ...errors import LaunchError


@dataclass(frozen=True)
class CScalar:
    """An arithmetic C type: integers by width, signedness and conversion rank."""

    name: str
    bits: int
    signed: bool
    rank: int  # integer conversion rank (_Bool 0 ... long long 5); floats: 0
    floating: bool = False

    @property
    def lo(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def hi(self) -> int:
        if self.name == "_Bool":
            return 1
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1


BOOL = CScalar("_Bool", 8, False, 0)
SCHAR = CScalar("signed char", 8, True, 1)
UCHAR = CScalar("unsigned char", 8, False, 1)
SHORT = CScalar("short", 16, True, 2)
USHORT = CScalar("unsigned short", 16, False, 2)
INT = CScalar("int", 32, True, 3)
UINT = CScalar("unsigned int", 32, False, 3)
LONG = CScalar("long", 64, True, 4)
ULONG = CScalar("unsigned long", 64, False, 4)
LLONG = CScalar("long long", 64, True, 5)
ULLONG = CScalar("unsigned long long", 64, False, 5)
FLOAT = CScalar("float", 32, True, 0, floating=True)
DOUBLE = CScalar("double", 64, True, 0, floating=True)

_BY_NAME = {t.name: t for t in (BOOL, SCHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG,
                                LLONG, ULLONG, FLOAT, DOUBLE)}
_BY_NAME["char"] = SCHAR  # plain char is signed on x86-64
_UNSIGNED = {INT: UINT, LONG: ULONG, LLONG: ULLONG}


def scalar_type(base: str, dtype: np.dtype | None) -> CScalar | None:
    """The CScalar of a resolved C type (``CType.base`` after typedefs, and its dtype), or
    None for structs, vectors, pointers and types C host code cannot compute with."""
    if base in _BY_NAME:
        return _BY_NAME[base]
    words = base.split()
    if words and words[0] == "signed":
        words = words[1:] or ["int"]
    longs = words.count("long")
    unsigned = "unsigned" in words
    rest = [w for w in words if w not in ("long", "unsigned", "int")]
    if not rest and longs <= 2 and (longs or unsigned):
        return [UINT if unsigned else INT, ULONG if unsigned else LONG,
                ULLONG if unsigned else LLONG][longs]
    if dtype is not None and dtype.fields is None and dtype.kind in "iub":
        return {("b", 1): BOOL, ("i", 1): SCHAR, ("u", 1): UCHAR, ("i", 2): SHORT,
                ("u", 2): USHORT, ("i", 4): INT, ("u", 4): UINT, ("i", 8): LONG,
                ("u", 8): ULONG}.get((dtype.kind, dtype.itemsize))
    if dtype is not None and dtype.fields is None and dtype.kind == "f":
        return {4: FLOAT, 8: DOUBLE}.get(dtype.itemsize)
    return None


def promote(t: CScalar) -> CScalar:
    """Integer promotion: every type narrower than int becomes int."""
    return INT if not t.floating and t.rank < INT.rank else t


def common(a: CScalar, b: CScalar) -> CScalar:
    """The usual arithmetic conversions (C11 6.3.1.8)."""
    if a.floating or b.floating:
        return DOUBLE if DOUBLE in (a, b) else FLOAT
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.rank > b.rank else b
    u, s = (a, b) if b.signed else (b, a)
    if u.rank >= s.rank:
        return u
    if s.bits > u.bits:
        return s
    return _UNSIGNED[s]


# -- literals ---------------------------------------------------------------------------------

def int_literal(text: str) -> tuple[int, CScalar]:
    """Value and type of an integer constant (C11 6.4.4.1: the first type that holds it)."""
    body = text.rstrip("uUlL")
    suffix = text[len(body):].lower()
    if body[:2] in ("0x", "0X"):
        value, decimal = int(body[2:], 16), False
    elif body[:2] in ("0b", "0B"):
        value, decimal = int(body[2:], 2), False
    elif len(body) > 1 and body[0] == "0":
        value, decimal = int(body, 8), False
    else:
        value, decimal = int(body), True
    unsigned = "u" in suffix
    longs = suffix.count("l")
    if unsigned:
        order = [UINT, ULONG, ULLONG][min(longs, 2):]
    elif decimal:
        order = [INT, LONG, LLONG][min(longs, 2):]
    else:
        order = [INT, UINT, LONG, ULONG, LLONG, ULLONG][2 * min(longs, 2):]
    for t in order:
        if value <= t.hi:
            return value, t
    return value & ULLONG.hi, ULLONG  # too large for any type: gcc warns and keeps the bits


def float_literal(text: str) -> tuple[float, CScalar]:
    """Value and type of a floating constant, decimal or hexadecimal, rounded once to its
    type (as the C compiler does; a decimal constant is not rounded to double first)."""
    t = FLOAT if text[-1] in "fF" else DOUBLE
    body = text.rstrip("fFlL")
    if body[:2] in ("0x", "0X"):
        mantissa, _, exponent = body[2:].lower().partition("p")
        whole, _, frac = mantissa.partition(".")
        exact = Fraction(int(whole + frac or "0", 16), 16 ** len(frac)) * \
            Fraction(2) ** int(exponent or "0")
    else:
        exact = Fraction(body)
    return (round_double(exact) if t is DOUBLE else round_float(exact)), t


def round_double(x: Fraction) -> float:
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def round_float(x: Fraction) -> float:
    """``x`` rounded to the nearest single-precision value (ties to even), exactly."""
    d = round_double(x)
    f = f32(d)
    if not math.isfinite(f) or Fraction(f) == x:
        return f
    best = f
    for other in (float(np.nextafter(np.float32(f), np.float32(math.inf))),
                  float(np.nextafter(np.float32(f), np.float32(-math.inf)))):
        if not math.isfinite(other):
            continue
        gap, best_gap = abs(Fraction(other) - x), abs(Fraction(best) - x)
        if gap < best_gap or (gap == best_gap and
                              struct.unpack("<I", struct.pack("<f", other))[0] % 2 == 0):
            best = other
    return best


_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39,
            '"': 34, "?": 63, "e": 27}


def char_literal(text: str) -> tuple[int, CScalar]:
    """Value of a character constant as gcc gives it on x86-64: type int; one character is a
    (signed) char value, several are packed big-endian into the int (``'ab'`` is 24930)."""
    if text[0] != "'":
        raise ValueError(f"wide or Unicode character constant {text}")
    body, i = text[1:-1], 0
    chars: list[int] = []
    while i < len(body):
        c = body[i]
        if c != "\\":
            chars.extend(c.encode("utf-8"))
            i += 1
            continue
        e = body[i + 1]
        if e in _ESCAPES:
            chars.append(_ESCAPES[e])
            i += 2
        elif e in "01234567":
            j = i + 1
            while j < len(body) and j < i + 4 and body[j] in "01234567":
                j += 1
            chars.append(int(body[i + 1:j], 8) & 0xFF)
            i = j
        elif e == "x":
            j = i + 2
            while j < len(body) and body[j] in "0123456789abcdefABCDEF":
                j += 1
            chars.append(int(body[i + 2:j], 16) & 0xFF)
            i = j
        else:
            chars.append(ord(e))
            i += 2
    if len(chars) == 1:
        return wrap(chars[0], SCHAR), INT
    value = 0
    for byte in chars:
        value = (value << 8) | byte
    return wrap(value, INT), INT


def wrap(value: int, t: CScalar) -> int:
    """``value`` converted to integer type ``t`` (modulo 2**bits; _Bool: nonzero is 1)."""
    if t is BOOL:
        return 1 if value else 0
    if t.signed:
        half = 1 << (t.bits - 1)
        return ((value + half) & ((1 << t.bits) - 1)) - half
    return value & ((1 << t.bits) - 1)


def wrap_code(code: str, t: CScalar) -> str:
    """Python source that wraps the integer ``code`` into ``t`` (see :func:`wrap`)."""
    if t is BOOL:
        return f"(1 if {code} else 0)"
    mask = (1 << t.bits) - 1
    if t.signed:
        half = 1 << (t.bits - 1)
        return f"((({code}) + {half} & {mask}) - {half})"
    return f"(({code}) & {mask})"


# -- run-time helpers (called by generated host code) -----------------------------------------

class HostUB(LaunchError):
    """Undefined behaviour in host code (division by zero, a bad shift count): the C
    backends would compute garbage or trap, so every mode refuses the launch."""


_F32 = struct.Struct("f")


def f32(x: float) -> float:
    """Round a double to single precision (C's conversion to float; overflow gives inf)."""
    try:
        return _F32.unpack(_F32.pack(x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def i2f32(x: int) -> float:
    """An integer converted to float, rounded once (not through double)."""
    if -(1 << 53) <= x <= 1 << 53:
        return f32(float(x))
    return round_float(Fraction(x))


def _f2i(bits: int, signed: bool):
    """float -> integer type of ``bits``/``signed`` as gcc's x86-64 code does it: truncation;
    out of range (undefined in C) gives what cvttsd2si gives: the 'integer indefinite'
    value, narrowed; unsigned long takes gcc's two-step sequence."""
    indefinite32, indefinite64 = -(1 << 31), -(1 << 63)
    t = next(s for s in (SCHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG)
             if s.bits == bits and s.signed == signed)

    def cvt64(x: float) -> int:
        return int(x) if -9.223372036854775808e18 <= x < 9.223372036854775808e18 \
            else indefinite64

    if bits == 64 and not signed:
        def convert(x: float) -> int:
            if x < 9.223372036854775808e18:
                return cvt64(x) & 0xFFFFFFFFFFFFFFFF
            return (cvt64(x - 9.223372036854775808e18) ^ (1 << 63)) & 0xFFFFFFFFFFFFFFFF
    elif bits == 64 or (bits == 32 and not signed):
        def convert(x: float) -> int:
            return wrap(cvt64(x), t)
    else:
        def convert(x: float) -> int:
            v = int(x) if -2147483649.0 < x < 2147483648.0 else indefinite32
            return wrap(v, t)
    convert.__name__ = f"f2i_{'s' if signed else 'u'}{bits}"
    return convert


def f2i_name(t: CScalar) -> str:
    return f"_f2i_{'s' if t.signed else 'u'}{t.bits}"


def idiv(a: int, b: int) -> int:
    """C's ``/`` on integers: truncates toward zero; by zero is undefined behaviour."""
    if b == 0:
        raise HostUB("integer division by zero")
    q = a // b
    return q + 1 if q < 0 and q * b != a else q


def imod(a: int, b: int) -> int:
    """C's ``%``: the sign of the dividend; by zero is undefined behaviour."""
    if b == 0:
        raise HostUB("integer modulo by zero")
    r = a % b
    return r - b if r and (a < 0) != (b < 0) else r


def fdiv(a: float, b: float) -> float:
    """IEEE division (C Annex F): by zero gives an infinity or NaN, never an exception."""
    if b == 0.0:
        if a == 0.0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def shift_count(b: int, bits: int) -> int:
    """A shift count that C defines for a ``bits``-wide left operand."""
    if 0 <= b < bits:
        return b
    raise HostUB(f"shift count {b} is {'negative' if b < 0 else 'too large'} for a "
                 f"{bits}-bit operand")


def _math(name: str):
    """A libm function with C's results where Python's math module raises or differs
    (log(0) is -inf, sqrt(-1) is NaN, exp(1000) is inf, floor gives a double): numpy
    computes the few cases math refuses."""
    fast = getattr(math, name, None) or (lambda x: 2.0 ** x)  # exp2: Python < 3.11
    slow = getattr(np, {"pow": "power", "fabs": "abs"}.get(name, name))

    def call(*args: float) -> float:
        try:
            return float(fast(*args))
        except (ValueError, OverflowError, ZeroDivisionError):
            with np.errstate(all="ignore"):
                return float(slow(*args))
    call.__name__ = name
    return call


#: C math functions host code may call: the double versions; ``<name>f`` rounds to float
MATH_FUNCTIONS = ("sqrt", "exp", "log", "pow", "floor", "ceil", "fabs", "sin", "cos", "tan",
                  "log2", "log10", "exp2", "fmod", "trunc")

HELPERS: dict[str, object] = {
    "_idiv": idiv, "_imod": imod, "_fdiv": fdiv, "_f32": f32, "_i2f32": i2f32,
    "_shc": shift_count, "_inf": math.inf, "_nan": math.nan,
    **{f2i_name(t): _f2i(t.bits, t.signed) for t in (SCHAR, UCHAR, SHORT, USHORT, INT, UINT,
                                                      LONG, ULONG)},
    **{f"_m_{n}": _math(n) for n in MATH_FUNCTIONS},
}
