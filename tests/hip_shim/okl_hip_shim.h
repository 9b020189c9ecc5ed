/*
 * okl_hip_shim.h -- TEST-ONLY, compile-only stand-in for the HIP device headers.
 *
 * tests/compilers.py::compile_hip checks generated HIP kernels with
 *
 *   clang-14 -x hip --offload-arch=gfx90a -nogpulib -nogpuinc --cuda-device-only -S \
 *            -I tests/hip_shim -include okl_hip_shim.h
 *
 * -nogpuinc stops clang from looking for a ROCm installation, so nothing defines the HIP
 * keywords and built-in variables.  This header supplies the subset that the okl HIP emitter
 * uses, mapped onto clang's own AMDGPU builtins, so that clang can parse, type-check and emit
 * gfx90a assembly for every generated kernel.
 *
 * It is not a HIP runtime and nothing compiled against it is ever linked or run:
 *   - transcendental math functions are only *declared* (as calls into the ROCm device library,
 *     __ocml_*, exactly where real HIP sends them); -nogpulib means they are never linked.
 *     (LLVM 14 cannot lower f64 exp/log/sin/cos/pow intrinsics for AMDGPU without that library.)
 *   - atomics use device ("agent") scope and relaxed order, like CUDA's atomicXxx.
 * Only what real HIP (and CUDA) also provide is defined here, so a kernel that compiles against
 * this shim should also compile against the real headers; extend it when the emitter grows.
 */
#ifndef OKL_HIP_SHIM_H
#define OKL_HIP_SHIM_H

#if !defined(__HIP__) || !defined(__HIP_DEVICE_COMPILE__)
#error "okl_hip_shim.h is only for clang -x hip --cuda-device-only (tests/compilers.py)"
#endif

#include <stddef.h>
#include <stdint.h>

/* ---- keywords ---------------------------------------------------------------------------- */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ inline __attribute__((always_inline))

#define OKL_HIP_FN __device__ __forceinline__

/* ---- threadIdx / blockIdx / blockDim / gridDim ------------------------------------------- */
/* Each is an empty object whose x/y/z are clang "property" members: reading threadIdx.x calls
 * the static getter, so it is a plain unsigned int prvalue (int i = threadIdx.x; works, and
 * blockIdx.y * 16 is ordinary unsigned arithmetic).  The objects are never defined: only the
 * getters are ever called. */
#define OKL_HIP_INDEX(TYPE, VAR, GX, GY, GZ)                                                   \
  struct TYPE {                                                                                \
    static OKL_HIP_FN unsigned int get_x() { return (GX); }                                    \
    static OKL_HIP_FN unsigned int get_y() { return (GY); }                                    \
    static OKL_HIP_FN unsigned int get_z() { return (GZ); }                                    \
    __declspec(property(get = get_x)) unsigned int x;                                          \
    __declspec(property(get = get_y)) unsigned int y;                                          \
    __declspec(property(get = get_z)) unsigned int z;                                          \
    TYPE() = delete;                                                                           \
    TYPE(const TYPE &) = delete;                                                               \
    void operator=(const TYPE &) const = delete;                                               \
    TYPE *operator&() const = delete;                                                          \
  };                                                                                           \
  extern const __device__ TYPE VAR;

