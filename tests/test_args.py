"""Launch argument checks: exact conversions, every rejection, and the shape of the messages."""

from __future__ import annotations

import ctypes
import enum
import math
import struct
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import okl
from okl.errors import ArgumentError
from okl.runtime.launch.args import (
    ArrayInfo,
    bind_args,
    check_array,
    check_count,
    convert_scalar,
    make_converters,
)


@dataclass
class P:
    """Stand-in for the kernel model's parameter."""

    name: str
    c_type: str
    dtype: np.dtype | None
    is_pointer: bool = False
    is_const: bool = False


C_TYPES = {
    "char": np.int8, "unsigned char": np.uint8, "short": np.int16, "unsigned short": np.uint16,
    "int": np.int32, "unsigned int": np.uint32, "long": np.int64, "unsigned long": np.uint64,
    "float": np.float32, "double": np.float64, "_Bool": np.bool_, "half": np.float16,
}


def scalar(c_type: str, name: str = "v") -> P:
    return P(name, c_type, np.dtype(C_TYPES[c_type]))


def pointer(c_type: str, name: str = "x", dtype=None) -> P:
    base = c_type.replace("const", "").replace("*", "").strip()
    if dtype is None and base != "void":
        dtype = np.dtype(C_TYPES[base])
    return P(name, c_type, dtype, is_pointer=True, is_const=c_type.startswith("const"))


KERNEL = "k"
INDEX = 2


def via_function(value, param):
    return convert_scalar(value, param, INDEX, KERNEL)


def via_converter(value, param):
    params = [scalar("int", "first"), param]  # the parameter is argument 2 here too
    return make_converters(params, KERNEL)[INDEX - 1](value)


@pytest.fixture(params=[via_function, via_converter], ids=["convert_scalar", "make_converters"])
def convert(request):
    """Every scalar rule is checked through both entry points, so the converters' fast paths
    cannot drift from convert_scalar."""
    return request.param


def assert_message(exc: ArgumentError, param: P, got: str, index: int = INDEX):
    text = str(exc)
    assert isinstance(exc, TypeError)
    prefix = f"kernel {KERNEL!r} argument {index} {param.name!r} ({param.c_type}): got "
    assert text.startswith(prefix), text
    assert got in text.split(" — ")[0], text
    assert " — " in text and text.split(" — ", 1)[1].strip(), text  # says what to do


# -- scalars: allowed conversions are bit-exact -----------------------------------------------

class Colour(enum.IntEnum):
    RED = 7


ACCEPTED = [
    # (value, C type, expected bytes)
    (2**63 - 1, "long", struct.pack("<q", 2**63 - 1)),
    (-(2**63), "long", struct.pack("<q", -(2**63))),
    (-1, "int", b"\xff\xff\xff\xff"),
    (2**31 - 1, "int", struct.pack("<i", 2**31 - 1)),
    (-(2**31), "int", struct.pack("<i", -(2**31))),
    (2**32 - 1, "unsigned int", b"\xff\xff\xff\xff"),
    (2**64 - 1, "unsigned long", b"\xff" * 8),
    (0, "unsigned long", b"\0" * 8),
    (255, "unsigned char", b"\xff"),
    (-128, "char", b"\x80"),
    (-32768, "short", struct.pack("<h", -32768)),
    (65535, "unsigned short", b"\xff\xff"),
    (Colour.RED, "int", struct.pack("<i", 7)),
    (True, "_Bool", b"\x01"),
    (False, "_Bool", b"\x00"),
    (True, "int", struct.pack("<i", 1)),
    (True, "unsigned char", b"\x01"),
    (0.1, "double", struct.pack("<d", 0.1)),
    (-0.0, "double", struct.pack("<d", -0.0)),
    (0.1, "float", struct.pack("<f", 0.1)),  # rounded like a C literal
    (1e-45, "float", struct.pack("<f", 1e-45)),  # a subnormal
    (3.4028234663852886e38, "float", struct.pack("<f", 3.4028234663852886e38)),
    (math.inf, "float", struct.pack("<f", math.inf)),
    (-math.inf, "double", struct.pack("<d", -math.inf)),
    (0.5, "half", np.float16(0.5).tobytes()),
    (2, "float", struct.pack("<f", 2.0)),  # an exactly representable int
    (2**24, "float", struct.pack("<f", 2.0**24)),
    (2**53, "double", struct.pack("<d", 2.0**53)),
    (-(2**1023), "double", struct.pack("<d", -(2.0**1023))),
    (np.float32(0.1), "float", np.float32(0.1).tobytes()),
    (np.float64(0.1), "double", struct.pack("<d", 0.1)),
    (np.int32(-5), "int", struct.pack("<i", -5)),
    (np.int64(2**63 - 1), "long", struct.pack("<q", 2**63 - 1)),
    (np.longlong(5), "long", struct.pack("<q", 5)),  # same dtype, another scalar type
    (np.uint64(2**64 - 1), "unsigned long", b"\xff" * 8),
    (np.bool_(True), "_Bool", b"\x01"),
    # other numpy dtypes: same kind and exactly representable
    (np.float64(0.5), "float", struct.pack("<f", 0.5)),
    (np.float32(0.1), "double", struct.pack("<d", float(np.float32(0.1)))),
    (np.float16(0.1), "float", np.float32(np.float16(0.1)).tobytes()),
    (np.int16(-5), "int", struct.pack("<i", -5)),
    (np.int64(7), "int", struct.pack("<i", 7)),
    (np.int64(-(2**31)), "int", struct.pack("<i", -(2**31))),
    (np.uint8(200), "int", struct.pack("<i", 200)),
    (np.uint32(2**32 - 1), "long", struct.pack("<q", 2**32 - 1)),
    (np.uint64(5), "long", struct.pack("<q", 5)),
    (np.int32(3), "float", struct.pack("<f", 3.0)),
    (np.int64(2**53), "double", struct.pack("<d", 2.0**53)),
    (np.bool_(True), "int", struct.pack("<i", 1)),
    # 0-d arrays count as numpy scalars
    (np.array(5, np.int32), "int", struct.pack("<i", 5)),
    (np.array(5, ">i4"), "int", struct.pack("<i", 5)),
    (np.array(0.25, np.float64), "float", struct.pack("<f", 0.25)),
]


