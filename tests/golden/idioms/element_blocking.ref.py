import numpy as np

KERNEL = "scaleElements"


def make(rng):
    n = 10  # 3 groups of 4 elements, the last one partial
    ids = rng.permutation(n).astype(np.int32)
    return [n, ids, rng.random(n), rng.random(n * 16)]


def reference(args):
    n, ids, wJ, q = args
    out = q.reshape(n, 16).copy()
    for e in ids:
        out[e] *= wJ[e]
    return {3: out.reshape(-1)}
