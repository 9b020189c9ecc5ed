
#line 6 "csr_lanes.okl"
extern "C" __global__ __launch_bounds__(24) void _okl_csrLanes_0(const int n, const int *rowPtr, const int *col, const float *A, const float *x, float *y) {
  {
    int g = 2 * blockIdx.x;
    {
#line 9 "csr_lanes.okl"
      int r = threadIdx.y;
      {
#line 10 "csr_lanes.okl"
        int t = threadIdx.x;
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

extern "C" __global__ __launch_bounds__(12) void _okl_odd_0(const int n, const int *rowPtr, const float *A, float *y) {
  {
#line 27 "csr_lanes.okl"
    int i = blockIdx.x;
    {
#line 28 "csr_lanes.okl"
      int t = threadIdx.x;
      float acc = 0.0f;
      for (int m = rowPtr[i]; m < rowPtr[i + 1]; ++m) {
        if (A[m * 12 + t] < 0.0f) break;
        acc += A[m * 12 + t];
      }
      y[i * 12 + t] = acc;
    }
  }
}

extern "C" __global__ __launch_bounds__(12) void _okl_rows_0(const int n, const int m, const float *x, float *y) {
  {
#line 40 "csr_lanes.okl"
    int i = blockIdx.x;
    {
#line 41 "csr_lanes.okl"
      int t = threadIdx.x;
      float acc = 0.0f;
      for (int k = 0; k < m; ++k) {
        acc += x[(i * 12 + t) * m + k];
      }
      y[i * 12 + t] = acc;
    }
  }
}
