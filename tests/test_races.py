"""The race checker (``Device(mode, check_races=...)``): planted races of every class are
found at their .okl line with both accesses named; kernels that look racy but are not run
clean and give exactly the unchecked answer; every runnable golden kernel runs clean."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from modes import device, params, skip_unless_available
from runnable import CASES, case_id, load, okl_file

import okl
from okl.runtime.launch.races import Order, requested

CPU = params(("serial", "openmp"))
B, T = 4, 16  # blocks and threads of the planted kernels

_devices: dict[tuple, okl.Device] = {}


def checker(mode: str, order="ascending") -> okl.Device:
    key = (mode, order)
    if key not in _devices:
        skip_unless_available(mode)
        _devices[key] = okl.Device(mode, check_races=True if order == "ascending" else order)
    return _devices[key]


def run(dev: okl.Device, source: str, args: list, name: str = "k"):
    kernel = dev.build_kernel_from_string(source, name, filename="planted.okl")
    moved = [dev.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
    kernel(*moved)
    return [m.get() if isinstance(a, np.ndarray) else None
            for a, m in zip(args, moved, strict=True)]


def inputs():
    x = np.arange(B * T, dtype=np.float32) + 1
    return [B, x, np.zeros(B * T, np.float32)]


# -- planted races: (source, where this access is, where the other is, what the text says) --
NO_BARRIER = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner @nobarrier) {
      s[t] = x[b * 16 + t];
    }
    for (int t = 0; t < 16; ++t; @inner) {
      y[b * 16 + t] = s[15 - t];
    }
  }
}"""

NEIGHBOUR = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      s[t] = x[b * 16 + t];
      y[b * 16 + t] = s[(t + 1) % 16];
    }
  }
}"""

REDUCTION_MISSING_BARRIER = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      s[t] = x[b * 16 + t];
      @barrier;
      for (int w = 8; w > 0; w /= 2) {
        if (t < w) s[t] += s[t + w];
      }
      if (t == 0) y[b] = s[0];
    }
  }
}"""

GLOBAL_HANDOFF = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 16; ++t; @inner) {
      y[b * 16 + t] = 2 * x[b * 16 + t];
    }
    for (int t = 0; t < 16; ++t; @inner) {
      y[b * 16 + t] += y[b * 16 + (t + 1) % 16];
    }
  }
}"""

SUM_WITHOUT_ATOMIC = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 16; ++t; @inner) {
      if (t == 0) {
        y[0] += x[b * 16];
      }
    }
  }
}"""

OUTER_OVERLAP = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 16; ++t; @inner) {
      y[b * 8 + t] = x[b * 16 + t];
    }
  }
}"""

ATOMIC_AND_PLAIN = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 16; ++t; @inner) {
      @atomic y[0] += x[b * 16 + t];
      if (b == 1 && t == 3) y[1] = y[0];
    }
  }
}"""

