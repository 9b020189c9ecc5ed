
#line 2 "offset_start.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_interior_0(const int n, __global const float *u, __global float *lap, ulong _okl_off_u, ulong _okl_off_lap) {
  u += _okl_off_u;
  lap += _okl_off_lap;
  {
#line 3 "offset_start.okl"
    int b = 1 + get_group_id(0);
    {
#line 4 "offset_start.okl"
      int t = 2 + get_local_id(0);
      const int i = b * 20 + t;
      lap[i] = u[i - 1] - 2.0f * u[i] + u[i + 1];
    }
  }
}
