
#line 2 "implicit_2d.okl"
__kernel __attribute__((reqd_work_group_size(8, 8, 1))) void _okl_transpose_0(const int rows, const int cols, __global const float *in, __global float *out, ulong _okl_off_in, ulong _okl_off_out) {
  in += _okl_off_in;
  out += _okl_off_out;
  {
#line 3 "implicit_2d.okl"
    int by = get_group_id(1);
    {
#line 4 "implicit_2d.okl"
      int bx = get_group_id(0);
      {
#line 5 "implicit_2d.okl"
        int ty = get_local_id(1);
        {
#line 6 "implicit_2d.okl"
          int tx = get_local_id(0);
          const int r = by * 8 + ty;
          const int c = bx * 8 + tx;
          if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
        }
      }
    }
  }
}
