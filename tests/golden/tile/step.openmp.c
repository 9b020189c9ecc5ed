#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "step.okl"
static void everyOther(const int n, float *x) {
  #pragma omp parallel for simd
#line 3 "step.okl"
  for (int i = 0; i < n; i += 2) {
    x[i] = 0.0f;
  }
}

#line 2 "step.okl"
void _okl_entry_everyOther(void **args) {
  everyOther(*((const int *) args[0]), (float *) args[1]);
}
