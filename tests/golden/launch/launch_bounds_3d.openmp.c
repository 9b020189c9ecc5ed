#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "launch_bounds_3d.okl"
static void cube(const int ne, double *v, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ne)
#line 3 "launch_bounds_3d.okl"
  for (int e = 0; e < ne; ++e) {
#line 3 "launch_bounds_3d.okl"
    if (*_okl_stop)
      continue;
#line 4 "launch_bounds_3d.okl"
    for (int k = 0; k < 2; ++k) {
      for (int j = 0; j < 4; ++j) {
        #pragma GCC ivdep
#line 6 "launch_bounds_3d.okl"
        for (int i = 0; i < 8; ++i) {
          v[((e * 2 + k) * 4 + j) * 8 + i] = i + 10 * j + 100 * k;
        }
      }
    }
  }
}

#line 2 "launch_bounds_3d.okl"
void _okl_entry_cube(void **args, volatile sig_atomic_t *stop) {
  cube(*((const int *) args[0]), (double *) args[1], stop);
}
