
#line 6 "accesses.okl"
typedef struct
{
#line 4 "accesses.okl"
  float weight;
  int hits;
} cell;

inline static void _okl_fail(__global int *err, int id, long i, long n) {
  if (atomic_cmpxchg(err, 0, id + 1) == 0) {
    err[2] = (int) i;
    err[3] = (int) (i >> 32);
    err[4] = (int) n;
    err[5] = (int) (n >> 32);
  }
}

inline static __global const int *_okl_at_scatter_1(__global const int *x, long i, long n, int id, __global int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (__global const int *) (err + 8 + w * 8);
}

inline static __global const float *_okl_at_scatter_2(__global const float *x, long i, long n, int id, __global int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (__global const float *) (err + 8 + w * 8);
}

inline static __global float *_okl_at_scatter_3(__global float *x, long i, long n, int id, __global int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (__global float *) (err + 8 + w * 8);
}

inline static __global cell *_okl_at_scatter_4(__global cell *x, long i, long n, int id, __global int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (__global cell *) (err + 8 + w * 8);
}

inline static __global int *_okl_at_scatter_5(__global int *x, long i, long n, int id, __global int *err, int w) {
  if (i >= 0 && (n < 0 || i < n))
    return x + i;
  _okl_fail(err, id, i, n);
  return (__global int *) (err + 8 + w * 8);
}

#line 8 "accesses.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_scatter_0(const int n, __global const int *idx, __global const float *x, __global float *y, __global cell *cells, __global int *total, long _okl_n_idx, long _okl_n_x, long _okl_n_y, long _okl_n_cells, long _okl_n_total, __global int *_okl_err, ulong _okl_off_idx, ulong _okl_off_x, ulong _okl_off_y, ulong _okl_off_cells, ulong _okl_off_total, ulong _okl_off__okl_err) {
  idx += _okl_off_idx;
  x += _okl_off_x;
  y += _okl_off_y;
  cells += _okl_off_cells;
  total += _okl_off_total;
  _okl_err += _okl_off__okl_err;
  {
#line 10 "accesses.okl"
    int b = 64 * get_group_id(0);
    {
#line 11 "accesses.okl"
      int i = b + get_local_id(0);
      if (i < n) {
        const int j = *_okl_at_scatter_1(idx, i, _okl_n_idx, 0, _okl_err, 0);
        *_okl_at_scatter_3(y, j, _okl_n_y, 4, _okl_err, 1) += 2.0f * (*_okl_at_scatter_2(x, i, _okl_n_x, 2, _okl_err, 0));
        (*_okl_at_scatter_4(cells, j, _okl_n_cells, 6, _okl_err, 1)).weight = (*_okl_at_scatter_2(x, i, _okl_n_x, 3, _okl_err, 0)) - (*_okl_at_scatter_3(y, *_okl_at_scatter_1(idx, n - 1 - i, _okl_n_idx, 1, _okl_err, 0), _okl_n_y, 5, _okl_err, 0));
        (*_okl_at_scatter_4(cells, j, _okl_n_cells, 7, _okl_err, 1)).hits++;
        atomic_add(&(*_okl_at_scatter_5(total, 0, _okl_n_total, 8, _okl_err, 1)), 1);
      }
    }
  }
}
