#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 6 "mixed_spaces.okl"
static double sum3(const double *v, const int i);

static double sum3(const double *v, const int i) {
  return v[i] + v[i + 1] + v[i + 2];
}

static void axpy3(double *y, const double *x, const double a) {
  for (int k = 0; k < 3; ++k) y[k] += a * x[k];
}

static void mix(const int n, const double *x, double *out, volatile sig_atomic_t *_okl_stop) {
  for (int b = 0; b < n; b += 16) {
#line 17 "mixed_spaces.okl"
    if (*_okl_stop)
      break;
#line 18 "mixed_spaces.okl"
    double s_x[16 + 2];
    double e[16][3];
    #pragma GCC ivdep
#line 20 "mixed_spaces.okl"
    for (int t = 0; t < 16; ++t) {
      const int i = b + t;
      s_x[t] = (i < n) ? (x[i]) : (0.0);
      if (t < 2) s_x[16 + t] = (i + 16 < n) ? (x[i + 16]) : (0.0);
    }
    #pragma GCC ivdep
#line 25 "mixed_spaces.okl"
    for (int t = 0; t < 16; ++t) {
      const int i = b + t;
      double r[3];
      for (int k = 0; k < 3; ++k) {
        r[k] = k;
        e[t][k] = 2.0 * k;
      }
      axpy3(r, e[t], 1.0);
      axpy3(&r[0], s_x + t, 0.5);
      if (i + 2 < n) out[i] = sum3(s_x, t) + sum3(r, 0) + sum3(e[t], 0) + sum3(x, i);
    }
  }
}

#line 16 "mixed_spaces.okl"
void _okl_entry_mix(void **args, volatile sig_atomic_t *stop) {
  mix(*((const int *) args[0]), (const double *) args[1], (double *) args[2], stop);
}
