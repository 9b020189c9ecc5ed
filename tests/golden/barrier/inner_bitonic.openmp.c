#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "inner_bitonic.okl"
static void bitonic(const int nb, float *keys, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 4 "inner_bitonic.okl"
  for (int b = 0; b < nb; ++b) {
#line 4 "inner_bitonic.okl"
    if (*_okl_stop)
      continue;
#line 5 "inner_bitonic.okl"
    float s[64];
    #pragma GCC ivdep
#line 6 "inner_bitonic.okl"
    for (int t = 0; t < 64; ++t) {
      s[t] = keys[b * 64 + t];
    }
#line 8 "inner_bitonic.okl"
    for (int k = 2; k <= 64; k *= 2) {
      for (int j = k / 2; j > 0; j /= 2) {
        #pragma GCC ivdep
#line 6 "inner_bitonic.okl"
        for (int t = 0; t < 64; ++t) {
#line 11 "inner_bitonic.okl"
          const int partner = t ^ j;
          if (partner > t) {
            const bool up = (t & k) == 0;
            const float a = s[t];
#line 14 "inner_bitonic.okl"
            const float c = s[partner];
            if (a > c == up) {
              s[t] = c;
              s[partner] = a;
            }
          }
        }
      }
    }
    #pragma GCC ivdep
#line 6 "inner_bitonic.okl"
    for (int t = 0; t < 64; ++t) {
#line 23 "inner_bitonic.okl"
      keys[b * 64 + t] = s[t];
    }
  }
}

#line 3 "inner_bitonic.okl"
void _okl_entry_bitonic(void **args, volatile sig_atomic_t *stop) {
  bitonic(*((const int *) args[0]), (float *) args[1], stop);
}