@pytest.mark.parametrize("value,c_type,expected", ACCEPTED,
                         ids=[f"{type(v).__name__}({v!r})->{t}" for v, t, _ in ACCEPTED])
def test_accepted_conversions_are_bit_exact(convert, value, c_type, expected):
    param = scalar(c_type)
    out = convert(value, param)
    assert isinstance(out, np.ndarray)
    assert out.shape == () and out.dtype == param.dtype
    assert out.dtype.isnative and out.flags.c_contiguous
    assert out.tobytes() == expected.ljust(out.dtype.itemsize, b"\0")
    assert out.ctypes.data != 0


@pytest.mark.parametrize("value,c_type", [(math.nan, "float"), (np.float64(math.nan), "float"),
                                          (np.float32(math.nan), "double"), (math.nan, "half")])
def test_nan_passes(convert, value, c_type):
    assert math.isnan(convert(value, scalar(c_type))[()])


def test_result_is_a_fresh_array(convert):
    """Launches may be asynchronous, so a converter must never hand out a shared buffer."""
    a = convert(1, scalar("int"))
    b = convert(2, scalar("int"))
    assert a[()] == 1 and b[()] == 2
    assert not np.shares_memory(a, b)


# -- scalars: every mismatch raises with a full message ---------------------------------------

REJECTED = [
    # (value, C type, what the message must say was received)
    (3e9, "int", "float 3000000000.0"),
    (3_000_000_000, "int", "int 3000000000"),
    (2**31, "int", "int 2147483648"),
    (-(2**31) - 1, "int", "int -2147483649"),
    (-1, "unsigned int", "int -1"),
    (2**32, "unsigned int", "int 4294967296"),
    (2**63, "long", "int 9223372036854775808"),
    (-(2**63) - 1, "long", "int -9223372036854775809"),
    (2**64, "unsigned long", "int 18446744073709551616"),
    (-1, "unsigned long", "int -1"),
    (256, "unsigned char", "int 256"),
    (-129, "char", "int -129"),
    (10**400, "double", "int 1000000000"),
    (2**24 + 1, "float", "int 16777217"),
    (2**53 + 1, "double", "int 9007199254740993"),
    (70000, "half", "int 70000"),
    # a float for an integer parameter, even an integral one
    (2.0, "int", "float 2.0"),
    (0.0, "unsigned char", "float 0.0"),
    (1.5, "long", "float 1.5"),
    (np.float64(2.0), "int", "numpy.float64 2.0"),
    (np.float32(1.0), "long", "numpy.float32 1.0"),
    (np.float16(1.0), "short", "numpy.float16 1.0"),
    # bools
    (1, "_Bool", "int 1"),
    (0, "_Bool", "int 0"),
    (1.0, "_Bool", "float 1.0"),
    (np.int32(1), "_Bool", "numpy.int32 1"),
    (True, "float", "bool True"),
    (False, "double", "bool False"),
    # floats out of range or not exact
    (1e300, "float", "float 1e+300"),
    (-1e39, "float", "float -1e+39"),
    (1e5, "half", "float 100000.0"),
    (np.float64(0.1), "float", "numpy.float64 0.1"),
    (np.float64(1e300), "float", "numpy.float64 1e+300"),
    (np.float64(0.1), "half", "numpy.float64 0.1"),
    (np.float32(0.1), "half", "numpy.float32 0.1"),
    # numpy integers out of range or of the wrong kind
    (np.int64(2**40), "int", "numpy.int64 1099511627776"),
    (np.int64(-1), "unsigned long", "numpy.int64 -1"),
    (np.int32(5), "unsigned int", "numpy.int32 5"),  # signed -> unsigned is not "same_kind"
    (np.uint64(2**63), "long", "numpy.uint64 9223372036854775808"),
    (np.uint16(300), "unsigned char", "numpy.uint16 300"),
    (np.int32(2**24 + 1), "float", "numpy.int32 16777217"),
    (np.int64(2**53 + 1), "double", "numpy.int64 9007199254740993"),
    (np.complex64(1), "float", "numpy.complex64"),
    (np.array(1.5), "int", "numpy.float64 1.5"),
    # things that are not numbers at all
    (complex(1, 2), "double", "complex"),
    ("3", "int", "str"),
    (b"3", "int", "bytes"),
    (None, "int", "None"),
    ([1], "int", "list of 1 item"),
    ((1,), "float", "tuple of 1 item"),
    (np.array([1], np.int32), "int", "numpy.ndarray of int32 with shape (1,)"),
    (np.zeros(3, np.float32), "float", "numpy.ndarray of float32 with shape (3,)"),
    (Decimal("1"), "double", "decimal.Decimal"),
    (Fraction(1, 2), "double", "fractions.Fraction"),
    (object(), "long", "object"),
]


