
#line 6 "struct_fields.okl"
typedef struct
{
#line 3 "struct_fields.okl"
  int count;
  float total;
  double weighted;
} stats_t;

extern "C" __global__ __launch_bounds__(32) void _okl_accumulate_0(const int n, const float *x, stats_t *stats, stats_t *bins) {
  {
#line 9 "struct_fields.okl"
    int b = blockIdx.x;
    {
#line 10 "struct_fields.okl"
      int t = threadIdx.x;
      const float v = x[b * 32 + t];
      atomicAdd(&stats->count, 1);
      atomicAdd(&stats->total, v);
      atomicAdd(&bins[t % 4].weighted, 0.25 * v);
      atomicAdd(&stats[0].weighted, -v);
    }
  }
}
