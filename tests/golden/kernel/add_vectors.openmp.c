#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "add_vectors.okl"
static void addVectors(const int entries, const float *a, const float *b, float *ab, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((entries + 15) / 16))
#line 3 "add_vectors.okl"
  for (int block = 0; block < (entries + 15) / 16; ++block) {
#line 3 "add_vectors.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 4 "add_vectors.okl"
    for (int t = 0; t < ((16 < entries - block * 16) ? (16) : (entries - block * 16)); ++t) {
      const int i = block * 16 + t;
      {
        ab[i] = a[i] + b[i];
      }
    }
  }
}

#line 2 "add_vectors.okl"
void _okl_entry_addVectors(void **args, volatile sig_atomic_t *stop) {
  addVectors(*((const int *) args[0]), (const float *) args[1], (const float *) args[2], (float *) args[3], stop);
}