@pytest.mark.parametrize("value,c_type,got", REJECTED,
                         ids=[f"{type(v).__name__}->{t}" for v, t, _ in REJECTED])
def test_rejected_conversions(convert, value, c_type, got):
    param = scalar(c_type, "alpha")
    with pytest.raises(ArgumentError) as e:
        convert(value, param)
    assert_message(e.value, param, got)


def test_documented_example_message():
    param = P("alpha", "float", np.dtype(np.float32))
    with pytest.raises(ArgumentError) as e:
        convert_scalar(np.float64(0.1), param, 3, "axpy")
    text = str(e.value)
    assert text.startswith("kernel 'axpy' argument 3 'alpha' (float): got numpy.float64")
    assert text.endswith("— pass numpy.float32(x) or a Python float")


@pytest.mark.parametrize("value,words", [
    (3_000_000_000, "out of range"), (2.0, "never converted"), (2**24 + 1, "exactly")])
def test_messages_say_why(value, words):
    c_type = "float" if value == 2**24 + 1 else "int"
    with pytest.raises(ArgumentError, match=words):
        convert_scalar(value, scalar(c_type), 1, KERNEL)


def test_no_overflow_warnings(convert, recwarn):
    for value, c_type in [(1e300, "float"), (np.float64(1e300), "float"), (10**400, "double"),
                          (1e5, "half"), (np.float64(-1e39), "float")]:
        with pytest.raises(ArgumentError):
            convert(value, scalar(c_type))
    assert [str(w.message) for w in recwarn] == []


@pytest.mark.skipif(np.finfo(np.longdouble).nmant <= 52, reason="long double is double here")
def test_long_double_source(convert):
    """long double is wider than a Python float, so it is compared in its own precision."""
    assert convert(np.longdouble(0.5), scalar("float")).tobytes() == struct.pack("<f", 0.5)
    assert convert(np.longdouble(0.1), scalar("double")).tobytes() == struct.pack(
        "<d", float(np.longdouble(0.1)))  # 0.1L is not 0.1: it cannot be held exactly
    for value, c_type, words in [
        (np.longdouble(1) + np.longdouble(2) ** -60, "double", "cannot hold exactly"),
        (np.longdouble(2) ** 2000, "double", "out of range"),
        (np.longdouble(1e39), "float", "out of range"),
    ]:
        param = scalar(c_type, "alpha")
        with pytest.raises(ArgumentError, match=words) as e:
            convert(value, param)
        assert_message(e.value, param, "numpy.longdouble")
    assert math.isnan(convert(np.longdouble("nan"), scalar("float"))[()])


def test_unknown_type(convert):
    param = P("p", "opaque_t", None)
    with pytest.raises(ArgumentError) as e:
        convert(1, param)
    assert_message(e.value, param, "int 1")


# -- structs ----------------------------------------------------------------------------------

class CInner(ctypes.Structure):
    _fields_ = [("a", ctypes.c_char), ("b", ctypes.c_double)]


class CParams(ctypes.Structure):
    _fields_ = [("c", ctypes.c_int8), ("d", ctypes.c_double), ("i", ctypes.c_int32),
                ("v", ctypes.c_float * 3), ("s", ctypes.c_int16), ("inner", CInner),
                ("n", ctypes.c_uint64)]


INNER = np.dtype([("a", np.int8), ("b", np.float64)], align=True)
PARAMS = np.dtype([("c", np.int8), ("d", np.float64), ("i", np.int32), ("v", np.float32, (3,)),
                   ("s", np.int16), ("inner", INNER), ("n", np.uint64)], align=True)
VALUES = {"c": -3, "d": 0.1, "i": -7, "v": [1.5, 2.5, 0.1], "s": 300,
          "inner": {"a": 65, "b": 2.25}, "n": 2**64 - 1}


def struct_param():
    return P("p", "params_t", PARAMS)


def c_params() -> CParams:
    c = CParams()
    c.c, c.d, c.i, c.s, c.n = -3, 0.1, -7, 300, 2**64 - 1
    c.v[:] = [1.5, 2.5, 0.1]
    c.inner.a, c.inner.b = b"A", 2.25
    return c


def numpy_params(dtype=PARAMS) -> np.ndarray:
    a = np.zeros((), dtype)
    for name in ("c", "d", "i", "v", "s", "n"):
        a[name] = VALUES[name]
    a["inner"]["a"], a["inner"]["b"] = 65, 2.25
    return a


