#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "size_t_param.okl"
static void sized(const size_t n, float *x) {
  for (size_t b = 0; b < n; ++b) {
    #pragma GCC ivdep
#line 5 "size_t_param.okl"
    for (int t = 0; t < 16; ++t) {
      x[b * 16 + t] = 0.0f;
    }
  }
}

#line 3 "size_t_param.okl"
void _okl_entry_sized(void **args) {
  sized(*((const size_t *) args[0]), (float *) args[1]);
}
