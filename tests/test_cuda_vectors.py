"""Vector types on CUDA 13: its four-component vectors of 8-byte values (``double4``...) are
deprecated there, so okl spells them with the 16-byte alignment they always had and gives
their constructors itself (okl/targets/cuda.py _cuda13_vectors): the generated code compiles
without a deprecation warning and keeps its layout, and older CUDA (and ROCm) see the plain
names."""

from __future__ import annotations

import os
import subprocess
import tempfile

import pytest

try:  # `python -m pytest` from the repository root
    from tests import compilers
    from tests.modes import params, private_cache, skip_unless_available
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    import compilers
    from modes import params, private_cache, skip_unless_available

from okl.translation import translate

SOURCE = """
@kernel void pack(const int n, const double4 *a, const long4 *b, const ulong4 *c,
                  const longlong4 *d, const ulonglong4 *e, double4 *out, long4 *lout,
                  ulong4 *uout, longlong4 *llout, ulonglong4 *ullout) {
  for (int i = 0; i < n; ++i; @tile(64, @outer, @inner)) {
    const double4 x = a[i];
    out[i] = make_double4(x.x + b[i].x, x.y, x.z, x.w + c[i].w);
    lout[i] = make_long4(b[i].x, b[i].y, b[i].z, (long) c[i].x);
    uout[i] = make_ulong4(c[i].x, c[i].y, 7, c[i].w);
    llout[i] = make_longlong4(d[i].x, d[i].y, d[i].z, -1);
    ullout[i] = make_ulonglong4(e[i].x, 1, e[i].z, e[i].w);
  }
}
"""

CHECK = "".join(
    f'static_assert(sizeof({t}) == 32 && alignof({t}) == 16, "{t} layout");\n'
    for t in ("double4", "long4", "ulong4", "longlong4", "ulonglong4"))


@pytest.mark.parametrize("mode", ["cuda", "hip"])
def test_cuda13_vectors_compile_without_deprecation_and_keep_their_layout(mode):
    nvcc = compilers._nvcc()
    code = translate(SOURCE, mode).source + CHECK
    if mode == "hip":  # HIP on an NVIDIA GPU: okl's header, as the hip mode builds it there
        from okl.runtime.drivers.cuda import HIP_INCLUDE
        include = ["-I", HIP_INCLUDE]
    else:
        include = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.cu")
        with open(src, "w") as f:
            f.write(code)
        run = subprocess.run([nvcc, "-arch=sm_90", "-std=c++17", *include, "-c", "-o",
                              os.path.join(tmp, "k.o"), src],
                             capture_output=True, text=True, timeout=300)
    log = run.stdout + run.stderr
    assert run.returncode == 0, log
    assert "deprecated" not in log, log


def test_the_spellings_are_for_cuda_13_and_later_only():
    code = translate(SOURCE, "cuda").source
    guard = "#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 13"
    assert guard in code and "#define double4 double4_16a" in code
    assert "#define make_long4 okl_make_long4" in code
    plain = SOURCE
    for old, new in (("ulonglong4", "uint4"), ("longlong4", "int4"), ("ulong4", "uint4"),
                     ("long4", "int4"), ("double4", "float4"), ("(long)", "(int)")):
        plain = plain.replace(old, new)
    assert guard not in translate(plain, "cuda").source


@pytest.fixture(scope="module", autouse=True)
def _own_cache(tmp_path_factory):
    with private_cache(tmp_path_factory.mktemp("okl-cache")) as root:
        yield root


@pytest.mark.parametrize("mode", params())
def test_the_five_vectors_run_on_every_mode(mode):
    """The same kernel on every mode (on a GPU: through NVRTC, whose headers differ from
    nvcc's) against numpy: layout and constructors as the other backends have them."""
    import numpy as np

    import okl

    skip_unless_available(mode)
    n = 70
    rng = np.random.default_rng(5)
    a = rng.standard_normal(4 * n)
    b = rng.integers(-2**40, 2**40, 4 * n, dtype=np.int64)
    c = rng.integers(0, 2**40, 4 * n, dtype=np.uint64)
    d = rng.integers(-2**40, 2**40, 4 * n, dtype=np.int64)
    e = rng.integers(0, 2**40, 4 * n, dtype=np.uint64)
    dev = okl.Device(mode)
    k = dev.build_kernel_from_string(SOURCE, "pack")
    outs = [dev.zeros(4 * n, t) for t in (np.float64, np.int64, np.uint64, np.int64,
                                          np.uint64)]
    k(n, *(dev.asarray(x) for x in (a, b, c, d, e)), *outs)
    A, B, C, D, E = (x.reshape(n, 4) for x in (a, b, c, d, e))
    want_out = np.stack([A[:, 0] + B[:, 0], A[:, 1], A[:, 2], A[:, 3] + C[:, 3]], axis=1)
    want_l = np.stack([B[:, 0], B[:, 1], B[:, 2], C[:, 0].astype(np.int64)], axis=1)
    want_u = np.stack([C[:, 0], C[:, 1], np.full(n, 7, np.uint64), C[:, 3]], axis=1)
    want_ll = np.stack([D[:, 0], D[:, 1], D[:, 2], np.full(n, -1, np.int64)], axis=1)
    want_ull = np.stack([E[:, 0], np.ones(n, np.uint64), E[:, 2], E[:, 3]], axis=1)
    got = [o.get().reshape(n, 4) for o in outs]
    np.testing.assert_allclose(got[0], want_out, rtol=1e-15)
    for g, w in zip(got[1:], (want_l, want_u, want_ll, want_ull), strict=True):
        np.testing.assert_array_equal(g, w)
