import numpy as np

KERNEL = "weights"


def make(rng):
    n = 100
    y = rng.standard_normal(n)  # negative and fractional: int abs would truncate them
    tol = -rng.random(4).astype(np.float32)
    return [n, y, tol, np.zeros(n), np.zeros(n, np.int32)]


def reference(args):
    n, y, tol, _, _ = args
    i = np.arange(n)
    denom = 1e-3 * np.abs(y) + np.abs(tol[i % 4]).astype(np.float64) + np.abs(y - 0.5)
    return {3: 1.0 / denom, 4: np.abs(i - 3).astype(np.int32)}
