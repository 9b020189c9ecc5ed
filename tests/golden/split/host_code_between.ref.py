import numpy as np

KERNEL = "pipeline"
RTOL = 1e-6


def make(rng):
    n = 300
    return [n, np.float32(1.5), rng.random(n, dtype=np.float32), np.zeros(n, np.float32)]


def reference(args):
    n, alpha, x, y = args
    blocks = (n + 63) // 64
    y = (np.float32(2.0) * alpha) * x
    half = blocks // 2
    y[half * 64: half * 64 + half * 64] += alpha
    return {3: y.astype(np.float32)}
