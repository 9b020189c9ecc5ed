
#line 2 "three_components.okl"
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void _okl_shift_0(const int n, __global float3 *points, const float dx, ulong _okl_off_points) {
  points += _okl_off_points;
  {
#line 3 "three_components.okl"
    int _okl_tiled_i = 64 * get_group_id(0);
    {
#line 3 "three_components.okl"
      int i = _okl_tiled_i + get_local_id(0);
#line 3 "three_components.okl"
      if (i < n) {
        float3 p = points[i];
        p.x += dx;
        points[i] = p;
      }
    }
  }
}
