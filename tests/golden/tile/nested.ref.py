import numpy as np

KERNEL = "nestedTiles"


def make(rng):
    rows, cols = 10, 37
    return [rows, cols, rng.random(rows * cols, dtype=np.float32),
            np.zeros(rows * cols, np.float32)]


def reference(args):
    rows, cols, a, b = args
    return {3: a.reshape(rows, cols).T.copy().reshape(-1)}
