
#line 4 "between_outer_loops.okl"
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void _okl_scaleGroups_0(const int groups, __global const float *x, __global float *y, ulong _okl_off_x, ulong _okl_off_y) {
  x += _okl_off_x;
  y += _okl_off_y;
  {
#line 5 "between_outer_loops.okl"
    int _okl_tiled_g = 2 * get_group_id(1);
#line 5 "between_outer_loops.okl"
    for (int g = _okl_tiled_g; g < _okl_tiled_g + 2; ++g) {
#line 5 "between_outer_loops.okl"
      if (g < groups) {
        if (g % 3 != 1) {
          {
            int b = get_group_id(0);
#line 7 "between_outer_loops.okl"
            float r;
            {
              int t = get_local_id(0);
              r = x[(g * 2 + b) * 8 + t];
            }
            {
#line 12 "between_outer_loops.okl"
              int t = get_local_id(0);
              y[(g * 2 + b) * 8 + t] = 2.0f * r + ((float) t);
            }
          }
        }
      }
    }
  }
}
