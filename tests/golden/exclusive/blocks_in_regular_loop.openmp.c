#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "blocks_in_regular_loop.okl"
static void iterate(const int nb, const int steps, float *x) {
  #pragma omp parallel for
#line 3 "blocks_in_regular_loop.okl"
  for (int b = 0; b < nb; ++b) {
    float r[16];
    #pragma GCC ivdep
#line 5 "blocks_in_regular_loop.okl"
    for (int t = 0; t < 16; ++t) {
      r[t] = x[b * 16 + t];
    }
    for (int s = 0; s < steps; ++s) {
      #pragma GCC ivdep
#line 9 "blocks_in_regular_loop.okl"
      for (int t = 0; t < 16; ++t) {
        r[t] = 0.5f * r[t] + 1.0f;
      }
    }
    #pragma GCC ivdep
#line 13 "blocks_in_regular_loop.okl"
    for (int t = 0; t < 16; ++t) {
      x[b * 16 + t] = r[t];
    }
  }
}

#line 2 "blocks_in_regular_loop.okl"
void _okl_entry_iterate(void **args) {
  iterate(*((const int *) args[0]), *((const int *) args[1]), (float *) args[2]);
}
