#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 7 "slab_prefetch.okl"
static void slab(const int E, const double * restrict g, const double * restrict q, double * restrict out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < E)
  for (int e = 0; e < E; ++e) {
#line 9 "slab_prefetch.okl"
    if (*_okl_stop)
      continue;
#line 10 "slab_prefetch.okl"
    double s_a[4][4];
#line 10 "slab_prefetch.okl"
    double s_a__t[4][4];
    for (int k = 0; k < 4; ++k) {
#line 11 "slab_prefetch.okl"
      if (k + 1 < 4 || e + 1 < E) {
#line 11 "slab_prefetch.okl"
        const int g__next = (k + 1 < 4) ? (e * 128 + (k + 1) * 16) : ((e + 1) * 128);
#line 11 "slab_prefetch.okl"
        for (int l = 0; l < 16; l += 8) {
          __builtin_prefetch(&g[g__next + l]);
          __builtin_prefetch(&g[g__next + 64 + l]);
        }
#line 11 "slab_prefetch.okl"
        const int q__next = (k + 1 < 4) ? (e * 64 + (k + 1) * 16) : ((e + 1) * 64);
#line 11 "slab_prefetch.okl"
        for (int l = 0; l < 16; l += 8)
          __builtin_prefetch(&q[q__next + l]);
      }
#line 12 "slab_prefetch.okl"
      for (int j = 0; j < 4; ++j) {
        #pragma GCC ivdep
#line 13 "slab_prefetch.okl"
        for (int i = 0; i < 4; ++i) {
          const int n = e * 2 * 4 * 4 * 4 + k * 4 * 4 + j * 4 + i;
          s_a[j][i] = g[n] * q[((e * 4 + k) * 4 + j) * 4 + i] + g[n + 4 * 4 * 4];
#line 15 "slab_prefetch.okl"
          s_a__t[i][j] = s_a[j][i];
        }
      }
      for (int j = 0; j < 4; ++j) {
        #pragma GCC ivdep
#line 19 "slab_prefetch.okl"
        for (int i = 0; i < 4; ++i) {
          out[((e * 4 + k) * 4 + j) * 4 + i] = s_a__t[j][i] - 2 * s_a[j][i];
        }
      }
    }
  }
}

#line 7 "slab_prefetch.okl"
void _okl_entry_slab(void **args, volatile sig_atomic_t *stop) {
  slab(*((const int *) args[0]), (const double *) args[1], (const double *) args[2], (double *) args[3], stop);
}
