#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
typedef struct { float x, y, z; } float3;
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "three_components.okl"
static void shift(const int n, float3 *points, const float dx, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
#line 3 "three_components.okl"
  for (int i = 0; i < n; ++i) {
    float3 p = points[i];
    p.x += dx;
    points[i] = p;
  }
}

#line 2 "three_components.okl"
void _okl_entry_shift(void **args, volatile sig_atomic_t *stop) {
  shift(*((const int *) args[0]), (float3 *) args[1], *((const float *) args[2]), stop);
}