def test_aligned_dtype_matches_c_layout():
    """numpy's align=True reproduces the C compiler's struct layout (ctypes as the witness)."""
    assert PARAMS.itemsize == ctypes.sizeof(CParams)
    for name, _ in CParams._fields_:
        assert PARAMS.fields[name][1] == getattr(CParams, name).offset, name


@pytest.mark.parametrize("make", [
    lambda: numpy_params()[()],  # numpy.void scalar
    lambda: numpy_params(),  # 0-d array
    lambda: numpy_params().reshape(1),  # 1-element array
    lambda: np.frombuffer(bytes(c_params()), PARAMS)[0],
], ids=["void", "0-d", "1-element", "from-c-bytes"])
def test_struct_from_numpy_is_bit_exact(convert, make):
    value = make()
    out = convert(value, struct_param())
    assert out.shape == () and out.dtype == PARAMS
    assert out.tobytes() == bytes(c_params())


def test_struct_accepts_equivalent_dtype_spelled_differently(convert):
    """Same names, offsets and field types, written as an explicit offsets dict."""
    spelled = np.dtype({"names": list(PARAMS.names),
                        "formats": [PARAMS.fields[n][0] for n in PARAMS.names],
                        "offsets": [PARAMS.fields[n][1] for n in PARAMS.names],
                        "itemsize": PARAMS.itemsize})
    out = convert(numpy_params(spelled), struct_param())
    assert out.dtype == PARAMS and out.tobytes() == bytes(c_params())


@pytest.mark.parametrize("value", [
    VALUES,
    dict(reversed(list(VALUES.items()))),  # key order does not matter
    {**VALUES, "v": np.array([1.5, 2.5, 0.1], np.float64)[:3].astype(np.float32),
     "inner": (65, 2.25)},
    (-3, 0.1, -7, (1.5, 2.5, 0.1), 300, (65, 2.25), 2**64 - 1),
    (np.int8(-3), np.float64(0.1), np.int16(-7), [1.5, 2.5, 0.1], np.int16(300),
     {"a": np.uint8(65), "b": np.float32(2.25)}, np.uint64(2**64 - 1)),
], ids=["dict", "dict-reordered", "dict-mixed", "tuple", "tuple-numpy"])
def test_struct_from_fields_is_bit_exact(convert, value):
    out = convert(value, struct_param())
    assert out.dtype == PARAMS
    assert out.tobytes() == bytes(c_params())


