
#line 4 "device_functions.okl"
float square(float x);

inline static float clampf(const float x, const float lo, const float hi) {
  return (x < lo) ? (lo) : ((x > hi) ? (hi) : (x));
}

float square(float x) {
  return x * x;
}

inline static float cube(const float x) {
  return x * square(x);
}

float norm2(__global const float *v, const int n) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += square(v[k]);
  return s;
}

__kernel __attribute__((reqd_work_group_size(3, 1, 1))) void _okl_normalize_0(const int nv, __global const float *v, __global float *out, ulong _okl_off_v, ulong _okl_off_out) {
  v += _okl_off_v;
  out += _okl_off_out;
  {
#line 25 "device_functions.okl"
    int b = get_group_id(0);
    {
#line 26 "device_functions.okl"
      int t = get_local_id(0);
      const float len = sqrt(norm2(v + b * 3, 3));
      out[b * 3 + t] = clampf(v[b * 3 + t] / len, -1.0f, 1.0f) + 0.0f * cube(len);
    }
  }
}
