/* Hand-written OpenMP peer of kernels/addvectors.okl (also the CPU launch-latency probe). */
void add_vectors(int n, const float *restrict a, const float *restrict b, float *restrict ab) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) ab[i] = a[i] + b[i];
}
