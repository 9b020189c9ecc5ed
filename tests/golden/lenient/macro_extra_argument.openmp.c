#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 9 "macro_extra_argument.okl"
static void copy_float(const int n, const float *a, float *b, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
#line 9 "macro_extra_argument.okl"
  for (int i = 0; i < n; ++i) {
#line 9 "macro_extra_argument.okl"
    b[i] = a[i];
  }
}

#line 9 "macro_extra_argument.okl"
void _okl_entry_copy_float(void **args, volatile sig_atomic_t *stop) {
  copy_float(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}

#line 10 "macro_extra_argument.okl"
static void copy_int(const int n, const int *a, int *b, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
#line 10 "macro_extra_argument.okl"
  for (int i = 0; i < n; ++i) {
#line 10 "macro_extra_argument.okl"
    b[i] = a[i];
  }
}

#line 10 "macro_extra_argument.okl"
void _okl_entry_copy_int(void **args, volatile sig_atomic_t *stop) {
  copy_int(*((const int *) args[0]), (const int *) args[1], (int *) args[2], stop);
}
