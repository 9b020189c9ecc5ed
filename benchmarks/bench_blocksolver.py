"""blocksolver: FUN3D's point-implicit multicolour solver (Walden, Zubair, Nielsen,
"Performance and Portability of a Linear Solver Across Emerging Architectures").

A block-sparse matrix of dense 5x5 blocks (single precision), the off-diagonal blocks of each
block row in CSR form, the inverses of the diagonal blocks precomputed (as the point-implicit
method uses them), double-precision vectors.  Rows are numbered colour by colour and no two
rows of one colour are coupled.  One solve = NSWEEPS sweeps, each a forward pass over the
colours (0 .. nc-1) and a backward pass (nc-1 .. 0); relaxing colour c sets, for its rows,

    x_i = Dinv_i (b_i - sum_{j != i} A_ij x_j)

from x = 0.  Every implementation launches (or calls) one kernel per colour pass:
NSWEEPS * 2 * nc launches per solve.

Test matrix: the cells of an n x n x n grid, each coupled to its 6 face neighbours and, with
probability DIAG_P each, along 4 diagonal directions (+1,+1,0), (+1,0,+1), (0,+1,+1),
(+1,+1,+1) (both ways: a symmetric pattern, ~7.2 off-diagonal blocks per interior row, 6..14).
Every coupling is to a cell within distance 1 in each coordinate, so the parity colouring
c = x%2 + 2 (y%2) + 4 (z%2) (8 colours) never couples two rows of one colour; rows are
renumbered by colour (grid order inside a colour, as a locality-preserving ordering of an
unstructured mesh would leave them).  Values are diffusion-like: off-diagonal blocks
-(I + E), diagonal blocks 1.3 deg_i I + E (E uniform in [-0.05, 0.05] per entry), so the
relaxation contracts, but slowly enough that 15 sweeps do not converge and the result depends
on the order of the colours (the check sees an ordering error); the diagonal blocks are
inverted in FP64 and stored in FP32.

Metric: GB/s of requested bytes (counted per row relaxation, every word a row asks for, as
the paper counts requested bytes): per off-diagonal block 100 (A) + 4 (column index) + 40
(x_j, gathered) bytes, per row 100 (Dinv) + 40 (b) + 40 (x_i written) + 8 (rowPtr) bytes; a
solve relaxes every row 2 * NSWEEPS times.  The time per solve (15 sweeps) is `time_min_s`;
on a GPU whose peak bandwidth is known `pct_peak_bw` = GB/s / peak.
"""

from __future__ import annotations

import numpy as np

from .common import (
    I32,
    Config,
    Context,
    P,
    c_peer,
    cfunc,
    cl_kernels,
    cuda_peer,
    log,
    measure,
    okl_kernel,
    ptr,
    time_calls,
)

NSWEEPS = 15
DIAG_P = 0.15
ROWS_PER_GROUP = 10      # p_R: 25 * 10 = 250 threads per work-group
GRID_GPU = 100           # 1M block rows
GRID_CPU = 40            # 64k block rows (okl openmp, hand OpenMP)
GRID_CPU_1T = 28         # 22k block rows (okl serial, 1-thread C)
GRID_QUICK = 16          # 4096 block rows

# theoretical peak DRAM bandwidth (GB/s) by GPU name, for pct_peak_bw
PEAK_BW = (("H200", 4800.0), ("H100 PCIe", 2000.0), ("H100", 3350.0), ("A100-SXM4-80GB", 2039.0),
           ("A100", 1555.0), ("V100", 900.0))


def grid(ctx: Context, impl) -> int:
    if ctx.quick:
        return GRID_QUICK
    if impl.device == "gpu":
        return GRID_GPU
    return GRID_CPU_1T if (impl.mode == "serial" or impl.threads == 1) else GRID_CPU


