#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 6 "include/okl_helpers.h"
typedef float real_t;

static real_t lerp(const real_t a, const real_t b, const real_t t) {
  return a + t * (b - a);
}

#line 6 "include_header.okl"
static void blend(const int n, const real_t t, const real_t *a, const real_t *b, real_t *c, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < (((n + 32) - 1) / 32))
#line 7 "include_header.okl"
  for (int g = 0; g < (n + 32 - 1) / 32; ++g) {
#line 7 "include_header.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 8 "include_header.okl"
    for (int l = 0; l < ((32 < n - g * 32) ? (32) : (n - g * 32)); ++l) {
      const int i = g * 32 + l;
      c[i] = lerp(a[i], b[i], t);
    }
  }
}

#line 6 "include_header.okl"
void _okl_entry_blend(void **args, volatile sig_atomic_t *stop) {
  blend(*((const int *) args[0]), *((const real_t *) args[1]), (const real_t *) args[2], (const real_t *) args[3], (real_t *) args[4], stop);
}
