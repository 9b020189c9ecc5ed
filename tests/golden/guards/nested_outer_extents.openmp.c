#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "nested_outer_extents.okl"
static void twoGrids(const int nz, const int na, const int nb2, float *a, float *b, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nz)
#line 4 "nested_outer_extents.okl"
  for (int z = 0; z < nz; ++z) {
#line 4 "nested_outer_extents.okl"
    if (*_okl_stop)
      continue;
#line 5 "nested_outer_extents.okl"
    for (int i = 0; i < na; ++i) {
      #pragma GCC ivdep
#line 6 "nested_outer_extents.okl"
      for (int t = 0; t < 16; ++t) {
        a[(z * na + i) * 16 + t] = 1.0f;
      }
    }
    for (int j = 0; j < nb2; ++j) {
      #pragma GCC ivdep
#line 11 "nested_outer_extents.okl"
      for (int t = 0; t < 16; ++t) {
        b[(z * nb2 + j) * 16 + t] = 2.0f;
      }
    }
  }
}

#line 3 "nested_outer_extents.okl"
void _okl_entry_twoGrids(void **args, volatile sig_atomic_t *stop) {
  twoGrids(*((const int *) args[0]), *((const int *) args[1]), *((const int *) args[2]), (float *) args[3], (float *) args[4], stop);
}
