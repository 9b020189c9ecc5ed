#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "partial_explicit.okl"
static void partial(const int n, const int m, int *ids) {
  #pragma omp parallel for collapse(2)
#line 3 "partial_explicit.okl"
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < n; ++i) {
      for (int y = 0; y < 3; ++y) {
        #pragma GCC ivdep
#line 6 "partial_explicit.okl"
        for (int x = 0; x < 5; ++x) {
          ids[((j * n + i) * 3 + y) * 5 + x] = x + 5 * y;
        }
      }
    }
  }
}

#line 2 "partial_explicit.okl"
void _okl_entry_partial(void **args) {
  partial(*((const int *) args[0]), *((const int *) args[1]), (int *) args[2]);
}
