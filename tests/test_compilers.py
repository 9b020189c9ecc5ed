"""The real-compiler checkers in tests/compilers.py accept good kernels and reject bad ones.

Nothing here skips: a missing compiler fails with the install command (see compilers.py).
The good kernels are written in the style of the okl emitters and use every feature the
checkers must support; each also contains a preprocessor probe (#error) that only passes when
the checker really used the documented flags (C99, -fopenmp, -cl-std=CL1.2, sm_90, gfx90a).
"""

from __future__ import annotations

import re

import pytest

try:  # `python -m pytest` from the repository root
    from tests import compilers
except ImportError:  # plain `pytest`: tests/ itself is on sys.path
    import compilers

compile_c = compilers.compile_c
compile_cuda = compilers.compile_cuda
compile_cuda_many = compilers.compile_cuda_many
compile_hip = compilers.compile_hip
compile_opencl = compilers.compile_opencl
cuda_failures = compilers.cuda_failures
pocl_context = compilers.pocl_context
require_tool = compilers.require_tool

# ---------------------------------------------------------------------------------------------
# serial C and OpenMP C

C_SERIAL = """\
#include <math.h>
#include <stdint.h>
#if !defined(__STDC_VERSION__) || __STDC_VERSION__ != 199901L
#error "generated C must be compiled as C99"
#endif
#line 1 "weighted_norm.okl"
static const double okl_weights[4] = {0.125, 0.25, 0.25, 0.375};

static inline double okl_square(double x) { return x * x; }

void okl_weighted_norm(const int32_t n, const double *restrict x, float *restrict y,
                       double *restrict out)
{
  double acc = 0.0;
  for (int32_t i = 0; i < n; ++i) {
    const double v = okl_square(x[i]) * okl_weights[i % 4];
    y[i] = sqrtf((float)fabs(x[i])) + expf(-(float)v) + (float)pow(v, 0.5) + floorf(1.5f);
    acc += fmax(v, 0.0) + tanh(v) + log(v + 1.0);
  }
  *out = sqrt(acc);
}
"""

C_OPENMP = """\
#include <math.h>
#include <stdint.h>
#include <omp.h>
#ifndef _OPENMP
#error "OpenMP kernels need -fopenmp"
#endif
#line 1 "histogram.okl"
static inline float okl_square(float x) { return x * x; }

void okl_histogram(const int32_t n, const float *restrict x, int32_t *restrict bins,
                   double *restrict total)
{
  double acc = 0.0;
#pragma omp parallel for reduction(+ : acc)
  for (int32_t i = 0; i < n; ++i) {
    const float v = okl_square(x[i]);
    const int32_t b = (int32_t)fminf(fmaxf(v, 0.0f), 15.0f);
#pragma omp atomic
    bins[b] += 1;
    acc += sqrt((double)v) + omp_get_thread_num() * 0.0;
  }
  *total = acc;
}
"""

C_IMPLICIT_DECLARATION = """\
#line 1 "broken.okl"
void okl_broken(const int n, float *restrict y)
{
  for (int i = 0; i < n; ++i) {
    y[i] = okl_undefined_helper(i);
  }
}
"""

C_SYNTAX_ERROR = """\
void okl_broken(const int n, float *restrict y)
{
  for (int i = 0; i < n; ++i) {
    y[i] = 2.0f * i
  }
}
"""


def compiler_output(message: str) -> str:
    """The compiler's own log inside a failure message (between its two section headers):
    tests assert that it names the culprit, never one compiler version's wording."""
    return message.split("--- compiler output ---\n", 1)[1].split("\n--- source ", 1)[0]


def test_c_serial_kernel_compiles():
    compile_c(C_SERIAL, "weighted_norm")


def test_c_openmp_kernel_compiles_with_openmp():
    compile_c(C_OPENMP, "histogram_omp", openmp=True)


def test_c_openmp_flag_is_really_passed():
    with pytest.raises(AssertionError, match="OpenMP kernels need -fopenmp"):
        compile_c(C_OPENMP, "histogram_no_omp", openmp=False)


def test_c_implicit_function_declaration_is_an_error():
    with pytest.raises(AssertionError) as info:
        compile_c(C_IMPLICIT_DECLARATION, "implicit_decl")
    message = str(info.value)
    assert "C compile of 'implicit_decl' failed" in message
    assert "okl_undefined_helper" in compiler_output(message)
    assert "-Werror=implicit-function-declaration" in message  # the command and gcc's tag
    assert "exit code: 1" in message
    assert "5 |     y[i] = okl_undefined_helper(i);" in message  # numbered source
    assert "broken.okl:4" in compiler_output(message)  # the compiler honours #line


