#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 3 "assignment_forms.okl"
static void assignForms(const int n, const int *x, int *acc, float *f, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 4 "assignment_forms.okl"
  for (int b = 0; b < n; ++b) {
#line 4 "assignment_forms.okl"
    if (*_okl_stop)
      continue;
#line 5 "assignment_forms.okl"
    for (int t = 0; t < 32; ++t) {
      const int v = x[b * 32 + t];
      {
        #pragma omp atomic
#line 7 "assignment_forms.okl"
        acc[0] += v;
      }
      {
        #pragma omp atomic
#line 8 "assignment_forms.okl"
        acc[1] |= v;
      }
      {
        #pragma omp atomic
#line 9 "assignment_forms.okl"
        acc[2] -= 2 * v;
      }
      {
        #pragma omp atomic
#line 10 "assignment_forms.okl"
        f[0] += 0.5f;
      }
    }
  }
}

#line 3 "assignment_forms.okl"
void _okl_entry_assignForms(void **args, volatile sig_atomic_t *stop) {
  assignForms(*((const int *) args[0]), (const int *) args[1], (int *) args[2], (float *) args[3], stop);
}
