import numpy as np

KERNEL = "slab"
RTOL = 1e-12
Q = 4


def make(rng):
    E = 3
    D = rng.random(Q * Q) * 2 - 1
    q = rng.random(E * Q**3) * 2 - 1
    return [np.int32(E), D, q, np.zeros(E * Q**3)]


def reference(args):
    """out[e, k', j, i]: over slabs k, D[k][k'] t_k, plus a_k where k == k' (t_k = sum_m
    D[k][m] q[e, m, j, i], g_k = t_k q[e, k, j, i], a_k = g_k + sum_m D[m][i] g_k[j, m])."""
    E, D, q, _ = args
    E = int(E)
    D = D.reshape(Q, Q)
    q = q.reshape(E, Q, Q, Q)
    out = np.zeros_like(q)
    for k in range(Q):
        t = np.einsum("m,emji->eji", D[k], q)
        g = t * q[:, k]
        a = g + np.einsum("mi,ejm->eji", D, g)
        out += D[k][None, :, None, None] * t[:, None]
        out[:, k] += a
    return {3: out.ravel()}
