/* Hand-written OpenMP peer of kernels/fd2d.okl: one step of the 2-D wave equation on a
 * periodic p_W x p_H grid with a radius-7 stencil, written the way one would in plain C:
 * rows in parallel, pointers to the 15 rows the stencil touches, a wrap-free (vectorisable)
 * interior sweep and wrapped edge columns.  Same defines as the OKL kernel. */
#include <math.h>

#ifndef p_W
#define p_W 256
#define p_H 256
#define p_SR 7
#define p_C2 0.1f
#define p_DT2 0.01f
#define p_SX 5
#define p_SY 7
#define p_FREQ 10.0f
#endif

static const float c_w[8] = {-3.023594104f, 1.75f, -0.2916666667f, 0.06481481481f,
                             -0.01325757576f, 0.002121212121f, -0.0002266252266f,
                             0.00001189286904f};

static float wavelet(const float t) {
  const float a = 3.14159265f * p_FREQ * (t - 1.0f / p_FREQ);
  return (1.0f - 2.0f * a * a) * expf(-a * a);
}

static inline float point(const float *const *rows, int x, int xm[p_SR + 1], int xp[p_SR + 1]) {
  const float *row = rows[p_SR];
  const float uc = row[x];
  float lap = 2.0f * c_w[0] * uc;
  for (int r = 1; r <= p_SR; ++r)
    lap += c_w[r] * (row[xm[r]] + row[xp[r]] + rows[p_SR - r][x] + rows[p_SR + r][x]);
  return lap;
}

void fd2d(float t, const float *restrict u2, const float *restrict u3, float *restrict u1) {
  const float src = p_DT2 * wavelet(t);
#pragma omp parallel for
  for (int y = 0; y < p_H; ++y) {
    const float *rows[2 * p_SR + 1];
    for (int r = 0; r <= 2 * p_SR; ++r) rows[r] = u2 + ((y + r - p_SR + p_H) % p_H) * p_W;
    const float *row = rows[p_SR];
    const float *prev = u3 + y * p_W;
    float *out = u1 + y * p_W;
    for (int x = p_SR; x < p_W - p_SR; ++x) {
      const float uc = row[x];
      float lap = 2.0f * c_w[0] * uc;
      for (int r = 1; r <= p_SR; ++r)
        lap += c_w[r] * (row[x - r] + row[x + r] + rows[p_SR - r][x] + rows[p_SR + r][x]);
      out[x] = 2.0f * uc - prev[x] + p_C2 * lap;
    }
    for (int e = 0; e < 2 * p_SR; ++e) {
      const int x = e < p_SR ? e : p_W - 2 * p_SR + e;
      int xm[p_SR + 1], xp[p_SR + 1];
      for (int r = 1; r <= p_SR; ++r) {
        xm[r] = (x - r + p_W) % p_W;
        xp[r] = (x + r) % p_W;
      }
      out[x] = 2.0f * row[x] - prev[x] + p_C2 * point(rows, x, xm, xp);
    }
    if (y == p_SY) out[p_SX] += src;
  }
}
