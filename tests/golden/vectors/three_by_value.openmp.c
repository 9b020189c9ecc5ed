#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
typedef struct { double x, y, z; } double3;
static inline double3 make_double3(double x, double y, double z) { double3 v = {x, y, z}; return v; }
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "three_by_value.okl"
static void fill(const int n, const double3 value, double3 *out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for simd if(parallel: 1 < n)
#line 3 "three_by_value.okl"
  for (int i = 0; i < n; ++i) {
    out[i] = make_double3(value.x, value.y, value.z);
  }
}

#line 2 "three_by_value.okl"
void _okl_entry_fill(void **args, volatile sig_atomic_t *stop) {
  fill(*((const int *) args[0]), *((const double3 *) args[1]), (double3 *) args[2], stop);
}
