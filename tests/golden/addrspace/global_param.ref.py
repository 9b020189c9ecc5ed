import numpy as np

KERNEL = "applyWeights"


def make(rng):
    n = 100
    return [n, rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32),
            np.zeros(n, np.float32)]


def reference(args):
    n, w, x, _ = args
    return {3: (np.float32(2.0) * w * x).astype(np.float32)}
