#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 6 "struct_fields.okl"
typedef struct
{
#line 3 "struct_fields.okl"
  int count;
  float total;
  double weighted;
} stats_t;

static void accumulate(const int n, const float *x, stats_t *stats, stats_t *bins, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < n)
#line 9 "struct_fields.okl"
  for (int b = 0; b < n; ++b) {
#line 9 "struct_fields.okl"
    if (*_okl_stop)
      continue;
#line 10 "struct_fields.okl"
    for (int t = 0; t < 32; ++t) {
      const float v = x[b * 32 + t];
      {
        #pragma omp atomic
#line 12 "struct_fields.okl"
        stats->count += 1;
      }
      {
        #pragma omp atomic
#line 13 "struct_fields.okl"
        stats->total += v;
      }
      {
        #pragma omp atomic
#line 14 "struct_fields.okl"
        bins[t % 4].weighted += 0.25 * v;
      }
      {
        #pragma omp atomic
#line 15 "struct_fields.okl"
        stats[0].weighted -= v;
      }
    }
  }
}

#line 8 "struct_fields.okl"
void _okl_entry_accumulate(void **args, volatile sig_atomic_t *stop) {
  accumulate(*((const int *) args[0]), (const float *) args[1], (stats_t *) args[2], (stats_t *) args[3], stop);
}
