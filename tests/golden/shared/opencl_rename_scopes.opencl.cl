
#line 4 "opencl_rename_scopes.okl"
__kernel __attribute__((reqd_work_group_size(16, 1, 1))) void _okl_renameScopes_0(const int nb, __global const float *tile_1, __global float *out, ulong _okl_off_tile_1, ulong _okl_off_out) {
#line 7 "opencl_rename_scopes.okl"
  __local float tile[16];
#line 16 "opencl_rename_scopes.okl"
  __local float tile_2[16];
  tile_1 += _okl_off_tile_1;
  out += _okl_off_out;
  {
#line 5 "opencl_rename_scopes.okl"
    int b = get_group_id(0);
    {
      {
        int t = get_local_id(0);
        tile[t] = tile_1[b * 16 + t];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 11 "opencl_rename_scopes.okl"
        int t = get_local_id(0);
        out[b * 16 + t] = tile[15 - t];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    {
      {
#line 17 "opencl_rename_scopes.okl"
        int t = get_local_id(0);
        tile_2[t] = 2.0f * out[b * 16 + t];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      {
#line 20 "opencl_rename_scopes.okl"
        int t = get_local_id(0);
        float acc = tile_2[t];
        {
          const float tile = 0.5f;
          acc *= tile;
        }
        out[b * 16 + t] = acc + tile_2[(t + 1) % 16];
      }
    }
  }
}