@pytest.mark.parametrize("openmp", [False, True])
def test_c_syntax_error_is_reported(openmp):
    with pytest.raises(AssertionError) as info:
        compile_c(C_SYNTAX_ERROR, "syntax", openmp=openmp)
    message = str(info.value)
    assert re.search(r"\b[45]:\d+: error", compiler_output(message))  # at the missing ';'
    assert ("-fopenmp" in message) == openmp


def test_c_compiler_from_env_and_missing_compiler_fails(monkeypatch):
    monkeypatch.setenv("CC", "okl-no-such-cc --some-flag")
    with pytest.raises(AssertionError, match="apt-get install -y gcc"):
        compile_c(C_SERIAL, "weighted_norm")


# ---------------------------------------------------------------------------------------------
# OpenCL C on pocl

OPENCL_GOOD = """\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#if __OPENCL_C_VERSION__ != 120
#error "expected -cl-std=CL1.2"
#endif
#line 1 "histogram.okl"
__constant float okl_weights[4] = {0.125f, 0.25f, 0.25f, 0.375f};

float okl_square(float x) { return x * x; }

void okl_atomic_add_float(volatile __global float *p, const float v)
{
  union { unsigned int u; float f; } old, next;
  do {
    old.f = *p;
    next.f = old.f + v;
  } while (atomic_cmpxchg((volatile __global unsigned int *)p, old.u, next.u) != old.u);
}

__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void okl_histogram(const int n, __global const float *restrict x, __global float *restrict y,
                   __global int *bins, __global unsigned *ucount, __global float *fsum,
                   __global double *restrict dsum)
{
  __local float tile[256];
  const int t = get_local_id(0);
  const int i = get_global_id(0);
  tile[t] = (i < n) ? okl_square(x[i]) * okl_weights[t % 4] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) {
    const float v = tile[(t + 1) % 256];
    y[i] = sqrt(v) + exp(-v) + sin(v) * cos(v) + pow(v, 1.5f) + fabs(v) + fmin(v, 1.0f)
         + fmax(v, 0.0f) + log(v + 1.0f) + rsqrt(v + 1.0f) + tanh(v) + floor(v) + ceil(v);
    atomic_add(&bins[min(max((int)v, 0), 15)], 1);
    atomic_add(ucount, 1u);
    atomic_cmpxchg(bins + 16, 0, i);
    atomic_max(bins + 17, i);
    atomic_cmpxchg(ucount + 1, 0u, 1u);
    okl_atomic_add_float(fsum, v);
    dsum[i] = exp((double)v) + sqrt((double)v) + floor(1.5) + ceil(0.5) + pow((double)v, 2.0);
  }
}
"""

OPENCL_UNDECLARED = """\
__kernel void okl_broken(__global float *y)
{
  const int i = get_global_id(0);
  y[i] = okl_missing_helper(y[i]);
}
"""

# Parses fine; only linking against pocl's kernel library finds the missing definition.
OPENCL_UNDEFINED = """\
float okl_declared_only(float x);

__kernel void okl_broken(__global float *y)
{
  const int i = get_global_id(0);
  y[i] = okl_declared_only(y[i]);
}
"""


def test_pocl_context_is_pocl_cpu_and_cached():
    import pyopencl as cl

    ctx = pocl_context()
    assert pocl_context() is ctx
    (device,) = ctx.devices
    assert "pocl" in device.platform.vendor.lower()
    assert device.type & cl.device_type.CPU


def test_opencl_kernel_compiles():
    compile_opencl(OPENCL_GOOD, "histogram")


def test_opencl_error_surfaces_build_log():
    with pytest.raises(AssertionError) as info:
        compile_opencl(OPENCL_UNDECLARED, "undeclared")
    message = str(info.value)
    assert "OpenCL compile of 'undeclared' failed" in message
    assert "okl_missing_helper" in compiler_output(message)
    assert "-cl-std=CL1.2" in message
    assert "4 |   y[i] = okl_missing_helper(y[i]);" in message


def test_opencl_build_links_against_the_kernel_library():
    with pytest.raises(AssertionError, match="okl_declared_only"):
        compile_opencl(OPENCL_UNDEFINED, "undefined")


# ---------------------------------------------------------------------------------------------
# CUDA and HIP: one kernel body, compiled by nvcc and by clang against the HIP shim

