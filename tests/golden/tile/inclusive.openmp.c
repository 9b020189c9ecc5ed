#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "inclusive.okl"
static void upTo(const int last, float *x) {
  #pragma omp parallel for simd
#line 3 "inclusive.okl"
  for (int i = 1; i <= last; ++i) {
    x[i] = 1.0f / i;
  }
}

#line 2 "inclusive.okl"
void _okl_entry_upTo(void **args) {
  upTo(*((const int *) args[0]), (float *) args[1]);
}
