import numpy as np

KERNEL = "weigh"


def make(rng):
    n = 3
    return [n, rng.integers(-9, 9, n * 4).astype(np.int32), np.zeros(n * 4, dtype=np.int32)]


def reference(args):
    n, x, y = args
    return {2: (np.tile(np.array([1, 2, 3, 4], dtype=np.int32), n) * x).astype(np.int32)}