ORDER_DEPENDENT = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      s[t] = x[b * 16 + t] + (t > 0 ? s[t - 1] : 0.0f);
      y[b * 16 + t] = s[t];
    }
  }
}"""

# (name, source, its two accesses, the element, words the report must hold); which of the
# two accesses comes first depends on the @inner order
PLANTED = [
    ("nobarrier", NO_BARRIER, {"planted.okl:8:23", "planted.okl:5:7"}, "s[",
     "another @inner iteration"),
    ("neighbour", NEIGHBOUR, {"planted.okl:6:23", "planted.okl:5:7"}, "s[",
     "another @inner iteration"),
    ("missing barrier in a loop", REDUCTION_MISSING_BARRIER,
     {"planted.okl:8:28", "planted.okl:8:20"}, "s[", "another @inner iteration"),
    ("global hand-off", GLOBAL_HANDOFF, {"planted.okl:7:24", "planted.okl:4:7"}, "y[",
     "no barrier between"),
    ("sum without atomic", SUM_WITHOUT_ATOMIC, {"planted.okl:5:9"}, "y[0]",
     "another @outer iteration"),
    ("outer overlap", OUTER_OVERLAP, {"planted.okl:4:7"}, "y[", "another @outer iteration"),
    ("atomic and plain", ATOMIC_AND_PLAIN, {"planted.okl:5:36", "planted.okl:4:15"}, "y[0]",
     "every access of the element @atomic"),
    ("order dependent", ORDER_DEPENDENT, {"planted.okl:5:39", "planted.okl:5:7"}, "s[",
     "another @inner iteration"),
]

REPORT = re.compile(r"^(planted\.okl:\d+:\d+): race: (\w+\[\d+\]) is (read|written|updated "
                    r"atomically) here and (read|written|updated atomically) at "
                    r"(planted\.okl:\d+:\d+) by (.*)$")


def check_report(text: str, case) -> None:
    _, _, sites, element, words = case
    found = REPORT.match(text)
    assert found is not None, text
    assert {found.group(1), found.group(5)} == sites, text
    assert found.group(2).startswith(element), text
    assert "written" in (found.group(3), found.group(4)) or "atomically" in text, text
    assert words in text, text
    assert "(kernel 'k'" in text


@pytest.mark.parametrize("mode", CPU)
@pytest.mark.parametrize("case", PLANTED, ids=[p[0] for p in PLANTED])
def test_planted_race_is_found_at_its_line(case, mode):
    with pytest.raises(okl.RaceError) as err:
        run(checker(mode), case[1], inputs())
    check_report(str(err.value), case)
    assert isinstance(err.value, okl.LaunchError)


def test_report_names_threads_and_block():
    with pytest.raises(okl.RaceError) as err:
        run(checker("serial"), NO_BARRIER, inputs())
    assert "s[15] is read here and written at planted.okl:5:7 by another @inner iteration " \
           "(t=0 vs t=15) of @outer b=0 with no barrier between" in str(err.value)
    with pytest.raises(okl.RaceError) as err:
        run(checker("serial"), OUTER_OVERLAP, inputs())
    assert "y[8] is written here and written at planted.okl:4:7 by another @outer iteration " \
           "(b=1 vs b=0, t=0 vs t=8)" in str(err.value)


@pytest.mark.parametrize("order", ["reverse", "shuffle:7"])
def test_races_are_found_in_every_order(order):
    for case in PLANTED:
        with pytest.raises(okl.RaceError) as err:
            run(checker("serial", order), case[1], inputs())
        check_report(str(err.value), case)
        expect = "reversed" if order == "reverse" else "shuffled with seed 7"
        assert expect in str(err.value)


def test_shuffle_without_seed_names_the_seed_it_drew():
    with pytest.raises(okl.RaceError) as err:
        run(checker("serial", "shuffle"), NO_BARRIER, inputs())
    seed = re.search(r"check_races='shuffle:(\d+)'", str(err.value))
    assert seed is not None, str(err.value)
    # the same seed gives the same report
    with pytest.raises(okl.RaceError) as again:
        run(checker("serial", f"shuffle:{seed.group(1)}"), NO_BARRIER, inputs())
    assert str(again.value).split(" (kernel")[0] == str(err.value).split(" (kernel")[0]


def test_order_dependence_shows_in_the_answer():
    """What the order is for: a kernel that works in ascending order only gives another
    answer reversed (the shadow names the race in either order)."""
    plain = run(device("serial"), ORDER_DEPENDENT, inputs())[2]
    dev = checker("serial", "reverse")
    kernel = dev.build_kernel_from_string(ORDER_DEPENDENT, "k", filename="planted.okl")
    x, y = (dev.asarray(a) for a in inputs()[1:])
    with pytest.raises(okl.RaceError):
        kernel(B, x, y)
    assert not np.array_equal(y.get(), plain)


# -- race-free kernels that look racy ----------------------------------------------------------
TREE = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      s[t] = x[b * 16 + t];
      for (int w = 8; w > 0; w /= 2) {
        @barrier;
        if (t < w) s[t] += s[t + w];
      }
      if (t == 0) y[b] = s[0];
    }
  }
}"""

NEIGHBOUR_AFTER_BARRIER = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      s[t] = x[b * 16 + t];
    }
    for (int t = 0; t < 16; ++t; @inner) {
      y[b * 16 + t] = s[(t + 1) % 16] - s[t];
    }
  }
}"""

GLOBAL_AFTER_BARRIER = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 16; ++t; @inner) {
      y[b * 16 + t] = 2 * x[b * 16 + t];
      @barrier;
      const float next = y[b * 16 + (t + 1) % 16];
      @barrier;
      y[b * 16 + t] += next;
    }
  }
}"""

ATOMICS = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 16; ++t; @inner) {
      @atomic y[t % 4] += x[b * 16 + t];
    }
  }
}"""

STRIDED = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 16; ++t; @inner) {
      y[t * n + b] = x[b * 16 + t] * x[0];
    }
  }
}"""

