#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "dim_typedef.okl"
typedef float *field3;

#line 5 "dim_typedef.okl"
typedef const float *cfield3;

static void gradient(const int ne, const float *u, field3 du, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ne)
#line 8 "dim_typedef.okl"
  for (int e = 0; e < ne; ++e) {
#line 8 "dim_typedef.okl"
    if (*_okl_stop)
      continue;
#line 9 "dim_typedef.okl"
    for (int j = 0; j < 4; ++j) {
      #pragma GCC ivdep
#line 10 "dim_typedef.okl"
      for (int i = 0; i < 4; ++i) {
        cfield3 ue = u + e * 4 * 4 * 4;
        for (int k = 0; k < 4; ++k) {
          du[i + 4 * (j + 4 * (k + e * 4))] = ue[(i + 1) % 4 + 4 * (j + 4 * k)] - ue[i + 4 * (j + 4 * k)];
        }
      }
    }
  }
}

#line 7 "dim_typedef.okl"
void _okl_entry_gradient(void **args, volatile sig_atomic_t *stop) {
  gradient(*((const int *) args[0]), (const float *) args[1], (field3) args[2], stop);
}
