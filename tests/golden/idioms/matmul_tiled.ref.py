import numpy as np

KERNEL = "matmul"
RTOL = 1e-4


def make(rng):
    n = 48
    return [n, rng.random(n * n, dtype=np.float32), rng.random(n * n, dtype=np.float32),
            np.zeros(n * n, np.float32)]


def reference(args):
    n, A, B, C = args
    return {3: (A.reshape(n, n).astype(np.float64) @ B.reshape(n, n)).astype(np.float32)
            .reshape(-1)}