STRUCT_REJECTED = [
    # (value, what the message must contain)
    (numpy_params(np.dtype([
        ("c", np.int8), ("d", np.float64), ("i", np.int32), ("v", np.float32, (3,)),
        ("s", np.int16), ("inner", INNER), ("n", np.uint64)]))[()],  # align=False: packed
     "numpy.void whose size is 51 bytes, the C struct's is 64"),
    (np.zeros((), {"names": list(PARAMS.names),
                   "formats": [PARAMS.fields[n][0] for n in PARAMS.names],
                   "offsets": [0, 4, 16, 20, 32, 40, 56], "itemsize": PARAMS.itemsize}),
     "field 'd' is at offset 4, the C struct has it at 8"),
    (np.zeros((), {"names": list(PARAMS.names),
                   "formats": [PARAMS.fields[n][0] for n in PARAMS.names],
                   "offsets": [PARAMS.fields[n][1] for n in PARAMS.names], "itemsize": 72}),
     "size is 72 bytes, the C struct's is 64"),
    (np.zeros((), {"names": ["c", "d", "i", "v", "s", "inner", "m"],
                   "formats": [PARAMS.fields[n][0] for n in PARAMS.names],
                   "offsets": [PARAMS.fields[n][1] for n in PARAMS.names], "itemsize": 64}),
     "field 'n' is missing"),
    (np.zeros((), {"names": ["c", "d", "i", "v", "s", "inner", "n", "x"],
                   "formats": [PARAMS.fields[n][0] for n in PARAMS.names] + [np.int8],
                   "offsets": [PARAMS.fields[n][1] for n in PARAMS.names] + [63],
                   "itemsize": 64}),
     "field 'x' is not in the C struct"),
    (np.zeros((), {"names": list(PARAMS.names),
                   "formats": [np.int8, np.float64, np.float32, (np.float32, 3), np.int16,
                               INNER, np.uint64],
                   "offsets": [PARAMS.fields[n][1] for n in PARAMS.names], "itemsize": 64}),
     "field 'i' is float32, the C struct has int32"),
    (np.zeros((), {"names": list(PARAMS.names),
                   "formats": [np.int8, np.float64, np.int32, (np.float32, 3), np.int16,
                               INNER, ">u8"],
                   "offsets": [PARAMS.fields[n][1] for n in PARAMS.names], "itemsize": 64}),
     "field 'n' is >u8"),
    (np.zeros((), {"names": list(PARAMS.names),
                   "formats": [np.int8, np.float64, np.int32, (np.float32, 2), np.int16,
                               INNER, np.uint64],
                   "offsets": [PARAMS.fields[n][1] for n in PARAMS.names], "itemsize": 64}),
     "field 'v' is"),
    (np.zeros((), {"names": list(PARAMS.names),
                   "formats": [np.int8, np.float64, np.int32, (np.float32, 3), np.int16,
                               np.dtype([("a", np.int8), ("b", np.float32)], align=True),
                               np.uint64],
                   "offsets": [PARAMS.fields[n][1] for n in PARAMS.names], "itemsize": 64}),
     "field 'inner' is 8 bytes, the C struct's is 16"),
    (np.zeros((), {"names": list(PARAMS.names),
                   "formats": [np.int8, np.float64, np.int32, (np.float32, 3), np.int16,
                               np.dtype({"names": ["a", "b"], "formats": [np.int8, np.int64],
                                         "offsets": [0, 8]}),
                               np.uint64],
                   "offsets": [PARAMS.fields[n][1] for n in PARAMS.names], "itemsize": 64}),
     "field 'inner.b' is int64, the C struct has float64"),
    (np.zeros(2, PARAMS), "shape (2,)"),
    (np.zeros((1, 1), PARAMS), "shape (1, 1)"),
    (np.zeros((), np.float64), "numpy.ndarray with shape () whose dtype is float64, not a"),
    (np.float64(1), "numpy.float64"),
    (np.zeros((), np.dtype((np.void, 64))), "dtype is void512, not a struct"),
    (np.zeros((), {"names": list(PARAMS.names),
                   "formats": [np.int8, np.float64, np.int32, (np.float32, 3), np.int16,
                               np.float64, np.uint64],
                   "offsets": [PARAMS.fields[n][1] for n in PARAMS.names], "itemsize": 64}),
     "field 'inner' is float64, not a struct"),
    ({**VALUES, "extra": 1}, "field 'extra'"),
    ({k: v for k, v in VALUES.items() if k != "s"}, "without field 's'"),
    ({**VALUES, "i": 1.0}, "float 1.0 for field 'i' (int32)"),
    ({**VALUES, "c": 128}, "int 128 for field 'c' (int8)"),
    ({**VALUES, "n": -1}, "int -1 for field 'n' (uint64)"),
    ({**VALUES, "d": "0.1"}, "str for field 'd' (float64)"),
    ({**VALUES, "v": [1.0, 2.0]}, "list of 2 items for field 'v' (float32[3])"),
    ({**VALUES, "v": np.zeros(3, np.float64) + 0.1}, "for field 'v'"),
    ({**VALUES, "v": np.zeros(4, np.float32)}, "shape (4,) for field 'v'"),
    ({**VALUES, "v": 1.0}, "float 1.0 for field 'v'"),
    ({**VALUES, "inner": {"a": 1.5, "b": 1.0}}, "float 1.5 for field 'inner.a' (int8)"),
    ({**VALUES, "inner": (1,)}, "tuple of 1 item for field 'inner'"),
    ((1, 2), "tuple of 2 items"),
    (list(VALUES.values()), "list of 7 items"),
    (5, "int 5"),
    (None, "None"),
]


@pytest.mark.parametrize("value,got", STRUCT_REJECTED,
                         ids=[f"{i}:{got[:30]}" for i, (_, got) in enumerate(STRUCT_REJECTED)])
def test_struct_rejections(convert, value, got):
    param = struct_param()
    with pytest.raises(ArgumentError) as e:
        convert(value, param)
    assert_message(e.value, param, got)


def test_struct_field_of_another_numpy_type_when_exact(convert):
    ok = {**VALUES, "inner": {"a": 65, "b": 2.25}, "v": [np.float64(1.5), 2.5, 0.1]}
    assert convert(ok, struct_param()).tobytes() == bytes(c_params())


# -- arrays -----------------------------------------------------------------------------------

def check(info, param, **where):
    check_array(info, param, INDEX, KERNEL, **where)


def test_array_info_from_numpy():
    a = np.zeros((4, 3), np.float32)
    assert ArrayInfo.from_numpy(a) == ArrayInfo(np.dtype(np.float32), True, False, "host", None,
                                                "numpy.ndarray")
    ro = a.T
    ro.flags.writeable = False
    info = ArrayInfo.from_numpy(ro)
    assert not info.c_contiguous and info.readonly
    assert ArrayInfo.from_numpy(np.zeros(2).view(np.recarray)).typename == "numpy.recarray"


@pytest.mark.parametrize("param,array,where", [
    (pointer("float *"), np.zeros(4, np.float32), {}),
    (pointer("const float *"), np.zeros(4, np.float32), {}),
    (pointer("const double *"), np.zeros((2, 3), np.float64), {}),
    (pointer("int *"), np.zeros(0, np.int32), {}),
    (pointer("long *"), np.zeros(3, np.longlong), {}),
    (pointer("void *"), np.zeros(4, np.complex128), {}),
    (pointer("const void *"), np.zeros(4, np.uint8), {}),
    (pointer("unsigned char *"), np.zeros((3, 4), np.uint8)[1], {}),  # a contiguous row
    (pointer("float *"), np.zeros((3, 1), np.float32)[:, 0], {}),  # contiguous despite strides
    (pointer("float *"), np.zeros(4, np.float32),
     {"expected_kind": "host", "expected_device": None}),
    (P("p", "params_t *", PARAMS, True, False), np.zeros(3, PARAMS), {}),
], ids=lambda x: getattr(x, "c_type", None))
def test_arrays_accepted(param, array, where):
    check(ArrayInfo.from_numpy(array), param, **where)
    conv = make_converters([param], KERNEL, **where)[0]
    assert conv(array) is array  # the object itself, for the backend to take its address


