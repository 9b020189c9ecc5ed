
#line 4 "shared_2d.okl"
__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void _okl_transposeShared_0(const int n, __global const float *in, __global float *out, ulong _okl_off_in, ulong _okl_off_out) {
#line 7 "shared_2d.okl"
  __local float tile[16][16 + 1];
  in += _okl_off_in;
  out += _okl_off_out;
  {
#line 5 "shared_2d.okl"
    int by = get_group_id(1);
    {
#line 6 "shared_2d.okl"
      int bx = get_group_id(0);
      {
        int ty = get_local_id(1);
        {
#line 9 "shared_2d.okl"
          int tx = get_local_id(0);
          tile[ty][tx] = in[(by * 16 + ty) * n + bx * 16 + tx];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 13 "shared_2d.okl"
        int ty = get_local_id(1);
        {
#line 14 "shared_2d.okl"
          int tx = get_local_id(0);
          out[(bx * 16 + ty) * n + by * 16 + tx] = tile[tx][ty];
        }
      }
    }
  }
}
