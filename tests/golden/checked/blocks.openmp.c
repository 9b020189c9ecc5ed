#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

inline static void _okl_fail(int *err, int id, long i, long n) {
  #pragma omp critical (okl_check)
  {
    if (err[0] == 0 && (err[0] = id + 1)) {
      err[2] = (int) i;
      err[3] = (int) (i >> 32);
      err[4] = (int) n;
      err[5] = (int) (n >> 32);
    }
  }
}

inline static const double *_okl_at_blocksum_1(const double *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (const double *) (err + 8 + w * 8);
}

inline static double *_okl_at_blocksum_2(double *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (double *) (err + 8 + w * 8);
}

inline static double *_okl_at_blocksum_3(double *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (double *) (err + 8 + w * 8);
}

#line 3 "blocks.okl"
static void blocksum(const int n, const double a[], double *partial, double *out, long _okl_n_a, long _okl_n_partial, long _okl_n_out, int *_okl_err, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((n + 15) / 16))
#line 4 "blocks.okl"
  for (int b = 0; b < (n + 15) / 16; ++b) {
#line 4 "blocks.okl"
    if (*_okl_stop)
      continue;
#line 5 "blocks.okl"
    double s[16];
    for (int t = 0; t < 16; ++t) {
      const int i = 16 * b + t;
      s[t] = (i < n) ? (*_okl_at_blocksum_1(a, i, _okl_n_a, 0, _okl_err, 0)) : (0.0);
    }
    for (int t = 0; t < 1; ++t) {
#line 12 "blocks.okl"
      double sum = 0;
      for (int k = 0; k < 16; ++k) sum += s[k];
      *_okl_at_blocksum_2(partial, b, _okl_n_partial, 1, _okl_err, 1) = sum;
    }
  }
#line 18 "blocks.okl"
  for (int o = 0; o < 1; ++o) {
#line 18 "blocks.okl"
    if (*_okl_stop)
      break;
#line 19 "blocks.okl"
    for (int t = 0; t < 1; ++t) {
      double sum = 0;
      for (int b = 0; b < (n + 15) / 16; ++b) sum += *_okl_at_blocksum_2(partial, b, _okl_n_partial, 2, _okl_err, 0);
      *_okl_at_blocksum_3(out, t, _okl_n_out, 3, _okl_err, 1) = sum;
    }
  }
}

#line 3 "blocks.okl"
void _okl_entry_blocksum(void **args, volatile sig_atomic_t *stop) {
  blocksum(*((const int *) args[0]), (const double *) args[1], (double *) args[2], (double *) args[3], *((long *) args[4]), *((long *) args[5]), *((long *) args[6]), (int *) args[7], stop);
}
