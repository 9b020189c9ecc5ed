
#line 5 "matmul_tiled.okl"
__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void _okl_matmul_0(const int n, __global const float *A, __global const float *B, __global float *C, ulong _okl_off_A, ulong _okl_off_B, ulong _okl_off_C) {
#line 8 "matmul_tiled.okl"
  __local float sA[16][16];
  __local float sB[16][16];
  A += _okl_off_A;
  B += _okl_off_B;
  C += _okl_off_C;
  {
#line 6 "matmul_tiled.okl"
    int by = get_group_id(1);
    {
#line 7 "matmul_tiled.okl"
      int bx = get_group_id(0);
#line 10 "matmul_tiled.okl"
      float acc = 0.0f;
      for (int kt = 0; kt < n / 16; ++kt) {
        {
#line 12 "matmul_tiled.okl"
          int ty = get_local_id(1);
          {
#line 13 "matmul_tiled.okl"
            int tx = get_local_id(0);
            sA[ty][tx] = A[(by * 16 + ty) * n + kt * 16 + tx];
            sB[ty][tx] = B[(kt * 16 + ty) * n + bx * 16 + tx];
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        {
#line 18 "matmul_tiled.okl"
          int ty = get_local_id(1);
          {
#line 19 "matmul_tiled.okl"
            int tx = get_local_id(0);
            for (int k = 0; k < 16; ++k) acc += sA[ty][k] * sB[k][tx];
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      {
#line 24 "matmul_tiled.okl"
        int ty = get_local_id(1);
        {
#line 25 "matmul_tiled.okl"
          int tx = get_local_id(0);
          C[(by * 16 + ty) * n + bx * 16 + tx] = acc;
        }
      }
    }
  }
}
