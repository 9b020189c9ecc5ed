#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 2 "casts.okl"
static __global float *row(__global float *a, const int i) {
#line 2 "casts.okl"
  return a + 4 * i;
}

#line 4 "casts.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_castValues_0(const int n, __global const double *x, __global int *truncated, __global float *rows, ulong _okl_off_x, ulong _okl_off_truncated, ulong _okl_off_rows) {
  x += _okl_off_x;
  truncated += _okl_off_truncated;
  rows += _okl_off_rows;
  {
#line 5 "casts.okl"
    int b = get_group_id(0);
    {
#line 6 "casts.okl"
      int t = get_local_id(0);
      const int i = b * 32 + t;
      if (i < n) {
        truncated[i] = ((int) x[i]) + 2 * ((int) (x[i] * 0.5));
        __global float *r = (__global float *) row(rows, i);
        r[0] = ((__global float *) r)[1] + ((float) x[i]);
      }
    }
  }
}
