import numpy as np

KERNEL = "guarded"


def make(rng):
    return [21, np.zeros(32, np.float32)]


def reference(args):
    n, x = args
    x = x.copy()
    x[:n] += 1.0
    return {1: x}
