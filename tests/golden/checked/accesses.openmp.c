#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <signal.h>
volatile sig_atomic_t _okl_interrupted;
void _okl_interrupt(int sig) { (void) sig; _okl_interrupted = 1; }

#line 6 "accesses.okl"
typedef struct
{
#line 4 "accesses.okl"
  float weight;
  int hits;
} cell;

inline static void _okl_fail(int *err, int id, long i, long n) {
  #pragma omp critical (okl_check)
  {
    if (err[0] == 0 && (err[0] = id + 1)) {
      err[2] = (int) i;
      err[3] = (int) (i >> 32);
      err[4] = (int) n;
      err[5] = (int) (n >> 32);
    }
  }
}

inline static const int *_okl_at_scatter_1(const int *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (const int *) (err + 8 + w * 8);
}

inline static const float *_okl_at_scatter_2(const float *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (const float *) (err + 8 + w * 8);
}

inline static float *_okl_at_scatter_3(float *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (float *) (err + 8 + w * 8);
}

inline static cell *_okl_at_scatter_4(cell *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (cell *) (err + 8 + w * 8);
}

inline static int *_okl_at_scatter_5(int *x, long i, long n, int id, int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (int *) (err + 8 + w * 8);
}

#line 8 "accesses.okl"
static void scatter(const int n, const int *idx, const float *x, float *y, cell *cells, int *total, long _okl_n_idx, long _okl_n_x, long _okl_n_y, long _okl_n_cells, long _okl_n_total, int *_okl_err, volatile sig_atomic_t *_okl_stop) {
  #pragma omp parallel for
  for (int b = 0; b < n; b += 64) {
#line 10 "accesses.okl"
    if (*_okl_stop)
      continue;
#line 11 "accesses.okl"
    for (int i = b; i < ((b + 64 < n) ? (b + 64) : (n)); ++i) {
#line 13 "accesses.okl"
      const int j = *_okl_at_scatter_1(idx, i, _okl_n_idx, 0, _okl_err, 0);
      *_okl_at_scatter_3(y, j, _okl_n_y, 4, _okl_err, 1) += 2.0f * (*_okl_at_scatter_2(x, i, _okl_n_x, 2, _okl_err, 0));
      (*_okl_at_scatter_4(cells, j, _okl_n_cells, 6, _okl_err, 1)).weight = (*_okl_at_scatter_2(x, i, _okl_n_x, 3, _okl_err, 0)) - (*_okl_at_scatter_3(y, *_okl_at_scatter_1(idx, n - 1 - i, _okl_n_idx, 1, _okl_err, 0), _okl_n_y, 5, _okl_err, 0));
      (*_okl_at_scatter_4(cells, j, _okl_n_cells, 7, _okl_err, 1)).hits++;
      {
        #pragma omp atomic
#line 17 "accesses.okl"
        *_okl_at_scatter_5(total, 0, _okl_n_total, 8, _okl_err, 1) += 1;
      }
    }
  }
}

#line 8 "accesses.okl"
void _okl_entry_scatter(void **args, volatile sig_atomic_t *stop) {
  scatter(*((const int *) args[0]), (const int *) args[1], (const float *) args[2], (float *) args[3], (cell *) args[4], (int *) args[5], *((long *) args[6]), *((long *) args[7]), *((long *) args[8]), *((long *) args[9]), *((long *) args[10]), (int *) args[11], stop);
}