EXCLUSIVE_ACROSS_BLOCKS = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @exclusive float r;
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      r = x[b * 16 + t];
      s[t] = r;
    }
    for (int t = 0; t < 16; ++t; @inner) {
      y[b * 16 + t] = r * s[15 - t];
    }
  }
}"""

IN_PLACE_2D = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float tile[4][5];
    for (int j = 0; j < 4; ++j; @inner(1)) {
      for (int i = 0; i < 4; ++i; @inner(0)) {
        tile[j][i] = x[b * 16 + j * 4 + i];
      }
    }
    for (int j = 0; j < 4; ++j; @inner(1)) {
      for (int i = 0; i < 4; ++i; @inner(0)) {
        float *row = y + b * 16 + j * 4;
        row[i] = tile[i][j];
        row[i] *= 2;
      }
    }
  }
}"""

TWO_LAUNCHES = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 16; ++t; @inner) {
      y[((b + 1) % n) * 16 + t] = x[b * 16 + t];
    }
  }
  for (int b = 0; b < n; ++b; @outer) {
    for (int t = 0; t < 16; ++t; @inner) {
      y[b * 16 + t] *= 2;
    }
  }
}"""

TILED = """@kernel void k(const int n, const float *x, float *y) {
  for (int i = 0; i < n * 16; ++i; @tile(8, @outer, @inner)) {
    y[i] = x[i] + x[(i + 1) % (n * 16)];
  }
}"""

CLEAN = [("tree reduction", TREE), ("neighbour after barrier", NEIGHBOUR_AFTER_BARRIER),
         ("global after barrier", GLOBAL_AFTER_BARRIER), ("atomics", ATOMICS),
         ("strided", STRIDED), ("exclusive across blocks", EXCLUSIVE_ACROSS_BLOCKS),
         ("2-D tile, computed pointer", IN_PLACE_2D), ("two launches", TWO_LAUNCHES),
         ("tile", TILED)]


@pytest.mark.parametrize("mode", CPU)
@pytest.mark.parametrize("case", CLEAN, ids=[c[0] for c in CLEAN])
def test_race_free_kernel_runs_clean_with_the_unchecked_answer(case, mode):
    _, source = case
    with warnings.catch_warnings():
        warnings.simplefilter("error", okl.RaceWarning)
        got = run(checker(mode), source, inputs())
        reversed_ = run(checker(mode, "reverse"), source, inputs())
    want = run(device(mode), source, inputs())
    assert got[2].tobytes() == want[2].tobytes()  # bit for bit
    np.testing.assert_allclose(reversed_[2], want[2], rtol=1e-6)  # atomics sum in any order


# -- uninitialised reads: warnings ------------------------------------------------------------
UNSET_SHARED = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      if (t < 15) s[t] = x[b * 16 + t];
    }
    for (int t = 0; t < 16; ++t; @inner) {
      y[b * 16 + t] = s[t];
    }
  }
}"""

UNSET_EXCLUSIVE = """@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @exclusive float acc;
    for (int t = 0; t < 16; ++t; @inner) {
      acc += x[b * 16 + t];
      y[b * 16 + t] = acc;
    }
  }
}"""


@pytest.mark.parametrize("mode", CPU)
def test_reads_of_unset_shared_and_exclusive_are_warned(mode):
    with pytest.warns(okl.RaceWarning, match=r"planted.okl:8:23: s\[15\] \(@shared\) is read "
                                             "before any @inner iteration"):
        run(checker(mode), UNSET_SHARED, inputs())
    with pytest.warns(okl.RaceWarning, match=r"planted.okl:5:7: acc \(@exclusive\) is read"):
        run(checker(mode), UNSET_EXCLUSIVE, inputs())


# -- every runnable golden kernel --------------------------------------------------------------
@pytest.mark.parametrize("mode", CPU)
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_golden_kernels_have_no_race(case, mode):
    """No report (a false positive is a defect) and the unchecked answer: integers bit for
    bit; floats to rounding, because the C compiler may contract ``a * b + c`` into fused
    multiply-adds differently in the instrumented build (seen on a Sapphire Rapids host) and
    the unchecked openmp run adds atomic totals in whatever order its threads reach them."""
    ref = load(case)
    path = okl_file(case)
    outputs = []
    for dev in (device(mode), checker(mode)):
        kernel = dev.build_kernel(path, ref.KERNEL, defines=getattr(ref, "DEFINES", None),
                                  include_dirs=[path.parent])
        args = ref.make(np.random.default_rng(1234))
        moved = [dev.asarray(a) if isinstance(a, np.ndarray) and a.ndim else a for a in args]
        with warnings.catch_warnings():
            warnings.simplefilter("error", okl.RaceWarning)
            kernel(*moved)
        outputs.append([m.get() for m in moved if isinstance(m, okl.Memory)])
    for plain, checked in zip(*outputs, strict=True):
        _same(plain, checked)


