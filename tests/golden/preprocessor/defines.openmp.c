#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 5 "defines.okl"
static void massMatrix(const int Nelements, const double *q, double *Mq, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < Nelements)
#line 6 "defines.okl"
  for (int e = 0; e < Nelements; ++e) {
#line 6 "defines.okl"
    if (*_okl_stop)
      continue;
#line 7 "defines.okl"
    double s_q[8 * 8];
    for (int j = 0; j < 8; ++j) {
      #pragma GCC ivdep
#line 9 "defines.okl"
      for (int i = 0; i < 8; ++i) {
        s_q[i + 8 * j] = q[e * 64 + (i + 8 * j)];
      }
    }
    for (int j = 0; j < 8; ++j) {
      #pragma GCC ivdep
#line 14 "defines.okl"
      for (int i = 0; i < 8; ++i) {
        Mq[e * 64 + (i + 8 * j)] = 0.5 * s_q[8 - 1 - i + 8 * j];
      }
    }
  }
}

#line 5 "defines.okl"
void _okl_entry_massMatrix(void **args, volatile sig_atomic_t *stop) {
  massMatrix(*((const int *) args[0]), (const double *) args[1], (double *) args[2], stop);
}
