#pragma OPENCL EXTENSION cl_khr_fp64 : enable

inline static void _okl_fail(__global int *err, int id, long i, long n) {
  if (atomic_cmpxchg(err, 0, id + 1) == 0) {
    err[2] = (int) i;
    err[3] = (int) (i >> 32);
    err[4] = (int) n;
    err[5] = (int) (n >> 32);
  }
}

inline static __global const double *_okl_at_blocksum_1(__global const double *x, long i, long n, int id, __global int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (__global const double *) (err + 8 + w * 8);
}

inline static __global double *_okl_at_blocksum_2(__global double *x, long i, long n, int id, __global int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (__global double *) (err + 8 + w * 8);
}

inline static __global double *_okl_at_blocksum_3(__global double *x, long i, long n, int id, __global int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (__global double *) (err + 8 + w * 8);
}

#line 3 "blocks.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_blocksum_0(const int n, __global const double *a, __global double *partial, __global double *out, long _okl_n_a, long _okl_n_partial, long _okl_n_out, __global int *_okl_err, ulong _okl_off_a, ulong _okl_off_partial, ulong _okl_off_out, ulong _okl_off__okl_err) {
#line 5 "blocks.okl"
  __local double s[16];
  a += _okl_off_a;
  partial += _okl_off_partial;
  out += _okl_off_out;
  _okl_err += _okl_off__okl_err;
  {
#line 4 "blocks.okl"
    int b = get_group_id(0);
    {
      int t = get_local_id(0);
      const int i = 16 * b + t;
      s[t] = (i < n) ? (*_okl_at_blocksum_1(a, i, _okl_n_a, 0, _okl_err, 0)) : (0.0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 10 "blocks.okl"
      int t = get_local_id(0);
      if (t == 0) {
        double sum = 0;
        for (int k = 0; k < 16; ++k) sum += s[k];
        *_okl_at_blocksum_2(partial, b, _okl_n_partial, 1, _okl_err, 1) = sum;
      }
    }
  }
}

#line 3 "blocks.okl"
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void _okl_blocksum_1(const int n, __global const double *a, __global double *partial, __global double *out, long _okl_n_a, long _okl_n_partial, long _okl_n_out, __global int *_okl_err, ulong _okl_off_a, ulong _okl_off_partial, ulong _okl_off_out, ulong _okl_off__okl_err) {
  a += _okl_off_a;
  partial += _okl_off_partial;
  out += _okl_off_out;
  _okl_err += _okl_off__okl_err;
  {
    {
#line 19 "blocks.okl"
      int t = get_local_id(0);
      double sum = 0;
      for (int b = 0; b < (n + 15) / 16; ++b) sum += *_okl_at_blocksum_2(partial, b, _okl_n_partial, 2, _okl_err, 0);
      *_okl_at_blocksum_3(out, t, _okl_n_out, 3, _okl_err, 1) = sum;
    }
  }
}
