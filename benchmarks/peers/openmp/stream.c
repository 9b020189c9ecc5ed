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

/* Blocks of DOT_BLOCK entries: `simd` keeps one partial sum per vector lane inside a block
 * (reassociation, as the per-thread partial sums of the OKL version do), and the block sums
 * are added up afterwards -- one running float sum over 2^25 entries would lose ~3 digits. */
#ifndef DOT_BLOCK
#define DOT_BLOCK 65536
#endif
void stream_dot(int n, const dfloat *restrict a, const dfloat *restrict b,
                dfloat *restrict result) {
  dfloat sum = 0;
  const int nb = (n + DOT_BLOCK - 1) / DOT_BLOCK;
#pragma omp parallel for reduction(+ : sum)
  for (int blk = 0; blk < nb; ++blk) {
    const int end = (blk + 1) * DOT_BLOCK < n ? (blk + 1) * DOT_BLOCK : n;
    dfloat part = 0;
#pragma omp simd reduction(+ : part)
    for (int i = blk * DOT_BLOCK; i < end; ++i) part += a[i] * b[i];
    sum += part;
  }
  result[0] = sum;
}
