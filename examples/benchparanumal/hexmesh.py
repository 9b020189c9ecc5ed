"""benchParanumal's hexahedral box mesh and reference element, in numpy.

What benchParanumal's C++ setup (libs/mesh) computes before its kernels run, for one MPI rank
and hexahedra: the 1-D Gauss-Lobatto-Legendre (GLL) and Gauss nodes, weights and matrices,
the box mesh of [-1, 1]^3, the physical nodes, the geometric factors at GLL nodes and at
Gauss cubature points, and the masked global numbering its gather-scatter (ogs) uses.  Every
sum runs in the order the C++ code runs it (a loop over m, ascending, from 0), so the
numbers are the ones benchParanumal feeds its kernels, not only the same to rounding.

Layouts (what the kernels index):

- a node of an element: ``n = i + j*Nq + k*Nq*Nq`` (i along x fastest); element
  ``e = ei + ej*nx + ek*nx*ny``; arrays of nodes are ``[e*Np + n]``;
- geometric factors: six per node, contiguous: ``ggeo[6*(e*Np + n) + G]`` with G00, G01,
  G02, G11, G12, G22 = 0..5; ``wJ[e*Np + n]`` (both include the GLL weights);
- cubature: the same at ``cubNq = N + 2`` Gauss points per direction.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

#: geometric factor ids, as benchParanumal defines them (p_G00ID ...)
G00, G01, G02, G11, G12, G22 = range(6)
NGGEO = 6


# -- 1-D polynomials ---------------------------------------------------------------------------

def _gamma(x: float) -> float:
    """Gamma as meshBasis1D.cpp computes it (sign times exp(lgamma)): its rounding."""
    return math.copysign(1.0, math.gamma(x)) * math.exp(math.lgamma(x))


def jacobi_p(x: np.ndarray, alpha: float, beta: float, n: int) -> np.ndarray:
    """Orthonormal Jacobi polynomial P_n^(alpha, beta) at ``x`` (the recurrence of
    meshBasis1D.cpp: Legendre for alpha = beta = 0)."""
    x = np.asarray(x, dtype=np.float64)
    ab = alpha + beta
    gamma0 = 2.0 ** (ab + 1) / (ab + 1) * _gamma(alpha + 1) * _gamma(beta + 1) / _gamma(ab + 1)
    p0 = np.full_like(x, 1.0 / math.sqrt(gamma0))
    if n == 0:
        return p0
    gamma1 = (alpha + 1) * (beta + 1) / (ab + 3) * gamma0
    p1 = ((ab + 2) * x / 2 + (alpha - beta) / 2) / math.sqrt(gamma1)
    if n == 1:
        return p1
    aold = 2 / (2 + ab) * math.sqrt((alpha + 1) * (beta + 1) / (ab + 3))
    prev, cur = p0, p1
    for i in range(1, n):
        h1 = 2 * i + ab
        anew = 2 / (h1 + 2) * math.sqrt((i + 1) * (i + 1 + ab) * (i + 1 + alpha) *
                                        (i + 1 + beta) / (h1 + 1) / (h1 + 3))
        bnew = -(alpha * alpha - beta * beta) / h1 / (h1 + 2)
        prev, cur = cur, (-aold * prev + (x - bnew) * cur) / anew
        aold = anew
    return cur


def grad_jacobi_p(x: np.ndarray, alpha: float, beta: float, n: int) -> np.ndarray:
    if n == 0:
        return np.zeros_like(np.asarray(x, dtype=np.float64))
    return math.sqrt(n * (n + alpha + beta + 1)) * jacobi_p(x, alpha + 1, beta + 1, n - 1)


def vandermonde(n: int, r: np.ndarray) -> np.ndarray:
    """``V[p, i] = P_i(r_p)`` (orthonormal Legendre)."""
    return np.stack([jacobi_p(r, 0, 0, i) for i in range(n + 1)], axis=1)


def grad_vandermonde(n: int, r: np.ndarray) -> np.ndarray:
    return np.stack([grad_jacobi_p(r, 0, 0, i) for i in range(n + 1)], axis=1)


def jacobi_gq(alpha: float, beta: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n + 1 Gauss-Jacobi nodes and weights (Golub-Welsch, as JacobiGQ)."""
    ab = alpha + beta
    size = n + 1
    jm = np.zeros((size, size))
    for i in range(size):
        h1 = 2 * i + ab
        jm[i, i] = -0.5 * (alpha * alpha - beta * beta) / ((h1 + 2) * h1) * 2 if h1 else 0.0
        if i + 1 < size:
            off = 2 / (h1 + 2) * math.sqrt((i + 1) * (i + 1 + ab) * (i + 1 + alpha) *
                                           (i + 1 + beta) / ((h1 + 1) * (h1 + 3)))
            jm[i, i + 1] = jm[i + 1, i] = off
    if ab < 10 * np.finfo(float).eps:
        jm[0, 0] = 0.0
    values, vectors = np.linalg.eig(jm.T)
    values, vectors = values.real, vectors.real
    scale = 2.0 ** (ab + 1) / (ab + 1) * _gamma(alpha + 1) * _gamma(beta + 1) / _gamma(ab + 1)
    weights = vectors[0] ** 2 * scale
    order = np.argsort(values, kind="stable")
    return values[order], weights[order]


