"""@tile ranges near the limit of the loop variable's type: the same answer on every mode.

okl.model.tile writes ``for (T t = s; t < e; t += W)`` around ``for (T i = t; i < t + W;
...)``; with ``e`` within one tile width W of T's limit those overflow though the user's loop
does not (serial hung, openmp did nothing, GPU threads wrapped negative past the ``i < e``
check).  Every mode now refuses such a launch with an okl.LaunchError naming the loop, the
bound and the fix (okl.runtime.launch.hostrun._tile_fits), and runs the same loop with a
64-bit variable, or a bound one tile inside the limit, to the right answer.  Each mode runs
in a subprocess with a timeout: a hang fails the test instead of stopping the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from modes import params, skip_unless_available

INT_MAX = 2**31 - 1

#: tiles of at most 1024 iterations: a GPU block holds 1024 threads.
#: each loop writes x = {1, 2, 3, 0} from its last three iterations (the first three of a
#: decreasing one); a tile that never ran or wrote out of place differs.  One kernel (one
#: build per mode), ``which`` picks the loop in its host code: only that loop is launched,
#: and only that one is checked, on every mode.
SOURCE = """
@kernel void tiles(const int which, const int n, const long nl, const unsigned int nu,
                   const int d, int *x) {
  if (which == 0) {
    for (int i = 0; i < n; ++i; @tile(1024, @outer, @inner)) {
      if (i >= n - 3) x[n - 1 - i] = n - i;
    }
  } else if (which == 1) {
    for (int i = n - 2048; i < n; ++i; @tile(1024, @outer, @inner, check=false)) {
      if (i < n && i >= n - 3) x[n - 1 - i] = n - i;
    }
  } else if (which == 2) {
    for (long i = nl - 2048; i < nl; ++i; @tile(1024, @outer, @inner, check=false)) {
      if (i < nl && i >= nl - 3) x[nl - 1 - i] = nl - i;
    }
  } else if (which == 3) {
    for (int i = n - 3 * 1024; i < n; i += 3; @tile(256, @outer, @inner)) {
      if (i >= n - 9) x[(n - 1 - i) / 3] = (n - i) / 3;
    }
  } else if (which == 4) {
    for (int i = n; i > n - 2048; --i; @tile(1024, @outer, @inner, check=false)) {
      if (i > n - 2048 && i > n - 3) x[n - i] = n - i + 1;
    }
  } else if (which == 5) {
    for (int i = 2048 - n; i > -n; --i; @tile(1024, @outer, @inner)) {
      if (i <= 3 - n) x[i + n - 1] = i + n;
    }
  } else if (which == 6) {
    for (int i = n; i >= 0; --i; @tile(1024, @outer, @inner)) {
      if (i < 3) x[i] = i + 1;
    }
  } else if (which == 7) {
    for (int i = n - 2048; i < n; ++i; @tile(1024, @outer, @inner)) {
      if (i >= n - 3) x[n - 1 - i] = n - i;
    }
  } else if (which == 8) {
    for (int i = 0; i < n; i += d; @tile(1024, @outer, @inner)) {
      if (i == 0) x[0] = 1;
    }
  } else {
    for (unsigned int i = nu; i > 0; --i; @tile(16, @outer, @inner)) {
      if (i <= 3) x[i - 1] = i;
    }
  }
}
"""

#: (loop, n, expected): a list is the array the launch leaves, a string the refusal's facts
#: (the type's limit; the bound's value must be named too)
CASES = [
    (0, INT_MAX, "int's largest value 2147483647"),  # (all of it below: slow on opencl)
    (7, INT_MAX, "int's largest value 2147483647"),  # on CPUs the user's loop again
    (7, INT_MAX - 1024, [1, 2, 3, 0]),
    (1, INT_MAX, "int's largest value 2147483647"),
    (1, INT_MAX - 1024, [1, 2, 3, 0]),
    (2, INT_MAX, [1, 2, 3, 0]),  # the same loop with a long variable runs
    (2, 2**63 - 1, "long's largest value 9223372036854775807"),
    (3, INT_MAX, "int's largest value 2147483647"),
    (3, INT_MAX - 768, [1, 2, 3, 0]),
    (4, INT_MAX, [1, 2, 3, 0]),  # counting down from the limit: nothing passes it
    (5, INT_MAX, "int's smallest value -2147483648"),
    (5, INT_MAX - 1024, [1, 2, 3, 0]),
    (6, INT_MAX, "int's largest value 2147483647"),
    (6, 100000, [1, 2, 3, 0]),
    (8, 100, "each tile spans 4294968320"),  # 1024 * d, d = 2^22 + 1: 1024 in int
    (9, 10, "unsigned int's smallest value 0"),  # t - 16 wraps below 0 at any size
]

RUNNER = textwrap.dedent("""
    import json, sys
    import numpy as np
    import okl
    mode, path, cases = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    dev = okl.Device(mode)
    kernel = dev.build_kernel(path, "tiles")
    for which, n, _ in cases:
        x = dev.malloc(4, np.int32)
        x.copy_from(np.zeros(4, np.int32))
        try:
            kernel(which, min(n, 2**31 - 1), n, min(n, 2**32 - 1), 2**22 + 1, x)
            out = x.get().tolist()
        except okl.LaunchError as e:
            out = str(e)
        print(json.dumps([which, n, out]), flush=True)
""")


@pytest.mark.parametrize("mode", params(("serial", "openmp", "opencl", "cuda", "hip")))
def test_tile_ranges_at_the_type_limit(mode: str, tmp_path) -> None:
    skip_unless_available(mode)
    path = tmp_path / "tiles.okl"
    path.write_text(SOURCE)
    env = dict(os.environ, OKL_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", RUNNER, mode, str(path), json.dumps(CASES)],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    got = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(which, n) for which, n, _ in got] == [(which, n) for which, n, _ in CASES]
    lines = SOURCE.splitlines()
    for (which, n, want), (_, _, out) in zip(CASES, got, strict=True):
        if isinstance(want, list):
            assert out == want, (which, n, out)
            continue
        assert isinstance(out, str), (which, n, out)
        branch = next(k for k, text in enumerate(lines, 1) if f"which == {which})" in text) \
            if which < 9 else next(k for k, text in enumerate(lines, 1) if "} else {" in text)
        assert f"{path}:{branch + 1}:" in out, out  # the @tile loop's place
        assert want in out and str(n) in out, out  # the limit and the bound
        assert "declare the loop variable 64-bit" in out or n >= 2**63 - 1, out
        assert "one tile width" in out or "smaller tile size or step" in out, out
