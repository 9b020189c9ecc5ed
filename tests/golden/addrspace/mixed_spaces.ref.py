import numpy as np

KERNEL = "mix"


def make(rng):
    n = 100
    return [n, rng.random(n), np.zeros(n)]


def reference(args):
    n, x, out = args
    r = np.arange(3.0) + 2.0 * np.arange(3.0)
    for i in range(n - 2):
        w = r + 0.5 * x[i:i + 3]
        out[i] = 2.0 * x[i:i + 3].sum() + w.sum() + (2.0 * np.arange(3.0)).sum()
    return {2: out}
