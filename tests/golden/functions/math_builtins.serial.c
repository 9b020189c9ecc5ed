#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "math_builtins.okl"
void mathOps(const int n, const float *x, const double *y, float *fx, double *fy) {
  for (int b = 0; b < n; ++b) {
    for (int t = 0; t < 32; ++t) {
      const int i = b * 32 + t;
      fx[i] = sqrtf(fabsf(x[i])) + expf(-x[i]) + sinf(x[i]) * cosf(x[i]) + powf(x[i], 2.0f) + fmaxf(x[i], 0.0f) + floorf(x[i]) + logf(1.0f + fabsf(x[i]));
#line 8 "math_builtins.okl"
      fy[i] = sqrt(fabs(y[i])) + exp(-y[i]) + tanh(y[i]) + pow(y[i], 3.0) + fmin(y[i], 1.0) + ceil(y[i]) + atan2(y[i], 2.0);
    }
  }
}

#line 2 "math_builtins.okl"
void _okl_entry_mathOps(void **args) {
  mathOps(*((const int *) args[0]), (const float *) args[1], (const double *) args[2], (float *) args[3], (double *) args[4]);
}
