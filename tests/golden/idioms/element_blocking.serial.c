#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 9 "element_blocking.okl"
static void scaleElements(const int Nelements, const int *elementIds, const double *wJ, double *q) {
#line 11 "element_blocking.okl"
  for (int eo = 0; eo < Nelements; eo += 4) {
    int _okl_exclusive_index = 0;
#line 12 "element_blocking.okl"
    double s_w[4];
    int r_e[64];
#line 13 "element_blocking.okl"
    int element[64];
    _okl_exclusive_index = 0;
    for (int es = 0; es < 4; ++es) {
      for (int n = 0; n < 16; ++n) {
        r_e[_okl_exclusive_index] = eo + es;
        element[_okl_exclusive_index] = (r_e[_okl_exclusive_index] < Nelements) ? (elementIds[r_e[_okl_exclusive_index]]) : (-1);
        if (n == 0 && element[_okl_exclusive_index] >= 0) s_w[es] = wJ[element[_okl_exclusive_index]];
        ++_okl_exclusive_index;
      }
    }
    _okl_exclusive_index = 0;
#line 23 "element_blocking.okl"
    for (int es = 0; es < 4; ++es) {
      for (int n = 0; n < 16; ++n) {
        if (element[_okl_exclusive_index] >= 0) q[element[_okl_exclusive_index] * 16 + n] *= s_w[es];
        ++_okl_exclusive_index;
      }
    }
  }
}

#line 9 "element_blocking.okl"
void _okl_entry_scaleElements(void **args) {
  scaleElements(*((const int *) args[0]), (const int *) args[1], (const double *) args[2], (double *) args[3]);
}
