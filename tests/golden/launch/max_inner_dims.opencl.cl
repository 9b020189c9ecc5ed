
#line 3 "max_inner_dims.okl"
__kernel void _okl_boundedTile_0(const int nx, const int ny, const int bx, const int by, __global float *a, ulong _okl_off_a) {
  a += _okl_off_a;
  {
#line 4 "max_inner_dims.okl"
    int gy = get_group_id(1);
    {
#line 5 "max_inner_dims.okl"
      int gx = get_group_id(0);
      {
#line 6 "max_inner_dims.okl"
        int ty = get_local_id(1);
        {
#line 7 "max_inner_dims.okl"
          int tx = get_local_id(0);
          a[(gy * by + ty) * nx * bx + gx * bx + tx] += 1.0f;
        }
      }
    }
  }
}
