
#line 3 "math_builtins.okl"
extern "C" __global__ __launch_bounds__(32) void _okl_mathOps_0(const int n, const float *x, const double *y, float *fx, double *fy, int *k) {
  {
    int b = blockIdx.x;
    {
#line 6 "math_builtins.okl"
      int t = threadIdx.x;
      const int i = b * 32 + t;
      fx[i] = sqrtf(fabsf(x[i])) + expf(-x[i]) + sinf(x[i]) * cosf(x[i]) + powf(x[i], 2.0f) + fmaxf(x[i], 0.0f) + floorf(x[i]) + logf(1.0f + fabsf(x[i]));
#line 10 "math_builtins.okl"
      fy[i] = sqrt(fabs(y[i])) + exp(-y[i]) + tanh(y[i]) + pow(y[i], 3.0) + fmin(y[i], 1.0) + ceil(y[i]) + atan2(y[i], 2.0);
#line 12 "math_builtins.okl"
      fx[i] += min(x[i], 1.0f) + max(0.0f, rsqrtf(1.0f + x[i] * x[i]));
      k[i] = max(min(i, 7), t) + abs(t - 16);
    }
  }
}
