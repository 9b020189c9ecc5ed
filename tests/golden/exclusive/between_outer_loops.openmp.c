#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "between_outer_loops.okl"
static void scaleGroups(const int groups, const float *x, float *y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for
#line 5 "between_outer_loops.okl"
  for (int _okl_tiled_g = 0; _okl_tiled_g < groups; _okl_tiled_g += 2) {
#line 5 "between_outer_loops.okl"
    if (*_okl_stop)
      continue;
#line 5 "between_outer_loops.okl"
    for (int g = _okl_tiled_g; g < _okl_tiled_g + 2; ++g) {
#line 5 "between_outer_loops.okl"
      if (g < groups) {
        if (g % 3 != 1) {
#line 8 "between_outer_loops.okl"
          for (int b = 0; b < 2; ++b) {
#line 7 "between_outer_loops.okl"
            float r[8];
            #pragma GCC ivdep
            for (int t = 0; t < 8; ++t) {
              r[t] = x[(g * 2 + b) * 8 + t];
            }
            #pragma GCC ivdep
#line 12 "between_outer_loops.okl"
            for (int t = 0; t < 8; ++t) {
              y[(g * 2 + b) * 8 + t] = 2.0f * r[t] + ((float) t);
            }
          }
        }
      }
    }
  }
}

#line 4 "between_outer_loops.okl"
void _okl_entry_scaleGroups(void **args, volatile sig_atomic_t *stop) {
  scaleGroups(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
