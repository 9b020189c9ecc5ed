
#line 3 "gathers.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_edgeDiff_0(const int nedge, const int * __restrict__ enode, const int * __restrict__ flag, const double * __restrict__ x, double * __restrict__ d) {
  {
#line 6 "gathers.okl"
    int b = blockIdx.x;
    int on;
    {
#line 8 "gathers.okl"
      int t = threadIdx.x;
      const int e = b * 64 + t;
      on = (e < nedge) ? (flag[e]) : (0);
      if (on) {
        const int n0 = enode[2 * e];
#line 12 "gathers.okl"
        const int n1 = enode[2 * e + 1];
        d[e] = x[2 * n1] - x[2 * n0] + x[2 * n1 + 1] - x[2 * n0 + 1];
      }
    }
  }
}
