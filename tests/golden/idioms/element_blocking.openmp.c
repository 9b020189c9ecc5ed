#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 9 "element_blocking.okl"
static void scaleElements(const int Nelements, const int *elementIds, const double *wJ, double *q, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for
  for (int eo = 0; eo < Nelements; eo += 4) {
#line 11 "element_blocking.okl"
    if (*_okl_stop)
      continue;
#line 12 "element_blocking.okl"
    double s_w[4];
    int r_e[64];
#line 13 "element_blocking.okl"
    int element[64];
#line 15 "element_blocking.okl"
    for (int es = 0; es < 4; ++es) {
      #pragma GCC ivdep
#line 16 "element_blocking.okl"
      for (int n = 0; n < 16; ++n) {
        r_e[n + 16 * es] = eo + es;
        element[n + 16 * es] = (r_e[n + 16 * es] < Nelements) ? (elementIds[r_e[n + 16 * es]]) : (-1);
        if (n == 0 && element[n + 16 * es] >= 0) s_w[es] = wJ[element[n + 16 * es]];
      }
    }
#line 23 "element_blocking.okl"
    for (int es = 0; es < 4; ++es) {
      for (int n = 0; n < 16; ++n) {
        if (element[n + 16 * es] >= 0) q[element[n + 16 * es] * 16 + n] *= s_w[es];
      }
    }
  }
}

#line 9 "element_blocking.okl"
void _okl_entry_scaleElements(void **args, volatile sig_atomic_t *stop) {
  scaleElements(*((const int *) args[0]), (const int *) args[1], (const double *) args[2], (double *) args[3], stop);
}
