#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "const_arrays.okl"
static const int p_order = 3;

#line 3 "const_arrays.okl"
static const double gll_weights[4] = {1.0 / 6.0, 5.0 / 6.0, 5.0 / 6.0, 1.0 / 6.0};

#line 4 "const_arrays.okl"
static const float diff_matrix[2][2] = {{-0.5f, 0.5f}, {-0.5f, 0.5f}};

static void weights(const int ne, const double *u, double *wu, float *du, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ne)
#line 7 "const_arrays.okl"
  for (int e = 0; e < ne; ++e) {
#line 7 "const_arrays.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 8 "const_arrays.okl"
    for (int i = 0; i < 4; ++i) {
      wu[e * 4 + i] = gll_weights[i] * u[e * 4 + i] * p_order;
      if (i < 2) du[e * 2 + i] = diff_matrix[i][0] + diff_matrix[i][1];
    }
  }
}

#line 6 "const_arrays.okl"
void _okl_entry_weights(void **args, volatile sig_atomic_t *stop) {
  weights(*((const int *) args[0]), (const double *) args[1], (double *) args[2], (float *) args[3], stop);
}
