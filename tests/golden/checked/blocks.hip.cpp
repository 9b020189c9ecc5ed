#include <hip/hip_runtime.h>

inline __device__ static void _okl_fail(int *err, int id, long i, long n) {
  if (atomicCAS(err, 0, id + 1) == 0) {
    err[2] = (int) i;
    err[3] = (int) (i >> 32);
    err[4] = (int) n;
    err[5] = (int) (n >> 32);
  }
}

inline __device__ static const double *_okl_at_blocksum_1(const double *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (const double *) (err + 8 + w * 8);
}

inline __device__ static double *_okl_at_blocksum_2(double *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (double *) (err + 8 + w * 8);
}

inline __device__ static double *_okl_at_blocksum_3(double *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (double *) (err + 8 + w * 8);
}

#line 3 "blocks.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_blocksum_0(const int n, const double *a, double *partial, double *out, long _okl_n_a, long _okl_n_partial, long _okl_n_out, int *_okl_err) {
  {
#line 4 "blocks.okl"
    int b = blockIdx.x;
    __shared__ double s[16];
    {
#line 6 "blocks.okl"
      int t = threadIdx.x;
      const int i = 16 * b + t;
      s[t] = (i < n) ? (*_okl_at_blocksum_1(a, i, _okl_n_a, 0, _okl_err, 0)) : (0.0);
    }
    __syncthreads();
    {
#line 10 "blocks.okl"
      int t = threadIdx.x;
      if (t == 0) {
        double sum = 0;
        for (int k = 0; k < 16; ++k) sum += s[k];
        *_okl_at_blocksum_2(partial, b, _okl_n_partial, 1, _okl_err, 1) = sum;
      }
    }
  }
}

#line 3 "blocks.okl"
extern "C" __global__ __launch_bounds__(1) void _okl_blocksum_1(const int n, const double *a, double *partial, double *out, long _okl_n_a, long _okl_n_partial, long _okl_n_out, int *_okl_err) {
  {
    {
#line 19 "blocks.okl"
      int t = threadIdx.x;
      double sum = 0;
      for (int b = 0; b < (n + 15) / 16; ++b) sum += *_okl_at_blocksum_2(partial, b, _okl_n_partial, 2, _okl_err, 0);
      *_okl_at_blocksum_3(out, t, _okl_n_out, 3, _okl_err, 1) = sum;
    }
  }
}