def _same(plain: np.ndarray, checked: np.ndarray) -> None:
    if plain.dtype.fields is not None:
        for name in plain.dtype.names:
            _same(plain[name], checked[name])
    elif np.issubdtype(plain.dtype, np.floating):
        scale = float(np.abs(plain).max(initial=0))
        np.testing.assert_allclose(checked, plain, rtol=1e-5, atol=1e-6 * scale)
    else:
        assert plain.tobytes() == checked.tobytes()


# -- the switch ----------------------------------------------------------------------------------
def test_options_and_environment(monkeypatch):
    assert requested({"check_races": True}) == Order()
    assert requested({"check_races": "shuffle:12"}) == Order("shuffle", 12)
    assert requested({"check_races": False}) is None
    with pytest.raises(okl.ArgumentError, match="'shuffle:SEED'"):
        requested({"check_races": "sideways"})
    monkeypatch.setenv("OKL_CHECK_RACES", "reverse")
    assert requested({}) == Order("reverse")
    assert okl.Device("auto").mode == "serial"  # "auto" picks a mode the checker runs on
    monkeypatch.setenv("OKL_CHECK_RACES", "0")
    assert requested({}) is None


def test_gpu_modes_are_refused_with_the_way_out():
    with pytest.raises(okl.ArgumentError, match=r"serial and openmp only.*Device\('serial', "
                                                r"check_races=True\)"):
        okl.Device("cuda", check_races=True)


def test_checked_source_is_cached_apart(tmp_path):
    plain = okl.Device("serial", cache_dir=tmp_path)
    checked = okl.Device("serial", cache_dir=tmp_path, check_races=True)
    a = plain.build_kernel_from_string(STRIDED, "k")
    b = checked.build_kernel_from_string(STRIDED, "k")
    assert "_okl_race_at" not in a.source and "_okl_race_at" in b.source
    assert [p.name for p in b.params] == ["n", "x", "y"]  # the hidden ones stay hidden


def test_with_bounds_checking_too():
    dev = okl.Device("serial", check_races=True, check_bounds=True)
    with pytest.raises(okl.RaceError):
        run(dev, OUTER_OVERLAP, inputs())
    x = np.ones(8, np.float32)
    with pytest.raises(okl.LaunchError, match="out-of-bounds"):
        run(dev, STRIDED, [B, x, np.zeros(B * T, np.float32)])


ESCAPED = """void fill(float *row, const int t) { row[t] = t; }

@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      fill(s, t);
    }
    for (int t = 0; t < 16; ++t; @inner) {
      y[b * 16 + t] = s[t] + x[b * 16 + t];
    }
  }
}"""


@pytest.mark.parametrize("mode", CPU)
def test_storage_written_through_a_pointer_is_not_warned_about(mode):
    """A @shared array passed whole may be written through pointers the checker does not see
    (a library's memcpy): it is not reported as unset."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", okl.RaceWarning)
        got = run(checker(mode), ESCAPED, inputs())
    assert np.array_equal(got[2], np.tile(np.arange(16), B) + inputs()[1])


IN_FUNCTION = """void publish(float *s, const int t, const float v) { s[t] = v; }

float neighbour(const float *s, const int t) { return s[(t + 1) % 16]; }

@kernel void k(const int n, const float *x, float *y) {
  for (int b = 0; b < n; ++b; @outer) {
    @shared float s[16];
    for (int t = 0; t < 16; ++t; @inner) {
      publish(s, t, x[b * 16 + t]);
      y[b * 16 + t] = neighbour(s, t);
    }
  }
}"""


@pytest.mark.parametrize("mode", CPU)
def test_races_inside_functions_the_kernel_calls(mode):
    """Accesses inside device functions report as the calling thread; the region (here a
    @shared array passed whole) is found by address."""
    with pytest.raises(okl.RaceError) as err:
        run(checker(mode), IN_FUNCTION, inputs())
    text = str(err.value)
    assert re.match(r"planted\.okl:1:\d+: race: s\[1\] is written here and read at "
                    r"planted\.okl:3:\d+ by another @inner iteration \(@inner index 1 vs "
                    r"@inner index 0\) of @outer index 0 with no barrier", text), text
    clean = IN_FUNCTION.replace("      y[b * 16 + t] = neighbour(s, t);",
                                "      @barrier;\n      y[b * 16 + t] = neighbour(s, t);")
    with warnings.catch_warnings():
        warnings.simplefilter("error", okl.RaceWarning)
        got = run(checker(mode), clean, inputs())
    x = inputs()[1].reshape(B, T)
    assert np.array_equal(got[2], np.roll(x, -1, axis=1).ravel())
