#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 2 "struct_tag.okl"
struct Point
{
#line 2 "struct_tag.okl"
  float x;
#line 2 "struct_tag.okl"
  float y;
};

#line 2 "struct_tag.okl"
typedef struct Point Point;

static float norm1(const Point *p) {
#line 4 "struct_tag.okl"
  return ((p->x < 0) ? (-p->x) : (p->x)) + ((p->y < 0) ? (-p->y) : (p->y));
}

#line 6 "struct_tag.okl"
static void pointNorms(const int n, const float *xy, float *out, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((n + 63) / 64))
#line 7 "struct_tag.okl"
  for (int b = 0; b < (n + 63) / 64; ++b) {
#line 7 "struct_tag.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 8 "struct_tag.okl"
    for (int t = 0; t < ((64 < n - b * 64) ? (64) : (n - b * 64)); ++t) {
      const int i = b * 64 + t;
      {
        Point p;
        p.x = xy[2 * i];
        p.y = xy[2 * i + 1];
        out[i] = norm1(&p);
      }
    }
  }
}

#line 6 "struct_tag.okl"
void _okl_entry_pointNorms(void **args, volatile sig_atomic_t *stop) {
  pointNorms(*((const int *) args[0]), (const float *) args[1], (float *) args[2], stop);
}
