"""Vector types on CUDA 13: its 32-byte vectors (``double4``...) are deprecated there, so okl
spells them with the 16-byte alignment they always had (okl/backends/cuda.py _ALIGNED_16):
the generated code compiles without a deprecation warning and keeps its layout."""

from __future__ import annotations

import os
import subprocess
import tempfile

try:  # `python -m pytest` from the repository root
    from tests import compilers
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    import compilers

from okl.translation import translate

SOURCE = """
@kernel void pack(const int n, const double4 *a, const long4 *b, const ulong4 *c,
                  double4 *out, long4 *lout) {
  for (int i = 0; i < n; ++i; @tile(64, @outer, @inner)) {
    const double4 x = a[i];
    out[i] = make_double4(x.x + b[i].x, x.y, x.z, x.w + c[i].w);
    lout[i] = make_long4(b[i].x, b[i].y, b[i].z, (long) c[i].x);
  }
}
"""

CHECK = """
static_assert(sizeof(double4) == 32 && alignof(double4) == 16, "double4 layout");
static_assert(sizeof(long4) == 32 && alignof(long4) == 16, "long4 layout");
static_assert(sizeof(ulong4) == 32 && alignof(ulong4) == 16, "ulong4 layout");
"""


def test_cuda_vectors_compile_without_deprecation_and_keep_their_layout():
    nvcc = compilers._nvcc()
    code = translate(SOURCE, "cuda").source + CHECK
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.cu")
        with open(src, "w") as f:
            f.write(code)
        run = subprocess.run([nvcc, "-arch=sm_90", "-std=c++17", "-c", "-o",
                              os.path.join(tmp, "k.o"), src],
                             capture_output=True, text=True, timeout=300)
    log = run.stdout + run.stderr
    assert run.returncode == 0, log
    assert "deprecated" not in log, log


def test_the_mapping_is_only_for_cuda_13_and_later():
    code = translate(SOURCE, "cuda").source
    guard = "#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 13"
    assert guard in code and "#define double4 double4_16a" in code
    assert "#define make_long4 make_long4_16a" in code
    assert guard not in translate(SOURCE.replace("double4", "float4").replace(
        "long4", "int4").replace("ulong4", "uint4").replace("(long)", "(int)"), "cuda").source
