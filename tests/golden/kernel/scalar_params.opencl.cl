#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 2 "scalar_params.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_axpby_0(const int n, const unsigned int stride, const long offset, const float alpha, const double beta, const char flag, const short tag, __global const float *x, __global double *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 5 "scalar_params.okl"
    int b = get_group_id(0);
    {
#line 6 "scalar_params.okl"
      int t = get_local_id(0);
      const long i = offset + ((long) (b * 32 + t)) * stride;
      if (flag) {
        y[i] = alpha * x[i] + beta * y[i] + tag;
      } else {
        y[i] = beta * y[i];
      }
    }
  }
}
