import numpy as np

KERNEL = "steps"


def make(rng):
    n = 77
    return [n, 3, 0.5, rng.random(n), np.zeros(n, np.int32)]


def reference(args):
    n, nsteps, scale, x, counts = args
    half = n // 2
    sign = np.where(np.arange(n) < half, 1.0, -1.0)
    for s in range(nsteps):
        x = x + scale * (s + 1) * sign
    return {3: x, 4: np.full(n, half, np.int32)}
