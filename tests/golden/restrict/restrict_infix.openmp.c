#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "restrict_infix.okl"
typedef struct Pair Pair;

#line 5 "restrict_infix.okl"
struct Pair
{
#line 5 "restrict_infix.okl"
  float scale;
#line 5 "restrict_infix.okl"
  int shift;
};

#line 7 "restrict_infix.okl"
static void scaleShift(const int n, const float * restrict x, int * restrict c, float * restrict y, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
  for (int b = 0; b < n; ++b) {
#line 9 "restrict_infix.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 10 "restrict_infix.okl"
    for (int i = 0; i < 16; ++i) {
      Pair p;
      p.scale = 2.0f;
      p.shift = c[b * 16 + i];
      y[b * 16 + i] = p.scale * x[b * 16 + i] + ((float) p.shift);
    }
  }
}

#line 7 "restrict_infix.okl"
void _okl_entry_scaleShift(void **args, volatile sig_atomic_t *stop) {
  scaleShift(*((const int *) args[0]), (const float *) args[1], (int *) args[2], (float *) args[3], stop);
}
