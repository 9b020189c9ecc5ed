// Hand-written OpenCL C 1.2 peer of kernels/blocksolver.okl (FUN3D point-implicit multicolour
// relaxation, one colour): 25 work-items per block row (k = t % 5, l = t / 5), p_R rows per
// work-group (local size (25, p_R)), partial sums in local memory.  Same layout as the OKL
// kernel: float 5x5 blocks column-major, double vectors.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifndef p_R
#define p_R 10
#endif
#define NB 5
#define BB 25

__kernel __attribute__((reqd_work_group_size(BB, p_R, 1)))
void blockSweep(const int rowStart, const int rowEnd, __global const int *restrict rowPtr,
                __global const int *restrict colIdx, __global const float *restrict A,
                __global const float *restrict Dinv, __global const double *restrict b,
                __global double *restrict x) {
  __local double s_p[p_R][BB];
  __local double s_q[p_R][BB];
  const int t = get_local_id(0), r = get_local_id(1);
  const int i = rowStart + get_group_id(1) * p_R + r;
  const bool active = i < rowEnd;
  const int l = t / NB;

  if (active) {
    double acc = 0;
    const int end = rowPtr[i + 1];
    for (int n = rowPtr[i]; n < end; ++n)
      acc += (double)A[n * BB + t] * x[colIdx[n] * NB + l];
    s_p[r][t] = acc;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (active) {
    double res = b[i * NB + l];
    for (int m = 0; m < NB; ++m) res -= s_p[r][m * NB + l];
    s_q[r][t] = (double)Dinv[i * BB + t] * res;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (active && t < NB) {
    double xk = 0;
    for (int m = 0; m < NB; ++m) xk += s_q[r][m * NB + t];
    x[i * NB + t] = xk;
  }
}
