#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "multiple_declarators.okl"
static void manyNames(const int nb, const int *ids, float *x, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 3 "multiple_declarators.okl"
  for (int b = 0; b < nb; ++b) {
#line 3 "multiple_declarators.okl"
    if (*_okl_stop)
      continue;
#line 4 "multiple_declarators.okl"
    int r_e[16];
#line 4 "multiple_declarators.okl"
    int r_pair[2][16];
    float *r_row[16];
    #pragma GCC ivdep
#line 6 "multiple_declarators.okl"
    for (int t = 0; t < 16; ++t) {
      r_e[t] = ids[b * 16 + t];
      r_pair[0][t] = r_e[t];
      r_pair[1][t] = r_e[t] + 1;
      r_row[t] = x + r_e[t] * 4;
    }
    #pragma GCC ivdep
#line 12 "multiple_declarators.okl"
    for (int t = 0; t < 16; ++t) {
      r_row[t][0] = (float) (r_pair[0][t] + r_pair[1][t]);
    }
  }
}

#line 2 "multiple_declarators.okl"
void _okl_entry_manyNames(void **args, volatile sig_atomic_t *stop) {
  manyNames(*((const int *) args[0]), (const int *) args[1], (float *) args[2], stop);
}
