#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 8 "slab_tensor_3d.okl"
static void stiffness(const int Nelements, const double *D, const double *q, double *Aq, volatile sig_atomic_t *_okl_stop) {
  for (int e = 0; e < Nelements; ++e) {
#line 9 "slab_tensor_3d.okl"
    if (*_okl_stop)
      break;
#line 10 "slab_tensor_3d.okl"
    double s_D[4][4];
#line 10 "slab_tensor_3d.okl"
    double s_D__t[4][4];
    double s_q[4][4][4 + 1];
    double r_q[4][16];
#line 12 "slab_tensor_3d.okl"
    double r_Aq[4][16];
#line 14 "slab_tensor_3d.okl"
    for (int j = 0; j < 4; ++j) {
      #pragma GCC ivdep
#line 15 "slab_tensor_3d.okl"
      for (int i = 0; i < 4; ++i) {
        s_D[j][i] = D[j * 4 + i];
#line 16 "slab_tensor_3d.okl"
        s_D__t[i][j] = s_D[j][i];
        #pragma GCC unroll 4
        for (int k = 0; k < 4; ++k) {
          r_q[k][i + 4 * j] = q[e * (4 * 4 * 4) + (k * 4 + j) * 4 + i];
          r_Aq[k][i + 4 * j] = 0.0;
        }
      }
    }
#line 25 "slab_tensor_3d.okl"
    for (int k = 0; k < 4; ++k) {
#line 25 "slab_tensor_3d.okl"
      if (e + 1 < Nelements) {
#line 25 "slab_tensor_3d.okl"
        for (int l = k * 16; l < k * 16 + 16; l += 8)
          __builtin_prefetch(&q[(e + 1) * 64 + l]);
#line 25 "slab_tensor_3d.okl"
        for (int l = k * 16; l < k * 16 + 16; l += 8)
          __builtin_prefetch(&Aq[(e + 1) * 64 + l], 1);
      }
#line 26 "slab_tensor_3d.okl"
      for (int j = 0; j < 4; ++j) {
        #pragma GCC ivdep
#line 27 "slab_tensor_3d.okl"
        for (int i = 0; i < 4; ++i) {
          s_q[k][j][i] = r_q[k][i + 4 * j];
        }
      }
#line 32 "slab_tensor_3d.okl"
      for (int j = 0; j < 4; ++j) {
        #pragma GCC ivdep
#line 33 "slab_tensor_3d.okl"
        for (int i = 0; i < 4; ++i) {
          double qr = 0.0;
#line 34 "slab_tensor_3d.okl"
          double qs = 0.0;
          #pragma GCC unroll 4
          for (int m = 0; m < 4; ++m) {
            qr += s_D__t[m][i] * s_q[k][j][m];
            qs += s_D[j][m] * s_q[k][m][i];
          }
          r_Aq[k][i + 4 * j] += qr + qs;
        }
      }
    }
#line 45 "slab_tensor_3d.okl"
    for (int j = 0; j < 4; ++j) {
      #pragma GCC ivdep
#line 46 "slab_tensor_3d.okl"
      for (int i = 0; i < 4; ++i) {
        #pragma GCC unroll 4
        for (int k = 0; k < 4; ++k) {
          Aq[e * (4 * 4 * 4) + (k * 4 + j) * 4 + i] = r_Aq[k][i + 4 * j];
        }
      }
    }
  }
}

#line 8 "slab_tensor_3d.okl"
void _okl_entry_stiffness(void **args, volatile sig_atomic_t *stop) {
  stiffness(*((const int *) args[0]), (const double *) args[1], (const double *) args[2], (double *) args[3], stop);
}
