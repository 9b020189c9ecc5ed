
#line 2 "implicit_2d.okl"
extern "C" __global__ __launch_bounds__(64) void _okl_transpose_0(const int rows, const int cols, const float *in, float *out) {
  {
#line 3 "implicit_2d.okl"
    int by = blockIdx.y;
    {
#line 4 "implicit_2d.okl"
      int bx = blockIdx.x;
      {
#line 5 "implicit_2d.okl"
        int ty = threadIdx.y;
        {
#line 6 "implicit_2d.okl"
          int tx = threadIdx.x;
          const int r = by * 8 + ty;
          const int c = bx * 8 + tx;
          if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
        }
      }
    }
  }
}
