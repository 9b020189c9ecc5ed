#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#line 3 "assignment_forms.okl"
static void assignForms(const int n, const int *x, int *acc, float *f) {
  #pragma omp parallel for
#line 4 "assignment_forms.okl"
  for (int b = 0; b < n; ++b) {
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
void _okl_entry_assignForms(void **args) {
  assignForms(*((const int *) args[0]), (const int *) args[1], (int *) args[2], (float *) args[3]);
}