def matrix(n: int, seed: int = 20) -> dict:
    """The test system on an n^3 grid (see the module docstring), rows numbered by colour."""
    g = np.random.default_rng(seed)
    N = n**3
    cell = np.arange(N, dtype=np.int64)
    z, y, x = cell // (n * n), (cell // n) % n, cell % n
    src, dst = [], []
    offsets = [((1, 0, 0), None), ((0, 1, 0), None), ((0, 0, 1), None),
               ((1, 1, 0), DIAG_P), ((1, 0, 1), DIAG_P), ((0, 1, 1), DIAG_P),
               ((1, 1, 1), DIAG_P)]
    for (dx, dy, dz), prob in offsets:
        ok = (x + dx < n) & (y + dy < n) & (z + dz < n)
        if prob is not None:
            ok &= g.random(N) < prob
        s = cell[ok]
        d = s + (dz * n + dy) * n + dx
        src += [s, d]
        dst += [d, s]
    src, dst = np.concatenate(src), np.concatenate(dst)
    color = (x % 2) + 2 * (y % 2) + 4 * (z % 2)
    order = np.argsort(color, kind="stable")          # new row -> old cell
    new = np.empty(N, np.int64)
    new[order] = np.arange(N)
    rows, cols = new[src], new[dst]
    o = np.argsort(rows * N + cols)
    rows, cols = rows[o], cols[o]
    assert not np.any(color[order][rows] == color[order][cols]), "colouring couples a colour"
    rowPtr = np.zeros(N + 1, np.int32)
    np.cumsum(np.bincount(rows, minlength=N), out=rowPtr[1:])
    colorPtr = np.zeros(9, np.int32)
    np.cumsum(np.bincount(color, minlength=8), out=colorPtr[1:])
    nnzb = len(cols)
    # a diffusion-like system: off-diagonal blocks -(I + E), |E| <= 0.05; diagonal blocks
    # 1.3 deg_i I + E: block diagonally dominant (the relaxation contracts) but slowly
    # converging, so that 15 sweeps leave a result that depends on the order of the colours
    noise = (g.random((nnzb, 5, 5), dtype=np.float32) - np.float32(0.5)) * np.float32(0.1)
    A = (noise - np.eye(5, dtype=np.float32)).ravel()
    deg = np.diff(rowPtr).astype(np.float64)
    D = 1.3 * deg[:, None, None] * np.eye(5) + (g.random((N, 5, 5)) - 0.5) * 0.1  # [i, k, l]
    Dinv = np.linalg.inv(D).transpose(0, 2, 1).astype(np.float32)    # column-major: [i, l, k]
    b = g.random(N * 5) * 2 - 1
    return {"rowPtr": rowPtr, "colIdx": cols.astype(np.int32), "A": A,
            "Dinv": Dinv.ravel().copy(), "b": b, "colorPtr": colorPtr}


def passes(colorPtr) -> list[tuple[int, int]]:
    """(rowStart, rowEnd) of every colour pass of one solve, in order."""
    nc = len(colorPtr) - 1
    one = [(int(colorPtr[c]), int(colorPtr[c + 1])) for c in
           [*range(nc), *range(nc - 1, -1, -1)]]
    return [p for p in one * NSWEEPS if p[1] > p[0]]


def reference(xp, H, colorPtr):
    """The same relaxation written with whole-colour array operations (ELL-style slots: slot s
    of every row of the colour at once), independent of the kernels' CSR loops."""
    rowPtr, col = H["rowPtr"], H["colIdx"]
    A = H["A"].reshape(-1, 5, 5)                  # [n, l, k]
    Dinv = H["Dinv"].reshape(-1, 5, 5)            # [i, l, k]
    B = H["b"].reshape(-1, 5)
    X = xp.zeros_like(B)
    colors = []
    for r0, r1 in passes(colorPtr)[: 2 * (len(colorPtr) - 1)]:
        starts = rowPtr[r0:r1].astype(xp.int64)
        deg = (rowPtr[r0 + 1:r1 + 1] - rowPtr[r0:r1]).astype(xp.int64)
        colors.append((r0, r1, starts, deg, int(deg.max())))
    for _ in range(NSWEEPS):
        for r0, r1, starts, deg, maxdeg in colors:
            res = B[r0:r1].copy()
            for s in range(maxdeg):
                m = deg > s
                idx = xp.where(m, starts + s, 0)
                blk = A[idx].astype(xp.float64)                     # [row, l, k]
                xv = X[col[idx]]                                    # [row, l]
                contrib = (blk * xv[:, :, None]).sum(axis=1)        # [row, k]
                res -= xp.where(m[:, None], contrib, 0.0)
            X[r0:r1] = (Dinv[r0:r1].astype(xp.float64) * res[:, :, None]).sum(axis=1)
    return X.ravel()


def peak_bw(name: str) -> float | None:
    for key, bw in PEAK_BW:
        if key in name:
            return bw
    return None


