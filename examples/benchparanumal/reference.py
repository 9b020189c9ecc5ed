"""numpy references for the bake-off operators and CG: what the kernels must compute.

For each element the operator of problem k applied to the local vector ``q_e`` (the
gathered vector read through the numbering, masked entries 0), per field:

- 1, 2 (mass at Gauss points): ``I^T (cubwJ * (I q_e))`` with I the GLL-to-Gauss
  interpolation in each direction;
- 3, 4 (stiffness + lambda mass at Gauss points): with ``u = I q_e``, its Gauss-point
  gradient ``g = cubD u`` in r, s, t, ``I^T (cubD^T (cubggeo g) + lambda cubwJ u)``;
- 5, 6 (at GLL nodes): ``D^T (ggeo D q_e) + lambda wJ q_e``.

The result is local (one value per element node and field); :func:`gather` sums it into
the gathered vector as the ogs gather does.
"""

from __future__ import annotations

import numpy as np


def local(q: np.ndarray, g2l: np.ndarray) -> np.ndarray:
    out = np.zeros(len(g2l))
    live = g2l >= 0
    out[live] = q[g2l[live]]
    return out


def gather(local_values: np.ndarray, g2l: np.ndarray, ngather: int) -> np.ndarray:
    out = np.zeros(ngather)
    live = g2l >= 0
    np.add.at(out, g2l[live], local_values[live])
    return out


def _apply1(A: np.ndarray, u: np.ndarray, axis: int) -> np.ndarray:
    """Apply the 1-D matrix A along one axis of u (E, k, j, i): axis 3 = i (r), 2 = j, 1 = k."""
    return np.moveaxis(np.tensordot(A, np.moveaxis(u, axis, 0), axes=(1, 0)), 0, axis)


def _apply3(A: np.ndarray, u: np.ndarray) -> np.ndarray:
    return _apply1(A, _apply1(A, _apply1(A, u, 3), 2), 1)


def operator(setup, q: np.ndarray) -> np.ndarray:
    """The local output of the problem's operator kernel for the gathered vector ``q``."""
    p, ref, E = setup.problem, setup.ref, setup.E
    Nq, Np, nf = ref.Nq, ref.Np, p.nfields
    ql = local(q, setup.num.global_to_local).reshape(E, nf, Nq, Nq, Nq)
    out = np.empty_like(ql)
    host = setup.host
    lam = p.lam
    for f in range(nf):
        u = ql[:, f]
        if p.number <= 4:
            cq = ref.cubNq
            cub = _apply3(ref.cubInterp, u)
            wJ = host["cubwJ"].reshape(E, cq, cq, cq)
            if p.number <= 2:
                w = wJ * cub
            else:
                G = host["cubggeo"].reshape(E, cq, cq, cq, 6)
                w = _stiffness(ref.cubD, G, cub) + lam * wJ * cub
            out[:, f] = _apply3(ref.cubInterp.T, w)
        else:
            G = host["ggeo"].reshape(E, Nq, Nq, Nq, 6)
            wJ = host["wJ"].reshape(E, Nq, Nq, Nq)
            out[:, f] = _stiffness(ref.D, G, u) + lam * wJ * u
    return out.reshape(E * nf * Np)


def _stiffness(D: np.ndarray, G: np.ndarray, u: np.ndarray) -> np.ndarray:
    ur, us, ut = _apply1(D, u, 3), _apply1(D, u, 2), _apply1(D, u, 1)
    gr = G[..., 0] * ur + G[..., 1] * us + G[..., 2] * ut
    gs = G[..., 1] * ur + G[..., 3] * us + G[..., 4] * ut
    gt = G[..., 2] * ur + G[..., 4] * us + G[..., 5] * ut
    return _apply1(D.T, gr, 3) + _apply1(D.T, gs, 2) + _apply1(D.T, gt, 1)


def rhs(setup) -> np.ndarray:
    """The local right-hand side (wJ times the forcing; three fields for 2, 4, 6)."""
    h, p = setup.host, setup.problem
    pi, lam = np.pi, p.lam
    x, y, z = h["x"], h["y"], h["z"]
    if p.nfields == 1:
        parts = [(3 * pi * pi + lam) * np.sin(pi * x) * np.sin(pi * y) * np.sin(pi * z)]
    else:
        c = 4 * pi * pi + lam
        parts = [c * np.sin(2 * pi * x) * np.sin(pi * y) * np.sin(pi * z),
                 c * np.sin(pi * x) * np.sin(2 * pi * y) * np.sin(pi * z),
                 c * np.sin(pi * x) * np.sin(pi * y) * np.sin(2 * pi * z)]
    E, Np = setup.E, setup.ref.Np
    wJ = h["wJ"].reshape(E, 1, Np)
    return (wJ * np.stack([f.reshape(E, Np) for f in parts], axis=1)).reshape(-1)


def cg(setup, b: np.ndarray, iterations: int) -> tuple[np.ndarray, list[float]]:
    """Plain CG from x = 0 for ``iterations`` steps (benchParanumal's algorithm in numpy)."""
    g2l, n = setup.num.global_to_local, setup.ndofs

    def A(v: np.ndarray) -> np.ndarray:
        return gather(operator(setup, v), g2l, n)

    x = np.zeros(n)
    r = b.copy()
    p = np.zeros(n)
    rdotr = r @ r
    history = []
    rdotr1 = 0.0
    for it in range(iterations):
        rdotr2, rdotr1 = rdotr1, rdotr
        beta = 0.0 if it == 0 else rdotr1 / rdotr2
        p = r + beta * p
        Ap = A(p)
        alpha = rdotr1 / (p @ Ap)
        r = r - alpha * Ap
        rdotr = r @ r
        x = x + alpha * p
        history.append(float(np.sqrt(rdotr)))
    return x, history