#define OKL_HIP_NUM_GROUPS(D)                                                                  \
  ((__builtin_amdgcn_grid_size_##D() + __builtin_amdgcn_workgroup_size_##D() - 1u) /         \
   __builtin_amdgcn_workgroup_size_##D())

OKL_HIP_INDEX(okl_hip_thread_idx_t, threadIdx, __builtin_amdgcn_workitem_id_x(),
              __builtin_amdgcn_workitem_id_y(), __builtin_amdgcn_workitem_id_z())
OKL_HIP_INDEX(okl_hip_block_idx_t, blockIdx, __builtin_amdgcn_workgroup_id_x(),
              __builtin_amdgcn_workgroup_id_y(), __builtin_amdgcn_workgroup_id_z())
OKL_HIP_INDEX(okl_hip_block_dim_t, blockDim, __builtin_amdgcn_workgroup_size_x(),
              __builtin_amdgcn_workgroup_size_y(), __builtin_amdgcn_workgroup_size_z())
OKL_HIP_INDEX(okl_hip_grid_dim_t, gridDim, OKL_HIP_NUM_GROUPS(x), OKL_HIP_NUM_GROUPS(y),
              OKL_HIP_NUM_GROUPS(z))

static constexpr int warpSize = __AMDGCN_WAVEFRONT_SIZE;

/* ---- barriers and fences ----------------------------------------------------------------- */
OKL_HIP_FN void __syncthreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
/* A wavefront executes in lock step; this only keeps the compiler from moving code across. */
OKL_HIP_FN void __syncwarp(unsigned long long mask = ~0ull) {
  (void)mask;
  __builtin_amdgcn_wave_barrier();
}
OKL_HIP_FN void __threadfence_block() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup"); }
OKL_HIP_FN void __threadfence() { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }

/* ---- atomics (return the old value, like CUDA/HIP) --------------------------------------- */
#define OKL_HIP_ORDER __ATOMIC_RELAXED
#define OKL_HIP_SCOPE __HIP_MEMORY_SCOPE_AGENT

#define OKL_HIP_RMW(NAME, T, BUILTIN)                                                          \
  OKL_HIP_FN T NAME(T *address, T val) {                                                       \
    return BUILTIN(address, val, OKL_HIP_ORDER, OKL_HIP_SCOPE);                                \
  }
/* clang 14 has no __hip_atomic_fetch_sub: subtract by adding the negation (wraps for unsigned). */
#define OKL_HIP_SUB(T)                                                                         \
  OKL_HIP_FN T atomicSub(T *address, T val) {                                                  \
    return __hip_atomic_fetch_add(address, (T)(-val), OKL_HIP_ORDER, OKL_HIP_SCOPE);           \
  }
#define OKL_HIP_CAS(T)                                                                         \
  OKL_HIP_FN T atomicCAS(T *address, T compare, T val) {                                       \
    __hip_atomic_compare_exchange_strong(address, &compare, val, OKL_HIP_ORDER, OKL_HIP_ORDER, \
                                         OKL_HIP_SCOPE);                                       \
    return compare; /* updated to the old value when the exchange failed */                    \
  }
/* Floating point min/max: compare-and-swap loop (no native instruction needed). */
#define OKL_HIP_FP_MINMAX(NAME, T, OP)                                                         \
  OKL_HIP_FN T NAME(T *address, T val) {                                                       \
    T old = __hip_atomic_load(address, OKL_HIP_ORDER, OKL_HIP_SCOPE);                          \
    while (val OP old && !__hip_atomic_compare_exchange_strong(address, &old, val,             \
                                                               OKL_HIP_ORDER, OKL_HIP_ORDER,   \
                                                               OKL_HIP_SCOPE)) {               \
    }                                                                                          \
    return old;                                                                                \
  }

#define OKL_HIP_INT_ATOMICS(T)                                                                 \
  OKL_HIP_RMW(atomicAdd, T, __hip_atomic_fetch_add)                                            \
  OKL_HIP_SUB(T)                                                                               \
  OKL_HIP_RMW(atomicExch, T, __hip_atomic_exchange)                                            \
  OKL_HIP_RMW(atomicMin, T, __hip_atomic_fetch_min)                                            \
  OKL_HIP_RMW(atomicMax, T, __hip_atomic_fetch_max)                                            \
  OKL_HIP_RMW(atomicAnd, T, __hip_atomic_fetch_and)                                            \
  OKL_HIP_RMW(atomicOr, T, __hip_atomic_fetch_or)                                              \
  OKL_HIP_RMW(atomicXor, T, __hip_atomic_fetch_xor)                                            \
  OKL_HIP_CAS(T)

#define OKL_HIP_FP_ATOMICS(T)                                                                  \
  OKL_HIP_RMW(atomicAdd, T, __hip_atomic_fetch_add)                                            \
  OKL_HIP_SUB(T)                                                                               \
  OKL_HIP_RMW(atomicExch, T, __hip_atomic_exchange)                                            \
  OKL_HIP_FP_MINMAX(atomicMin, T, <)                                                           \
  OKL_HIP_FP_MINMAX(atomicMax, T, >)

OKL_HIP_INT_ATOMICS(int)
OKL_HIP_INT_ATOMICS(unsigned int)
OKL_HIP_INT_ATOMICS(unsigned long long)
OKL_HIP_FP_ATOMICS(float)
OKL_HIP_FP_ATOMICS(double)

/* ---- bit casts (the real HIP device functions of the same names) ------------------------- */
OKL_HIP_FN long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
OKL_HIP_FN double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
OKL_HIP_FN int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
OKL_HIP_FN float __int_as_float(int x) { return __builtin_bit_cast(float, x); }

/* ---- math -------------------------------------------------------------------------------- */
/* C signatures: NAME(double) and NAMEf(float).  Exact operations go to clang builtins, which the
 * AMDGPU backend turns into instructions. */
#define OKL_HIP_BUILTIN_1(NAME)                                                                \
  OKL_HIP_FN double NAME(double x) { return __builtin_##NAME(x); }                             \
  OKL_HIP_FN float NAME##f(float x) { return __builtin_##NAME##f(x); }
#define OKL_HIP_BUILTIN_2(NAME)                                                                \
  OKL_HIP_FN double NAME(double x, double y) { return __builtin_##NAME(x, y); }                \
  OKL_HIP_FN float NAME##f(float x, float y) { return __builtin_##NAME##f(x, y); }

OKL_HIP_BUILTIN_1(sqrt)
OKL_HIP_BUILTIN_1(fabs)
OKL_HIP_BUILTIN_1(floor)
OKL_HIP_BUILTIN_1(ceil)
OKL_HIP_BUILTIN_1(trunc)
OKL_HIP_BUILTIN_1(round)
OKL_HIP_BUILTIN_2(fmin)
OKL_HIP_BUILTIN_2(fmax)
OKL_HIP_BUILTIN_2(copysign)
OKL_HIP_FN double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
OKL_HIP_FN float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }

OKL_HIP_FN int abs(int x) { return __builtin_abs(x); }
OKL_HIP_FN long labs(long x) { return __builtin_labs(x); }
OKL_HIP_FN long long llabs(long long x) { return __builtin_llabs(x); }

/* Transcendentals live in the ROCm device library (declared, never linked here). */
#define OKL_HIP_OCML_1(NAME)                                                                   \
  extern "C" __device__ double __ocml_##NAME##_f64(double);                                    \
  extern "C" __device__ float __ocml_##NAME##_f32(float);                                      \
  OKL_HIP_FN double NAME(double x) { return __ocml_##NAME##_f64(x); }                          \
  OKL_HIP_FN float NAME##f(float x) { return __ocml_##NAME##_f32(x); }
#define OKL_HIP_OCML_2(NAME)                                                                   \
  extern "C" __device__ double __ocml_##NAME##_f64(double, double);                            \
  extern "C" __device__ float __ocml_##NAME##_f32(float, float);                               \
  OKL_HIP_FN double NAME(double x, double y) { return __ocml_##NAME##_f64(x, y); }             \
  OKL_HIP_FN float NAME##f(float x, float y) { return __ocml_##NAME##_f32(x, y); }

OKL_HIP_OCML_1(exp)
OKL_HIP_OCML_1(exp2)
OKL_HIP_OCML_1(log)
OKL_HIP_OCML_1(log2)
OKL_HIP_OCML_1(log10)
OKL_HIP_OCML_1(sin)
OKL_HIP_OCML_1(cos)
OKL_HIP_OCML_1(tan)
OKL_HIP_OCML_1(asin)
OKL_HIP_OCML_1(acos)
OKL_HIP_OCML_1(atan)
OKL_HIP_OCML_1(sinh)
OKL_HIP_OCML_1(cosh)
OKL_HIP_OCML_1(tanh)
OKL_HIP_OCML_1(rsqrt)
OKL_HIP_OCML_1(cbrt)
OKL_HIP_OCML_1(erf)
OKL_HIP_OCML_2(pow)
OKL_HIP_OCML_2(atan2)
OKL_HIP_OCML_2(fmod)
OKL_HIP_OCML_2(hypot)

/* ---- vector types ------------------------------------------------------------------------ */
/* CUDA's layout (x, y, z, w; 2- and 4-vectors aligned to min(size, 16), 3-vectors to their
 * component) and make_ constructors; real HIP's are classes with operators besides. */
#define OKL_HIP_VECTORS(T, N, A2, A4)                                                          \
  struct __attribute__((aligned(A2))) N##2 { T x, y; };                                        \
  struct N##3 { T x, y, z; };                                                                  \
  struct __attribute__((aligned(A4))) N##4 { T x, y, z, w; };                                  \
  OKL_HIP_FN N##2 make_##N##2(T x, T y) { return {x, y}; }                                     \
  OKL_HIP_FN N##3 make_##N##3(T x, T y, T z) { return {x, y, z}; }                             \
  OKL_HIP_FN N##4 make_##N##4(T x, T y, T z, T w) { return {x, y, z, w}; }

OKL_HIP_VECTORS(signed char, char, 2, 4)
OKL_HIP_VECTORS(unsigned char, uchar, 2, 4)
OKL_HIP_VECTORS(short, short, 4, 8)
OKL_HIP_VECTORS(unsigned short, ushort, 4, 8)
OKL_HIP_VECTORS(int, int, 8, 16)
OKL_HIP_VECTORS(unsigned int, uint, 8, 16)
OKL_HIP_VECTORS(long, long, 16, 16)
OKL_HIP_VECTORS(unsigned long, ulong, 16, 16)
OKL_HIP_VECTORS(long long, longlong, 16, 16)
OKL_HIP_VECTORS(unsigned long long, ulonglong, 16, 16)
OKL_HIP_VECTORS(float, float, 8, 16)
OKL_HIP_VECTORS(double, double, 16, 16)

/* CUDA/HIP min and max for any pair of arithmetic types, with the usual arithmetic conversions
 * (min(int, unsigned) is unsigned, min(float, double) is double), as the real overload sets. */
template <typename A, typename B>
OKL_HIP_FN auto min(A a, B b) -> decltype(a + b) {
  return b < a ? b : a;
}
template <typename A, typename B>
OKL_HIP_FN auto max(A a, B b) -> decltype(a + b) {
  return a < b ? b : a;
}

#endif /* OKL_HIP_SHIM_H */
