#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "step_decrement.okl"
static void countdown(const int n, int *x) {
  #pragma omp parallel for
#line 3 "step_decrement.okl"
  for (int b = n - 1; b >= 0; b -= 3) {
    #pragma GCC ivdep
#line 4 "step_decrement.okl"
    for (int t = 12; t > 0; t -= 4) {
      x[b * 3 + t / 4 - 1] = b + t;
    }
  }
}

#line 2 "step_decrement.okl"
void _okl_entry_countdown(void **args) {
  countdown(*((const int *) args[0]), (int *) args[1]);
}
