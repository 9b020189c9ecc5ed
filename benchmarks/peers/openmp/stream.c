/* Hand-written OpenMP peers of kernels/stream.okl (BabelStream's five kernels).
 * Built like okl's OpenMP output: cc -O3 -march=native -fopenmp -std=gnu99 -fPIC -shared.
 * dfloat is double unless -Ddfloat=float. */
#ifndef dfloat
#define dfloat double
#endif

void stream_copy(int n, const dfloat *restrict a, dfloat *restrict c) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) c[i] = a[i];
}

void stream_mul(int n, dfloat scalar, const dfloat *restrict c, dfloat *restrict b) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) b[i] = scalar * c[i];
}

void stream_add(int n, const dfloat *restrict a, const dfloat *restrict b, dfloat *restrict c) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

void stream_triad(int n, dfloat scalar, const dfloat *restrict b, const dfloat *restrict c,
                  dfloat *restrict a) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) a[i] = b[i] + scalar * c[i];
}

/* `simd` lets the compiler keep one partial sum per vector lane (reassociation), as the
 * per-thread partial sums of the OKL version do. */
void stream_dot(int n, const dfloat *restrict a, const dfloat *restrict b,
                dfloat *restrict result) {
  dfloat sum = 0;
#pragma omp parallel for simd reduction(+ : sum)
  for (int i = 0; i < n; ++i) sum += a[i] * b[i];
  result[0] = sum;
}
