#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "opencl_rename_scopes.okl"
static void renameScopes(const int nb, const float *tile_1, float *out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < nb)
#line 5 "opencl_rename_scopes.okl"
  for (int b = 0; b < nb; ++b) {
#line 5 "opencl_rename_scopes.okl"
    if (*_okl_stop)
      continue;
    {
#line 7 "opencl_rename_scopes.okl"
      float tile[16];
      #pragma GCC ivdep
#line 8 "opencl_rename_scopes.okl"
      for (int t = 0; t < 16; ++t) {
        tile[t] = tile_1[b * 16 + t];
      }
      #pragma GCC ivdep
#line 11 "opencl_rename_scopes.okl"
      for (int t = 0; t < 16; ++t) {
        out[b * 16 + t] = tile[15 - t];
      }
    }
    {
      float tile[16];
      #pragma GCC ivdep
#line 17 "opencl_rename_scopes.okl"
      for (int t = 0; t < 16; ++t) {
        tile[t] = 2.0f * out[b * 16 + t];
      }
      #pragma GCC ivdep
#line 20 "opencl_rename_scopes.okl"
      for (int t = 0; t < 16; ++t) {
        float acc = tile[t];
        {
          const float tile = 0.5f;
          acc *= tile;
        }
        out[b * 16 + t] = acc + tile[(t + 1) % 16];
      }
    }
  }
}

#line 4 "opencl_rename_scopes.okl"
void _okl_entry_renameScopes(void **args, volatile sig_atomic_t *stop) {
  renameScopes(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
