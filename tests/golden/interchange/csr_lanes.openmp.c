#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }
#if defined(__GNUC__) && !defined(__clang__) && defined(__AVX512F__)
#define _okl_narrow_vectors __attribute__((target("prefer-vector-width=256")))
#else
#define _okl_narrow_vectors
#endif

#line 6 "csr_lanes.okl"
_okl_narrow_vectors static void csrLanes(const int n, const int *rowPtr, const int *col, const float *A, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for
  for (int g = 0; g < n; g += 2) {
#line 8 "csr_lanes.okl"
    if (*_okl_stop)
      continue;
#line 9 "csr_lanes.okl"
    for (int r = 0; r < 2; ++r) {
      {
        const int i = g + r;
        if (i < n) {
#line 15 "csr_lanes.okl"
          const int end = rowPtr[i + 1];
#line 14 "csr_lanes.okl"
          float acc__x[12];
          #pragma GCC ivdep
#line 10 "csr_lanes.okl"
          for (int t = 0; t < 12; ++t) {
#line 13 "csr_lanes.okl"
            const int l = t / 4;
            acc__x[t] = 1.0f;
          }
          for (int m = rowPtr[i]; m < end; ++m) {
            #pragma GCC ivdep
            #pragma GCC unroll 3
#line 10 "csr_lanes.okl"
            for (int t__hi = 0; t__hi < 3; ++t__hi) {
              #pragma GCC ivdep
#line 10 "csr_lanes.okl"
              for (int t__lo = 0; t__lo < 4; ++t__lo) {
#line 10 "csr_lanes.okl"
                const int t = t__hi * 4 + t__lo;
#line 13 "csr_lanes.okl"
                const int l = t__hi;
#line 17 "csr_lanes.okl"
                acc__x[t] += A[m * 12 + t] * x[col[m] * 3 + l];
              }
            }
          }
          #pragma GCC ivdep
#line 10 "csr_lanes.okl"
          for (int t = 0; t < 12; ++t) {
#line 19 "csr_lanes.okl"
            y[i * 12 + t] = acc__x[t];
          }
        }
      }
    }
  }
}

#line 6 "csr_lanes.okl"
void _okl_entry_csrLanes(void **args, volatile sig_atomic_t *stop) {
  csrLanes(*((const int *) args[0]), (const int *) args[1], (const int *) args[2], (const float *) args[3], (const float *) args[4], (float *) args[5], stop);
}

#line 26 "csr_lanes.okl"
static void odd(const int n, const int *rowPtr, const float *A, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 27 "csr_lanes.okl"
  for (int i = 0; i < n; ++i) {
#line 27 "csr_lanes.okl"
    if (*_okl_stop)
      continue;
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
void _okl_entry_odd(void **args, volatile sig_atomic_t *stop) {
  odd(*((const int *) args[0]), (const int *) args[1], (const float *) args[2], (float *) args[3], stop);
}

#line 39 "csr_lanes.okl"
static void rows(const int n, const int m, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 40 "csr_lanes.okl"
  for (int i = 0; i < n; ++i) {
#line 40 "csr_lanes.okl"
    if (*_okl_stop)
      continue;
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
void _okl_entry_rows(void **args, volatile sig_atomic_t *stop) {
  rows(*((const int *) args[0]), *((const int *) args[1]), (const float *) args[2], (float *) args[3], stop);
}