def gll(n: int) -> tuple[np.ndarray, np.ndarray]:
    """GLL nodes (the ends and the (1, 1) Gauss-Jacobi points) and weights as the row sums of
    the 1-D mass matrix (JacobiGLL)."""
    x = np.empty(n + 1)
    x[0], x[n] = -1.0, 1.0
    if n > 1:
        x[1:n] = jacobi_gq(1, 1, n - 2)[0]
    mm = mass_matrix(n, x)
    return x, mm.sum(axis=1)


def mass_matrix(n: int, r: np.ndarray) -> np.ndarray:
    v = vandermonde(n, r)
    return np.linalg.inv(v @ v.T)


def dmatrix(n: int, r_in: np.ndarray, r_out: np.ndarray) -> np.ndarray:
    """``D[i, m] = l_m'(r_out_i)`` for the Lagrange basis at ``r_in``."""
    return np.linalg.solve(vandermonde(n, r_in).T, grad_vandermonde(n, r_out).T).T


def interpolation(n: int, r_in: np.ndarray, r_out: np.ndarray) -> np.ndarray:
    """``I[i, m] = l_m(r_out_i)``."""
    return np.linalg.solve(vandermonde(n, r_in).T, vandermonde(n, r_out).T).T


# -- the reference element ----------------------------------------------------------------------

@dataclass
class Reference:
    """The 1-D data of degree ``n``: GLL nodes and weights, D, the mass matrix, and the Gauss
    cubature (``cubNq = n + 2``) with its interpolation and differentiation matrices."""

    n: int
    gllz: np.ndarray = field(init=False)
    gllw: np.ndarray = field(init=False)
    D: np.ndarray = field(init=False)
    MM: np.ndarray = field(init=False)
    cubr: np.ndarray = field(init=False)
    cubw: np.ndarray = field(init=False)
    cubInterp: np.ndarray = field(init=False)
    cubD: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        n = self.n
        self.gllz, self.gllw = gll(n)
        self.D = dmatrix(n, self.gllz, self.gllz)
        self.MM = mass_matrix(n, self.gllz)
        self.cubr, self.cubw = jacobi_gq(0, 0, n + 1)
        self.cubInterp = interpolation(n, self.gllz, self.cubr)
        self.cubD = dmatrix(n + 1, self.cubr, self.cubr)

    @property
    def Nq(self) -> int:
        return self.n + 1

    @property
    def Np(self) -> int:
        return self.Nq ** 3

    @property
    def cubNq(self) -> int:
        return self.n + 2


# -- the box mesh ------------------------------------------------------------------------------

