#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 2 "decreasing.okl"
static void downTiles(const int n, int *x) {
  #pragma GCC ivdep
#line 3 "decreasing.okl"
  for (int i = n - 1; i >= 0; --i) {
    x[i] = n - 1 - i;
  }
}

#line 2 "decreasing.okl"
void _okl_entry_downTiles(void **args) {
  downTiles(*((const int *) args[0]), (int *) args[1]);
}
