// Hand-written CUDA peer of kernels/blocksolver.okl: one colour of FUN3D's point-implicit
// multicolour relaxation, x_i = Dinv_i (b_i - sum_j A_ij x_j) for the rows of one colour.
// The paper's mapping: 25 threads per block row (k = t % 5, l = t / 5), p_R rows per thread
// block (blockDim = (25, p_R)), partial sums in shared memory, Dinv applied by the same threads.
// Blocks (float) column-major, entry (k, l) at n*25 + l*5 + k; vectors double.
#ifndef p_R
#define p_R 10
#endif
#define NB 5
#define BB 25

extern "C" __global__ void __launch_bounds__(BB * p_R)
blockSweep(const int rowStart, const int rowEnd, const int *__restrict__ rowPtr,
           const int *__restrict__ colIdx, const float *__restrict__ A,
           const float *__restrict__ Dinv, const double *__restrict__ b,
           double *__restrict__ x) {
  __shared__ double s_p[p_R][BB];
  __shared__ double s_q[p_R][BB];
  const int t = threadIdx.x, r = threadIdx.y;
  const int i = rowStart + blockIdx.x * p_R + r;
  const bool active = i < rowEnd;
  const int l = t / NB;

  if (active) {
    double acc = 0;
    const int end = rowPtr[i + 1];
    for (int n = rowPtr[i]; n < end; ++n)
      acc += (double)A[n * BB + t] * x[colIdx[n] * NB + l];
    s_p[r][t] = acc;
  }
  __syncthreads();
  if (active) {
    double res = b[i * NB + l];
#pragma unroll
    for (int m = 0; m < NB; ++m) res -= s_p[r][m * NB + l];
    s_q[r][t] = (double)Dinv[i * BB + t] * res;
  }
  __syncthreads();
  if (active && t < NB) {
    double xk = 0;
#pragma unroll
    for (int m = 0; m < NB; ++m) xk += s_q[r][m * NB + t];
    x[i * NB + t] = xk;
  }
}
