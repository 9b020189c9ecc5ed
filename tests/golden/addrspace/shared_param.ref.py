import numpy as np

KERNEL = "surface"
NQ = 8


def make(rng):
    ne = 5
    return [ne, rng.random(ne * NQ), np.zeros(ne * NQ)]


def reference(args):
    ne, q, out = args
    w = np.array([1, 2, 3, 4, 4, 3, 2, 1], float)
    for e in range(ne):
        qe = q[e * NQ:(e + 1) * NQ]
        s_q = np.stack([qe, 2.0 * qe])
        for i in range(NQ):
            row = s_q[i % 2]
            out[e * NQ + i] = (w * row).sum() + row.sum() + qe.sum()
    return {2: out}