def run(ctx: Context) -> None:
    impls_all = [i for i in ctx.impls if i.name in
                 ("okl", "cuda-hand", "opencl-hand", "openmp-hand", "openmp-hand-1t")]
    for n in sorted({grid(ctx, i) for i in impls_all}, reverse=True):
        impls = [i for i in impls_all if grid(ctx, i) == n]
        log(f"[bench] blocksolver {n}^3: generating the matrix")
        H = matrix(n)
        colorPtr = H.pop("colorPtr")
        N, nnzb = n**3, len(H["colIdx"])
        nbytes = 2 * NSWEEPS * (nnzb * (100 + 4 + 40) + N * (100 + 40 + 40 + 8))
        log(f"[bench] blocksolver {n}^3: {N} rows, {nnzb} off-diagonal blocks "
            f"({nnzb / N:.2f} per row), {len(colorPtr) - 1} colours")
        cfg = Config(ctx, H)
        for impl in ctx.interleaved(impls):
            _run_impl(ctx, cfg, impl, n, N, nnzb, colorPtr, nbytes)
        cfg.release()


def _run_impl(ctx, cfg, impl, n, N, nnzb, colorPtr, nbytes) -> None:
    A = cfg.arrays(impl)
    args = (A["rowPtr"], A["colIdx"], A["A"], A["Dinv"], A["b"])
    x = cfg.output(impl, "x", 5 * N, np.float64)
    plan = passes(colorPtr)
    R = ROWS_PER_GROUP
    defines = {"p_R": R}
    fused = None
    if impl.is_okl:
        k = okl_kernel(impl, "blocksolver.okl", "blockSweep", defines)

        def call(k=k, x=x):
            for r0, r1 in plan:
                k(r0, r1, *args, x)
    elif impl.name == "cuda-hand":
        f = cuda_peer(ctx, "blocksolver", defines).get_function("blockSweep")
        launches = [((-(-(r1 - r0) // R),), (25, R), (np.int32(r0), np.int32(r1), *args, x))
                    for r0, r1 in plan]

        def call(f=f, launches=launches):
            for grid_, block, a in launches:
                f(grid_, block, a)
    elif impl.name == "opencl-hand":
        f = cl_kernels(impl, "blocksolver", ("blockSweep",), defines)["blockSweep"]
        launches = [((25, -(-(r1 - r0) // R) * R), (np.int32(r0), np.int32(r1)))
                    for r0, r1 in plan]

        def call(f=f, launches=launches):
            for gsize, rr in launches:
                f(gsize, (25, R), *rr, *args, x)
    elif impl.name in ("openmp-hand", "openmp-hand-1t"):
        lib = c_peer("blocksolver")
        f = cfunc(lib, "blockSweep", I32, I32, P, P, P, P, P, P)
        hp = [ptr(a) for a in (*args, x)]

        def call(f=f, hp=hp):
            for r0, r1 in plan:
                f(r0, r1, *hp)
        g = cfunc(lib, "blocksolver", I32, I32, P, P, P, P, P, P, P)
        cptr = colorPtr.astype(np.int32)
        fused = lambda g=g, hp=hp, cptr=cptr: g(  # noqa: E731
            NSWEEPS, len(cptr) - 1, ptr(cptr), *hp)
    else:
        return
    ref = lambda xp, H, colorPtr=colorPtr: reference(xp, H, colorPtr)  # noqa: E731
    check = cfg.checker(impl, x, "x", ref, rtol=1e-12)
    pre = lambda x=x, impl=impl: cfg.space.zero(impl, x)  # noqa: E731
    label = f"{N // 1000}k rows" if N >= 1000 else f"{N} rows"
    extra = {"grid": n, "rows": N, "offdiag_blocks": nnzb, "colors": len(colorPtr) - 1,
             "sweeps": NSWEEPS, "launches_per_solve": len(plan), "requested_bytes": nbytes}

    def derive(rec: dict) -> None:
        peak = peak_bw(impl.device_name) if impl.device == "gpu" else None
        if peak:
            rec["peak_bw_gbs"] = peak
            rec["pct_peak_bw"] = 100 * rec["value_best"] / peak
        if fused is not None:  # the whole solve in one C call, one parallel region
            pre()
            fused()
            ok, detail = check()
            rec["one_call_check"] = "PASS" if ok else "FAIL: " + detail
            if ok:
                from .common import omp_threads
                with omp_threads(impl.threads):
                    t = time_calls(impl, ctx, fused, pre=pre)
                rec["one_call_time_min_s"] = min(t)
                log(f"[bench] blocksolver one-call {impl.label}: {min(t) * 1e3:.2f} ms "
                    f"({nbytes / min(t) / 1e9:.4g} GB/s)")
    measure(ctx, impl, bench="blocksolver", kernel=f"{NSWEEPS} sweeps",
            size=N, size_label=label, precision="fp32/fp64", metric="GB/s",
            work=nbytes, call=call, pre=pre, check=check, extra=extra, derive=derive)
