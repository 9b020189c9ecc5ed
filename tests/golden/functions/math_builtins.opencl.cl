#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#line 3 "math_builtins.okl"
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void _okl_mathOps_0(const int n, __global const float *x, __global const double *y, __global float *fx, __global double *fy, __global int *k, ulong _okl_off_x, ulong _okl_off_y, ulong _okl_off_fx, ulong _okl_off_fy, ulong _okl_off_k) {
  x += _okl_off_x;
  y += _okl_off_y;
  fx += _okl_off_fx;
  fy += _okl_off_fy;
  k += _okl_off_k;
  {
#line 5 "math_builtins.okl"
    int b = get_group_id(0);
    {
#line 6 "math_builtins.okl"
      int t = get_local_id(0);
      const int i = b * 32 + t;
      fx[i] = sqrt(fabs(x[i])) + exp(-x[i]) + sin(x[i]) * cos(x[i]) + pow(x[i], 2.0f) + fmax(x[i], 0.0f) + floor(x[i]) + log(1.0f + fabs(x[i]));
#line 10 "math_builtins.okl"
      fy[i] = sqrt(fabs(y[i])) + exp(-y[i]) + tanh(y[i]) + pow(y[i], 3.0) + fmin(y[i], 1.0) + ceil(y[i]) + atan2(y[i], 2.0);
#line 12 "math_builtins.okl"
      fx[i] += min(x[i], 1.0f) + max(0.0f, rsqrt(1.0f + x[i] * x[i]));
      k[i] = max(min(i, 7), t) + abs(t - 16);
    }
  }
}