GPU_KERNEL_BODY = """\
__constant__ float okl_weights[4] = {0.125f, 0.25f, 0.25f, 0.375f};

__device__ float okl_square(float x) { return x * x; }

extern "C" __global__ void __launch_bounds__(256) okl_histogram(
    const int n, const float *__restrict__ x, float *__restrict__ y, int *bins,
    unsigned int *ucount, unsigned long long *total, float *fsum, double *dsum)
{
  __shared__ float tile[256];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[t] = (i < n) ? okl_square(x[i]) * okl_weights[t % 4] : 0.0f;
  __syncthreads();
  if (i < n) {
    const float v = tile[(t + 1) % 256];
    y[i] = sqrtf(v) + expf(-v) + sinf(v) * cosf(v) + powf(v, 1.5f) + fabsf(v) + fminf(v, 1.0f)
         + fmaxf(v, 0.0f) + logf(v + 1.0f) + (float)(gridDim.x + blockDim.y + warpSize);
    atomicAdd(&bins[min(max((int)v, 0), 15)], 1);
    atomicAdd(ucount, 1u);
    const unsigned int row = blockIdx.y * 16;
    atomicAdd(total, (unsigned long long)row);
    atomicAdd(fsum, v);
    atomicAdd(dsum, tanh((double)v) + rsqrt(2.0) + exp((double)v) + sqrt(2.0) + pow(2.0, 0.5)
                    + sin(1.0) + cos(1.0) + log(2.0) + fabs(-1.0) + floor(1.5) + ceil(0.5)
                    + fmin(1.0, 2.0) + fmax(1.0, 2.0));
    atomicSub(bins + 16, 1);
    atomicMax(bins + 17, i);
    atomicMin(ucount + 1, 3u);
    atomicCAS(bins + 18, 0, i);
    atomicCAS(total + 1, 0ull, 1ull);
    atomicExch(ucount + 2, 7u);
    atomicExch(fsum + 1, v);
    atomicAnd(ucount + 3, 0xffu);
    atomicOr(bins + 19, 1);
    atomicXor(total + 2, 5ull);
    __syncwarp();
    __threadfence();
  }
}
"""

CUDA_GOOD = (
    """\
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 900
#error "expected -arch=sm_90"
#endif
#line 1 "histogram.okl"
"""
    + GPU_KERNEL_BODY
)

HIP_GOOD = (
    """\
#include <hip/hip_runtime.h>
#if !defined(__HIP_DEVICE_COMPILE__) || !defined(__gfx90a__)
#error "expected a gfx90a device compile"
#endif
#line 1 "histogram.okl"
"""
    + GPU_KERNEL_BODY
)

GPU_BROKEN_BODY = """\
static float okl_host_only(float x) { return 2.0f * x; }

extern "C" __global__ void __launch_bounds__(64) okl_broken(float *__restrict__ y)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = okl_host_only(y[i]) + okl_missing;
}
"""


def test_cuda_kernel_compiles():
    compile_cuda(CUDA_GOOD, "histogram")


def test_cuda_errors_are_reported():
    with pytest.raises(AssertionError) as info:
        compile_cuda(GPU_BROKEN_BODY, "broken")
    message = str(info.value)
    assert "CUDA compile of 'broken' failed" in message
    assert "okl_missing" in compiler_output(message)
    assert "-arch=sm_90" in message
    assert "6 |   y[i] = okl_host_only(y[i]) + okl_missing;" in message


def test_cuda_host_function_called_from_kernel_is_an_error():
    source = GPU_BROKEN_BODY.replace(" + okl_missing", "")
    with pytest.raises(AssertionError) as info:
        compile_cuda(source, "host_call")
    assert "okl_host_only" in compiler_output(str(info.value))


def test_hip_kernel_compiles():
    compile_hip(HIP_GOOD, "histogram")


def test_hip_errors_are_reported():
    with pytest.raises(AssertionError) as info:
        compile_hip("#include <hip/hip_runtime.h>\n" + GPU_BROKEN_BODY, "broken")
    message = str(info.value)
    assert "HIP compile of 'broken' failed" in message
    assert "okl_missing" in compiler_output(message)
    assert "--offload-arch=gfx90a" in message
    assert "7 |   y[i] = okl_host_only(y[i]) + okl_missing;" in message


@pytest.mark.parametrize(
    ("change", "error"),
    [
        # the shim must not paper over C-isms or invent HIP API
        (("float *__restrict__ y", "float *restrict y"), "expected ')'"),
        (("okl_host_only(y[i]) + okl_missing", "atomicAnd(y, 1.0f)"), "atomicAnd"),
        (("okl_host_only(y[i]) + okl_missing", "okl_host_only(y[i])"), "okl_host_only"),
    ],
    ids=["restrict-keyword", "float-atomicAnd", "host-call"],
)
def test_hip_shim_is_not_too_permissive(change, error):
    source = "#include <hip/hip_runtime.h>\n" + GPU_BROKEN_BODY.replace(*change)
    if change[0] != "okl_host_only(y[i]) + okl_missing":
        source = source.replace(" + okl_missing", "")
    with pytest.raises(AssertionError) as info:
        compile_hip(source, "too_permissive")
    assert error in str(info.value)


