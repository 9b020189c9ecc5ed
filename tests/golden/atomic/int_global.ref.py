import numpy as np

KERNEL = "intOps"


def make(rng):
    n = 4
    x = rng.integers(1, 8, size=n * 32).astype(np.int32)
    x[:] = x[0]  # every thread exchanges the same value: acc[9] is deterministic
    acc = np.zeros(10, np.int32)
    acc[6] = -1
    return [n, x, acc]


def reference(args):
    n, x, acc = args
    v = int(x[0])
    k = n * 32
    out = np.array([k * v, -k * v, k, k, -k, -k, -1 & v, v, v if k % 2 else 0, v], np.int32)
    return {2: out}
