#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "outer_in_host_loop.okl"
static void smooth(const int n, const int iterations, float *u, float *tmp) {
  for (int it = 0; it < iterations; ++it) {
    const float w = 1.0f / (it + 2);
    for (int b = 0; b < n; ++b) {
      #pragma GCC ivdep
#line 7 "outer_in_host_loop.okl"
      for (int t = 0; t < 32; ++t) {
        const int i = b * 32 + t;
        tmp[i] = u[i] + w * (u[(i + 1) % (32 * n)] - u[i]);
      }
    }
    for (int b = 0; b < n; ++b) {
      #pragma GCC ivdep
#line 13 "outer_in_host_loop.okl"
      for (int t = 0; t < 32; ++t) {
        u[b * 32 + t] = tmp[b * 32 + t] + it;
      }
    }
  }
}

#line 3 "outer_in_host_loop.okl"
void _okl_entry_smooth(void **args) {
  smooth(*((const int *) args[0]), *((const int *) args[1]), (float *) args[2], (float *) args[3]);
}