def test_readonly_array_into_const_pointer():
    a = np.zeros(4, np.float32)
    a.flags.writeable = False
    check(ArrayInfo.from_numpy(a), pointer("const float *"))


@pytest.mark.parametrize("param", [pointer("float *"), pointer("const void *"),
                                   scalar("int")], ids=["float*", "void*", "int"])
def test_null(param):
    if param.is_pointer:
        check(None, param)
        check(None, param, expected_kind="cuda", expected_device=0)
        assert make_converters([param], KERNEL, expected_kind="cuda")[0](okl.NULL) is None
        with pytest.raises(ArgumentError, match=r"argument 1 'x' \(.*\): got None — .*okl.NULL"):
            make_converters([param], KERNEL, expected_kind="cuda")[0](None)
    else:
        with pytest.raises(ArgumentError):  # NULL is only for pointers
            make_converters([param], KERNEL)[0](None)
        with pytest.raises(ArgumentError):
            make_converters([param], KERNEL)[0](okl.NULL)


def readonly(a):
    a.flags.writeable = False
    return a


ARRAY_REJECTED = [
    # (param, ArrayInfo, where the kernel runs, what the message says was received)
    (pointer("const float *"), ArrayInfo.from_numpy(np.zeros(4, np.float64)), {},
     "numpy.ndarray of float64"),
    (pointer("float *"), ArrayInfo.from_numpy(np.zeros(4, ">f4")), {},
     "numpy.ndarray of float32 (big-endian)"),
    (pointer("int *"), ArrayInfo.from_numpy(np.zeros(4, np.uint32)), {},
     "numpy.ndarray of uint32"),
    (pointer("long *"), ArrayInfo.from_numpy(np.zeros(4, np.int32)), {}, "of int32"),
    (pointer("float *"), ArrayInfo.from_numpy(readonly(np.zeros(4, np.float32))), {},
     "a read-only numpy.ndarray"),
    (pointer("void *"), ArrayInfo.from_numpy(readonly(np.zeros(4, np.uint8))), {},
     "a read-only numpy.ndarray"),
    (pointer("const float *"), ArrayInfo.from_numpy(np.zeros(8, np.float32)[::2]), {},
     "a non-contiguous numpy.ndarray"),
    (pointer("const float *"), ArrayInfo.from_numpy(np.zeros((3, 4), np.float32).T), {},
     "a non-contiguous numpy.ndarray"),
    (pointer("const float *"), ArrayInfo.from_numpy(np.asfortranarray(np.zeros((3, 4), "f4"))),
     {}, "non-contiguous"),
    (pointer("const float *"), ArrayInfo.from_numpy(np.zeros(4, np.float32)),
     {"expected_kind": "cuda", "expected_device": 0}, "a host numpy.ndarray"),
    (pointer("const float *"), ArrayInfo.from_numpy(np.zeros(4, np.float32)),
     {"expected_kind": "opencl"}, "a host numpy.ndarray"),
    (pointer("float *"), ArrayInfo(np.dtype("f4"), True, False, "cuda", 0, "cupy.ndarray"), {},
     "cupy.ndarray in cuda memory"),
    (pointer("float *"), ArrayInfo(np.dtype("f4"), True, False, "opencl", "ctx", "okl.Memory"),
     {"expected_kind": "cuda", "expected_device": 0}, "okl.Memory in opencl memory"),
    (pointer("float *"), ArrayInfo(np.dtype("f4"), True, False, "cuda", 1, "okl.Memory"),
     {"expected_kind": "cuda", "expected_device": 0}, "okl.Memory on device 1"),
    (P("p", "params_t *", PARAMS, True, False),
     ArrayInfo.from_numpy(np.zeros(3, [("c", "i1"), ("d", "f8")])), {}, "size is 9 bytes"),
    (P("p", "const params_t *", PARAMS, True, True),
     ArrayInfo.from_numpy(np.zeros(3, np.float64)), {}, "float64, not a struct"),
]


@pytest.mark.parametrize("param,info,where,got", ARRAY_REJECTED,
                         ids=[f"{i}:{got}" for i, (*_, got) in enumerate(ARRAY_REJECTED)])
def test_arrays_rejected(param, info, where, got):
    with pytest.raises(ArgumentError) as e:
        check(info, param, **where)
    assert_message(e.value, param, got)
    # the converter gives the same error for the same object
    with pytest.raises(ArgumentError) as e2:
        make_converters([scalar("int", "n"), param], KERNEL, **where)[1](info)
    assert str(e2.value) == str(e.value)


def test_array_info_dtype_may_be_dtype_like():
    check(ArrayInfo("f4", True, False), pointer("float *"))
    with pytest.raises(ArgumentError, match="of float64"):
        check(ArrayInfo("f8", True, False), pointer("float *"))


