
#line 6 "csr_lanes.okl"
__kernel __attribute__((reqd_work_group_size(12, 2, 1))) void _okl_csrLanes_0(const int n, __global const int *rowPtr, __global const int *col, __global const float *A, __global const float *x, __global float *y, ulong _okl_off_rowPtr, ulong _okl_off_col, ulong _okl_off_A, ulong _okl_off_x, ulong _okl_off_y) {
  rowPtr += _okl_off_rowPtr;
  col += _okl_off_col;
  A += _okl_off_A;
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 8 "csr_lanes.okl"
    int g = 2 * get_group_id(0);
    {
#line 9 "csr_lanes.okl"
      int r = get_local_id(1);
      {
#line 10 "csr_lanes.okl"
        int t = get_local_id(0);
        const int i = g + r;
        if (i < n) {
          const int l = t / 4;
          float acc = 1.0f;
          const int end = rowPtr[i + 1];
          for (int m = rowPtr[i]; m < end; ++m) {
            acc += A[m * 12 + t] * x[col[m] * 3 + l];
          }
          y[i * 12 + t] = acc;
        }
      }
    }
  }
}

__kernel __attribute__((reqd_work_group_size(12, 1, 1))) void _okl_odd_0(const int n, __global const int *rowPtr, __global const float *A, __global float *y, ulong _okl_off_rowPtr, ulong _okl_off_A, ulong _okl_off_y) {
  rowPtr += _okl_off_rowPtr;
  A += _okl_off_A;
  y += _okl_off_y;
  {
#line 27 "csr_lanes.okl"
    int i = get_group_id(0);
    {
#line 28 "csr_lanes.okl"
      int t = get_local_id(0);
      float acc = 0.0f;
      for (int m = rowPtr[i]; m < rowPtr[i + 1]; ++m) {
        if (A[m * 12 + t] < 0.0f) break;
        acc += A[m * 12 + t];
      }
      y[i * 12 + t] = acc;
    }
  }
}

__kernel __attribute__((reqd_work_group_size(12, 1, 1))) void _okl_rows_0(const int n, const int m, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 40 "csr_lanes.okl"
    int i = get_group_id(0);
    {
#line 41 "csr_lanes.okl"
      int t = get_local_id(0);
      float acc = 0.0f;
      for (int k = 0; k < m; ++k) {
        acc += x[(i * 12 + t) * m + k];
      }
      y[i * 12 + t] = acc;
    }
  }
}
