#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 4 "struct_params.okl"
typedef struct
{
#line 3 "struct_params.okl"
  float x;
#line 3 "struct_params.okl"
  float y;
#line 3 "struct_params.okl"
  float z;
} vec3;

#line 10 "struct_params.okl"
typedef struct
{
#line 7 "struct_params.okl"
  int n;
  float dt;
  vec3 gravity;
} params_t;

static vec3 axpy3(const float a, const vec3 x, const vec3 y) {
  vec3 r;
  r.x = a * x.x + y.x;
  r.y = a * x.y + y.y;
  r.z = a * x.z + y.z;
  return r;
}

static void step(const params_t p, const vec3 *vel, vec3 *pos, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for if(parallel: 1 < ((p.n + 31) / 32))
#line 21 "struct_params.okl"
  for (int b = 0; b < (p.n + 31) / 32; ++b) {
#line 21 "struct_params.okl"
    if (*_okl_stop)
      continue;
    #pragma GCC ivdep
#line 22 "struct_params.okl"
    for (int t = 0; t < 32; ++t) {
      const int i = b * 32 + t;
      if (i < p.n) {
        const vec3 v = axpy3(p.dt, p.gravity, vel[i]);
        pos[i] = axpy3(p.dt, v, pos[i]);
      }
    }
  }
}

#line 20 "struct_params.okl"
void _okl_entry_step(void **args, volatile sig_atomic_t *stop) {
  step(*((const params_t *) args[0]), (const vec3 *) args[1], (vec3 *) args[2], stop);
}
