#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 8 "slab_column.okl"
static void slab(const int E, const double * restrict D, const double * restrict q, double * restrict out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel if(parallel: 1 < E)
  {
    double s_D[4][4];
#line 10 "slab_column.okl"
    if (((int) 0) < E) {
#line 16 "slab_column.okl"
      for (int j = 0; j < 4; ++j) {
        for (int i = 0; i < 4; ++i) {
          s_D[j][i] = D[j * 4 + i];
        }
      }
    }
    #pragma omp for
#line 10 "slab_column.okl"
    for (int e = 0; e < E; ++e) {
#line 10 "slab_column.okl"
      if (*_okl_stop)
        continue;
      double s_g[4][4];
      double r_q[4][16];
#line 15 "slab_column.okl"
      double r_t__k[4][16];
#line 14 "slab_column.okl"
      double a__k[4][16];
      double r_t[16];
      for (int j = 0; j < 4; ++j) {
        #pragma GCC ivdep
#line 17 "slab_column.okl"
        for (int i = 0; i < 4; ++i) {
#line 19 "slab_column.okl"
          for (int k = 0; k < 4; ++k) {
            r_q[k][i + 4 * j] = q[((e * 4 + k) * 4 + j) * 4 + i];
          }
        }
      }
#line 25 "slab_column.okl"
      for (int k = 0; k < 4; ++k) {
#line 25 "slab_column.okl"
        if (e + 1 < E) {
#line 25 "slab_column.okl"
          for (int l = k * 16; l < k * 16 + 16; l += 8)
            __builtin_prefetch(&q[(e + 1) * 64 + l]);
#line 25 "slab_column.okl"
          for (int l = k * 16; l < k * 16 + 16; l += 8)
            __builtin_prefetch(&out[(e + 1) * 64 + l], 1);
        }
#line 26 "slab_column.okl"
        for (int j = 0; j < 4; ++j) {
          #pragma GCC ivdep
#line 27 "slab_column.okl"
          for (int i = 0; i < 4; ++i) {
            r_t[i + 4 * j] = 0;
            for (int m = 0; m < 4; ++m) {
              r_t[i + 4 * j] += s_D[k][m] * r_q[m][i + 4 * j];
            }
            s_g[j][i] = r_t[i + 4 * j] * r_q[k][i + 4 * j];
          }
        }
        for (int j = 0; j < 4; ++j) {
          #pragma GCC ivdep
#line 36 "slab_column.okl"
          for (int i = 0; i < 4; ++i) {
            double a = s_g[j][i];
            for (int m = 0; m < 4; ++m) {
              a += s_D[m][i] * s_g[j][m];
            }
#line 42 "slab_column.okl"
            a__k[k][i + 4 * j] = a;
#line 25 "slab_column.okl"
            r_t__k[k][i + 4 * j] = r_t[i + 4 * j];
          }
        }
      }
#line 46 "slab_column.okl"
      for (int j = 0; j < 4; ++j) {
        #pragma GCC ivdep
#line 47 "slab_column.okl"
        for (int i = 0; i < 4; ++i) {
#line 25 "slab_column.okl"
          double r_col[4];
          #pragma GCC unroll 4
#line 25 "slab_column.okl"
          for (int m = 0; m < 4; ++m) {
#line 25 "slab_column.okl"
            double r_col__sum = 0;
            #pragma GCC unroll 4
#line 25 "slab_column.okl"
            for (int k = 0; k < 4; ++k) {
#line 25 "slab_column.okl"
              r_col__sum += s_D[k][m] * r_t__k[k][i + 4 * j];
#line 25 "slab_column.okl"
              if (k == m) r_col__sum += a__k[k][i + 4 * j];
            }
#line 25 "slab_column.okl"
            r_col[m] = r_col__sum;
          }
#line 48 "slab_column.okl"
          for (int k = 0; k < 4; ++k) {
            out[((e * 4 + k) * 4 + j) * 4 + i] = r_col[k];
          }
        }
      }
    }
  }
}

#line 8 "slab_column.okl"
void _okl_entry_slab(void **args, volatile sig_atomic_t *stop) {
  slab(*((const int *) args[0]), (const double *) args[1], (const double *) args[2], (double *) args[3], stop);
}
