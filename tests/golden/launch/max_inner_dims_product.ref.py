import numpy as np

KERNEL = "wideRows"


def make(rng):
    n = 3
    return [n, rng.random(n * 256, dtype=np.float32), np.zeros(n * 256, dtype=np.float32)]


def reference(args):
    n, x, y = args
    rows = x.reshape(n * 16, 16).copy()
    rows[:, 8:] *= np.float32(0.5)
    return {2: (rows + np.float32(1.0)).reshape(-1)}