# ---------------------------------------------------------------------------------------------
# batched CUDA


def _cuda_unit(kernel: str, helper_value: str = "2.0f", prefix: str = "") -> str:
    return f"""\
{prefix}__constant__ float okl_scale[1] = {{{helper_value}}};
__device__ float okl_helper(float x) {{ return okl_scale[0] * x; }}
extern "C" __global__ void __launch_bounds__(128) {kernel}(float *y)
{{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = okl_helper(y[i]);
}}
"""


def test_cuda_batches_pack_units_and_separate_kernel_name_clashes():
    units = [(f"unit{i}", _cuda_unit(f"okl_k{i % 3}")) for i in range(6)]
    batches = compilers._plan_cuda_batches(units, batch_size=6)
    assert len(batches) == 2  # okl_k0/okl_k1/okl_k2 twice each: two batches of three
    for members, _ in batches:
        kernels = [compilers._c_linkage_names(source) for _, source in members]
        assert len(set().union(*kernels)) == len(kernels)


def test_cuda_many_compiles_good_units_sharing_helper_names():
    units = [(f"unit{i}", _cuda_unit(f"okl_k{i % 3}", f"{i}.0f")) for i in range(5)]
    units.append(
        (
            "with_include",
            _cuda_unit("okl_k9", prefix="#include <stdint.h>\n").replace(
                "const int i", "const uint32_t i"
            ),
        )
    )
    compile_cuda_many(units, jobs=1)
    # and the packing itself is valid CUDA (so batches do not just fall back to single builds)
    compile_cuda(compilers._cuda_batch_source(units[:3], []), "batch_of_three")


HELPER_USER = 'extern "C" __global__ void okl_user(float *y) { y[0] = okl_helper(1.0f); }\n'
MACRO_USER = 'extern "C" __global__ void okl_tiled(float *y) { y[0] = OKL_TILE; }\n'
MACRO_PROVIDER = (
    '#define OKL_TILE 16\nextern "C" __global__ void okl_tile(float *y) { y[0] = 1; }\n'
)


@pytest.mark.parametrize(
    ("provider", "user", "error"),
    [
        (_cuda_unit("okl_provider"), HELPER_USER, 'identifier "okl_helper" is undefined'),
        (MACRO_PROVIDER, MACRO_USER, 'identifier "OKL_TILE" is undefined'),
    ],
    ids=["helper", "macro"],
)
def test_cuda_many_keeps_units_isolated(provider, user, error):
    # Both units land in one batch (jobs=1) that would compile if the user could see the
    # provider's helper or macro; the user alone must fail, as it does on its own.
    units = [("provider", provider), ("user", user)]
    assert len(compilers._plan_cuda_batches(units, batch_size=2)) == 1
    failures = cuda_failures(units, jobs=1)
    assert sorted(failures) == ["user"]
    assert error in failures["user"]


def test_cuda_many_reports_exactly_the_broken_unit():
    units = [(f"good{i}", _cuda_unit(f"okl_good{i}")) for i in range(3)]
    units.insert(1, ("broken", GPU_BROKEN_BODY))
    with pytest.raises(AssertionError) as info:
        compile_cuda_many(units, jobs=1)
    message = str(info.value)
    assert message.startswith("1 CUDA unit(s) failed to compile: ['broken']")
    assert "CUDA compile of 'broken' failed" in message
    assert "okl_missing" in compiler_output(message)
    assert "good" not in message


# ---------------------------------------------------------------------------------------------
# missing tools fail (never skip) and say how to install them


def test_require_tool_names_the_install_command():
    assert require_tool("sh", "unused").endswith("/sh")
    with pytest.raises(AssertionError, match="apt-get install -y okl-tool"):
        require_tool("okl-no-such-tool", "apt-get install -y okl-tool")


@pytest.mark.parametrize(
    ("variable", "check", "source", "hint"),
    [
        ("NVCC", compile_cuda, CUDA_GOOD, "cuda-nvcc-13-0"),
        ("OKL_HIP_CLANG", compile_hip, HIP_GOOD, "clang-14"),
    ],
    ids=["nvcc", "hip-clang"],
)
def test_missing_gpu_compilers_fail_with_install_hint(monkeypatch, variable, check, source, hint):
    monkeypatch.setenv(variable, "/nonexistent/okl-compiler")
    with pytest.raises(AssertionError, match=hint):
        check(source, "histogram")
