// Hand-written OpenCL peer of kernels/bk1.okl (BK1 mass operator, cubature cubNq = N + 2):
// one element per work-group, a cubNq x cubNq (b, a) work-item plane, I, q and the two partial
// sums in local memory, the k/c direction per work-item in private memory -- the OKL kernel's
// algorithm (the CUDA peer's code).  Defines: dfloat (double), p_Nq, p_cubNq.
#ifndef dfloat
#define dfloat double
#endif
#ifndef p_Nq
#define p_Nq 8
#endif
#ifndef p_cubNq
#define p_cubNq (p_Nq + 1)
#endif
#define p_Np (p_Nq * p_Nq * p_Nq)
#define p_cubNp (p_cubNq * p_cubNq * p_cubNq)
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel __attribute__((reqd_work_group_size(p_cubNq, p_cubNq, 1)))
void bk1(const int Nelements, __global const dfloat *restrict wJ,
         __global const dfloat *restrict I, __global const dfloat *restrict q,
         __global dfloat *restrict Mq) {
  __local dfloat s_I[p_cubNq][p_Nq];
  __local dfloat s_q[p_Nq][p_Nq][p_Nq];
  __local dfloat s_A[p_Nq][p_cubNq][p_cubNq];
  __local dfloat s_B[p_Nq][p_cubNq][p_cubNq];

  const int e = get_group_id(0);
  const int a = get_local_id(0), b = get_local_id(1);

  if (a < p_Nq) {
    s_I[b][a] = I[b * p_Nq + a];
    if (b < p_Nq) {
#pragma unroll p_Nq
      for (int k = 0; k < p_Nq; ++k) s_q[k][b][a] = q[e * p_Np + (k * p_Nq + b) * p_Nq + a];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  if (b < p_Nq) {  // along i
#pragma unroll p_Nq
    for (int k = 0; k < p_Nq; ++k) {
      dfloat r = 0;
#pragma unroll p_Nq
      for (int i = 0; i < p_Nq; ++i) r += s_I[a][i] * s_q[k][b][i];
      s_A[k][b][a] = r;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll p_Nq
  for (int k = 0; k < p_Nq; ++k) {  // along j
    dfloat r = 0;
#pragma unroll p_Nq
    for (int j = 0; j < p_Nq; ++j) r += s_I[b][j] * s_A[k][j][a];
    s_B[k][b][a] = r;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  {  // along k, times wJ, and back along k: this thread's column only
    dfloat r_c[p_cubNq];
#pragma unroll p_cubNq
    for (int c = 0; c < p_cubNq; ++c) {
      dfloat r = 0;
#pragma unroll p_Nq
      for (int k = 0; k < p_Nq; ++k) r += s_I[c][k] * s_B[k][b][a];
      r_c[c] = r * wJ[e * p_cubNp + (c * p_cubNq + b) * p_cubNq + a];
    }
#pragma unroll p_Nq
    for (int k = 0; k < p_Nq; ++k) {
      dfloat r = 0;
#pragma unroll p_cubNq
      for (int c = 0; c < p_cubNq; ++c) r += s_I[c][k] * r_c[c];
      s_B[k][b][a] = r;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  if (b < p_Nq) {  // back along j
#pragma unroll p_Nq
    for (int k = 0; k < p_Nq; ++k) {
      dfloat r = 0;
#pragma unroll p_cubNq
      for (int c = 0; c < p_cubNq; ++c) r += s_I[c][b] * s_B[k][c][a];
      s_A[k][b][a] = r;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  if (b < p_Nq && a < p_Nq) {  // back along i, write
#pragma unroll p_Nq
    for (int k = 0; k < p_Nq; ++k) {
      dfloat r = 0;
#pragma unroll p_cubNq
      for (int c = 0; c < p_cubNq; ++c) r += s_I[c][a] * s_A[k][b][c];
      Mq[e * p_Np + (k * p_Nq + b) * p_Nq + a] = r;
    }
  }
}
