
#line 5 "histogram.okl"
__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void _okl_histogram_0(const int n, const float lo, const float width, __global const float *x, __global unsigned int *bins, ulong _okl_off_x, ulong _okl_off_bins) {
#line 8 "histogram.okl"
  __local unsigned int s_bins[16];
  x += _okl_off_x;
  bins += _okl_off_bins;
  {
#line 7 "histogram.okl"
    int g = get_group_id(0);
    {
      int t = get_local_id(0);
      if (t < 16) s_bins[t] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 12 "histogram.okl"
      int t = get_local_id(0);
      const int i = g * 256 + t;
      if (i < n) {
        int k = (int) floor((x[i] - lo) / width);
        k = (k < 0) ? (0) : ((k >= 16) ? (16 - 1) : (k));
        atomic_add(&s_bins[k], 1);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
#line 20 "histogram.okl"
      int t = get_local_id(0);
      if (t < 16) {
        atomic_add(&bins[t], s_bins[t]);
      }
    }
  }
}
