#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 6 "csr_lanes.okl"
static void csrLanes(const int n, const int *rowPtr, const int *col, const float *A, const float *x, float *y) {
#line 8 "csr_lanes.okl"
  for (int g = 0; g < n; g += 2) {
    for (int r = 0; r < 2; ++r) {
      #pragma GCC ivdep
#line 10 "csr_lanes.okl"
      for (int t = 0; t < (((int) (g + r)) < n) * 12; ++t) {
        const int i = g + r;
        {
          const int l = t / 4;
          float acc = 1.0f;
          const int end = rowPtr[i + 1];
          for (int m = rowPtr[i]; m < end; ++m) {
            acc += A[m * 12 + t] * x[col[m] * 3 + l];
          }
          y[i * 12 + t] = acc;
        }
      }
    }
  }
}

#line 6 "csr_lanes.okl"
void _okl_entry_csrLanes(void **args) {
  csrLanes(*((const int *) args[0]), (const int *) args[1], (const int *) args[2], (const float *) args[3], (const float *) args[4], (float *) args[5]);
}

#line 26 "csr_lanes.okl"
static void odd(const int n, const int *rowPtr, const float *A, float *y) {
  for (int i = 0; i < n; ++i) {
    #pragma GCC ivdep
#line 28 "csr_lanes.okl"
    for (int t = 0; t < 12; ++t) {
      float acc = 0.0f;
      for (int m = rowPtr[i]; m < rowPtr[i + 1]; ++m) {
        if (A[m * 12 + t] < 0.0f) break;
        acc += A[m * 12 + t];
      }
      y[i * 12 + t] = acc;
    }
  }
}

#line 26 "csr_lanes.okl"
void _okl_entry_odd(void **args) {
  odd(*((const int *) args[0]), (const int *) args[1], (const float *) args[2], (float *) args[3]);
}

#line 39 "csr_lanes.okl"
static void rows(const int n, const int m, const float *x, float *y) {
  for (int i = 0; i < n; ++i) {
    #pragma GCC ivdep
#line 41 "csr_lanes.okl"
    for (int t = 0; t < 12; ++t) {
      float acc = 0.0f;
      for (int k = 0; k < m; ++k) {
        acc += x[(i * 12 + t) * m + k];
      }
      y[i * 12 + t] = acc;
    }
  }
}

#line 39 "csr_lanes.okl"
void _okl_entry_rows(void **args) {
  rows(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3]);
}
