#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "shared_3d.okl"
static void cubeSums(const int ne, const double *u, double *sums, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ne)
#line 5 "shared_3d.okl"
  for (int e = 0; e < ne; ++e) {
#line 5 "shared_3d.okl"
    if (*_okl_stop)
      continue;
#line 6 "shared_3d.okl"
    double s_u[4][4][4];
    double s_col[4][4];
#line 7 "shared_3d.okl"
    double s_col__t[4][4];
    for (int j = 0; j < 4; ++j) {
      #pragma GCC ivdep
#line 9 "shared_3d.okl"
      for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < 4; ++k) {
          s_u[k][j][i] = u[e * 4 * 4 * 4 + (k * 4 + j) * 4 + i];
        }
      }
    }
    for (int j = 0; j < 4; ++j) {
      #pragma GCC ivdep
#line 16 "shared_3d.okl"
      for (int i = 0; i < 4; ++i) {
        double acc = 0.0;
        for (int k = 0; k < 4; ++k) acc += s_u[k][j][i];
        s_col[j][i] = acc;
#line 19 "shared_3d.okl"
        s_col__t[i][j] = s_col[j][i];
      }
    }
    for (int j = 0; j < 4; ++j) {
      #pragma GCC ivdep
#line 23 "shared_3d.okl"
      for (int i = 0; i < 4; ++i) {
        sums[e * 4 * 4 + j * 4 + i] = s_col[j][i] + s_col__t[j][i];
      }
    }
  }
}

#line 4 "shared_3d.okl"
void _okl_entry_cubeSums(void **args, volatile sig_atomic_t *stop) {
  cubeSums(*((const int *) args[0]), (const double *) args[1], (double *) args[2], stop);
}
