
#line 5 "finite_difference.okl"
__kernel __attribute__((reqd_work_group_size(16, 8, 1))) void _okl_laplacian_0(const int nx, const int ny, const float h2, __global const float *u, __global float *lu, ulong _okl_off_u, ulong _okl_off_lu) {
#line 8 "finite_difference.okl"
  __local float s_u[8 + 2][16 + 2];
  u += _okl_off_u;
  lu += _okl_off_lu;
  {
#line 6 "finite_difference.okl"
    int gy = get_group_id(1);
    {
#line 7 "finite_difference.okl"
      int gx = get_group_id(0);
      {
        int ty = get_local_id(1);
        {
#line 10 "finite_difference.okl"
          int tx = get_local_id(0);
          const int x = gx * 16 + tx;
#line 11 "finite_difference.okl"
          const int y = gy * 8 + ty;
          const int cx = (x < nx) ? (x) : (nx - 1);
#line 12 "finite_difference.okl"
          const int cy = (y < ny) ? (y) : (ny - 1);
          s_u[ty + 1][tx + 1] = u[cy * nx + cx];
          if (tx == 0) s_u[ty + 1][0] = u[cy * nx + ((cx > 0) ? (cx - 1) : (0))];
          if (tx == 16 - 1) s_u[ty + 1][16 + 1] = u[cy * nx + ((cx < nx - 1) ? (cx + 1) : (cx))];
          if (ty == 0) s_u[0][tx + 1] = u[((cy > 0) ? (cy - 1) : (0)) * nx + cx];
          if (ty == 8 - 1) s_u[8 + 1][tx + 1] = u[((cy < ny - 1) ? (cy + 1) : (cy)) * nx + cx];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 20 "finite_difference.okl"
        int ty = get_local_id(1);
        {
#line 21 "finite_difference.okl"
          int tx = get_local_id(0);
          const int x = gx * 16 + tx;
#line 22 "finite_difference.okl"
          const int y = gy * 8 + ty;
          if (x < nx && y < ny) {
            lu[y * nx + x] = (s_u[ty + 1][tx] + s_u[ty + 1][tx + 2] + s_u[ty][tx + 1] + s_u[ty + 2][tx + 1] - 4.0f * s_u[ty + 1][tx + 1]) / h2;
          }
        }
      }
    }
  }
}
