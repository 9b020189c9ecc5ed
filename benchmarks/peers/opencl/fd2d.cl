// Hand-written OpenCL peer of kernels/fd2d.okl: p_BX x p_BY work-groups, a local tile with a
// radius-p_SR halo, stencil weights in __constant memory, periodic wrap; same defines.
#ifndef p_W
#define p_W 2048
#define p_H 2048
#define p_BX 16
#define p_BY 16
#define p_SR 7
#define p_C2 0.25f
#define p_DT2 0.01f
#define p_SX 1027
#define p_SY 1019
#define p_FREQ 10.0f
#endif

__constant float c_w[8] = {-3.023594104f, 1.75f, -0.2916666667f, 0.06481481481f,
                           -0.01325757576f, 0.002121212121f, -0.0002266252266f,
                           0.00001189286904f};

// Ricker wavelet, peak frequency p_FREQ, delayed by one period
inline float wavelet(const float t) {
  const float a = 3.14159265f * p_FREQ * (t - 1.0f / p_FREQ);
  return (1.0f - 2.0f * a * a) * exp(-a * a);
}

__kernel __attribute__((reqd_work_group_size(p_BX, p_BY, 1)))
void fd2d(const float t, __global const float *restrict u2, __global const float *restrict u3,
          __global float *restrict u1) {
  __local float s_u[p_BY + 2 * p_SR][p_BX + 2 * p_SR];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x = get_global_id(0), y = get_global_id(1);

  s_u[ly + p_SR][lx + p_SR] = u2[y * p_W + x];
  if (lx < p_SR) {
    s_u[ly + p_SR][lx] = u2[y * p_W + (x - p_SR + p_W) % p_W];
    s_u[ly + p_SR][lx + p_BX + p_SR] = u2[y * p_W + (x + p_BX) % p_W];
  }
  if (ly < p_SR) {
    s_u[ly][lx + p_SR] = u2[((y - p_SR + p_H) % p_H) * p_W + x];
    s_u[ly + p_BY + p_SR][lx + p_SR] = u2[((y + p_BY) % p_H) * p_W + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  const float uc = s_u[ly + p_SR][lx + p_SR];
  float lap = 2.0f * c_w[0] * uc;
  for (int r = 1; r <= p_SR; ++r) {
    lap += c_w[r] * (s_u[ly + p_SR][lx + p_SR - r] + s_u[ly + p_SR][lx + p_SR + r] +
                     s_u[ly + p_SR - r][lx + p_SR] + s_u[ly + p_SR + r][lx + p_SR]);
  }
  float v = 2.0f * uc - u3[y * p_W + x] + p_C2 * lap;
  if (x == p_SX && y == p_SY) v += p_DT2 * wavelet(t);
  u1[y * p_W + x] = v;
}
