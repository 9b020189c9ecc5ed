import numpy as np

KERNEL = "stiffness"


def make(rng):
    ne, nq = 5, 4
    return [ne, rng.random(nq * nq), rng.random(ne * nq ** 3), np.zeros(ne * nq ** 3)]


def reference(args):
    ne, D, q, Aq = args
    nq = 4
    D = D.reshape(nq, nq)
    out = np.zeros_like(Aq).reshape(ne, nq, nq, nq)  # [e][k][j][i]
    for e in range(ne):
        u = q[e * nq ** 3:(e + 1) * nq ** 3].reshape(nq, nq, nq)
        # qr(k,j,i) = sum_m D[i][m] u[k][j][m]; qs(k,j,i) = sum_m D[j][m] u[k][m][i]
        out[e] = np.einsum("im,kjm->kji", D, u) + np.einsum("jm,kmi->kji", D, u)
    return {3: out.reshape(-1)}
