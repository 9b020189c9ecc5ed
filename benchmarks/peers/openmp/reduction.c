/* Hand-written OpenMP peers of kernels/reduction.okl: float sum of x[0..n).
 * reduce_blocked: the same blocking as the OKL kernel (p_B * p_U entries per block, one
 *                 partial per block, then the partials are summed) -- float accumulation
 *                 over the whole array in one running sum would lose accuracy.
 * reduce_atomic:  per-block sums added to *total with `omp atomic`. */
#ifndef p_B
#define p_B 256
#endif
#ifndef p_U
#define p_U 32
#endif
#define BLOCK (p_B * p_U)

void reduce_blocked(int n, const float *restrict x, float *restrict partial,
                    float *restrict total) {
  const int nb = (n + BLOCK - 1) / BLOCK;
#pragma omp parallel for
  for (int b = 0; b < nb; ++b) {
    const int end = (b + 1) * BLOCK < n ? (b + 1) * BLOCK : n;
    float s = 0;
#pragma omp simd reduction(+ : s)
    for (int i = b * BLOCK; i < end; ++i) s += x[i];
    partial[b] = s;
  }
  float s = 0;
#pragma omp simd reduction(+ : s)
  for (int b = 0; b < nb; ++b) s += partial[b];
  total[0] = s;
}

void reduce_atomic(int n, const float *restrict x, float *restrict total) {
  const int nb = (n + BLOCK - 1) / BLOCK;
#pragma omp parallel for
  for (int b = 0; b < nb; ++b) {
    const int end = (b + 1) * BLOCK < n ? (b + 1) * BLOCK : n;
    float s = 0;
#pragma omp simd reduction(+ : s)
    for (int i = b * BLOCK; i < end; ++i) s += x[i];
#pragma omp atomic
    total[0] += s;
  }
}
