
#line 4 "hoist_rename_uses.okl"
extern "C" __global__ __launch_bounds__(16) void _okl_scopes_0(const int nb, float *x) {
  {
#line 5 "hoist_rename_uses.okl"
    int b = blockIdx.x;
    {
#line 6 "hoist_rename_uses.okl"
      int t = threadIdx.x;
      float buf = x[b * 16 + t];
      x[b * 16 + t] = buf + 1.0f;
    }
    __syncthreads();
    {
#line 11 "hoist_rename_uses.okl"
      __shared__ float buf[16];
      {
#line 12 "hoist_rename_uses.okl"
        int t = threadIdx.x;
        buf[t] = x[b * 16 + t];
      }
      __syncthreads();
      {
#line 15 "hoist_rename_uses.okl"
        int t = threadIdx.x;
        x[b * 16 + t] = buf[15 - t];
      }
      __syncthreads();
    }
    {
#line 20 "hoist_rename_uses.okl"
      __shared__ float buf[16];
      {
#line 21 "hoist_rename_uses.okl"
        int t = threadIdx.x;
        buf[t] = 2.0f * x[b * 16 + t];
      }
      __syncthreads();
      {
#line 24 "hoist_rename_uses.okl"
        int t = threadIdx.x;
        x[b * 16 + t] = buf[t] + buf[(t + 1) % 16];
      }
    }
  }
}

extern "C" __global__ __launch_bounds__(8) void _okl_other_0(const int n, float *buf) {
  {
#line 32 "hoist_rename_uses.okl"
    int b = blockIdx.x;
    __shared__ float tmp[8];
    {
#line 34 "hoist_rename_uses.okl"
      int t = threadIdx.x;
      tmp[t] = buf[b * 8 + t];
    }
    __syncthreads();
    {
#line 37 "hoist_rename_uses.okl"
      int t = threadIdx.x;
      buf[b * 8 + t] = tmp[7 - t];
    }
  }
}
