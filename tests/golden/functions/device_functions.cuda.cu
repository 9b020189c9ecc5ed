
#line 4 "device_functions.okl"
__device__ float square(float x);

inline __device__ static float clampf(const float x, const float lo, const float hi) {
  return (x < lo) ? (lo) : ((x > hi) ? (hi) : (x));
}

__device__ float square(float x) {
  return x * x;
}

inline __device__ float cube(const float x) {
  return x * square(x);
}

__device__ float norm2(const float *v, const int n) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += square(v[k]);
  return s;
}

extern "C" __global__ __launch_bounds__(3) void _okl_normalize_0(const int nv, const float *v, float *out) {
  {
#line 25 "device_functions.okl"
    int b = blockIdx.x;
    {
#line 26 "device_functions.okl"
      int t = threadIdx.x;
      const float len = sqrtf(norm2(v + b * 3, 3));
      out[b * 3 + t] = clampf(v[b * 3 + t] / len, -1.0f, 1.0f) + 0.0f * cube(len);
    }
  }
}
