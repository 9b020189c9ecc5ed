#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 5 "defines.okl"
static void massMatrix(const int Nelements, const double *q, double *Mq) {
  for (int e = 0; e < Nelements; ++e) {
    double s_q[8 * 8];
    for (int j = 0; j < 8; ++j) {
      #pragma GCC ivdep
#line 9 "defines.okl"
      for (int i = 0; i < 8; ++i) {
        s_q[i + 8 * j] = q[e * 64 + (i + 8 * j)];
      }
    }
    for (int j = 0; j < 8; ++j) {
      #pragma GCC ivdep
#line 14 "defines.okl"
      for (int i = 0; i < 8; ++i) {
        Mq[e * 64 + (i + 8 * j)] = 0.5 * s_q[8 - 1 - i + 8 * j];
      }
    }
  }
}

#line 5 "defines.okl"
void _okl_entry_massMatrix(void **args) {
  massMatrix(*((const int *) args[0]), (const double *) args[1], (double *) args[2]);
}