@dataclass
class BoxMesh:
    """``nx * ny * nz`` hexahedra of degree ``ref.n`` filling [-1, 1]^3 -- or, for one rank of
    several, the slab of layers ``k0 .. k0 + nz - 1`` of an ``nx * ny * NZ`` box (``NZ``: 0
    means ``nz``, the whole box).  A slab's elements, coordinates and factors are the whole
    box's elements ``k0*nx*ny ..`` computed from the same global indices, so a partitioned
    mesh holds the numbers of the one-rank mesh, not a re-rounded copy."""

    ref: Reference
    nx: int
    ny: int
    nz: int
    k0: int = 0
    NZ: int = 0

    @property
    def E(self) -> int:
        return self.nx * self.ny * self.nz

    @property
    def nz_total(self) -> int:
        """Element layers of the whole box (along z)."""
        return self.NZ or self.nz

    def element_positions(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each element's position in the whole box: (ei, ej, ek), arrays over e."""
        e = np.arange(self.E)
        ei, ej, ek = e % self.nx, (e // self.nx) % self.ny, e // (self.nx * self.ny)
        return ei, ej, ek + self.k0

    def physical_nodes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """x, y, z at every node, ``[e*Np + n]``, by the trilinear map of meshPhysicalNodes
        (its 8 terms in its order)."""
        ref, Nq = self.ref, self.ref.Nq
        z = ref.gllz
        r = np.tile(z, Nq * Nq)
        s = np.tile(np.repeat(z, Nq), Nq)
        t = np.repeat(z, Nq * Nq)
        ei, ej, ek = self.element_positions()
        out = []
        for idx, count in ((ei, self.nx), (ej, self.ny), (ek, self.nz_total)):
            d = 2.0 / count
            lo = -1.0 + d * idx  # vertex 0's coordinate along this axis
            hi = lo + d
            out.append((lo, hi))
        (x0, x1), (y0, y1), (z0, z1) = out
        # the 8 vertices of element e (meshSetupBoxHex3D's order)
        xv = [x0, x1, x1, x0, x0, x1, x1, x0]
        yv = [y0, y0, y1, y1, y0, y0, y1, y1]
        zv = [z0, z0, z0, z0, z1, z1, z1, z1]
        shape = [(1 - r) * (1 - s) * (1 - t), (1 + r) * (1 - s) * (1 - t),
                 (1 + r) * (1 + s) * (1 - t), (1 - r) * (1 + s) * (1 - t),
                 (1 - r) * (1 - s) * (1 + t), (1 + r) * (1 - s) * (1 + t),
                 (1 + r) * (1 + s) * (1 + t), (1 - r) * (1 + s) * (1 + t)]
        coords = [np.empty((self.E, ref.Np)) for _ in range(3)]

        def chunk(part: slice) -> None:
            for out, verts in zip(coords, (xv, yv, zv), strict=True):
                acc = np.zeros((part.stop - part.start, ref.Np))
                for v, f in zip(verts, shape, strict=True):
                    acc += (0.125 * f)[None, :] * v[part, None]
                out[part] = acc

        _by_elements(self.E, ref.Np, chunk)
        coords = [c.reshape(-1) for c in coords]
        return coords[0], coords[1], coords[2]

    # -- geometric factors -------------------------------------------------------------------
    def _derivatives(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """d/dr, d/ds, d/dt of a nodal field (E, Nq, Nq, Nq)[k, j, i]."""
        D = self.ref.D
        return _along(D, x, 3), _along(D, x, 2), _along(D, x, 1)

    def _factors(self, d: list[np.ndarray], weights: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
        """wJ (E, q, q, q) and the six factors (E, q, q, q, 6) from the nine derivatives
        (E, q, q, q) and the 1-D quadrature weights."""
        xr, xs, xt, yr, ys, yt, zr, zs, zt = d
        J = xr * (ys * zt - zs * yt) - yr * (xs * zt - zs * xt) + zr * (xs * yt - ys * xt)
        if np.any(J < 1e-12):
            raise ValueError("negative or zero Jacobian")
        rx = (ys * zt - zs * yt) / J
        ry = -(xs * zt - zs * xt) / J
        rz = (xs * yt - ys * xt) / J
        sx = -(yr * zt - zr * yt) / J
        sy = (xr * zt - zr * xt) / J
        sz = -(xr * yt - yr * xt) / J
        tx = (yr * zs - zr * ys) / J
        ty = -(xr * zs - zr * xs) / J
        tz = (xr * ys - yr * xs) / J
        # J*w[i]*w[j]*w[k], multiplied left to right as in C
        JW = ((J * weights[None, None, None, :]) * weights[None, None, :, None]) * \
            weights[None, :, None, None]
        ggeo = np.stack([JW * (rx * rx + ry * ry + rz * rz), JW * (rx * sx + ry * sy + rz * sz),
                         JW * (rx * tx + ry * ty + rz * tz), JW * (sx * sx + sy * sy + sz * sz),
                         JW * (sx * tx + sy * ty + sz * tz), JW * (tx * tx + ty * ty + tz * tz)],
                        axis=-1)
        return JW, ggeo

    def geometric_factors(self, x, y, z) -> tuple[np.ndarray, np.ndarray]:
        """``wJ[e*Np + n]`` and ``ggeo[6*(e*Np + n) + G]`` at the GLL nodes (weights in)."""
        return self._by_chunks(x, y, z, self.ref.Nq, self.ref.gllw, lambda part: part)

    def cubature_factors(self, x, y, z) -> tuple[np.ndarray, np.ndarray]:
        """``cubwJ`` and ``cubggeo`` at the ``cubNq^3`` Gauss points of each element: the
        nine derivatives interpolated one direction at a time (i, then j, then k)."""
        interp = self.ref.cubInterp
        return self._by_chunks(x, y, z, self.ref.cubNq, self.ref.cubw,
                               lambda part: _interpolate3(part, interp))

    def _by_chunks(self, x, y, z, q: int, weights: np.ndarray, at_points
                   ) -> tuple[np.ndarray, np.ndarray]:
        """wJ and ggeo at ``q^3`` points per element (see ``_by_elements``)."""
        Nq, E = self.ref.Nq, self.E
        shape = (E, Nq, Nq, Nq)
        fields = [f.reshape(shape) for f in (x, y, z)]
        wJ = np.empty((E, q, q, q))
        ggeo = np.empty((E, q, q, q, 6))

        def chunk(part: slice) -> None:
            d = [at_points(g) for f in fields for g in self._derivatives(f[part])]
            wJ[part], ggeo[part] = self._factors(d, weights)

        _by_elements(E, max(Nq, q) ** 3, chunk)
        return wJ.reshape(-1), ggeo.reshape(-1)


def _by_elements(E: int, points: int, chunk) -> None:
    """``chunk(slice)`` over all elements, a few thousand at a time, on a thread per core:
    a chunk's dozens of temporaries stay in cache and numpy releases the GIL in its loops
    (whole-mesh arrays, one after another, made the setup of a 4 M DOF mesh take a minute
    at degree 1).  Chunks write disjoint rows of the outputs."""
    step = max(1, 32768 // points)
    parts = [slice(e0, min(E, e0 + step)) for e0 in range(0, E, step)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(chunk, parts))  # (list: a chunk's exception is raised here)


def _interpolate3(f: np.ndarray, interp: np.ndarray) -> np.ndarray:
    """(E, Nq, Nq, Nq)[k, j, i] -> (E, cubNq, cubNq, cubNq), i first, then j, then k."""
    return _along(interp, _along(interp, _along(interp, f, 3), 2), 1)


def _along(A: np.ndarray, f: np.ndarray, axis: int) -> np.ndarray:
    """``A`` (m x n) applied along one axis (1, 2 or 3) of ``f`` (E, k, j, i), as matrix
    products (BLAS): benchParanumal's C++ sums these in its own order, with the FMAs its
    ``-march=native`` build contracts, so no order here would reproduce its rounding; these
    agree with it to a few ulps (``benchmarks/benchparanumal_sweep.py --occa-inputs`` runs
    okl's kernels on OCCA's own arrays instead)."""
    if axis == 3:
        return f @ A.T
    if axis == 2:
        return A @ f
    E, k, j, i = f.shape
    return (A @ f.reshape(E, k, j * i)).reshape(E, A.shape[0], j, i)


# -- the masked global numbering ------------------------------------------------------------------

@dataclass
class Numbering:
    """The masked gather of benchParanumal's ogs on one rank.

    Rows are the rank's distinct unmasked nodes (times fields), in three runs:

    - ``[0, Nsend)``: nodes on the slab's top plane, shared with the rank above, which this
      rank owns (the lower rank owns a plane): their values go up before the operator, and
      the rank above's partial sums come back and are added to them;
    - ``[Nsend, Ngather)``: the other owned nodes, numbered by first appearance over the
      local index ``e*Np*Nf + f*Np + n`` (with one rank, all rows: benchParanumal's order);
    - ``[Ngather, Ngather + Nhalo)``: the bottom plane, owned by the rank below: copies of
      its values (the halo), and this rank's partial sums that go down to it.

    Both planes list their rows by global key (``row_keys``: the node's point of the global
    lattice times ``Nf`` plus the field), so the two ranks that share a plane order it alike
    and a message is a contiguous run of a vector, not a packed copy.  CG works on the
    ``Ngather`` owned rows: a shared node counted once (its owner), as libParanumal's
    ogs/halo do.

    ``global_to_local``: the row of every local entry (-1: masked; halo rows included); the
    gather's CSR (``row_starts``, ``col_ids``, ``block_starts``) covers the owned rows, the
    halo's (``halo_*``) the halo rows ``0 .. Nhalo-1``, members in ascending local order;
    blocks hold at most ``per_block`` members (any such split sums the same)."""

    Ngather: int  # owned rows
    global_to_local: np.ndarray  # int32, E*Np*Nf
    row_starts: np.ndarray  # int32, Ngather + 1
    col_ids: np.ndarray  # int32
    block_starts: np.ndarray  # int32
    row_keys: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    Nsend: int = 0
    Nhalo: int = 0
    halo_row_starts: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int32))
    halo_col_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    halo_block_starts: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int32))

    @property
    def Nall(self) -> int:
        """Rows of a vector the operator reads: owned and halo."""
        return self.Ngather + self.Nhalo


def numbering(mesh: BoxMesh, nfields: int, per_block: int = 512, shared_below: bool = False,
              shared_above: bool = False) -> Numbering:
    """The rank's numbering (see Numbering); ``shared_below`` / ``shared_above``: the slab's
    bottom / top plane is shared with a neighbouring rank (not the box's boundary, so not
    masked).  Only the box's boundary is masked (Dirichlet)."""
    ref = mesh.ref
    Nq, N = ref.Nq, ref.n
    a = np.arange(Nq)
    ii = np.tile(a, Nq * Nq)
    jj = np.tile(np.repeat(a, Nq), Nq)
    kk = np.repeat(a, Nq * Nq)
    ei, ej, ek = mesh.element_positions()
    # the node's point of the (nx N + 1) x (ny N + 1) x (NZ N + 1) lattice of the whole box
    li = (ei[:, None] * N + ii[None, :]).reshape(-1)
    lj = (ej[:, None] * N + jj[None, :]).reshape(-1)
    lk = (ek[:, None] * N + kk[None, :]).reshape(-1)
    ni, nj, nk = mesh.nx * N + 1, mesh.ny * N + 1, mesh.nz_total * N + 1
    boundary = (li == 0) | (li == ni - 1) | (lj == 0) | (lj == nj - 1) | (lk == 0) | \
        (lk == nk - 1)
    lattice = (lk.astype(np.int64) * nj + lj) * ni + li  # per (e, n)
    E, Np = mesh.E, ref.Np
    per_entry = (E, nfields, Np)

    def entries(per_node: np.ndarray) -> np.ndarray:
        return np.broadcast_to(per_node.reshape(E, 1, Np), per_entry).reshape(-1)

    # local index e*Np*Nf + f*Np + n
    keys = (lattice.reshape(E, 1, Np) * nfields +
            np.arange(nfields, dtype=np.int64).reshape(1, nfields, 1)).reshape(-1)
    masked = entries(boundary)
    bottom = entries(lk == mesh.k0 * N) if shared_below else np.zeros_like(masked)
    top = entries(lk == (mesh.k0 + mesh.nz) * N) if shared_above else np.zeros_like(masked)
    live = np.flatnonzero(~masked)
    uniq, first, inverse = np.unique(keys[live], return_index=True, return_inverse=True)
    # each distinct key's run: 0 send (top plane), 1 owned, 2 halo (bottom plane)
    run = np.ones(len(uniq), dtype=np.int8)
    run[inverse[top[live]]] = 0
    run[inverse[bottom[live]]] = 2
    # order: by run, then planes by key (uniq is sorted by key), the rest by first appearance
    within = np.where(run == 1, first, np.arange(len(uniq)))
    order = np.lexsort((within, run))
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[order] = np.arange(len(uniq))
    rows = rank[inverse]
    nsend, nhalo = int(np.sum(run == 0)), int(np.sum(run == 2))
    nowned = len(uniq) - nhalo
    g2l = np.full(E * Np * nfields, -1, dtype=np.int32)
    g2l[live] = rows
    by_row = np.argsort(rows, kind="stable")
    col_ids = live[by_row].astype(np.int32)
    counts = np.bincount(rows, minlength=len(uniq))
    row_starts = np.zeros(len(uniq) + 1, dtype=np.int64)
    np.cumsum(counts, out=row_starts[1:])
    owned_starts = row_starts[:nowned + 1].astype(np.int32)
    halo_starts = (row_starts[nowned:] - row_starts[nowned]).astype(np.int32)
    return Numbering(nowned, g2l, owned_starts, col_ids[:row_starts[nowned]],
                     _blocks(owned_starts, per_block), uniq[order], nsend, nhalo,
                     halo_starts, col_ids[row_starts[nowned]:],
                     _blocks(halo_starts, per_block))


def with_received(num: Numbering, received_at: int,
                  per_block: int = 512) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The owned rows' gather (row starts, members, blocks) with one more member at the end
    of each top-plane row ``r < Nsend``: entry ``received_at + r`` of the local vector, where
    the rank above's partial sum of that row is received.  The gather then adds it last, as
    an add of the sums after the gather does (``g + up`` and ``up + g`` round alike): one
    kernel fewer per operator on a rank with a rank above."""
    starts = num.row_starts.astype(np.int64)
    extra = np.zeros(num.Ngather, dtype=np.int64)
    extra[:num.Nsend] = 1
    before = np.concatenate(([0], np.cumsum(extra)))  # extras in the rows before each row
    new_starts = starts + before
    cols = np.empty(int(new_starts[-1]), dtype=np.int32)
    rows = np.repeat(np.arange(num.Ngather), np.diff(starts))
    cols[np.arange(len(num.col_ids)) + before[rows]] = num.col_ids
    cols[new_starts[1:num.Nsend + 1] - 1] = received_at + np.arange(num.Nsend)
    new_starts32 = new_starts.astype(np.int32)
    return new_starts32, cols, _blocks(new_starts32, per_block)


def _blocks(row_starts: np.ndarray, per_block: int) -> np.ndarray:
    """Contiguous row blocks holding at most ``per_block`` members each (greedy)."""
    starts = [0]
    nrows = len(row_starts) - 1
    begin = 0
    while begin < nrows:
        limit = row_starts[begin] + per_block
        end = int(np.searchsorted(row_starts, limit, side="right")) - 1
        end = max(end, begin + 1)
        end = min(end, nrows)
        starts.append(end)
        begin = end
    return np.asarray(starts, dtype=np.int32)


def box_size(ndofs: float, degree: int, nfields: int) -> int:
    """Elements per direction for a target DOF count, as benchParanumal's run scripts choose
    (``printf %3.0f`` of ``(ndofs / (nfields * p^3))^(1/3) + 0.499``)."""
    value = (ndofs / (nfields * degree ** 3)) ** (1.0 / 3.0) + 0.499
    return int(f"{value:3.0f}")