def test_host_array_on_gpu_hints_a_copy():
    with pytest.raises(ArgumentError, match=r"copy it first with dev\.asarray\(x\)"):
        check(ArrayInfo.from_numpy(np.zeros(4, np.float32)), pointer("const float *"),
              expected_kind="cuda", expected_device=0)


def test_dtype_hint_names_the_right_type():
    with pytest.raises(ArgumentError, match=r"x\.astype\(numpy\.float32\)"):
        check(ArrayInfo.from_numpy(np.zeros(4)), pointer("float *"))


def test_any_device_of_the_kind_when_no_device_is_expected():
    info = ArrayInfo(np.dtype("f4"), True, False, "cuda", 3, "okl.Memory")
    check(info, pointer("float *"), expected_kind="cuda", expected_device=None)
    check(info, pointer("float *"), expected_kind="cuda", expected_device=3)


@pytest.mark.parametrize("value,got", [
    (5, "int 5"), ([1.0, 2.0], "list of 2 items"), ("x", "str"), (np.float32(1), "numpy.float32"),
    (memoryview(b"abcd"), "memoryview")])
def test_pointer_rejects_non_arrays(value, got):
    param = pointer("const float *")
    with pytest.raises(ArgumentError) as e:
        make_converters([scalar("int", "n"), param], KERNEL)[1](value)
    assert_message(e.value, param, got)


class FakeDeviceMemory:
    def __init__(self, dtype, device, readonly=False):
        self.dtype, self.device, self.readonly = np.dtype(dtype), device, readonly


def describe_fake(obj):
    if isinstance(obj, FakeDeviceMemory):
        return ArrayInfo(obj.dtype, True, obj.readonly, "cuda", obj.device, "okl.Memory")
    if isinstance(obj, np.ndarray):
        return ArrayInfo.from_numpy(obj)
    return None


def test_backend_describe_hook():
    params = [pointer("const float *", "x"), pointer("float *", "y"), scalar("float", "a")]
    convs = make_converters(params, "axpy", expected_kind="cuda", expected_device=0,
                            describe=describe_fake)
    x, y = FakeDeviceMemory("f4", 0), FakeDeviceMemory("f4", 0)
    assert convs[0](x) is x and convs[1](y) is y
    assert convs[2](0.5).tobytes() == struct.pack("<f", 0.5)
    with pytest.raises(ArgumentError, match="argument 2 'y' .*on device 1"):
        convs[1](FakeDeviceMemory("f4", 1))
    with pytest.raises(ArgumentError, match="argument 2 'y' .*read-only"):
        convs[1](FakeDeviceMemory("f4", 0, readonly=True))
    assert convs[0](FakeDeviceMemory("f4", 0, readonly=True)) is not None
    with pytest.raises(ArgumentError, match="argument 1 'x' .*host numpy.ndarray.*dev.asarray"):
        convs[0](np.zeros(4, np.float32))


def test_reused_info_is_not_rechecked_but_others_are():
    """Backends may cache one ArrayInfo per memory object; the converter then skips the checks
    for that same object, while any other object is still checked in full."""
    good = ArrayInfo(np.dtype("f4"), True, False, "cuda", 0, "okl.Memory")
    bad = ArrayInfo(np.dtype("f8"), True, False, "cuda", 0, "okl.Memory")
    conv = make_converters([pointer("float *")], KERNEL, expected_kind="cuda",
                           expected_device=0, describe=lambda obj: obj)[0]
    assert conv(good) is good and conv(good) is good
    with pytest.raises(ArgumentError, match="of float64"):
        conv(bad)
    with pytest.raises(ArgumentError, match="of float64"):
        conv(bad)  # a failed check is never remembered
    assert conv(good) is good


# -- counts and binding -----------------------------------------------------------------------

AXPY = [scalar("int", "n"), pointer("const float *", "x"), pointer("float *", "y"),
        scalar("float", "alpha")]


def test_check_count():
    check_count((1, 2, 3, 4), AXPY, "axpy")
    for args in [(), (1, 2, 3), (1, 2, 3, 4, 5)]:
        with pytest.raises(ArgumentError) as e:
            check_count(args, AXPY, "axpy")
        text = str(e.value)
        assert f"kernel 'axpy' takes 4 arguments, got {len(args)}" in text
        assert "axpy(int n, const float *x, float *y, float alpha)" in text
    with pytest.raises(ArgumentError, match="takes 1 argument, got 0"):
        check_count([], AXPY[:1], "k")
    check_count([], [], "empty")


def test_bind_args():
    assert bind_args((1, 2, 3, 4), {}, AXPY, "axpy") == [1, 2, 3, 4]
    assert bind_args((), {"alpha": 4, "y": 3, "x": 2, "n": 1}, AXPY, "axpy") == [1, 2, 3, 4]
    assert bind_args((1, 2), {"alpha": 4, "y": 3}, AXPY, "axpy") == [1, 2, 3, 4]
    for args, kwargs, match in [
        ((1, 2), {"alpha": 4}, "missing argument 'y'"),
        ((1,), {"n": 1, "x": 2, "y": 3, "alpha": 4}, "argument 'n' twice"),
        ((), {"n": 1, "x": 2, "y": 3, "alpha": 4, "beta": 5}, "no parameter 'beta'"),
        ((1, 2, 3, 4, 5), {"alpha": 4}, "takes 4 arguments, got 5"),
        ((1, 2, 3), {}, "takes 4 arguments, got 3"),
    ]:
        with pytest.raises(ArgumentError, match=match):
            bind_args(args, kwargs, AXPY, "axpy")


