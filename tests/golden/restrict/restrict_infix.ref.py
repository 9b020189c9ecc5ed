import numpy as np

KERNEL = "scaleShift"


def make(rng):
    n = 3
    return [n, rng.random(n * 16, dtype=np.float32),
            rng.integers(-5, 5, n * 16).astype(np.int32), np.zeros(n * 16, dtype=np.float32)]


def reference(args):
    n, x, c, y = args
    return {3: np.float32(2.0) * x + c.astype(np.float32)}
