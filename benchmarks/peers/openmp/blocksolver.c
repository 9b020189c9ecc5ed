/* Hand-written OpenMP peer of kernels/blocksolver.okl: FUN3D's point-implicit multicolour
 * relaxation.  The whole solve is one call (the sweeps and colours loop in C, one parallel
 * region, the rows of one colour shared by `omp for`, whose implicit barrier orders the
 * colours): per row, the residual r = b_i - sum_j A_ij x_j accumulated in 5 registers
 * (column l of each block at a time, unit stride in the column-major block), then
 * x_i = Dinv_i r.  Same data layout as the OKL kernel: float 5x5 blocks, entry (k, l) at
 * n*25 + l*5 + k; double vectors. */
#define NB 5
#define BB 25

static inline void relax_row(int i, const int *restrict rowPtr, const int *restrict colIdx,
                             const float *restrict A, const float *restrict Dinv,
                             const double *restrict b, double *restrict x) {
  double r[NB];
  for (int k = 0; k < NB; ++k) r[k] = b[i * NB + k];
  for (int n = rowPtr[i]; n < rowPtr[i + 1]; ++n) {
    const float *a = A + (long)n * BB;
    const double *xj = x + (long)colIdx[n] * NB;
    for (int l = 0; l < NB; ++l)
      for (int k = 0; k < NB; ++k) r[k] -= (double)a[l * NB + k] * xj[l];
  }
  const float *d = Dinv + (long)i * BB;
  double y[NB] = {0, 0, 0, 0, 0};
  for (int l = 0; l < NB; ++l)
    for (int k = 0; k < NB; ++k) y[k] += (double)d[l * NB + k] * r[l];
  for (int k = 0; k < NB; ++k) x[i * NB + k] = y[k];
}

/* nsweeps x (colours 0..nc-1, then nc-1..0); colour c holds rows [colorPtr[c], colorPtr[c+1]) */
void blocksolver(int nsweeps, int ncolors, const int *restrict colorPtr,
                 const int *restrict rowPtr, const int *restrict colIdx,
                 const float *restrict A, const float *restrict Dinv,
                 const double *restrict b, double *restrict x) {
#pragma omp parallel
  for (int s = 0; s < nsweeps; ++s)
    for (int p = 0; p < 2 * ncolors; ++p) {
      const int c = p < ncolors ? p : 2 * ncolors - 1 - p;
#pragma omp for schedule(static)
      for (int i = colorPtr[c]; i < colorPtr[c + 1]; ++i)
        relax_row(i, rowPtr, colIdx, A, Dinv, b, x);
    }
}

/* one colour, rows [rowStart, rowEnd): the OKL kernel's unit of work, called once per colour
 * from Python like the okl kernel (the peer of okl's rows) */
void blockSweep(int rowStart, int rowEnd, const int *restrict rowPtr,
                const int *restrict colIdx, const float *restrict A,
                const float *restrict Dinv, const double *restrict b, double *restrict x) {
#pragma omp parallel for schedule(static)
  for (int i = rowStart; i < rowEnd; ++i) relax_row(i, rowPtr, colIdx, A, Dinv, b, x);
}
