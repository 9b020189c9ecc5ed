#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "pragma_unroll.okl"
static void contract(const int ne, const float *D, const float *u, float *du, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ne)
#line 5 "pragma_unroll.okl"
  for (int e = 0; e < ne; ++e) {
#line 5 "pragma_unroll.okl"
    if (*_okl_stop)
      continue;
#line 6 "pragma_unroll.okl"
    float s_D[8][8];
    float s_u[8];
    #pragma GCC ivdep
#line 8 "pragma_unroll.okl"
    for (int i = 0; i < 8; ++i) {
      #pragma GCC unroll 8
      for (int j = 0; j < 8; ++j) s_D[i][j] = D[i * 8 + j];
      s_u[i] = u[e * 8 + i];
    }
    #pragma GCC ivdep
#line 13 "pragma_unroll.okl"
    for (int i = 0; i < 8; ++i) {
      float r = 0.0f;
#line 16 "pragma_unroll.okl"
      for (int j = 0; j < 8; ++j) {
        r += s_D[i][j] * s_u[j];
      }
      du[e * 8 + i] = r;
    }
  }
}

#line 4 "pragma_unroll.okl"
void _okl_entry_contract(void **args, volatile sig_atomic_t *stop) {
  contract(*((const int *) args[0]), (const float *) args[1], (const float *) args[2], (float *) args[3], stop);
}
