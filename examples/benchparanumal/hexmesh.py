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
    """``nx * ny * nz`` hexahedra of degree ``ref.n`` filling [-1, 1]^3."""

    ref: Reference
    nx: int
    ny: int
    nz: int

    @property
    def E(self) -> int:
        return self.nx * self.ny * self.nz

    def element_positions(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each element's position in the box: (ei, ej, ek), arrays over e."""
        e = np.arange(self.E)
        ei, ej, ek = e % self.nx, (e // self.nx) % self.ny, e // (self.nx * self.ny)
        return ei, ej, ek

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
        for idx, count in ((ei, self.nx), (ej, self.ny), (ek, self.nz)):
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
        coords = []
        for verts in (xv, yv, zv):
            acc = np.zeros((self.E, ref.Np))
            for v, f in zip(verts, shape, strict=True):
                acc = acc + (0.125 * f)[None, :] * v[:, None]
            coords.append(acc.reshape(-1))
        return coords[0], coords[1], coords[2]

    # -- geometric factors -------------------------------------------------------------------
    def _derivatives(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """d/dr, d/ds, d/dt of a nodal field (E, Nq, Nq, Nq)[k, j, i], summed over m in order."""
        D = self.ref.D
        Nq = self.ref.Nq
        xr = np.zeros_like(x)
        xs = np.zeros_like(x)
        xt = np.zeros_like(x)
        for m in range(Nq):
            xr = xr + D[None, None, None, :, m] * x[:, :, :, m:m + 1]
            xs = xs + D[None, None, :, m, None] * x[:, :, m:m + 1, :]
            xt = xt + D[None, :, m, None, None] * x[:, m:m + 1, :, :]
        return xr, xs, xt

    def _factors(self, d: list[np.ndarray], weights: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
        """wJ and the six factors from the nine derivatives (E, q, q, q) and the 1-D
        quadrature weights."""
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
        return JW.reshape(-1), ggeo.reshape(-1)

    def geometric_factors(self, x, y, z) -> tuple[np.ndarray, np.ndarray]:
        """``wJ[e*Np + n]`` and ``ggeo[6*(e*Np + n) + G]`` at the GLL nodes (weights in)."""
        Nq, w = self.ref.Nq, self.ref.gllw
        shape = (self.E, Nq, Nq, Nq)
        d = [part for f in (x, y, z) for part in self._derivatives(f.reshape(shape))]
        return self._factors(d, w)

    def cubature_factors(self, x, y, z) -> tuple[np.ndarray, np.ndarray]:
        """``cubwJ`` and ``cubggeo`` at the ``cubNq^3`` Gauss points of each element: the
        nine derivatives interpolated one direction at a time (i, then j, then k)."""
        Nq, cubNq = self.ref.Nq, self.ref.cubNq
        interp = self.ref.cubInterp
        shape = (self.E, Nq, Nq, Nq)
        d = [_interpolate3(part, interp, Nq, cubNq)
             for f in (x, y, z) for part in self._derivatives(f.reshape(shape))]
        return self._factors(d, self.ref.cubw)


def _interpolate3(f: np.ndarray, interp: np.ndarray, Nq: int, cubNq: int) -> np.ndarray:
    """(E, Nq, Nq, Nq)[k, j, i] -> (E, cubNq, cubNq, cubNq), i first, each sum over n in
    order from 0."""
    E = f.shape[0]
    x1 = np.zeros((E, Nq, Nq, cubNq))
    for n in range(Nq):
        x1 = x1 + interp[None, None, None, :, n] * f[:, :, :, n:n + 1]
    x2 = np.zeros((E, Nq, cubNq, cubNq))
    for n in range(Nq):
        x2 = x2 + interp[None, None, :, n, None] * x1[:, :, n:n + 1, :]
    x3 = np.zeros((E, cubNq, cubNq, cubNq))
    for n in range(Nq):
        x3 = x3 + interp[None, :, n, None, None] * x2[:, n:n + 1, :, :]
    return x3


# -- the masked global numbering ------------------------------------------------------------------

@dataclass
class Numbering:
    """The masked gather of benchParanumal's ogs on one rank: ``Ngather`` rows numbered by
    first appearance over the local index ``e*Np*Nf + f*Np + n``, boundary nodes masked;
    ``global_to_local`` is the row of every local entry (-1: masked); the gather's CSR lists
    each row's members in ascending local order; ``block_starts`` splits the rows into
    contiguous blocks of at most ``per_block`` members (any such split sums the same)."""

    Ngather: int
    global_to_local: np.ndarray  # int32, E*Np*Nf
    row_starts: np.ndarray  # int32, Ngather + 1
    col_ids: np.ndarray  # int32
    block_starts: np.ndarray  # int32


def numbering(mesh: BoxMesh, nfields: int, per_block: int = 512) -> Numbering:
    ref = mesh.ref
    Nq, N = ref.Nq, ref.n
    a = np.arange(Nq)
    ii = np.tile(a, Nq * Nq)
    jj = np.tile(np.repeat(a, Nq), Nq)
    kk = np.repeat(a, Nq * Nq)
    ei, ej, ek = mesh.element_positions()
    # the node's point of the (nx N + 1) x (ny N + 1) x (nz N + 1) lattice
    li = (ei[:, None] * N + ii[None, :]).reshape(-1)
    lj = (ej[:, None] * N + jj[None, :]).reshape(-1)
    lk = (ek[:, None] * N + kk[None, :]).reshape(-1)
    ni, nj, nk = mesh.nx * N + 1, mesh.ny * N + 1, mesh.nz * N + 1
    boundary = (li == 0) | (li == ni - 1) | (lj == 0) | (lj == nj - 1) | (lk == 0) | \
        (lk == nk - 1)
    lattice = (lk.astype(np.int64) * nj + lj) * ni + li  # per (e, n)
    E, Np = mesh.E, ref.Np
    # local index e*Np*Nf + f*Np + n
    keys = (lattice.reshape(E, 1, Np) * nfields +
            np.arange(nfields).reshape(1, nfields, 1)).reshape(-1)
    masked = np.broadcast_to(boundary.reshape(E, 1, Np), (E, nfields, Np)).reshape(-1)
    live = np.flatnonzero(~masked)
    uniq, first, inverse = np.unique(keys[live], return_index=True, return_inverse=True)
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(uniq))
    rows = rank[inverse]
    g2l = np.full(E * Np * nfields, -1, dtype=np.int32)
    g2l[live] = rows
    order = np.argsort(rows, kind="stable")
    col_ids = live[order].astype(np.int32)
    counts = np.bincount(rows, minlength=len(uniq))
    row_starts = np.zeros(len(uniq) + 1, dtype=np.int32)
    np.cumsum(counts, out=row_starts[1:])
    return Numbering(len(uniq), g2l, row_starts, col_ids,
                     _blocks(row_starts, per_block))


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
