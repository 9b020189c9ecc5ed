import numpy as np

KERNEL = "slab"
RTOL = 1e-12
Q = 4


def make(rng):
    E = 3
    g = rng.random(E * 2 * Q**3) * 2 - 1
    q = rng.random(E * Q**3) * 2 - 1
    return [np.int32(E), g, q, np.full(E * Q**3, np.nan)]


def reference(args):
    """a[e, k, j, i] = g0 q + g1 (g0, g1 the two factors of node (k, j, i) of element e);
    out[e, k, j, i] = a[e, k, i, j] - 2 a[e, k, j, i]."""
    E, g, q, _ = args
    E = int(E)
    g = g.reshape(E, 2, Q, Q, Q)
    a = g[:, 0] * q.reshape(E, Q, Q, Q) + g[:, 1]
    return {3: (a.transpose(0, 1, 3, 2) - 2 * a).ravel()}
