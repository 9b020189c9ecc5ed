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

#line 7 "shared_param.okl"
typedef struct
{
#line 7 "shared_param.okl"
  double u;
#line 7 "shared_param.okl"
  double v;
} flux_t;

#line 9 "shared_param.okl"
static const double weights[8] = {1, 2, 3, 4, 4, 3, 2, 1};

static void flux(const double q, flux_t *f) {
  f->u = q;
  f->v = 2.0 * q;
}

static double row_sum(const double *row) {
  double s = 0.0;
  for (int k = 0; k < 8; ++k) s += row[k];
  return s;
}

static double weighted(const double *w, double s_q[2][8], const int j) {
  const double *row = s_q[j];
  double s = 0.0;
  for (int k = 0; k < 8; ++k) s += w[k] * row[k];
  return s + row_sum(s_q[j]);
}

static void load(const int i, const double *q, double s_q[2][8]) {
  flux_t f;
  flux(q[i], &f);
  s_q[0][i] = f.u;
  s_q[1][i] = f.v;
}

_okl_narrow_vectors static void surface(const int ne, const double *q, double *out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ne)
#line 37 "shared_param.okl"
  for (int e = 0; e < ne; ++e) {
#line 37 "shared_param.okl"
    if (*_okl_stop)
      continue;
#line 38 "shared_param.okl"
    double s_q[2][8];
    #pragma GCC ivdep
#line 39 "shared_param.okl"
    for (int i = 0; i < 8; ++i) {
      load(i, q + e * 8, s_q);
    }
    #pragma GCC ivdep
    #pragma GCC unroll 4
#line 42 "shared_param.okl"
    for (int i__hi = 0; i__hi < 4; ++i__hi) {
      #pragma GCC ivdep
#line 42 "shared_param.okl"
      for (int i__lo = 0; i__lo < 2; ++i__lo) {
#line 42 "shared_param.okl"
        const int i = i__hi * 2 + i__lo;
        out[e * 8 + i] = weighted(weights, s_q, i__lo) + row_sum(q + e * 8);
      }
    }
  }
}

#line 36 "shared_param.okl"
void _okl_entry_surface(void **args, volatile sig_atomic_t *stop) {
  surface(*((const int *) args[0]), (const double *) args[1], (double *) args[2], stop);
}