def test_make_converters_positions_and_kinds():
    convs = make_converters(AXPY, "axpy")
    assert len(convs) == 4
    x, y = np.zeros(4, np.float32), np.zeros(4, np.float32)
    out = [c(a) for c, a in zip(convs, (4, x, y, 2.0), strict=True)]
    assert out[0].dtype == np.int32 and out[1] is x and out[2] is y and out[3].dtype == np.float32
    with pytest.raises(ArgumentError) as e:
        convs[3](np.float64(0.1))
    assert str(e.value).startswith("kernel 'axpy' argument 4 'alpha' (float): got numpy.float64")
    with pytest.raises(ArgumentError, match="kernel 'axpy' argument 2 'x' \\(const float \\*\\)"):
        convs[1](np.zeros(4, np.float64))


# -- properties over many values --------------------------------------------------------------

def test_integer_range_property():
    """For every integer type and values around its limits: accepted iff in range, and then the
    stored value equals the Python int exactly (no wrap-around, ever)."""
    rng = np.random.default_rng(0)
    for c_type in ["char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
                   "long", "unsigned long"]:
        param = scalar(c_type)
        info = np.iinfo(param.dtype)
        conv = make_converters([param], KERNEL)[0]
        edges = [info.min, info.max, 0]
        values = {e + d for e in edges for d in (-2, -1, 0, 1, 2)}
        values |= {int(v) for v in rng.integers(-(2**40), 2**40, 50)}
        values |= {int.from_bytes(rng.bytes(9), "little") - 2**71 for _ in range(50)}
        for v in sorted(values):
            if info.min <= v <= info.max:
                assert int(conv(v)[()]) == v
                assert int(convert_scalar(v, param, 1, KERNEL)[()]) == v
            else:
                with pytest.raises(ArgumentError, match="out of range"):
                    conv(v)


def test_float32_rounding_property():
    """A Python float into float rounds exactly like numpy.float32(x) (i.e. like C)."""
    rng = np.random.default_rng(1)
    conv = make_converters([scalar("float")], KERNEL)[0]
    for v in rng.standard_normal(200) * 10.0 ** rng.integers(-30, 30, 200):
        assert conv(float(v)).tobytes() == np.float32(v).tobytes()
        exact = np.float32(v)
        assert conv(np.float64(exact)).tobytes() == exact.tobytes()  # exact -> accepted


# -- arrays of vector types -------------------------------------------------------------------

def vector_pointer(name: str, const: bool = True) -> P:
    from okl.model.types import vector_descr
    from okl.parser.vectors import VECTOR_TYPES
    c_type = ("const " if const else "") + f"{name} *"
    return P("q", c_type, np.dtype(vector_descr(VECTOR_TYPES[name]), align=True), True, const)


@pytest.mark.parametrize("name,array", [
    ("double4", np.zeros((5, 4), np.float64)),  # the component type, 4 values per element
    ("double4", np.zeros(5, [("x", "f8"), ("y", "f8"), ("z", "f8"), ("w", "f8")])),
    ("float3", np.zeros(7 * 3, np.float32)),
    ("float3", np.zeros(7, [("x", "f4"), ("y", "f4"), ("z", "f4")])),
    ("uchar2", np.zeros((3, 2), np.uint8)),
    ("longlong2", np.zeros((3, 2), np.int64)),
])
def test_vector_arrays_accepted(name, array):
    param = vector_pointer(name)
    assert param.dtype.itemsize == {"double4": 32, "float3": 12, "uchar2": 2,
                                    "longlong2": 16}[name]
    check(ArrayInfo.from_numpy(array), param)


@pytest.mark.parametrize("name,array,got", [
    ("double4", np.zeros((5, 4), np.float32), "numpy.ndarray of float32"),
    ("float2", np.zeros(5, [("x", "f4"), ("z", "f4")]),
     "numpy.ndarray whose field 'y' is missing"),
    ("float2", np.zeros(5, [("x", "f8"), ("y", "f8")]),
     "numpy.ndarray whose size is 16 bytes, the C struct's is 8"),
    ("int4", np.zeros((2, 4), np.uint32), "numpy.ndarray of uint32"),
])
def test_vector_arrays_rejected_name_the_rule(name, array, got):
    param = vector_pointer(name)
    with pytest.raises(ArgumentError) as e:
        check(ArrayInfo.from_numpy(array), param)
    msg = str(e.value)
    component = param.dtype.fields["x"][0].name
    n = len(param.dtype.names)
    assert f"({param.c_type}): got {got}" in msg
    assert f"pass an array of numpy.{component}, {n} values per element, or of the dtype " \
           f"[('x', '{component}'), ('y', '{component}')" in msg
